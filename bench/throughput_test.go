package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestThroughputCountsOnlyAnswers: every query of the pool is sent once
// (a refusal with Retry-After again after the delay, its wait counted);
// the shed ones and the failed ones are counted, and req/s counts the
// answered only; the budget stops a pool that is not used up.
func TestThroughputCountsOnlyAnswers(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	refused := map[string]bool{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query().Get("q")
		mu.Lock()
		got[r.URL.RequestURI()]++
		mu.Unlock()
		switch {
		case strings.HasPrefix(q, "shed"):
			mu.Lock()
			first := !refused[q]
			refused[q] = true
			mu.Unlock()
			if first {
				w.Header().Set("Retry-After", "0")
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte(`{"total":1}`))
		case strings.HasPrefix(q, "bad"):
			http.Error(w, "no", http.StatusBadRequest)
		case strings.HasPrefix(q, "slow"):
			time.Sleep(30 * time.Millisecond)
			w.Write([]byte(`{"total":1}`))
		default:
			w.Write([]byte(`{"total":1}`))
		}
	}))
	defer srv.Close()
	mk := func(words ...string) []logQuery {
		var out []logQuery
		for _, w := range words {
			out = append(out, logQuery{mixQuery: mixQuery{Name: w, Kind: kindSearch, Params: url.Values{"q": {w}}}, Band: bandRare})
		}
		return out
	}
	s := liveSystem{S: &system{Key: "ours", Name: "Recordwatch"}, Base: srv.URL}
	pool := mk("a1", "a2", "a3", "shed1", "shed2", "bad1", "a4", "a5")
	r := runThroughput(context.Background(), s, "keyword", pool, 4, time.Minute)
	if r.Sent != 8 || r.OK != 7 || r.Shed != 2 || r.Errors != 1 {
		t.Fatalf("sent %d ok %d shed %d errors %d, want 8 7 2 1", r.Sent, r.OK, r.Shed, r.Errors)
	}
	if len(r.Took) != r.OK {
		t.Errorf("%d latencies for %d answers", len(r.Took), r.OK)
	}
	for u, n := range got {
		if want := 1 + strings.Count(u, "shed"); n != want {
			t.Errorf("%s sent %d times, want %d", u, n, want)
		}
	}
	if want := float64(7) / r.Elapsed.Seconds(); r.ReqPerSec() != want {
		t.Errorf("req/s %v, want %v", r.ReqPerSec(), want)
	}
	// a budget shorter than the pool takes: it stops early
	var slow []string
	for range 200 {
		slow = append(slow, "slow"+strings.Repeat("x", len(slow)))
	}
	r = runThroughput(context.Background(), s, "keyword", mk(slow...), 2, 100*time.Millisecond)
	if r.Sent == 0 || r.Sent >= 200 {
		t.Errorf("sent %d of 200 slow queries in a 100 ms budget", r.Sent)
	}
}

// TestThroughputPool: the pool holds distinct queries, none already seen.
func TestThroughputPool(t *testing.T) {
	build := func(seed uint64) []logQuery {
		var out []logQuery
		for i := range 5 {
			w := string(rune('a' + (int(seed)+i)%7))
			out = append(out, logQuery{mixQuery: mixQuery{Kind: kindSearch, Params: url.Values{"q": {w}}}, Band: bandRare})
		}
		return out
	}
	seen := map[string]bool{build(0)[0].requestPath(): true}
	pool := throughputPool(build, 0, seen, 100)
	if len(pool) != 6 {
		t.Fatalf("%d queries, want the 6 distinct words not seen", len(pool))
	}
	paths := map[string]bool{}
	for _, q := range pool {
		if paths[q.requestPath()] {
			t.Errorf("%s twice", q.requestPath())
		}
		paths[q.requestPath()] = true
	}
}
