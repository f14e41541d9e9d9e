package api

import (
	"encoding/json"
	"html"
	"reflect"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Totals built on the bundled extracts say how much of their source they
// cover, in words next to the figure, in the JSON and on the site
// (record.ExtentOf; the MCP side: api/mcp TestToolTotalsSayTheirExtent).
// Every total of the bundled extracts: payroll browse and an
// organization's positions (payroll), contract browse and analysis
// (registered contracts), vendor and agency payments (Checkbook spending).
// The feeds carry no totals, only entries.
func TestTotalsSayTheirExtent(t *testing.T) {
	e := newEntityEnv(t, Config{})
	_, b := get(t, e, "/api/payroll?limit=1")
	p := decode[procure.PayrollPage](t, b)
	if len(p.Extent) != 1 || p.Extent[0].Held != 1800 || !strings.Contains(p.ExtentWords, "Built on the 1,800 payroll rows held here") {
		t.Errorf("payroll extent %+v %q", p.Extent, p.ExtentWords)
	}
	_, b = get(t, e, "/api/agencies/design-and-construction")
	a := decode[AgencyProfile](t, b)
	if a.Payments == nil || !strings.Contains(a.Payments.ExtentWords, "Built on the 1,001 payments held here (") {
		t.Errorf("payments extent %+v", a.Payments)
	}
	_, b = get(t, e, "/api/contracts/analysis?group_by=agency")
	v := decode[ContractAnalysisView](t, b)
	if len(v.Extent) != 2 || !strings.Contains(v.ExtentWords, "552 contract records held here") {
		t.Errorf("analysis extent %+v", v.Extent)
	}
	// the browse of registered contracts: its totals carry the same extent
	_, b = get(t, e, "/api/contracts?agency=Aging&limit=1")
	cb := decode[procure.ContractPage](t, b)
	if cb.Totals.Count == 0 || len(cb.Extent) != 2 || cb.ExtentWords != v.ExtentWords {
		t.Errorf("contract browse totals %+v, extent %q", cb.Totals, cb.ExtentWords)
	}
	// a vendor's payments totals
	_, b = get(t, e, "/api/vendors/denville-line-painting")
	vp := decode[VendorProfile](t, b)
	if vp.Payments == nil || vp.Payments.ExtentWords != a.Payments.ExtentWords {
		t.Errorf("vendor payments extent %+v", vp.Payments)
	}
	// an organization's payroll positions (published figures only: an
	// agency with no payroll held has no figure to qualify)
	_, b = get(t, e, "/api/people/NYC_GOID_000389")
	police := decode[PersonOrOrgView](t, b)
	if police.Positions == nil || police.Positions.Display == "" || police.Positions.ExtentWords != p.ExtentWords {
		t.Errorf("positions extent %+v", police.Positions)
	}
	_, b = get(t, e, "/api/people/NYC_GOID_000002")
	if acs := decode[PersonOrOrgView](t, b); acs.Positions == nil || acs.Positions.ExtentWords != "" || len(acs.Positions.Extent) != 0 {
		t.Errorf("no payroll held, yet an extent: %+v", acs.Positions)
	}
	for path, words := range map[string]string{"/agencies/design-and-construction/": a.Payments.ExtentWords, "/contracts/analysis?group_by=agency": v.ExtentWords,
		"/vendors/denville-line-painting/": vp.Payments.ExtentWords, "/people/NYC_GOID_000389": p.ExtentWords} {
		_, page := get(t, e, path)
		if words == "" || !strings.Contains(html.UnescapeString(string(page)), words) {
			t.Errorf("%s does not show %q", path, words)
		}
	}
}

// An extent says the days actually held (issue 46, item 3). The bundled
// Checkbook payments are one API page of 2018-05-02 (1,000) and one row of
// 2017-07-17: "dated 2017-07-17 to 2018-05-02" implied a continuous span
// that is not held; the 155 undated registered contracts were not said at
// all. Through the vendor and agency JSON and both languages of the site.
func TestExtentSaysTheDaysHeld(t *testing.T) {
	e := newEntityEnv(t, Config{})
	_, b := get(t, e, "/api/vendors/denville-line-painting")
	vp := decode[VendorProfile](t, b)
	if vp.Payments == nil {
		t.Fatal("no payments on the vendor page")
	}
	byType := map[string]record.Extent{}
	for _, x := range vp.Payments.Extent {
		byType[x.Source+" "+x.RecordType] = x
	}
	pay := byType["checkbook payment"]
	wantRuns := []record.DayRun{{First: "2017-07-17", Last: "2017-07-17", Days: 1, Records: 1}, {First: "2018-05-02", Last: "2018-05-02", Days: 1, Records: 1000}}
	if !pay.DaysKnown || pay.Held != 1001 || pay.DaysHeld != 2 || !reflect.DeepEqual(pay.CoveredDays, wantRuns) || pay.Undated != 0 ||
		pay.GapDays != 288 || !reflect.DeepEqual(pay.Gaps, []record.DaySpan{{First: "2017-07-18", Last: "2018-05-01", Days: 288}}) {
		t.Errorf("payments extent %+v", pay)
	}
	const days = "(1,000 dated 2018-05-02 and 1 dated 2017-07-17; none held on 288 of the 290 days from 2017-07-17 to 2018-05-02)"
	for _, w := range []string{pay.Words, pay.Statement, vp.Payments.ExtentWords} {
		if !strings.Contains(w, days) || strings.Contains(w, "dated 2017-07-17 to 2018-05-02") {
			t.Errorf("the payments extent does not say the days held: %q", w)
		}
	}
	if !strings.HasPrefix(pay.Statement, "1,001 payments held here (") {
		t.Errorf("statement %q", pay.Statement)
	}
	con := byType["contracts contract"]
	if !con.DaysKnown || con.Undated != 155 || con.DaysHeld != 20 || con.GapDays != 8 || len(con.CoveredDays) != 5 ||
		!strings.Contains(con.Words, "; 155 undated)") || !strings.Contains(con.Words, "none held on 8 of the 28 days from 2026-06-03 to 2026-06-30") {
		t.Errorf("registered contracts extent %+v", con)
	}
	// the raw JSON carries the new fields beside the old ones
	var raw struct {
		Payments struct {
			Extent []map[string]any `json:"extent"`
		} `json:"payments"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	for _, x := range raw.Payments.Extent {
		for _, f := range []string{"words", "held", "statement", "undated", "covered_days", "days_held"} {
			if _, ok := x[f]; !ok {
				t.Errorf("extent %v has no %q", x["record_type"], f)
			}
		}
	}
	// the agency page says the same
	_, b = get(t, e, "/api/agencies/design-and-construction")
	if a := decode[AgencyProfile](t, b); a.Payments == nil || a.Payments.ExtentWords != vp.Payments.ExtentWords {
		t.Errorf("agency payments extent %+v", a.Payments)
	}
	_, page := get(t, e, "/vendors/denville-line-painting/?lang=es")
	if es := html.UnescapeString(string(page)); !strings.Contains(es, "(1,000 con fecha 2018-05-02 y 1 con fecha 2017-07-17; nada guardado en 288 de los 290 días del 2017-07-17 al 2018-05-02)") ||
		!strings.Contains(es, "; 155 sin fecha)") || strings.Contains(es, "con fechas del 2017-07-17 al 2018-05-02") {
		t.Errorf("the Spanish page does not say the days held")
	}
}
