package main

import (
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

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
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				alloc0 := ms.TotalAlloc
				var ru0, ru1 syscall.Rusage
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
				res, err := http.Get(s.base + target)
				if err != nil {
					t.Fatalf("%s %s: %v", s.name, target, err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
				runtime.ReadMemStats(&ms)
				cpu := time.Duration(ru1.Utime.Nano() + ru1.Stime.Nano() - ru0.Utime.Nano() - ru0.Stime.Nano())
				alloc := ms.TotalAlloc - alloc0
				worstCPU, worstAlloc = max(worstCPU, cpu), max(worstAlloc, alloc)
				sent++
				if res.StatusCode >= 500 {
					t.Errorf("%s %.100s…: %d", s.name, target, res.StatusCode)
				}
				if cpu > time.Second || alloc > 64<<20 {
					t.Errorf("%s %.100s…: %v CPU, %d MB", s.name, target, cpu, alloc>>20)
				}
			}
		}
	}
	t.Logf("cost fuzz on %s: %d requests; the costliest took %v of CPU, the hungriest %d MB", s.name, sent, worstCPU, worstAlloc>>20)
}
