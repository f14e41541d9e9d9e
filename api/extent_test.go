package api

import (
	"html"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/procure"
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
	if a.Payments == nil || !strings.Contains(a.Payments.ExtentWords, "Built on the 1,001 payments held here dated 2017-07-17 to 2018-05-02") {
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
