package api

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/mailer"
)

// Bad values, percent-encoded as they would travel in a URL.
var badValues = []string{
	"%00", "a%00b", "%ff%fe", "%c3%28", "%01%1b%7f", "%0d%0aX-Injected:%201", "%e2%80%ae", "%ef%bb%bf",
	strings.Repeat("a", 5000), strings.Repeat("%f0%9f%98%80", 600), "..", "%2e%2e%2f%2e%2e%2fetc%2fpasswd", "%25", "%2525",
	"-1", "0", "-9223372036854775809", "99999999999999999999999999", "1e309", "NaN", "-Inf", "0x10", "1.5",
	"!!!", "eyJzIjoibmV3ZXN0IiwidiI6W119", "eyJzIjoiIiwidiI6WyIiLCIiLCIiLCIiLCIiXX0", "%22", "%22unclosed", "-%22", "%5B%5D", "%7B%7D",
}

// Parameter names the routes read, and some they do not.
var badKeys = []string{"q", "limit", "cursor", "offset", "agency", "vendor", "lens", "min", "max", "kind", "name", "from", "to", "sort", "format", "page", "id", "borough", "nope", ""}

// Bodies for the write routes.
var badBodies = []string{
	"", "null", "[]", "{}", "0", `"x"`, "{", "{\"a\":", "\x00", "\xff\xfe", `{"email":"\u0000@x","text":"\ud800"}`,
	strings.Repeat("[", 10000) + strings.Repeat("]", 10000),
	strings.Repeat(`{"a":`, 10000) + "1" + strings.Repeat("}", 10000),
	`{"names":[` + strings.Repeat(`"x",`, 5000) + `"x"]}`,
	`{"names":["` + strings.Repeat("a", 70000) + `"]}`,
	`{"email":1e999,"text":123456789012345678901234567890}`,
	`{"limit":-1,"min":-5,"max":1e308}`,
	`{"title":"t","items":[{"kind":"notice","id":"20140930007"}],"title":"again"}`,
	`{"text":"parks","text":"land"}`,
	`{"email":["a@example.org"],"text":{"x":1}}`,
	`{"jsonrpc":"2.0","id":{},"method":"tools/call","params":{"name":"get_notice","arguments":{"request_id":"` + strings.Repeat("9", 100) + `"}}}`,
	`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope"}}`,
	strings.Repeat("x", 2<<20),
}

var badMethods = []string{"PUT", "PATCH", "DELETE", "PROPFIND", "BREW", "CONNECT", "TRACE"}

type badRequest struct {
	method, target, contentType, body string
	route                             string // "METHOD /path" of the route table, "" for none
}

// At least a thousand malformed requests, made from the route table and
// the lists above, get no 5xx a good request to the same route would not
// get, and never a panic (the recoverer turns one into a 500).
func TestMalformedRequests(t *testing.T) {
	dir := t.TempDir()
	mcfg := mailer.Config{BaseURL: "http://rw.test", Form: 1, SubscribeAddress: "subscribe@rw.test", OutboxDir: filepath.Join(dir, "outbox"), RequestsPerClient: 1 << 30}
	d := shared.srv.deps
	m, err := newMailer(context.Background(), mcfg, mailer.Deps{Store: d.Store, Search: d.Search, Crosswalk: d.Crosswalk, Now: d.Now, Logger: quietLog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Flush)
	d.Watches = m.Watches()
	d.Logger = quietLog
	mcpSrv := sdk.NewServer(&sdk.Implementation{Name: "t", Version: "1"}, nil)
	d.MCP = sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpSrv }, &sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	d.MCPCatalog = func(context.Context) any { return map[string]string{"catalog": "stub"} }
	s := newServer(Config{BaseURL: "http://rw.test", RatePerSecond: 1e9, Burst: 1 << 30}, d)

	var reqs []badRequest
	type route struct{ method, path string }
	var routes []route
	seen := map[string]bool{}
	for _, rt := range s.Router().Routes() {
		routes = append(routes, route{rt.Method, rt.Path})
		seen[rt.Path] = true
	}
	for _, rt := range routes {
		base := samplePath(rt.path)
		key := rt.method + " " + rt.path
		ct := ""
		if rt.method == "POST" {
			ct = "application/json"
		}
		// each bad value in each path parameter
		if strings.Contains(rt.path, ":") || strings.Contains(rt.path, "*") {
			for _, v := range badValues {
				var parts []string
				for _, seg := range strings.Split(rt.path, "/") {
					if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
						seg = v
					}
					parts = append(parts, seg)
				}
				reqs = append(reqs, badRequest{rt.method, strings.Join(parts, "/"), ct, "{}", key})
			}
		}
		// each bad value under a parameter name, names taken in turn
		for i, v := range badValues {
			k := badKeys[i%len(badKeys)]
			reqs = append(reqs, badRequest{rt.method, base + "?" + k + "=" + v, ct, "{}", key})
		}
		// repeated, contradictory and shapeless parameters
		for _, q := range []string{"q=a&q=b", "limit=1&limit=2", "lens=money&lens=land", "min=5&max=1", "from=2026-01-01&to=2014-01-01",
			"limit=-5", "limit=1000000000", "cursor=%ff", "q", "&&&", "=", "q=%", "q[]=a", "a=b&" + strings.Repeat("x=1&", 500)} {
			reqs = append(reqs, badRequest{rt.method, base + "?" + q, ct, "{}", key})
		}
		if rt.method == "POST" {
			for _, b := range badBodies {
				reqs = append(reqs, badRequest{"POST", base, "application/json", b, key})
				reqs = append(reqs, badRequest{"POST", base, "application/json; charset=latin1", b, key})
			}
			for _, c := range []string{"", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json; charset", "%00", "application/json\x00"} {
				reqs = append(reqs, badRequest{"POST", base, c, `{"text":"parks"}`, key})
			}
		}
	}
	for p := range seen {
		for _, m := range badMethods {
			reqs = append(reqs, badRequest{m, samplePath(p), "application/json", "{}", ""})
		}
	}
	if len(reqs) < 1000 {
		t.Fatalf("only %d requests", len(reqs))
	}

	// the status a good request to each route gets: a 503 is not a fault of
	// a malformed request when the route answers 503 anyway (a deployment
	// without that service)
	good := map[string]int{}
	for _, rt := range routes {
		body := ""
		if rt.method == "POST" {
			body = `{"text":"parks"}`
		}
		good[rt.method+" "+rt.path] = doBad(t, s, badRequest{rt.method, samplePath(rt.path), "application/json", body, ""}).Code
	}

	start := time.Now()
	statuses := map[int]int{}
	for i, r := range reqs {
		w := doBad(t, s, r)
		statuses[w.Code]++
		if w.Code >= 500 {
			if w.Code == http.StatusServiceUnavailable && r.route != "" && good[r.route] == http.StatusServiceUnavailable {
				continue
			}
			t.Errorf("request %d: %s %.200q (%s, %d-byte body): %d %.300s", i, r.method, r.target, r.contentType, len(r.body), w.Code, w.Body)
		}
	}
	t.Logf("%d malformed requests in %v; statuses %v", len(reqs), time.Since(start).Round(time.Millisecond), statuses)
}

func doBad(t *testing.T, s *Server, r badRequest) *httptest.ResponseRecorder {
	t.Helper()
	u, err := url.Parse("http://rw.test" + r.target)
	if err != nil {
		t.Fatalf("%s: %v", r.target, err)
	}
	req := &http.Request{
		Method: r.method, URL: u, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: http.Header{}, Host: "rw.test", RemoteAddr: "192.0.2.77:1234", RequestURI: r.target,
		Body: http.NoBody, ContentLength: int64(len(r.body)),
	}
	if r.body != "" {
		req.Body = readCloser{strings.NewReader(r.body)}
	}
	if r.contentType != "" {
		req.Header["Content-Type"] = []string{r.contentType}
	}
	req.Header.Set("Accept", "application/json, text/event-stream")
	w := httptest.NewRecorder()
	func() {
		defer func() {
			if v := recover(); v != nil {
				t.Errorf("%s %q: panic %v", r.method, r.target, fmt.Sprint(v))
			}
		}()
		s.ServeHTTP(w, req.WithContext(context.Background()))
	}()
	return w
}

type readCloser struct{ *strings.Reader }

func (readCloser) Close() error { return nil }
