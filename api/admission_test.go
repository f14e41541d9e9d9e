package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Expensive requests share a bounded pool of slots with a short queue;
// past it they are refused with 503 and Retry-After at once, while cheap
// reads (a notice by id, a keyword search, /healthz) are served as if the
// pool were idle; once a slot is free the expensive request is served.
func TestExpensiveRequestsQueueCheapOnesDoNot(t *testing.T) {
	cfg := shared.srv.cfg
	cfg.ExpensiveSlots = 1
	d := withServices(cfg, shared.srv.deps)
	d.MCP = mcp.Handler(mcpDepsOf(d, "http://rw.test"), 1)
	s := New(cfg, d)
	e := &env{srv: s, ts: httptest.NewServer(s), be: shared.be, st: shared.st}
	defer e.ts.Close()
	release, err := s.gate.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s.gate.queued.Add(s.gate.maxQueue) // the queue is full too
	for _, path := range []string{"/api/notices/20140930007", "/api/search?q=parks", "/healthz", "/agencies", "/api/contracts?agency=parks", "/api/land-projects"} {
		if res, body := get(t, e, path); res.StatusCode != http.StatusOK {
			t.Errorf("cheap %s with the pool full: %d %.200s", path, res.StatusCode, body)
		}
	}
	expensive := []string{"/api/search?q=parks&facets=true", "/api/search?q=parks&exact_count=true", "/api/search?q=parks&mode=hybrid",
		"/api/search/federated?q=NYPD", "/api/contracts/analysis", "/api/payroll?name=smith", "/api/passages?q=parks",
		"/feed.json?lens=money&q=admissiontestword", "/api/search?q=parks&format=csv", "/api/contracts?format=csv", "/api/meetings?format=csv",
		"/api/land-projects?format=csv", "/api/civil-service?format=csv"}
	for _, path := range expensive {
		res, body := get(t, e, path)
		if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("expensive %s with the pool full: %d (Retry-After %q) %.200s", path, res.StatusCode, res.Header.Get("Retry-After"), body)
		}
	}
	// tool calls alike: an expensive tool waits its turn, a cheap one does not
	call := func(tool, args string) *http.Response {
		req, _ := http.NewRequest("POST", e.ts.URL+"/mcp", strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+tool+`","arguments":`+args+`}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for _, c := range []struct{ tool, args string }{{"search_federated", `{"q":"NYPD"}`}, {"search_notices", `{"q":"parks","mode":"hybrid"}`},
		{"analyze_contracts", `{}`}} {
		if res := call(c.tool, c.args); res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
			t.Errorf("expensive tool %s with the pool full: %d", c.tool, res.StatusCode)
		}
	}
	if res := call("get_notice", `{"request_id":"20140930007"}`); res.StatusCode != http.StatusOK {
		t.Errorf("cheap tool with the pool full: %d", res.StatusCode)
	}
	s.gate.queued.Add(-s.gate.maxQueue)
	release()
	for _, path := range expensive {
		if res, body := get(t, e, path); res.StatusCode >= 500 {
			t.Errorf("expensive %s with a free slot: %d %.200s", path, res.StatusCode, body)
		}
	}
}

// A request that finds the slots taken waits its turn when the queue ahead
// of it should clear within the gate's wait, and takes a slot in the order
// it came; one whose expected wait is longer is refused at once, not after
// waiting to be refused.
func TestGateQueuesInOrderAndRefusesALongWaitAtOnce(t *testing.T) {
	g := newGate(1, time.Hour)
	release, err := g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	const waiting = 5
	got := make(chan int, waiting)
	for i := range waiting {
		go func() {
			r, err := g.enter(context.Background())
			if err != nil {
				t.Errorf("waiter %d: %v", i, err)
				got <- -1
				return
			}
			got <- i
			r()
		}()
		for g.queued.Load() != int64(i+1) { // waiter i is in the queue before i+1 comes
			runtime.Gosched()
		}
	}
	release()
	for want := range waiting {
		if i := <-got; i != want {
			t.Fatalf("slot %d went to waiter %d, want %d (first come, first served)", want, i, want)
		}
	}
	// a slot held for 1 s on average, a wait of 2 s: the first two in the
	// queue wait, the third is refused without waiting
	g = newGate(1, 2*time.Second)
	g.cost.Store(int64(time.Second))
	release, err = g.enter(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	g.queued.Store(2)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := g.enter(ctx); err != errBusy {
		t.Fatalf("third in a queue expected to take 3 s: %v, want errBusy", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the refusal waited for the context")
	}
	g.queued.Store(1)
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := g.enter(ctx); err != context.Canceled {
		t.Fatalf("second in a queue expected to take 2 s: %v, want to wait (and see the client leave)", err)
	}
	if n := g.queued.Load(); n != 1 {
		t.Errorf("queue length after the waiter left: %d, want 1", n)
	}
}

// countingNames counts the reads of the notices' raw agency strings.
type countingNames struct {
	search.Engine
	reads atomic.Int64
}

func (c *countingNames) NoticeAgencyNames(ctx context.Context) ([]search.AgencyName, error) {
	c.reads.Add(1)
	return c.Engine.NoticeAgencyNames(ctx)
}

// GET /agencies is built once per index generation, not per request: a
// second request reads nothing from the engine, and a write makes the
// next one build it again.
func TestAgenciesBuiltOncePerGeneration(t *testing.T) {
	eng := &countingNames{Engine: search.Cached(shared.be, false)}
	s := newServer(shared.srv.cfg, Deps{Search: eng, Store: shared.st, Crosswalk: shared.srv.deps.Crosswalk, Now: shared.srv.deps.Now})
	e := &env{srv: s, ts: httptest.NewServer(s), be: shared.be, st: shared.st}
	defer e.ts.Close()
	var first []byte
	for i := range 3 {
		res, body := get(t, e, "/agencies")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("/agencies: %d %.200s", res.StatusCode, body)
		}
		if i == 0 {
			first = body
		} else if string(body) != string(first) {
			t.Errorf("request %d answers differently", i)
		}
	}
	if n := eng.reads.Load(); n != 1 {
		t.Errorf("the engine was read %d times for 3 requests, want 1", n)
	}
	if err := eng.Refresh(context.Background()); err != nil { // a write through the engine: a new generation
		t.Fatal(err)
	}
	get(t, e, "/agencies")
	if n := eng.reads.Load(); n != 2 {
		t.Errorf("after a write: %d reads, want 2", n)
	}
}
