package api

import (
	"html"
	"strings"
	"testing"
)

// Totals built on the bundled extracts say how much of their source they
// cover, in words next to the figure, in the JSON and on the site
// (record.ExtentOf; the MCP side: api/mcp TestToolTotalsSayTheirExtent).
func TestTotalsSayTheirExtent(t *testing.T) {
	e := newEntityEnv(t, Config{})
	_, b := get(t, e, "/api/payroll?limit=1")
	p := decode[PayrollPageView](t, b)
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
	for path, words := range map[string]string{"/agencies/design-and-construction/": a.Payments.ExtentWords, "/contracts/analysis?group_by=agency": v.ExtentWords} {
		_, page := get(t, e, path)
		if words == "" || !strings.Contains(html.UnescapeString(string(page)), words) {
			t.Errorf("%s does not show %q", path, words)
		}
	}
}
