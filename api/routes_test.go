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
