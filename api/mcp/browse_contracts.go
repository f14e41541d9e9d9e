package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

type browseContractsIn struct {
	Agency     string `json:"agency,omitempty"`
	Vendor     string `json:"vendor,omitempty"`
	PIN        string `json:"pin,omitempty"`
	FiscalYear int    `json:"fiscal_year,omitempty"`
	Limit      int    `json:"limit,omitempty"`
	Cursor     string `json:"cursor,omitempty"`
}

// BrowseContractsOut is a bounded page of registered contracts.
type BrowseContractsOut struct {
	Contracts  []record.Contract      `json:"contracts"`
	Total      int                    `json:"total"`
	NextCursor string                 `json:"next_cursor,omitempty"`
	Totals     procure.ContractTotals `json:"totals"`
	Scope      record.Scope           `json:"scope"`
}

func browseContracts(d *Deps) Tool {
	t := newTool(d, "browse_contracts", "Browse registered contracts", ClassRead,
		"Bounded, stable pages of registered contracts, oldest registration first (undated rows last), filtered by "+
			"agency (label, name or canonical id), vendor (name, matched by stem), PIN (exact, or a 10-character base "+
			"PIN for every PIN of that base) and fiscal year of the registration date (July 1 to June 30, named for the "+
			"year it ends). Follow next_cursor to read every row; several registrations sharing one PIN are separate rows. "+
			"totals count and sum the registered value of every match: registered value, never payments or spending. "+
			"The scope says what was searched; no rows never proves no contract exists.",
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "agency", maxNameLen, "Agency label, name or canonical id (GET /agencies lists them).")
			bounded(s, "vendor", maxNameLen, "Vendor name, matched by its name stem.")
			bounded(s, "pin", 40, "Exact PIN, or a 10-character base PIN.")
			fy := prop(s, "fiscal_year")
			fy.Minimum, fy.Maximum = ptr(1990.0), ptr(2100.0)
			fy.Description = "Fiscal year of the registration date (FY2026: 2025-07-01 to 2026-06-30)."
			limitProp(s, procure.MaxContractLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in browseContractsIn) (BrowseContractsOut, error) {
			svc, err := d.procurement()
			if err != nil {
				return BrowseContractsOut{}, err
			}
			p, err := svc.BrowseContracts(ctx, procure.ContractFilter{Agency: in.Agency, Vendor: in.Vendor, PIN: in.PIN, FiscalYear: in.FiscalYear},
				in.Cursor, limitOr(in.Limit, procure.DefaultContractLimit))
			if err != nil {
				return BrowseContractsOut{}, err
			}
			return BrowseContractsOut{Contracts: p.Contracts, Total: p.Total, NextCursor: p.NextCursor, Totals: p.Totals, Scope: p.Scope}, nil
		})
	t.Limits = []string{"limit: at most 100 contracts per page (default 20); follow next_cursor for the rest"}
	t.Examples = []Example{{"Two registrations that share one PIN", map[string]any{"pin": "84623P0002007R001"}}}
	return t
}
