package main

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/costtest"
	"github.com/recordwatch/recordwatch/internal/record"
)

// costFuzzOver is the cost fuzz (api's TestCostFuzz) through a running
// service on any engine: every differential request with each parameter
// the routes read at its bound and ten times past it answers without a
// 5xx, within 1 s of this process's CPU and 64 MB of its allocation.
// (The OpenSearch node's own work is its own process's.)
func costFuzzOver(t *testing.T, s engineService, paths []string) {
	t.Helper()
	names := []string{"q", "vendor", "agency", "name", "body", "cursor", "lens", "type", "pin", "title", "scope"}
	fill := func(n int) string { return strings.Repeat("acme ", n/5+1)[:n] }
	var worstCPU time.Duration
	var worstAlloc uint64
	sent := 0
	for _, p := range paths {
		base, _, _ := strings.Cut(p, "?")
		for _, name := range names {
			b := record.InputBound(name)
			for _, n := range []int{b.MaxLen, min(10*b.MaxLen, record.MaxURILen/4)} {
				target := base + "?" + name + "=" + url.QueryEscape(fill(n))
				var res *http.Response
				var err error
				cpu, alloc := costtest.Measure(func() {
					if res, err = http.Get(s.base + target); err == nil {
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
					t.Errorf("%s %.100s…: %d", s.name, target, res.StatusCode)
				}
				if costtest.Over(cpu, alloc) {
					t.Errorf("%s %.100s…: %v CPU, %d MB", s.name, target, cpu, alloc>>20)
				}
			}
		}
	}
	t.Logf("cost fuzz on %s: %d requests; the costliest took %v of CPU, the hungriest %d MB", s.name, sent, worstCPU, worstAlloc>>20)
}
