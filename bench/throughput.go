package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Throughput on distinct queries: the varied log times each query on every
// system in turn, so it tells latency, not how many requests a system
// answers per second when users send it queries it has not seen. Here each
// system, alone, is sent a pool of distinct queries (none in the log or the
// cold reads) from conc workers until the pool is used up or the budget has
// passed; throughput is the answered queries over the time taken.

// ThroughputQueries is the size of the pool of distinct queries sent to each
// system; ThroughputBudget bounds each system's part of the time.
const (
	ThroughputQueries = 20000
	ThroughputBudget  = 20 * time.Second
)

// throughputRun is one system's pass over a pool.
type throughputRun struct {
	Key, Name string
	Bands     string // which bands the pool holds: "all" or "keyword"
	Conc      int
	// Sent is the queries sent; OK answered (200), as a polite client
	// gets them (getPolitely: a refusal by admission control, 503 with
	// Retry-After, is sent again after the delay, the wait in its
	// latency); Shed how many of them were refused at least once; Errors
	// the ones never answered.
	Sent, OK, Shed, Errors int
	Elapsed                time.Duration
	Took                   []time.Duration // of the answered ones
}

// ReqPerSec is the answered queries per second.
func (t throughputRun) ReqPerSec() float64 {
	if t.Elapsed <= 0 {
		return 0
	}
	return float64(t.OK) / t.Elapsed.Seconds()
}

// throughputPool is up to n distinct queries of the corpus not in seen,
// from logs of further seeds.
func throughputPool(build func(seed uint64) []logQuery, seed uint64, seen map[string]bool, n int) []logQuery {
	var out []logQuery
	for k := uint64(0); k < 64 && len(out) < n; k++ {
		for _, q := range build(seed + k) {
			p := q.requestPath()
			if !seen[p] && len(out) < n {
				seen[p] = true
				out = append(out, q)
			}
		}
	}
	return out
}

// runThroughput sends pool to s from conc workers, each query once, until
// the pool is used up or budget has passed (the queries in flight then are
// waited for and counted).
func runThroughput(ctx context.Context, s liveSystem, bands string, pool []logQuery, conc int, budget time.Duration) throughputRun {
	run := throughputRun{Key: s.S.Key, Name: s.S.Name, Bands: bands, Conc: conc}
	client := newClient(conc * 2)
	defer client.CloseIdleConnections()
	var mu sync.Mutex
	var next atomic.Int64
	start := time.Now()
	deadline := start.Add(budget)
	var wg sync.WaitGroup
	for range conc {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil && time.Now().Before(deadline) {
				i := int(next.Add(1)) - 1
				if i >= len(pool) {
					return
				}
				t := time.Now()
				_, shed, err := getPolitely(ctx, client, s.Base+pool[i].requestPath())
				took := time.Since(t)
				mu.Lock()
				run.Sent++
				if shed > 0 {
					run.Shed++
				}
				if err == nil {
					run.OK++
					run.Took = append(run.Took, took)
				} else {
					run.Errors++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	run.Elapsed = time.Since(start)
	return run
}

// throughputPhase measures every system of sys: the keyword and passage
// pool on each, and the pool of every band (semantic and hybrid too) on
// the systems that serve Recordwatch's whole API.
func throughputPhase(ctx context.Context, sys []liveSystem, pool []logQuery, conc int) []throughputRun {
	var keyword, all []logQuery
	for i, q := range pool {
		if i%2 == 0 && !q.ourOnly() {
			keyword = append(keyword, q)
		} else {
			all = append(all, q)
		}
	}
	var out []throughputRun
	for _, s := range sys {
		out = append(out, runThroughput(ctx, s, "keyword", keyword, conc, ThroughputBudget))
		if s.S.FullAPI {
			out = append(out, runThroughput(ctx, s, "all", all, conc, ThroughputBudget))
		}
	}
	return out
}

func renderThroughput(runs []throughputRun) string {
	if len(runs) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "### Throughput on distinct queries, c=%d\n\n", runs[0].Conc)
	fmt.Fprintf(&b, "Each system alone is sent a pool of distinct queries of the same bands (none in the log or the cold reads, none repeated) from %d workers until the pool is used up or %s have passed. "+
		"*keyword*: the keyword and passage bands, sent to every system; *all*: every band, semantic and hybrid too, to the systems serving Recordwatch's API (another half of the pool). "+
		"A query refused by admission control (503 with Retry-After) is sent again after the delay, as a polite client does, its wait in its latency; *shed* counts those queries; req/s counts answered queries.\n\n", runs[0].Conc, ThroughputBudget)
	b.WriteString("| system | bands | sent | answered | shed, retried | errors | seconds | answered req/s | p50 / p95 / p99 of the answered |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n")
	for _, r := range runs {
		lat := "—"
		if len(r.Took) > 0 {
			p50, p95, p99 := pcts(r.Took)
			lat = fmt.Sprintf("%s / %s / %s", ms(p50), ms(p95), ms(p99))
		}
		fmt.Fprintf(&b, "| %s | %s | %d | %d | %d | %d | %.1f | **%.0f** | %s |\n", r.Name, r.Bands, r.Sent, r.OK, r.Shed, r.Errors, r.Elapsed.Seconds(), r.ReqPerSec(), lat)
	}
	b.WriteString("\n")
	return b.String()
}
