package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// routeSamples fill route parameters with values that reach the handlers.
var routeSamples = map[string]string{
	":id": "20140930007", "*id": "parks-and-recreation", ":stem": "acme", "*stem": "acme",
	"*pin": "84614B0025", "*link": "award/20140930007", ":token": "x", "*filepath": "app.js",
}

// Of the GET routes, only /agencies allows cross-site reads (SPEC §4.3).
func TestOnlyAgenciesAllowsCrossSiteReads(t *testing.T) {
	d := shared.srv.deps
	d.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMethodNotAllowed) })
	d.MCPCatalog = func(ctx context.Context) any { return map[string]string{"catalog": "stub"} }
	srv := New(shared.srv.cfg, d)
	ts := httptest.NewServer(srv)
	defer ts.Close()
	seen := map[string]bool{}
	for _, rt := range srv.Router().Routes() {
		if rt.Method != http.MethodGet {
			continue
		}
		var parts []string
		for _, seg := range strings.Split(rt.Path, "/") {
			if v, ok := routeSamples[seg]; ok {
				seg = v
			} else if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
				t.Fatalf("route %s: no sample for %s", rt.Path, seg)
			}
			parts = append(parts, seg)
		}
		path := strings.Join(parts, "/")
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		req.Header.Set("Origin", "https://elsewhere.example")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		seen[rt.Path] = true
		acao := res.Header.Get("Access-Control-Allow-Origin")
		if rt.Path == "/agencies" {
			if acao != "*" {
				t.Errorf("/agencies: Access-Control-Allow-Origin %q", acao)
			}
			continue
		}
		if acao != "" {
			t.Errorf("%s (%s, status %d) allows cross-site reads: Access-Control-Allow-Origin %q", rt.Path, path, res.StatusCode, acao)
		}
	}
	for _, p := range []string{"/agencies", "/mcp/catalog.json", "/api/search", "/api/notices/:id", "/feed.json", "/stats", "/inv/:id"} {
		if !seen[p] {
			t.Errorf("route %s not walked", p)
		}
	}
}

// The form decides the surface in one place (routes.go): every route the
// Form 1 table has and the Form 2 table lacks answers 404 on a Form 2
// server, and those routes include what SPEC marks Form 1 and the Form 1
// extensions (contracts, meetings, land projects, organizations and
// people, payroll, passages, federated search, the vendor and agency
// pages). Routes both forms have are served by both.
func TestForm2ServesNoForm1OnlyRoute(t *testing.T) {
	tables := map[int]map[string]bool{}
	servers := map[int]*httptest.Server{}
	for _, form := range []int{1, 2} {
		cfg := shared.srv.cfg
		cfg.Form = form
		srv := newServer(cfg, shared.srv.deps)
		servers[form] = httptest.NewServer(srv)
		defer servers[form].Close()
		tables[form] = map[string]bool{}
		for _, rt := range srv.Router().Routes() {
			tables[form][rt.Method+" "+rt.Path] = true
		}
	}
	only1 := map[string]bool{}
	for k := range tables[1] {
		if !tables[2][k] {
			only1[k] = true
		}
	}
	for _, want := range []string{"GET /api/contracts", "GET /api/meetings", "GET /api/land-projects", "GET /api/organizations",
		"GET /api/payroll", "GET /api/search/federated", "GET /api/passages", "GET /meetings.ics", "GET /vendors/*stem",
		"GET /agencies/:id/", "GET /contracts/:id", "GET /people/*id", "GET /api/civil-service"} {
		if !only1[want] {
			t.Errorf("%s is not a Form 1-only route", want)
		}
	}
	for _, shared := range []string{"GET /api/search", "GET /api/notices/:id", "GET /api/vendors/*stem", "GET /agencies", "POST /api/watches"} {
		if !tables[1][shared] || !tables[2][shared] {
			t.Errorf("%s is not served in both forms", shared)
		}
	}
	for k := range only1 {
		method, path, _ := strings.Cut(k, " ")
		var parts []string
		for _, seg := range strings.Split(path, "/") {
			if v, ok := routeSamples[seg]; ok {
				seg = v
			}
			parts = append(parts, seg)
		}
		req, _ := http.NewRequest(method, servers[2].URL+strings.Join(parts, "/"), nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("Form 2 %s %s: status %d, want 404", method, path, res.StatusCode)
		}
	}
}

// Every response kind carries the security headers: pages, JSON, feeds,
// calendars, redirects, the not-found pages and errors.
func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	for _, path := range []string{"/", "/api/search?q=parks", "/api/notices/20140930007", "/feed.json?lens=money", "/feed.xml?lens=money",
		"/meetings.ics", "/r/award/nope", "/r/award/20140930007", "/api/nope", "/api/search?limit=0", "/agencies", "/healthz"} {
		req, _ := http.NewRequest(http.MethodGet, shared.ts.URL+path, nil)
		res, err := http.DefaultTransport.RoundTrip(req) // redirects are answers too
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.Header.Get("X-Content-Type-Options") != "nosniff" || res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s (%d): headers %v", path, res.StatusCode, res.Header)
		}
	}
}

// X-Forwarded-Prefix shapes a redirect's Location only when a trusted
// proxy sends it: from anyone else it is ignored.
func TestForwardedPrefixOnlyFromTrustedProxies(t *testing.T) {
	for _, trusted := range []bool{false, true} {
		cfg := shared.srv.cfg
		if trusted {
			cfg.TrustedProxies = []string{"127.0.0.0/8"}
		}
		ts := httptest.NewServer(newServer(cfg, shared.srv.deps))
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/agencies/", nil)
		req.Header.Set("X-Forwarded-Prefix", "/elsewhere")
		res, err := http.DefaultTransport.RoundTrip(req)
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		loc := res.Header.Get("Location")
		if res.StatusCode/100 != 3 {
			t.Fatalf("trusted %v: status %d (want the trailing-slash redirect)", trusted, res.StatusCode)
		}
		if got := strings.Contains(loc, "elsewhere"); got != trusted {
			t.Errorf("trusted %v: Location %q", trusted, loc)
		}
	}
}
