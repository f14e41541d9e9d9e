package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

type analyzeContractsIn struct {
	GroupBy    string `json:"group_by,omitempty"`
	RankBy     string `json:"rank_by,omitempty"`
	Agency     string `json:"agency,omitempty"`
	FiscalYear int    `json:"fiscal_year,omitempty"`
	AmountBand string `json:"amount_band,omitempty"`
	Limit      int    `json:"limit,omitempty"`
}

// AnalyzeContractsOut is a contract analysis (procure.ContractAnalysis)
// with the absence rules.
type AnalyzeContractsOut struct {
	procure.ContractAnalysis
	Absence []string `json:"absence_rules"`
}

func amountBandEnum() []any {
	var out []any
	for _, k := range procure.AmountBandKeys() {
		out = append(out, k)
	}
	return out
}

func stringEnum(l []string) []any {
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = s
	}
	return out
}

func analyzeContracts(d *Deps) Tool {
	t := newTool(d, "analyze_contracts", "Analyze registered contracts", ClassRead,
		"Rank registered contracts by agency, vendor, fiscal year of registration (July 1 to June 30, named for the year it "+
			"ends) or amount band, by registered value or by count. Returns the denominators (population rows, the rows with a "+
			"valid amount and their registered value, the excluded rows: placeholders, negatives and data-entry errors, counted "+
			"by reason and never summed), each group's rows, value and shares, the rows in no group, and a coverage statement "+
			"(sources, registration dates, observed dates). Totals measure registered value or count, never payments or spending. "+
			"Called without agency, it returns the accepted agency labels (a fixed list: the crosswalk's canonical agency names). "+
			"agency must be one of them with the same letter case; any other label (other case included) returns status "+
			"unknown_agency_label with suggested_labels and no ranking: that proves nothing about the agency's awards, retry "+
			"with a suggested label. Each group carries follow.browse_contracts: pass those arguments to browse_contracts to "+
			"page through every row of the group (its total equals the group's rows).",
		[]int{1},
		func(s *jsonschema.Schema) {
			g := prop(s, "group_by")
			g.Enum = stringEnum(procure.AnalysisGroupings)
			g.Description = "What to rank (default agency)."
			r := prop(s, "rank_by")
			r.Enum = stringEnum(procure.AnalysisRankings)
			r.Description = "Rank by registered value (default) or by count of rows."
			bounded(s, "agency", record.MaxNameLen, "Accepted agency label, exact and with the same letter case; omit it to get the accepted list.")
			fy := prop(s, "fiscal_year")
			fy.Minimum, fy.Maximum = ptr(1990.0), ptr(2100.0)
			fy.Description = "Only rows registered in this fiscal year (FY2026: 2025-07-01 to 2026-06-30)."
			band := prop(s, "amount_band")
			band.Enum = amountBandEnum()
			band.Description = "Only rows in this amount band (the answer lists the bands)."
			l := prop(s, "limit")
			l.Minimum, l.Maximum = ptr(1.0), ptr(float64(procure.MaxAnalysisGroups))
			l.Description = "How many groups to return (default 20)."
		},
		func(ctx context.Context, d *Deps, in analyzeContractsIn) (AnalyzeContractsOut, error) {
			svc, err := d.procurement()
			if err != nil {
				return AnalyzeContractsOut{}, err
			}
			a, err := svc.AnalyzeContracts(ctx, procure.AnalysisRequest{GroupBy: in.GroupBy, RankBy: in.RankBy, AgencyLabel: in.Agency,
				FiscalYear: in.FiscalYear, AmountBand: in.AmountBand, Limit: limitOr(in.Limit, procure.DefaultAnalysisGroups)})
			if err != nil {
				return AnalyzeContractsOut{}, err
			}
			a.WithBase(d.BaseURL, "/api/contracts")
			out := AnalyzeContractsOut{ContractAnalysis: a, Absence: record.AbsenceRules}
			return out, nil
		})
	t.Limits = []string{"limit: at most 100 groups (default 20); groups_total counts them all",
		"agency labels: the fixed list of the crosswalk's canonical names, matched with the same letter case"}
	t.Examples = []Example{
		{"Agencies ranked by registered value, with the accepted agency labels", map[string]any{"group_by": "agency"}},
		{"One agency's registrations by fiscal year, by count", map[string]any{"group_by": "fiscal_year", "rank_by": "count", "agency": "Aging"}},
	}
	return t
}
