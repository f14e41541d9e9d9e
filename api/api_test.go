package api

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	goldenfile "github.com/recordwatch/recordwatch/internal/golden"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/view"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
)

// fixedNow is the injected clock of every API test.
var fixedNow = time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)

type env struct {
	srv *Server
	ts  *httptest.Server
	be  *embedded.Backend
	st  *store.Bolt
}

var shared *env

// TestMain serves the bundled sample's notices (real rows) from a real
// embedded index (a copy of sampletest's, loaded once per test binary).
func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "rw-api-*")
	if err != nil {
		panic(err)
	}
	shared = newEnv(dir, Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6})
	code := sampletest.Main(m)
	shared.ts.Close()
	shared.be.Close()
	shared.st.Close()
	os.RemoveAll(dir)
	os.Exit(code)
}

func newEnv(dir string, cfg Config) *env {
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), sampletest.Notices, fixedNow)
	if err != nil {
		panic(err)
	}
	cw := entity.DefaultCrosswalk()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		panic(err)
	}
	cfg.Engine = "embedded"
	srv := newServer(cfg, Deps{Search: be, Store: st, Crosswalk: cw, Now: func() time.Time { return fixedNow }})
	return &env{srv: srv, ts: httptest.NewServer(srv), be: be, st: st}
}

func get(t *testing.T, e *env, path string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", e.ts.URL+path, nil)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, b
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode: %v\n%s", err, b)
	}
	return v
}

// golden compares got with testdata/golden/<name> (internal/golden; -update
// rewrites).
//
// JSON is compared indented, so a golden file reads as a document and a
// difference names its line; the API itself answers compact JSON.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	if strings.HasSuffix(name, ".json") {
		var buf bytes.Buffer
		if err := json.Indent(&buf, got, "", "  "); err != nil {
			t.Fatalf("%s: not JSON: %v", name, err)
		}
		got = buf.Bytes()
	}
	goldenfile.Assert(t, filepath.Join("testdata", "golden", name), got)
}

func checkScope(t *testing.T, s record.Scope) {
	t.Helper()
	if s.RecordsInCorpus == 0 || len(s.Sources) == 0 || s.FirstSourceDate == "" || s.LastSourceDate == "" ||
		s.CorpusObservedAt.IsZero() || len(s.Absence) != 4 || s.PassagesInCorpus == 0 || len(s.SourceTypes) == 0 {
		t.Errorf("scope incomplete: %+v", s)
	}
}

func TestSearchMoneyConstruction(t *testing.T) {
	res, b := get(t, shared, "/api/search?q=construction&lens=money")
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, b)
	}
	if bytes.Count(b, []byte("\n")) != 1 {
		t.Error("the API answers compact JSON, one line")
	}
	out := decode[SearchResponse](t, b)
	if out.Total == 0 || len(out.Hits) == 0 {
		t.Fatal("no construction notices in the money lens")
	}
	for _, h := range out.Hits {
		if h.Lens != "money" {
			t.Errorf("%s has lens %s", h.RequestID, h.Lens)
		}
		text := strings.ToLower(h.Title + " " + h.Summary)
		n, err := shared.be.Get(context.Background(), h.RequestID)
		if err != nil {
			t.Fatal(err)
		}
		text += strings.ToLower(n.Text + n.Category)
		if !strings.Contains(text, "construct") {
			t.Errorf("%s does not mention construction", h.RequestID)
		}
		if h.Links.Official != record.OfficialURL(h.RequestID) {
			t.Errorf("official link %s", h.Links.Official)
		}
	}
	checkScope(t, out.Scope)
	if out.Scope.Searched.Lenses[0] != "money" || out.Scope.Searched.Terms[0] != "construction" {
		t.Errorf("searched %+v", out.Scope.Searched)
	}
	if out.Scope.Matched != out.Total {
		t.Errorf("matched %d != total %d", out.Scope.Matched, out.Total)
	}
}

func TestSearchNoHitsKeepsScope(t *testing.T) {
	_, b1 := get(t, shared, "/api/search?q=construction&lens=money")
	res, b := get(t, shared, "/api/search?q=zzzqqq")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	out := decode[SearchResponse](t, b)
	if out.Total != 0 || len(out.Hits) != 0 {
		t.Fatalf("zzzqqq matched %d", out.Total)
	}
	checkScope(t, out.Scope)
	// the same scope fields are filled as for a search with hits
	var with, without map[string]any
	json.Unmarshal(b1, &with)
	json.Unmarshal(b, &without)
	ws, wos := with["scope"].(map[string]any), without["scope"].(map[string]any)
	for k := range ws {
		if _, ok := wos[k]; !ok {
			t.Errorf("scope field %s missing when there are no hits", k)
		}
	}
	golden(t, "search_no_hits.json", b)
}

func TestSearchGolden(t *testing.T) {
	_, b := get(t, shared, "/api/search?q=%22child+care%22&lens=money&sort=newest&limit=3&facets=true")
	golden(t, "search_child_care.json", b)
}

func TestNoticeFound(t *testing.T) {
	// a real 2014 award with a valid amount and a vendor
	res, b := get(t, shared, "/api/notices/20140930007")
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, b)
	}
	v := decode[NoticeView](t, b)
	if v.Status != record.Found || v.Amount == nil || !v.Amount.Valid || *v.Amount.Value != 1158788 ||
		v.Amount.Display != "$1,158,788.00" || v.FullText == "" || v.Links.Official != record.OfficialURL("20140930007") ||
		!strings.Contains(v.Summary, "$1,158,788.00") {
		t.Errorf("notice view %+v", v)
	}
	golden(t, "notice_20140930007.json", b)
	if res.Header.Get("ETag") == "" || !strings.Contains(res.Header.Get("Cache-Control"), "max-age") {
		t.Errorf("cache headers %v", res.Header)
	}
	res2, b2 := get(t, shared, "/api/notices/20140930007", "If-None-Match", res.Header.Get("ETag"))
	if res2.StatusCode != http.StatusNotModified || len(b2) != 0 {
		t.Errorf("conditional request: %d with %d bytes", res2.StatusCode, len(b2))
	}
}

func TestNoticeInvalidAmountAndHTML(t *testing.T) {
	// a real Parks concession award with the -1 placeholder amount
	_, b := get(t, shared, "/api/notices/20141031001")
	v := decode[NoticeView](t, b)
	if v.Amount == nil || v.Amount.Valid || v.Amount.Value != nil || v.Amount.SourceText != "-1" {
		t.Errorf("placeholder amount shown as %+v", v.Amount)
	}
	if !hasFlag(v.Flags, "invalid_amount") || strings.Contains(v.Summary, "$-1") {
		t.Errorf("flags %v summary %q", v.Flags, v.Summary)
	}
	// a real Property Disposition notice whose source text is HTML
	_, b = get(t, shared, "/api/notices/20130621104")
	v = decode[NoticeView](t, b)
	if strings.Contains(v.FullText, "<strong>") || !strings.Contains(v.FullText, "OWNERS ARE WANTED") || !hasFlag(v.Flags, "source_html") {
		t.Errorf("html notice full text %.80q flags %v", v.FullText, v.Flags)
	}
}

func hasFlag(fs []view.Flag, code string) bool {
	for _, f := range fs {
		if f.Code == code {
			return true
		}
	}
	return false
}

func TestNoticeNotFound(t *testing.T) {
	res, b := get(t, shared, "/api/notices/20991231999")
	if res.StatusCode != 404 {
		t.Fatalf("status %d", res.StatusCode)
	}
	v := decode[map[string]any](t, b)
	if v["status"] != "not_found" || !strings.Contains(b2s(b), "not found") && !strings.Contains(b2s(b), "no notice") {
		t.Errorf("body %s", b)
	}
	res, _ = get(t, shared, "/api/notices/bad%20id!")
	if res.StatusCode != 400 {
		t.Errorf("malformed id: %d", res.StatusCode)
	}
}

func b2s(b []byte) string { return string(b) }

// Semantic and hybrid search through the API: by meaning, paged, with the
// method in scope; the same ranking the service (and search_notices) gives.
func TestSearchSemanticModes(t *testing.T) {
	res, b := get(t, shared, "/api/search?q=lift+repair+in+apartment+buildings&mode=semantic&limit=3")
	if res.StatusCode != 200 {
		t.Fatalf("status %d: %s", res.StatusCode, b)
	}
	var out SearchResponse
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Hits) == 0 || !strings.Contains(strings.ToLower(out.Hits[0].Title), "elevator") {
		t.Fatalf("semantic hits: %+v", out.Hits)
	}
	if sc := out.Scope.Searched.Semantic; sc == nil || sc.Mode != "semantic" || sc.Model == "" {
		t.Fatalf("scope: %+v", out.Scope.Searched)
	}
	svc := semantic.New(shared.be, time.Now)
	direct, err := svc.Search(context.Background(), search.Query{Text: "lift repair in apartment buildings", Limit: 3}, semantic.ModeSemantic)
	if err != nil {
		t.Fatal(err)
	}
	for i, h := range direct.Hits {
		if i >= len(out.Hits) || out.Hits[i].RequestID != h.Notice.RequestID {
			t.Fatalf("API and service rank differently at %d", i)
		}
	}
	if out.NextCursor == "" || !strings.Contains(out.Next, "mode=semantic") {
		t.Fatalf("no next page of the same mode: %q", out.Next)
	}
	_, b2 := get(t, shared, strings.TrimPrefix(out.Next, "http://rw.test"))
	var page2 SearchResponse
	if err := json.Unmarshal(b2, &page2); err != nil || len(page2.Hits) == 0 || page2.Hits[0].RequestID == out.Hits[0].RequestID {
		t.Fatalf("second page: %s", b2)
	}
}

func TestBadParameters(t *testing.T) {
	cases := map[string]string{
		"/api/search?colour=red":                         "colour",
		"/api/search?limit=1000":                         "limit",
		"/api/search?limit=abc":                          "limit",
		"/api/search?min=lots":                           "min",
		"/api/search?from=2026-13-01":                    "from",
		"/api/search?sort=sideways":                      "sort",
		"/api/search?lens=Money%20Lens!":                 "lens",
		"/api/search?vendor=ab":                          "vendor",
		"/api/search?cursor=xyz":                         "cursor",
		"/api/search?q=a&q=b":                            "q",
		"/api/search?min=10&max=5":                       "max_amount",
		"/api/search?facets=maybe":                       "facets",
		"/api/search?q=sewers&mode=fuzzy":                "mode",
		"/api/search?q=sewers&mode=semantic&sort=newest": "sort",
		"/api/search?mode=hybrid":                        "q",
		"/api/search?q=sewers&mode=semantic&facets=true": "facets",
		"/api/passages?q=x&lens=money&x=1":               "x",
		"/api/search?q=" + strings.Repeat("word+", 200):  "q",
	}
	for path, param := range cases {
		res, b := get(t, shared, path)
		if res.StatusCode != 400 {
			t.Errorf("%s: status %d", path, res.StatusCode)
			continue
		}
		e := decode[errorBody](t, b)
		if e.Error.Param != param || e.Error.Code != record.EINVALID || e.Error.Message == "" {
			t.Errorf("%s: error %+v, want param %s", path, e.Error, param)
		}
	}
	res, b := get(t, shared, "/api/nowhere")
	if res.StatusCode != 404 || decode[errorBody](t, b).Error.Code != record.ENOTFOUND {
		t.Errorf("unknown route: %d %s", res.StatusCode, b)
	}
	req, _ := http.NewRequest("DELETE", shared.ts.URL+"/api/search", nil)
	r, _ := http.DefaultClient.Do(req)
	if r.StatusCode != 405 {
		t.Errorf("DELETE /api/search: %d", r.StatusCode)
	}
}

func TestAmountFilterExcludesInvalid(t *testing.T) {
	_, b := get(t, shared, "/api/search?lens=money&min=0.01&limit=100&sort=amount_desc")
	out := decode[SearchResponse](t, b)
	if out.Total == 0 {
		t.Fatal("no valid amounts")
	}
	for _, h := range out.Hits {
		if h.Amount == nil || !h.Amount.Valid {
			t.Errorf("%s passed an amount filter without a valid amount", h.RequestID)
		}
	}
	for i := 1; i < len(out.Hits); i++ {
		if *out.Hits[i].Amount.Value > *out.Hits[i-1].Amount.Value {
			t.Errorf("amount sort out of order at %d", i)
		}
	}
}

func TestPassages(t *testing.T) {
	res, b := get(t, shared, "/api/passages?q=%22property+clerk%22&limit=5")
	if res.StatusCode != 200 {
		t.Fatalf("status %d %s", res.StatusCode, b)
	}
	out := decode[struct {
		Passages []view.Passage `json:"passages"`
		Total    int            `json:"total"`
		Scope    record.Scope   `json:"scope"`
	}](t, b)
	if out.Total == 0 {
		t.Fatal("no passages")
	}
	for _, p := range out.Passages {
		if !strings.HasPrefix(p.Citation, p.RequestID+"#p") || p.SourceURL != record.OfficialURL(p.RequestID) ||
			!strings.Contains(strings.ToLower(p.Text), "property clerk") {
			t.Errorf("passage %+v", p)
		}
	}
	checkScope(t, out.Scope)
	_, b = get(t, shared, "/api/passages?q=zzzqqq")
	none := decode[struct {
		Total int          `json:"total"`
		Scope record.Scope `json:"scope"`
	}](t, b)
	if none.Total != 0 {
		t.Error("zzzqqq passages")
	}
	checkScope(t, none.Scope)
}

func TestHealthz(t *testing.T) {
	res, b := get(t, shared, "/healthz")
	v := decode[map[string]any](t, b)
	if res.StatusCode != 200 || v["status"] != "ok" || v["records"].(float64) < 900 {
		t.Errorf("healthz %d %s", res.StatusCode, b)
	}
}

func TestHealthzReportsBrokenIndex(t *testing.T) {
	dir := t.TempDir()
	e := newEnv(dir, Config{})
	defer e.ts.Close()
	defer e.st.Close()
	e.be.Close() // the index goes away under the running API
	res, b := get(t, e, "/healthz")
	if res.StatusCode != 503 {
		t.Errorf("healthz over a closed index: %d %s", res.StatusCode, b)
	}
	// the engine's words stay in the log: no index path, no engine error
	if strings.Contains(string(b), dir) || strings.Contains(strings.ToLower(string(b)), "closed") {
		t.Errorf("healthz names internals: %s", b)
	}
	res, _ = get(t, e, "/api/notices/20140930007")
	if res.StatusCode != 503 {
		t.Errorf("notice over a closed index: %d", res.StatusCode)
	}
}

func TestRateLimit(t *testing.T) {
	e := &env{be: shared.be, st: shared.st}
	e.srv = newServer(Config{RatePerSecond: 1, Burst: 3}, Deps{Search: shared.be, Store: shared.st,
		Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }})
	e.ts = httptest.NewServer(e.srv)
	defer e.ts.Close()
	codes := []int{}
	var last *http.Response
	for i := 0; i < 5; i++ {
		res, _ := get(t, e, "/api/search?q=parks")
		codes = append(codes, res.StatusCode)
		last = res
	}
	if codes[0] != 200 || codes[2] != 200 || codes[3] != 429 || codes[4] != 429 {
		t.Errorf("codes %v", codes)
	}
	if last.Header.Get("Retry-After") == "" {
		t.Error("429 without Retry-After")
	}
}

func TestDailyCeiling(t *testing.T) {
	dir := t.TempDir()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := newServer(Config{}, Deps{Search: shared.be, Store: st, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }})
	s.Router().GET("/limited", s.ceiling("test", 2), func(c *gin.Context) { c.String(200, "ok") })
	ts := httptest.NewServer(s)
	defer ts.Close()
	e := &env{ts: ts}
	var codes []int
	var last *http.Response
	for i := 0; i < 3; i++ {
		res, _ := get(t, e, "/limited")
		codes = append(codes, res.StatusCode)
		last = res
	}
	if codes[0] != 200 || codes[1] != 200 || codes[2] != 429 {
		t.Errorf("codes %v", codes)
	}
	if ra := last.Header.Get("Retry-After"); ra == "" || ra == "0" {
		t.Errorf("Retry-After %q", ra)
	}
}

// A vendor name with a comma is one name, not two stems.
func TestVendorNameWithComma(t *testing.T) {
	_, b := get(t, shared, "/api/search?vendor=Denville+Line+Painting%2C+Inc&limit=100")
	withComma := decode[SearchResponse](t, b)
	_, b = get(t, shared, "/api/search?vendor=DENVILLE+LINE+PAINTING+INC&limit=100")
	plain := decode[SearchResponse](t, b)
	if withComma.Total == 0 || withComma.Total != plain.Total {
		t.Fatalf("vendor with a comma: %d hits, without: %d", withComma.Total, plain.Total)
	}
	if got := withComma.Scope.Searched.Filters["vendor"]; got != "DENVILLE LINE PAINTING" {
		t.Errorf("searched vendor %q", got)
	}
}

// IPv6 clients count per /64: a client with a whole /64 gets one bucket,
// not one per address; another /64 gets its own.
func TestRateLimitCountsIPv6PerSlash64(t *testing.T) {
	s := newServer(Config{RatePerSecond: 0.001, Burst: 2}, Deps{Search: shared.be, Store: shared.st,
		Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }})
	do := func(addr string) int {
		r := httptest.NewRequest("GET", "/api/search?q=parks", nil)
		r.RemoteAddr = addr
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		return w.Code
	}
	var codes []int
	for i := 1; i <= 3; i++ {
		codes = append(codes, do(fmt.Sprintf("[2001:db8:1:2::%x]:4000", i*0x1111)))
	}
	codes = append(codes, do("[2001:db8:1:3::1]:4000"))
	if codes[0] != 200 || codes[1] != 200 || codes[2] != 429 || codes[3] != 200 {
		t.Errorf("codes %v: want 200 200 429 (same /64) then 200 (another /64)", codes)
	}
	for in, want := range map[string]string{
		"2001:db8:1:2:aaaa:bbbb:cccc:dddd": "2001:db8:1:2::/64",
		"::ffff:192.0.2.7":                 "192.0.2.7",
		"192.0.2.7":                        "192.0.2.7",
	} {
		if got := ClientKey(in); got != want {
			t.Errorf("ClientKey(%s) = %s, want %s", in, got, want)
		}
	}
}
