package main

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/internal/costtest"
	"github.com/recordwatch/recordwatch/internal/record"
)

// costFuzzOver is the cost fuzz (api's TestCostFuzz and api/mcp's
// TestToolCostFuzz) through a running service on any engine: every
// differential request and every route of the route table, with each
// parameter the routes read at its bound and ten times past it, answers
// without a 5xx, within 1 s of this process's CPU and 64 MB of its
// allocation; then every tool with each argument at its bound. (The
// OpenSearch node's own work is its own process's.)
func costFuzzOver(t *testing.T, s engineService, paths []string, form int) {
	t.Helper()
	names := []string{"q", "vendor", "agency", "name", "body", "cursor", "lens", "type", "pin", "title", "scope"}
	fill := costtest.Words
	// and every route of the service's form's table, GET and POST,
	// its path parameters as a plain value and at the name bound
	type target struct{ method, path string }
	var targets []target
	for _, p := range paths {
		targets = append(targets, target{http.MethodGet, p})
	}
	for _, rt := range api.New(api.Config{Form: form}, api.Deps{}).Router().Routes() {
		for _, v := range []string{"x", url.PathEscape(fill(record.MaxNameLen))} {
			var parts []string
			for _, seg := range strings.Split(rt.Path, "/") {
				if strings.HasPrefix(seg, ":") || strings.HasPrefix(seg, "*") {
					seg = v
				}
				parts = append(parts, seg)
			}
			targets = append(targets, target{rt.Method, strings.Join(parts, "/")})
		}
	}
	// a POST carries a JSON body whose text is at its bound
	body := `{"text":"` + fill(record.MaxRequestTextLen) + `"}`
	var worstCPU time.Duration
	var worstAlloc uint64
	sent := 0
	for _, tg := range targets {
		base, _, _ := strings.Cut(tg.path, "?")
		for _, name := range names {
			b := record.InputBound(name)
			for _, n := range []int{b.MaxLen, min(10*b.MaxLen, record.MaxURILen/4)} {
				target := base + "?" + name + "=" + url.QueryEscape(fill(n))
				var res *http.Response
				var err error
				req, rerr := http.NewRequest(tg.method, s.base+target, nil)
				if rerr != nil {
					t.Fatal(rerr)
				}
				if tg.method != http.MethodGet {
					req.Body, req.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
					req.Header.Set("Content-Type", "application/json")
				}
				cpu, alloc := costtest.Measure(func() {
					if res, err = http.DefaultClient.Do(req); err == nil {
						_, _ = io.Copy(io.Discard, res.Body)
						res.Body.Close()
					}
				})
				if err != nil {
					t.Fatalf("%s %s: %v", s.name, target, err)
				}
				worstCPU, worstAlloc = max(worstCPU, cpu), max(worstAlloc, alloc)
				sent++
				if res.StatusCode >= 500 {
					t.Errorf("%s %s %.100s…: %d", s.name, tg.method, target, res.StatusCode)
				}
				if costtest.Over(cpu, alloc) {
					t.Errorf("%s %s %.100s…: %v CPU, %d MB", s.name, tg.method, target, cpu, alloc>>20)
				}
			}
		}
	}
	t.Logf("cost fuzz on %s: %d requests; the costliest took %v of CPU, the hungriest %d MB", s.name, sent, worstCPU, worstAlloc>>20)
	toolCostFuzzOver(t, s)
}

// toolCostFuzzOver is the tool cost fuzz (costtest.Tools) through the
// service's /mcp.
func toolCostFuzzOver(t *testing.T, s engineService) {
	t.Helper()
	c := sdk.NewClient(&sdk.Implementation{Name: "costfuzz", Version: "1"}, nil)
	sess, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: s.base + "/mcp"}, nil)
	if err != nil {
		t.Fatalf("%s initialize: %v", s.name, err)
	}
	defer sess.Close()
	costtest.Tools(t, sess, s.name)
}
