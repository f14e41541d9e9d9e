package api

import (
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/costtest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// allocated is how many bytes f allocated (costtest.Measure).
func allocated(f func()) uint64 {
	_, n := costtest.Measure(f)
	return n
}

// maxRequestAlloc is the allocation budget of one refused or bounded
// request in these tests: far above what one costs, far below what the
// unbounded rules cost before (gigabytes for a 10,000-word vendor).
const maxRequestAlloc = 16 << 20

// Every input is bounded before any rule reads it (record.InputBound): the
// inputs that cost gigabytes before (a vendor name of 10,000 words widened
// to hyphen variants, a 100,000-character agency label compared with every
// label letter by letter, a list of thousands of agencies) are refused
// with 400 naming the parameter, or 414 past the URI bound, at a small
// fixed cost on every surface that takes them; values at the bound are
// served.
func TestInputsBoundedBeforeWork(t *testing.T) {
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("acme ", n)) }
	long := func(n int) string { return strings.Repeat("x", n) }
	agencies := strings.TrimSuffix(strings.Repeat("DOT,", record.MaxValues+1), ",")
	for _, c := range []struct {
		path   string
		status int
		param  string
	}{
		{"/api/search?vendor=" + url.QueryEscape(words(2000)), 400, "vendor"},
		{"/api/search?vendor=" + url.QueryEscape(words(10000)), 414, ""},
		{"/api/search?q=" + url.QueryEscape(words(2000)), 400, "q"},
		{"/api/search?agency=" + agencies, 400, "agency"},
		{"/api/search?cursor=" + long(record.MaxCursorLen+1), 400, "cursor"},
		{"/api/contracts?vendor=" + url.QueryEscape(words(2000)), 400, "vendor"},
		{"/api/contracts?vendor_stem=" + url.QueryEscape(words(2000)), 400, "vendor_stem"},
		{"/api/contracts/analysis?agency=" + long(20000), 400, "agency"},
		{"/feed.json?kind=vendor&name=" + url.QueryEscape(words(2000)), 400, "name"},
		{"/feed.xml?lens=money&q=" + url.QueryEscape(words(2000)), 400, "q"},
		{"/api/watches/preview?lens=money&vendor=" + url.QueryEscape(words(2000)), 400, "vendor"},
		{"/api/vendors/" + strings.Repeat("acme-", 2000), 400, "stem"},
		{"/api/payroll?name=" + long(5000), 400, "name"},
		{"/api/meetings?body=" + long(5000), 400, "body"},
	} {
		var res *http.Response
		var body []byte
		n := allocated(func() { res, body = get(t, shared, c.path) })
		if res.StatusCode != c.status {
			t.Errorf("%.60s…: status %d, want %d: %.200s", c.path, res.StatusCode, c.status, body)
			continue
		}
		if c.param != "" {
			if e := decode[errorBody](t, body).Error; e.Param != c.param || e.Code != record.EINVALID {
				t.Errorf("%.60s…: error %+v, want EINVALID on %s", c.path, e, c.param)
			}
		}
		if n > maxRequestAlloc {
			t.Errorf("%.60s…: allocated %d MB", c.path, n>>20)
		}
	}
	// at the bound: a vendor name of MaxNameLen characters in 100 words is
	// read (stemmed and widened) at the same small cost
	atBound := strings.TrimSpace(strings.Repeat("ab ", record.MaxNameLen/3))
	for _, path := range []string{"/api/search?vendor=" + url.QueryEscape(atBound), "/api/contracts?vendor=" + url.QueryEscape(atBound),
		"/api/contracts/analysis?agency=" + long(record.MaxNameLen)} {
		var res *http.Response
		var body []byte
		n := allocated(func() { res, body = get(t, shared, path) })
		if res.StatusCode >= 500 {
			t.Errorf("%.60s…: status %d: %.200s", path, res.StatusCode, body)
		}
		if n > maxRequestAlloc {
			t.Errorf("%.60s…: allocated %d MB at the bound", path, n>>20)
		}
	}
}

// A request past its deadline stops and answers 503 with a message that
// names no internals (the engine reads the request's context).
func TestRequestDeadlineAnswers503(t *testing.T) {
	e := newEnv(t.TempDir(), Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6, RequestTimeout: 1})
	defer func() { e.ts.Close(); e.be.Close(); e.st.Close() }()
	res, body := get(t, e, "/api/search?q=parks")
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503: %s", res.StatusCode, body)
	}
	if eb := decode[errorBody](t, body).Error; eb.Code != record.EUNAVAILABLE || strings.Contains(eb.Message, "context") {
		t.Errorf("error %+v", eb)
	}
}

// Every date parameter is bounded like /api/search's: the meetings routes
// answer a day outside the service's date range with 400 naming it, not
// the engine's 503.
func TestMeetingDatesBounded(t *testing.T) {
	for _, path := range []string{"/api/meetings?from=0001-01-01", "/api/meetings?to=9999-12-31&from=9999-12-01", "/meetings?from=0001-01-01",
		"/meetings.ics?from=0001-01-01"} {
		res, body := get(t, shared, path)
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400: %.200s", path, res.StatusCode, body)
		}
	}
}

// A contradictory window (its end before its start) is a 400 naming the
// end, as from/to is, never a silent zero.
func TestContradictoryWindows(t *testing.T) {
	for _, c := range []struct{ path, param string }{
		{"/api/search?from=2026-08-01&to=2026-07-01", "to"},
		{"/api/search?due_from=2026-08-01&due_to=2026-07-01", "due_to"},
		{"/api/search?event_from=2026-08-01&event_to=2026-07-01", "event_to"},
		{"/api/meetings?from=2026-08-01&to=2026-07-01", "to"},
	} {
		res, body := get(t, shared, c.path)
		if res.StatusCode != http.StatusBadRequest || decode[errorBody](t, body).Error.Param != c.param {
			t.Errorf("%s: status %d: %.200s", c.path, res.StatusCode, body)
		}
	}
}

// Every vendor permalink path-escapes what it carries and opens the page
// of that vendor: names with quotes, angle brackets, question marks,
// hashes and percent signs reach the page whole (a vendor the sample does
// not hold answers its own not-found page, naming it), and a vendor the
// sample holds answers 200.
func TestVendorPermalinksEscapeAndOpen(t *testing.T) {
	for _, name := range []string{`Acme "Best" Builders`, "Acme > Builders Inc", "Acme? Builders #2", "Acme % Builders", "Denville Line Painting",
		"Inter Contracting/La Peruta JV"} {
		link := view.Links{Form: 1}.Vendor("", name)
		res, body := get(t, shared, link)
		title := "<title>Vendor " + html.EscapeString(entity.VendorStem(name))
		if name == "Denville Line Painting" || name == "Inter Contracting/La Peruta JV" {
			title = "<title>" // a held vendor's page is titled by its name as printed
			if res.StatusCode != http.StatusOK {
				t.Errorf("%q: %s: %d", name, link, res.StatusCode)
			}
		}
		if res.StatusCode >= 500 || !strings.Contains(string(body), title) {
			t.Errorf("%q: %s: %d, not the page of %q: %.300s", name, link, res.StatusCode, entity.VendorStem(name), body)
		}
	}
}
