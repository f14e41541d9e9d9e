package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// walkContracts pages through a browse URL (the base address of the test
// env taken off) and returns the rows read, failing on a row read twice,
// and the total the pages state.
func walkContracts(t *testing.T, e *env, url string) (map[string]bool, int) {
	t.Helper()
	path := strings.TrimPrefix(url, "http://rw.test")
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	seen := map[string]bool{}
	total, cursor := -1, ""
	for range 100 {
		p := path + sep + "limit=100"
		if cursor != "" {
			p += "&cursor=" + cursor
		}
		res, body := get(t, e, p)
		var page struct {
			Contracts []struct {
				ID string `json:"id"`
			} `json:"contracts"`
			Total      int    `json:"total"`
			NextCursor string `json:"next_cursor"`
		}
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil {
			t.Fatalf("%s: %d %s", p, res.StatusCode, body)
		}
		total = page.Total
		for _, c := range page.Contracts {
			if seen[c.ID] {
				t.Fatalf("%s: row %s read twice", path, c.ID)
			}
			seen[c.ID] = true
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	return seen, total
}

// An analysis by agency on the bundled data ranks by registered value,
// counts the row with a placeholder amount as excluded and says so, lists
// the accepted agency labels (no agency asked for), and every group's
// follow URL pages through exactly its rows.
func TestContractAnalysisByAgency(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/contracts/analysis?group_by=agency&limit=100")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	a := decode[ContractAnalysisView](t, body)
	if a.Status != procure.AnalysisRanked || a.Measure != procure.ContractMeasure || a.Population == nil {
		t.Fatalf("analysis %s", body)
	}
	p := a.Population
	if p.Rows != 558 || p.IncludedRows != 557 || p.ExcludedRows != 1 || len(p.Excluded) != 1 ||
		p.Excluded[0].Reason != record.ExcludedPlaceholder || p.Excluded[0].Rows != 1 || p.RegisteredValue.Value == nil {
		t.Errorf("population %+v", p)
	}
	if !strings.Contains(p.ExcludedNote, "excluded from every registered-value sum") ||
		!strings.Contains(a.Coverage.Statement, "never payments or spending") || len(a.Coverage.Sources) != 2 {
		t.Errorf("excluded note %q, coverage %+v", p.ExcludedNote, a.Coverage)
	}
	if a.AgencyLabels == nil || a.AgencyLabels.Count < 400 || a.AgencyLabels.Source == "" {
		t.Fatalf("accepted labels missing without an agency filter: %+v", a.AgencyLabels)
	}
	if a.GroupsTotal != 31 || len(a.Groups) != 31 || a.Ungrouped != nil {
		t.Fatalf("groups %d of %d, ungrouped %+v", len(a.Groups), a.GroupsTotal, a.Ungrouped)
	}
	rows, excluded := 0, 0
	var sum float64
	for i, g := range a.Groups {
		if g.RegisteredValue.Value == nil {
			t.Fatalf("group %s holds no value", g.Key)
		}
		if i > 0 && *a.Groups[i-1].RegisteredValue.Value < *g.RegisteredValue.Value {
			t.Errorf("rank %d (%s %v) above rank %d (%s %v)", i, a.Groups[i-1].Key, *a.Groups[i-1].RegisteredValue.Value, i+1, g.Key, *g.RegisteredValue.Value)
		}
		rows += g.Rows
		excluded += g.ExcludedRows
		sum += *g.RegisteredValue.Value
	}
	if rows != p.Rows || excluded != 1 || int64(sum*100+0.5) != int64(*p.RegisteredValue.Value*100+0.5) {
		t.Errorf("groups add to %d rows, %d excluded, %.2f; population %d, %v", rows, excluded, sum, p.Rows, *p.RegisteredValue.Value)
	}
	top := a.Groups[0]
	if top.Key != "administration-for-childrens-services" || top.AcceptedLabel != "Administration for Children's Services" ||
		top.Follow.Arguments["agency_label"] != top.AcceptedLabel {
		t.Errorf("top group %+v", top)
	}
	// the group with the excluded row, and two small ones: each browse
	// total is the group's rows
	var followed int
	for _, g := range a.Groups {
		if g.ExcludedRows == 0 && followed > 2 {
			continue
		}
		followed++
		seen, total := walkContracts(t, e, g.Follow.URL)
		if total != g.Rows || len(seen) != g.Rows {
			t.Errorf("group %s: %d rows, browse total %d, walked %d (%s)", g.Key, g.Rows, total, len(seen), g.Follow.URL)
		}
	}
	// by count, ties broken by value
	res, body = get(t, e, "/api/contracts/analysis?group_by=agency&rank_by=count&limit=3")
	c := decode[ContractAnalysisView](t, body)
	if res.StatusCode != http.StatusOK || len(c.Groups) != 3 || c.Groups[0].Key != "administration-for-childrens-services" || c.Groups[1].Key != "aging" ||
		c.Groups[0].Rows < c.Groups[1].Rows || c.Groups[1].Rows < c.Groups[2].Rows {
		t.Errorf("by count: %+v", c.Groups)
	}
}

// Fiscal years follow the registration date; rows with none are counted
// apart and can be followed too. Amount bands cover every row.
func TestContractAnalysisFiscalYearsAndBands(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/contracts/analysis?group_by=fiscal_year&agency=Aging")
	a := decode[ContractAnalysisView](t, body)
	if res.StatusCode != http.StatusOK || a.AgencyLabels != nil || a.Filters["agency"] != "Aging" {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if a.Population.Rows != 136 || len(a.Groups) != 1 || a.Groups[0].Key != "2026" || a.Ungrouped == nil || a.Ungrouped.Follow == nil ||
		a.Groups[0].Rows+a.Ungrouped.Rows != 136 {
		t.Fatalf("FY groups %+v ungrouped %+v", a.Groups, a.Ungrouped)
	}
	for _, f := range []struct {
		url  string
		rows int
	}{{a.Groups[0].Follow.URL, a.Groups[0].Rows}, {a.Ungrouped.Follow.URL, a.Ungrouped.Rows}, {a.Follow.URL, 136}} {
		if seen, total := walkContracts(t, e, f.url); total != f.rows || len(seen) != f.rows {
			t.Errorf("%s: total %d walked %d, want %d", f.url, total, len(seen), f.rows)
		}
	}

	// the shape of the twin, pinned on one agency's bands
	res, body = get(t, e, "/api/contracts/analysis?group_by=amount_band&agency=Design+and+Construction")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	golden(t, "contracts_analysis_design-and-construction_bands.json", body)

	res, body = get(t, e, "/api/contracts/analysis?group_by=amount_band&limit=100")
	b := decode[ContractAnalysisView](t, body)
	if res.StatusCode != http.StatusOK || b.Ungrouped != nil || len(b.AmountBands) != len(record.ContractAmountBands) {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	n := 0
	for _, g := range b.Groups {
		n += g.Rows
		if g.Key == record.BandInvalid && (g.Rows != 1 || g.RegisteredValue.Value != nil || g.ShareOfValue != nil) {
			t.Errorf("invalid band %+v", g)
		}
		if seen, total := walkContracts(t, e, g.Follow.URL); total != g.Rows || len(seen) != g.Rows {
			t.Errorf("band %s: %d rows, browse %d", g.Key, g.Rows, total)
		}
	}
	if n != 558 {
		t.Errorf("bands hold %d rows", n)
	}

	res, body = get(t, e, "/api/contracts/analysis?group_by=vendor&rank_by=count&limit=3")
	v := decode[ContractAnalysisView](t, body)
	if res.StatusCode != http.StatusOK || len(v.Groups) != 3 || v.GroupsTotal < 100 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	for _, g := range v.Groups {
		if g.Label == "" || g.Follow.Arguments["vendor_stem"] != g.Key {
			t.Errorf("vendor group %+v", g)
		}
		if seen, total := walkContracts(t, e, g.Follow.URL); total != g.Rows || len(seen) != g.Rows {
			t.Errorf("vendor %s: %d rows, browse %d", g.Key, g.Rows, total)
		}
	}
}

// An agency label is matched with the same letter case; any other label
// gets suggestions and no ranking, never a claim of zero awards.
func TestContractAnalysisUnknownLabel(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for label, want := range map[string]string{"aging": "Aging", "HOMELESS SERVICES": "Homeless Services", "Dept of Aging": "Aging", "Homeles Services": "Homeless Services"} {
		res, body := get(t, e, "/api/contracts/analysis?agency="+strings.ReplaceAll(label, " ", "+"))
		a := decode[ContractAnalysisView](t, body)
		if res.StatusCode != http.StatusBadRequest || a.Status != procure.AnalysisUnknownLabel || a.Error == nil || a.Error.Code != record.EINVALID ||
			a.Error.Param != "agency" || len(a.Groups) != 0 || a.Population != nil {
			t.Errorf("%q: %d %s", label, res.StatusCode, body)
			continue
		}
		if len(a.Suggestions) == 0 || a.Suggestions[0] != want || !strings.Contains(a.Message, "never means it has zero awards") {
			t.Errorf("%q: suggestions %v, message %q", label, a.Suggestions, a.Message)
		}
		if strings.Contains(string(body), `"rows": 0`) || strings.Contains(string(body), `"groups": []`) {
			t.Errorf("%q: an empty ranking: %s", label, body)
		}
	}
	// a browse by an agency label is held to the same rule
	res, body := get(t, e, "/api/contracts?agency_label=aging")
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `\"Aging\"`) {
		t.Errorf("browse by a wrongly cased label: %d %s", res.StatusCode, body)
	}
	for _, path := range []string{"/api/contracts/analysis?group_by=nope", "/api/contracts/analysis?rank_by=size", "/api/contracts/analysis?amount_band=big",
		"/api/contracts/analysis?limit=101", "/api/contracts/analysis?nope=1", "/api/contracts?amount_band=big", "/api/contracts?undated=maybe",
		"/api/contracts?undated=true&fiscal_year=2026"} {
		if res, body := get(t, e, path); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
}

// An unknown analysis label always gets at least one suggestion, through
// the analysis, the browse and the page: an acronym, a short form, a
// printed spelling of the held rows (payroll's, Checkbook's) suggest the
// accepted label the crosswalk resolves them to, and a label that is
// nothing like one still gets the nearest label.
func TestUnknownLabelAlwaysGetsASuggestion(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for label, want := range map[string]string{"NYPD": "Police Department", "Parks": "Parks and Recreation",
		"POLICE DEPARTMENT": "Police Department", "Department of Parks and Recreation": "Parks and Recreation",
		"DEPT OF PARKS & RECREATION": "Parks and Recreation", "xqzzyv": "", "Miscellaneous": ""} {
		res, body := get(t, e, "/api/contracts/analysis?agency="+url.QueryEscape(label))
		a := decode[ContractAnalysisView](t, body)
		if res.StatusCode != http.StatusBadRequest || a.Status != procure.AnalysisUnknownLabel || len(a.Suggestions) == 0 ||
			want != "" && a.Suggestions[0] != want || !strings.Contains(a.Message, "did you mean") {
			t.Errorf("analysis %q: %d suggestions %v, want %q first", label, res.StatusCode, a.Suggestions, want)
		}
		res, body = get(t, e, "/api/contracts?agency_label="+url.QueryEscape(label))
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "did you mean") ||
			want != "" && !strings.Contains(string(body), `\"`+want+`\"`) {
			t.Errorf("browse %q: %d %s", label, res.StatusCode, body)
		}
	}
	res, body := get(t, e, "/contracts/analysis?agency=NYPD")
	if html := string(body); res.StatusCode != http.StatusBadRequest || !strings.Contains(html, `/contracts/analysis?agency=Police&#43;Department">Police Department</a>`) {
		t.Errorf("page NYPD: %d %s", res.StatusCode, html)
	}
}

// The contract page and the analysis page show their values, their
// permalink and their JSON twin.
func TestContractPages(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/contracts/CT100220268808241")
	html := string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(html, "CT100220268808241") || !strings.Contains(html, `href="http://rw.test/api/contracts/CT100220268808241"`) ||
		!strings.Contains(html, `rel="canonical" href="http://rw.test/contracts/CT100220268808241"`) || !strings.Contains(html, "Empire Electronics Inc") ||
		!strings.Contains(html, "FY2026") || !strings.Contains(html, "$43,844.00") || !strings.Contains(html, "/agencies/office-of-the-mayor/") {
		t.Errorf("contract page: %d %s", res.StatusCode, html)
	}
	// a row id (as the rows table links it) reads the same contract
	if res, body := get(t, e, "/contracts/contracts:procurement:contract:CT100220268808241"); res.StatusCode != http.StatusOK || !strings.Contains(string(body), "Empire Electronics Inc") {
		t.Errorf("contract page by row id: %d", res.StatusCode)
	}
	if res, body := get(t, e, "/contracts/CT0000000000000000"); res.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "does not mean none was registered") {
		t.Errorf("unknown contract page: %d %s", res.StatusCode, body)
	}
	res, body = get(t, e, "/contracts/analysis?group_by=agency")
	html = string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(html, "Administration for Children&#39;s Services") ||
		!strings.Contains(html, `href="http://rw.test/api/contracts/analysis?group_by=agency"`) || !strings.Contains(html, "Every accepted agency label") ||
		!strings.Contains(html, "excluded from the value sums") || !strings.Contains(html, "never payments or spending") {
		t.Errorf("analysis page: %d %.3000s", res.StatusCode, html)
	}
	res, body = get(t, e, "/contracts/analysis?agency=aging")
	if html = string(body); res.StatusCode != http.StatusBadRequest || !strings.Contains(html, "/contracts/analysis?agency=Aging") {
		t.Errorf("unknown label page: %d %.2000s", res.StatusCode, html)
	}
}
