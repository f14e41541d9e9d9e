package mcp_test

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/procure"
)

// analyze_contracts over a deployment that holds notices but no registered
// contracts: the accepted agency labels are listed without an agency, the
// population reads "no contracts held" (never $0.00), and a wrongly cased
// label gets suggestions and no ranking. (The ranking itself is tested on
// the bundled contracts through its JSON twin, api/contracts_analysis_test.go.)
func TestAnalyzeContractsTool(t *testing.T) {
	s := connect(t, 1)
	out := structured[mcp.AnalyzeContractsOut](t, call(t, s, "analyze_contracts", map[string]any{"group_by": "agency"}))
	if out.Status != procure.AnalysisRanked || out.AgencyLabels == nil || out.AgencyLabels.Count < 400 || out.Population == nil ||
		out.Population.Rows != 0 || out.Population.RegisteredValue.Value != nil || out.Population.RegisteredValue.Display != procure.NoContracts ||
		len(out.Groups) != 0 || !strings.Contains(out.Coverage.Statement, "No registered contracts are held") || len(out.Absence) == 0 {
		t.Errorf("no contracts held: %+v", out)
	}
	bad := structured[mcp.AnalyzeContractsOut](t, call(t, s, "analyze_contracts", map[string]any{"agency": "administration for children's services"}))
	if bad.Status != procure.AnalysisUnknownLabel || len(bad.Suggestions) == 0 || bad.Suggestions[0] != "Administration for Children's Services" ||
		bad.Population != nil || len(bad.Groups) != 0 || !strings.Contains(bad.Message, "never means it has zero awards") {
		t.Errorf("wrongly cased label: %+v", bad)
	}
	res := call(t, s, "analyze_contracts", map[string]any{"group_by": "size"})
	if !res.IsError || !strings.Contains(text(res), "group_by") {
		t.Errorf("bad grouping: %v %s", res.IsError, text(res))
	}
}

// On the bundled sample the analysis and the dossiers' payment totals say
// how much of their sources they are built on, in words to quote with them
// (record.ExtentOf); with no contracts held there is nothing to qualify.
func TestToolTotalsSayTheirExtent(t *testing.T) {
	empty := structured[mcp.AnalyzeContractsOut](t, call(t, connect(t, 1), "analyze_contracts", map[string]any{"group_by": "agency"}))
	if len(empty.Extent) != 0 || empty.ExtentWords != "" {
		t.Errorf("no contracts held, yet an extent: %+v", empty.Extent)
	}
	s := sampleSession(t)
	out := structured[mcp.AnalyzeContractsOut](t, call(t, s, "analyze_contracts", map[string]any{"group_by": "agency"}))
	if len(out.Extent) != 2 || !strings.Contains(out.ExtentWords, "Built on the 552 contract records held here") ||
		!strings.Contains(out.ExtentWords, "an extract of the source") {
		t.Errorf("analysis extent %+v: %q", out.Extent, out.ExtentWords)
	}
	br := structured[procure.ContractPage](t, call(t, s, "browse_contracts", map[string]any{"agency": "Aging", "limit": 1}))
	if br.Totals.Count == 0 || len(br.Extent) != 2 || br.ExtentWords != out.ExtentWords {
		t.Errorf("browse_contracts totals %+v, extent %q", br.Totals, br.ExtentWords)
	}
	d := structured[mcp.DossierOut](t, call(t, s, "get_entity_dossier", map[string]any{"kind": "agency", "name": "design-and-construction"}))
	if d.Agency == nil || !strings.Contains(d.Agency.Payments.ExtentWords, "Built on the 1,001 payments held here") {
		t.Errorf("agency dossier payments extent: %+v", d.Agency)
	}
}

// The MCP twin of api's TestExtentSaysTheDaysHeld (issue 46, item 3): a
// dossier's payments extent says the two days held and the gap between
// them, never a span 2017-07-17 to 2018-05-02; the contracts analysis
// counts its undated records apart.
func TestToolExtentSaysTheDaysHeld(t *testing.T) {
	s := sampleSession(t)
	d := structured[mcp.DossierOut](t, call(t, s, "get_entity_dossier", map[string]any{"kind": "agency", "name": "design-and-construction"}))
	if d.Agency == nil {
		t.Fatal("no agency dossier")
	}
	const days = "(1,000 dated 2018-05-02 and 1 dated 2017-07-17; none held on 288 of the 290 days from 2017-07-17 to 2018-05-02)"
	if w := d.Agency.Payments.ExtentWords; !strings.Contains(w, days) || strings.Contains(w, "dated 2017-07-17 to 2018-05-02") {
		t.Errorf("dossier payments extent %q", w)
	}
	found := false
	for _, x := range d.Agency.Payments.Extent {
		if x.Source == "checkbook" && x.RecordType == "payment" {
			found = true
			if !x.DaysKnown || x.DaysHeld != 2 || x.GapDays != 288 || len(x.CoveredDays) != 2 || x.CoveredDays[1].Records != 1000 || !strings.Contains(x.Statement, days) {
				t.Errorf("payments extent %+v", x)
			}
		}
	}
	if !found {
		t.Errorf("no payments extent: %+v", d.Agency.Payments.Extent)
	}
	out := structured[mcp.AnalyzeContractsOut](t, call(t, s, "analyze_contracts", map[string]any{"group_by": "agency"}))
	if !strings.Contains(out.ExtentWords, "; 155 undated)") || !strings.Contains(out.ExtentWords, "(1 dated 2015-07-20; 5 undated)") {
		t.Errorf("analysis extent %q", out.ExtentWords)
	}
}

// An unknown label always gets at least one suggestion through the tools
// too: an acronym, a short form and a printed spelling suggest the label
// the crosswalk resolves them to first; a label like none still gets the
// nearest one. browse_contracts's agency_label is held to the same rule.
func TestUnknownLabelSuggestionsInTools(t *testing.T) {
	s := connect(t, 1)
	for label, want := range map[string]string{"NYPD": "Police Department", "Parks": "Parks and Recreation",
		"POLICE DEPARTMENT": "Police Department", "Department of Parks and Recreation": "Parks and Recreation", "xqzzyv": ""} {
		out := structured[mcp.AnalyzeContractsOut](t, call(t, s, "analyze_contracts", map[string]any{"agency": label}))
		if out.Status != procure.AnalysisUnknownLabel || len(out.Suggestions) == 0 || want != "" && out.Suggestions[0] != want ||
			len(out.Groups) != 0 || !strings.Contains(out.Message, "did you mean") {
			t.Errorf("analyze %q: %+v", label, out)
		}
		res := call(t, s, "browse_contracts", map[string]any{"agency_label": label})
		if !res.IsError || !strings.Contains(text(res), "did you mean") || want != "" && !strings.Contains(text(res), `"`+want+`"`) {
			t.Errorf("browse %q: %v %s", label, res.IsError, text(res))
		}
	}
}
