package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

type browseContractsIn struct {
	Agency     string `json:"agency,omitempty"`
	Vendor     string `json:"vendor,omitempty"`
	PIN        string `json:"pin,omitempty"`
	FiscalYear int    `json:"fiscal_year,omitempty"`
	// exact filters an analyze_contracts group gives to follow it
	AgencyLabel string `json:"agency_label,omitempty"`
	AgencyID    string `json:"agency_id,omitempty"`
	VendorStem  string `json:"vendor_stem,omitempty"`
	AmountBand  string `json:"amount_band,omitempty"`
	Undated     bool   `json:"undated,omitempty"`
	Limit       int    `json:"limit,omitempty"`
	Cursor      string `json:"cursor,omitempty"`
}

// BrowseContractsOut is a bounded page of registered contracts.
type BrowseContractsOut struct {
	Contracts  []record.Contract      `json:"contracts"`
	Total      int                    `json:"total"`
	NextCursor string                 `json:"next_cursor,omitempty"`
	Totals     procure.ContractTotals `json:"totals"`
	// Extent says how much of their sources the totals cover
	// (record.ExtentOf), in words (ExtentWords) to quote with them.
	Extent      []record.Extent `json:"extent"`
	ExtentWords string          `json:"extent_words"`
	Scope       record.Scope    `json:"scope"`
}

func browseContracts(d *Deps) Tool {
	t := newTool(d, "browse_contracts", "Browse registered contracts", ClassRead,
		"Bounded, stable pages of registered contracts, oldest registration first (undated rows last), filtered by "+
			"agency (label, name or canonical id), vendor (name, matched by stem), PIN (exact, or a 10-character base "+
			"PIN for every PIN of that base) and fiscal year of the registration date (July 1 to June 30, named for the "+
			"year it ends). The exact filters agency_label (an accepted label, same letter case), agency_id, vendor_stem, "+
			"amount_band and undated (rows with no registration date) are what each analyze_contracts group gives in its "+
			"follow.browse_contracts: pass them as given to page through every row of the group, rows without optional "+
			"detail fields included (the browse total equals the group's rows). Follow next_cursor to read every row; several registrations sharing one PIN are separate rows. "+
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
			bounded(s, "agency_label", maxNameLen, "Accepted agency label, exact and with the same letter case (analyze_contracts lists them).")
			bounded(s, "agency_id", maxNameLen, "Exact canonical agency id, as an analysis group gives it.")
			bounded(s, "vendor_stem", maxNameLen, "Exact vendor name stem, as an analysis group gives it.")
			band := prop(s, "amount_band")
			band.Enum = amountBandEnum()
			band.Description = "Amount band key (analyze_contracts lists the bands; invalid: rows with no valid amount)."
			prop(s, "undated").Description = "Only rows with no registration date (no fiscal year), as an analysis by fiscal year gives them."
			limitProp(s, procure.MaxContractLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in browseContractsIn) (BrowseContractsOut, error) {
			svc, err := d.procurement()
			if err != nil {
				return BrowseContractsOut{}, err
			}
			p, err := svc.BrowseContracts(ctx, procure.ContractFilter{Agency: in.Agency, Vendor: in.Vendor, PIN: in.PIN, FiscalYear: in.FiscalYear,
				AgencyLabel: in.AgencyLabel, AgencyID: in.AgencyID, VendorStem: in.VendorStem, AmountBand: in.AmountBand, Undated: in.Undated},
				in.Cursor, limitOr(in.Limit, procure.DefaultContractLimit))
			if err != nil {
				return BrowseContractsOut{}, err
			}
			out := BrowseContractsOut{Contracts: p.Contracts, Total: p.Total, NextCursor: p.NextCursor, Totals: p.Totals, Scope: p.Scope}
			out.Extent, out.ExtentWords = search.Extents(ctx, d.Search, record.ExtentContracts)
			return out, nil
		})
	t.Limits = []string{"limit: at most 100 contracts per page (default 20); follow next_cursor for the rest"}
	t.Examples = []Example{{"Two registrations that share one PIN", map[string]any{"pin": "84623P0002007R001"}},
		{"Every FY2026 registration of one agency, as an analysis group gives it", map[string]any{"agency_label": "Aging", "fiscal_year": 2026}}}
	return t
}
