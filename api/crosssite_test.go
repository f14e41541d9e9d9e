package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/record"
)

// serve sends one request straight to the router from client address ip.
func serve(s *Server, method, path, ip, contentType, body string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(body))
	r.RemoteAddr = ip + ":4000"
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		r.Header.Set(hdr[i], hdr[i+1])
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

// rateLimitMember is the list member of policy in a RateLimit field.
func rateLimitMember(h http.Header, field, policy string) string {
	for _, v := range h.Values(field) {
		for _, m := range strings.Split(v, ",") {
			m = strings.TrimSpace(m)
			if strings.HasPrefix(m, strconv.Quote(policy)+";") {
				return m
			}
		}
	}
	return ""
}

// A page on another site cannot make a visitor's browser create a watch,
// spend the daily /batch allowance or store a share: form and text/plain
// posts are refused, and so is a foreign Origin or Sec-Fetch-Site:
// cross-site, before any daily ceiling is taken.
func TestCrossSiteWritesRefused(t *testing.T) {
	s := shared.srv // BaseURL http://rw.test
	const evil = "https://evil.example"
	cases := []struct {
		name, path, ct, body string
		hdr                  []string
		want                 int
	}{
		{"form post, foreign origin", "/api/watches", "application/x-www-form-urlencoded", "email=a%40example.org&text=parks", []string{"Origin", evil}, 403},
		{"text/plain JSON, foreign origin", "/api/watches", "text/plain", `{"email":"a@example.org","text":"parks"}`, []string{"Origin", evil}, 403},
		{"JSON, cross-site fetch metadata", "/api/watches", "application/json", `{"email":"a@example.org","text":"parks"}`, []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"text/plain, no origin", "/api/watches", "text/plain", `{"email":"a@example.org","text":"parks"}`, nil, 400},
		{"no content type", "/api/watches", "", `{"email":"a@example.org","text":"parks"}`, nil, 400},
		{"preview form post", "/api/watches/preview", "application/x-www-form-urlencoded", "text=parks", []string{"Origin", evil}, 403},
		{"preview text/plain", "/api/watches/preview", "text/plain", `{"text":"parks"}`, nil, 400},
		{"origin null", "/api/watches/preview", "application/json", `{"text":"parks"}`, []string{"Origin", "null"}, 403},
		{"sibling port", "/api/watches/preview", "application/json", `{"text":"parks"}`, []string{"Origin", "http://rw.test:8080"}, 403},
		{"batch form post", "/batch", "application/x-www-form-urlencoded", "names=Acme", []string{"Origin", evil, "Sec-Fetch-Site", "cross-site"}, 403},
		{"batch text/plain", "/batch", "text/plain", `{"names":["Acme"]}`, nil, 400},
		{"inv text/plain cross-site", "/inv", "text/plain", `{"title":"t","items":[{"kind":"notice","id":"20140930007"}]}`, []string{"Origin", evil}, 403},
		{"inv no content type", "/inv", "", `{"title":"t","items":[{"kind":"notice","id":"20140930007"}]}`, nil, 400},
	}
	for i, tc := range cases {
		ip := "198.51.100." + strconv.Itoa(10+i)
		w := serve(s, "POST", tc.path, ip, tc.ct, tc.body, tc.hdr...)
		if w.Code != tc.want {
			t.Errorf("%s: POST %s: %d %s, want %d", tc.name, tc.path, w.Code, w.Body, tc.want)
			continue
		}
		var eb errorBody
		if err := json.Unmarshal(w.Body.Bytes(), &eb); err != nil || eb.Error.Code != record.EINVALID || eb.Error.Message == "" {
			t.Errorf("%s: body is not the error shape: %s", tc.name, w.Body)
		}
		if p := rateLimitMember(w.Header(), "RateLimit", "batch") + rateLimitMember(w.Header(), "RateLimit", shareCeilingName); p != "" {
			t.Errorf("%s: a refused request reached a daily ceiling: %s", tc.name, p)
		}
		// the refused request spent nothing: the next good one from the
		// same client still has the whole daily allowance
		var good *httptest.ResponseRecorder
		switch tc.path {
		case "/batch":
			good = serve(s, "POST", "/batch", ip, "application/json", `{"names":["Acme"]}`)
			if m := rateLimitMember(good.Header(), "RateLimit", "batch"); !strings.HasPrefix(m, `"batch";r=`+strconv.Itoa(BatchPerDay-1)+";") {
				t.Errorf("%s: after the refused post the batch ceiling says %q", tc.name, m)
			}
		case "/inv":
			good = serve(s, "POST", "/inv", ip, "application/json", tc.body)
			if m := rateLimitMember(good.Header(), "RateLimit", shareCeilingName); !strings.HasPrefix(m, `"inv";r=`+strconv.Itoa(MaxSharesPerDay-1)+";") {
				t.Errorf("%s: after the refused post the share ceiling says %q", tc.name, m)
			}
		}
	}
	// same origin and plain clients still write
	if w := serve(s, "POST", "/api/watches/preview", "198.51.100.90", "application/json; charset=utf-8", `{"text":"Parks awards"}`, "Origin", "http://rw.test", "Sec-Fetch-Site", "same-origin"); w.Code != 200 {
		t.Errorf("same-origin preview: %d %s", w.Code, w.Body)
	}
	if w := serve(s, "POST", "/api/watches/preview", "198.51.100.91", "application/json", `{"text":"Parks awards"}`); w.Code != 200 {
		t.Errorf("preview without Origin: %d %s", w.Code, w.Body)
	}
	// reads are not affected
	if w := serve(s, "GET", "/api/search?q=parks", "198.51.100.92", "", "", "Origin", evil, "Sec-Fetch-Site", "cross-site"); w.Code != 200 {
		t.Errorf("cross-site GET: %d", w.Code)
	}
}

// No share is stored by a refused cross-site post.
func TestCrossSiteShareNotStored(t *testing.T) {
	e, _ := newFixtureEnv(t, Config{}, "")
	body := `{"title":"t","items":[{"kind":"notice","id":"20140930007"}]}`
	w := serve(e.srv, "POST", "/inv", "203.0.113.60", "text/plain", body, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")
	if w.Code != 403 || strings.Contains(w.Body.String(), `"id"`) {
		t.Fatalf("cross-site share: %d %s", w.Code, w.Body)
	}
	w = serve(e.srv, "POST", "/inv", "203.0.113.60", "application/json", body)
	if w.Code != http.StatusCreated {
		t.Fatalf("same client, good post: %d %s", w.Code, w.Body)
	}
	if m := rateLimitMember(w.Header(), "RateLimit", shareCeilingName); !strings.HasPrefix(m, `"inv";r=`+strconv.Itoa(MaxSharesPerDay-1)+";") {
		t.Errorf("the refused post was counted: %s", m)
	}
}

// The email link posts stay form posts: RFC 8058 one-click unsubscribe
// from a mail provider's server (no Origin, no Sec-Fetch-Site) and the
// pages' own same-origin forms work; a browser post that says it is
// cross-site from a foreign origin is refused, and the watch stays.
func TestLinkPostsAcceptFormsButNotCrossSite(t *testing.T) {
	e := newWatchEnv(t, 2, nil)
	res, _ := httpDo(t, "POST", e.ts.URL+"/api/watches", "text/plain", `{"email":"ivy@example.org","text":"Parks awards"}`, "Origin", "https://evil.example")
	if res.StatusCode != 403 || e.watches(t) != 0 {
		t.Fatalf("cross-site create: %d, %d watches", res.StatusCode, e.watches(t))
	}
	res, _ = httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email":"ivy@example.org","text":"Parks awards"}`)
	if res.StatusCode >= 300 {
		t.Fatalf("create: %d", res.StatusCode)
	}
	confirm := linkWith(t, mailText(t, e, "/confirm/"), "/confirm/")
	if res, body := httpDo(t, "POST", confirm, "application/x-www-form-urlencoded", "", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != 403 || e.watches(t) != 0 {
		t.Fatalf("cross-site confirm: %d %s, %d watches", res.StatusCode, body, e.watches(t))
	}
	if res, body := httpDo(t, "POST", confirm, "application/x-www-form-urlencoded", "", "Origin", e.ts.URL, "Sec-Fetch-Site", "same-origin"); res.StatusCode >= 400 || e.watches(t) != 1 {
		t.Fatalf("same-origin confirm form: %d %s, %d watches", res.StatusCode, body, e.watches(t))
	}
	unsub := linkWith(t, mailText(t, e, "/u/"), "/u/")
	if res, _ := httpDo(t, "POST", unsub, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site"); res.StatusCode != 403 || e.watches(t) != 1 {
		t.Fatalf("cross-site unsubscribe: %d, %d watches", res.StatusCode, e.watches(t))
	}
	if res, body := httpDo(t, "POST", unsub, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click"); res.StatusCode >= 400 || e.watches(t) != 0 {
		t.Fatalf("RFC 8058 one-click from a mail provider: %d %s, %d watches", res.StatusCode, body, e.watches(t))
	}
}

// mailText is the text of the newest outbox message holding part.
func mailText(t *testing.T, e *watchEnv, part string) string {
	t.Helper()
	files := e.outboxFiles("")
	for i := len(files) - 1; i >= 0; i-- {
		if m := readMail(t, files[i]); strings.Contains(m.Text, part) {
			return m.Text
		}
	}
	t.Fatalf("no mail with %s in %v", part, files)
	return ""
}

// MCP Streamable HTTP: a present Origin that is not this service's gets
// 403; clients without Origin are served; every error is a JSON-RPC body.
func TestMCPTransportOriginAndJSONRPCErrors(t *testing.T) {
	mcpSrv := sdk.NewServer(&sdk.Implementation{Name: "t", Version: "1"}, nil)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcpSrv },
		&sdk.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	d := shared.srv.deps
	d.MCP = h
	d.MCPCatalog = func(context.Context) any { return nil }
	s := New(shared.srv.cfg, d) // BaseURL http://rw.test
	ping := `{"jsonrpc":"2.0","id":7,"method":"ping"}`
	accept := "application/json, text/event-stream"
	cases := []struct {
		name, method, ct, body string
		hdr                    []string
		status, code           int
		id                     string
	}{
		{"foreign origin", "POST", "application/json", ping, []string{"Origin", "https://evil.example"}, 403, -32600, "null"},
		{"foreign origin GET", "GET", "", "", []string{"Origin", "https://evil.example"}, 403, -32600, "null"},
		{"origin null", "POST", "application/json", ping, []string{"Origin", "null"}, 403, -32600, "null"},
		{"malformed JSON", "POST", "application/json", `{"jsonrpc":"2.0","id":1,`, nil, 400, -32700, "null"},
		{"deep JSON", "POST", "application/json", strings.Repeat("[", 10001) + strings.Repeat("]", 10001), nil, 400, -32700, "null"},
		{"unknown method", "POST", "application/json", `{"jsonrpc":"2.0","id":42,"method":"no/such"}`, nil, 400, -32601, "42"},
		{"not a message", "POST", "application/json", `5`, nil, 400, -32600, "null"},
		{"text/plain", "POST", "text/plain", ping, nil, 0, -32600, "7"},
		{"GET stateless", "GET", "", "", nil, 405, -32600, "null"},
	}
	for i, tc := range cases {
		hdr := append([]string{"Accept", accept}, tc.hdr...)
		w := serve(s, tc.method, "/mcp", "192.0.2."+strconv.Itoa(i+1), tc.ct, tc.body, hdr...)
		if (tc.status != 0 && w.Code != tc.status) || w.Code < 400 {
			t.Errorf("%s: status %d %s, want %d", tc.name, w.Code, w.Body, tc.status)
		}
		var eb struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") || json.Unmarshal(w.Body.Bytes(), &eb) != nil ||
			eb.JSONRPC != "2.0" || eb.Error.Code != tc.code || eb.Error.Message == "" || string(eb.ID) != tc.id {
			t.Errorf("%s: want a JSON-RPC error %d id %s, got %s %q", tc.name, tc.code, tc.id, w.Header().Get("Content-Type"), w.Body)
		}
	}
	for _, origin := range []string{"", "http://rw.test"} {
		var hdr []string
		if origin != "" {
			hdr = []string{"Origin", origin}
		}
		w := serve(s, "POST", "/mcp", "192.0.2.200", "application/json", ping, append([]string{"Accept", accept}, hdr...)...)
		b, _ := io.ReadAll(w.Body)
		if w.Code != 200 || !strings.Contains(string(b), `"result"`) {
			t.Errorf("ping with Origin %q: %d %s", origin, w.Code, b)
		}
	}
	if w := serve(s, "POST", "/mcp", "192.0.2.201", "application/json", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`+strings.Repeat("a", mcpMaxBody)+`"}}`, "Accept", accept); w.Code != 413 || !strings.Contains(w.Body.String(), `"jsonrpc"`) {
		t.Errorf("oversized: %d %.200s", w.Code, w.Body)
	}
}
