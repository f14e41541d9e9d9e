package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// samplePath fills a route's parameters with values that reach handlers.
func samplePath(path string) string {
	var parts []string
	for _, seg := range strings.Split(path, "/") {
		if v, ok := routeSamples[seg]; ok {
			seg = v
		} else if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
			seg = "x"
		}
		parts = append(parts, seg)
	}
	return strings.Join(parts, "/")
}

var (
	policyRE = regexp.MustCompile(`^"burst";q=(\d+);w=(\d+)$`)
	stateRE  = regexp.MustCompile(`^"burst";r=(\d+);t=(\d+)$`)
)

// Every GET route in the route table, and a path no route serves, is under
// the per-client token bucket: each answer says so in RateLimit-Policy and
// RateLimit, and a burst past the limit gets 429 with Retry-After.
func TestEveryRouteIsRateLimited(t *testing.T) {
	const burst = 3
	d := shared.srv.deps
	d.MCP = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusMethodNotAllowed) })
	d.MCPCatalog = func(ctx context.Context) any { return map[string]string{"catalog": "stub"} }
	s := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 0.01, Burst: burst}, d)
	paths := map[string]string{"NoRoute": "/no/such/page", "NoMethod": "/healthz"}
	methods := map[string]string{"NoRoute": "GET", "NoMethod": "PATCH"}
	for _, rt := range s.Router().Routes() {
		if rt.Method == http.MethodGet {
			paths[rt.Path] = samplePath(rt.Path)
			methods[rt.Path] = "GET"
		}
	}
	for _, must := range []string{"/", "/static/*filepath", "/healthz", "/feed.xml", "/r/*link", "/agencies", "/confirm/:token", "/manage/:token", "/u/:token", "/api/search", "/inv/:id"} {
		if _, ok := paths[must]; !ok {
			t.Errorf("route %s not in the table", must)
		}
	}
	n := 0
	for route, path := range paths {
		n++
		ip := "10.9." + strconv.Itoa(n/250) + "." + strconv.Itoa(n%250+1)
		for i := 1; i <= burst+1; i++ {
			r := httptest.NewRequest(methods[route], path, nil)
			r.RemoteAddr = ip + ":5000"
			w := httptest.NewRecorder()
			s.ServeHTTP(w, r)
			h := w.Header()
			pol, st := h.Values("RateLimit-Policy"), h.Values("RateLimit")
			if len(pol) == 0 || len(st) == 0 {
				t.Errorf("%s %s (request %d, %d): no RateLimit fields", methods[route], path, i, w.Code)
				break
			}
			pm, sm := policyRE.FindStringSubmatch(pol[0]), stateRE.FindStringSubmatch(st[0])
			if pm == nil || sm == nil || pm[1] != strconv.Itoa(burst) || pm[2] != "300" {
				t.Errorf("%s: RateLimit-Policy %q RateLimit %q", path, pol, st)
				break
			}
			if i <= burst {
				if w.Code == http.StatusTooManyRequests {
					t.Errorf("%s: request %d within the burst refused", path, i)
				}
				if sm[1] != strconv.Itoa(burst-i) || sm[2] == "0" {
					t.Errorf("%s: request %d: RateLimit %q", path, i, st[0])
				}
				continue
			}
			if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || sm[1] != "0" {
				t.Errorf("%s %s: request %d past the burst: %d, Retry-After %q, RateLimit %q", methods[route], path, i, w.Code, w.Header().Get("Retry-After"), st[0])
			}
			if ra, _ := strconv.Atoi(w.Header().Get("Retry-After")); ra < 1 || ra > 101 {
				t.Errorf("%s: Retry-After %q", path, w.Header().Get("Retry-After"))
			}
		}
	}
	if n < 20 {
		t.Errorf("only %d routes walked", n)
	}
}

// A route that names rateLimit() itself under the global one is charged
// once per request, not twice.
func TestRateLimitChargesOnce(t *testing.T) {
	s := newServer(Config{RatePerSecond: 0.01, Burst: 4}, shared.srv.deps)
	var codes []int
	for i := 0; i < 5; i++ {
		r := httptest.NewRequest("GET", "/api/search?q=parks", nil) // the /api group names rateLimit() too
		r.RemoteAddr = "10.8.0.1:5000"
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		codes = append(codes, w.Code)
	}
	if codes[3] != 200 || codes[4] != 429 {
		t.Errorf("codes %v: want 4 answers then 429", codes)
	}
}

// Daily ceilings speak the same fields, as a policy named after the
// ceiling with a one-day window; no X-RateLimit-* fields remain.
func TestDailyCeilingHeaders(t *testing.T) {
	s := shared.srv
	for i := 1; i <= 2; i++ {
		w := serve(s, "POST", "/batch", "10.7.0.1", "application/json", `{"names":["Acme"]}`)
		if m := rateLimitMember(w.Header(), "RateLimit-Policy", "batch"); m != `"batch";q=`+strconv.Itoa(BatchPerDay)+`;w=86400` {
			t.Errorf("RateLimit-Policy %q", w.Header().Values("RateLimit-Policy"))
		}
		m := rateLimitMember(w.Header(), "RateLimit", "batch")
		if !regexp.MustCompile(`^"batch";r=` + strconv.Itoa(BatchPerDay-i) + `;t=\d+$`).MatchString(m) {
			t.Errorf("RateLimit %q", w.Header().Values("RateLimit"))
		}
		for k := range w.Header() {
			if strings.HasPrefix(k, "X-Ratelimit") {
				t.Errorf("ad-hoc field %s", k)
			}
		}
	}
}
