package api

import (
	"context"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Admission control: expensive requests (facets, exact counts, semantic
// and hybrid modes, federated search, passages, contract analysis, payroll
// totals, cold feeds, the batch look-up, agency and vendor profiles and
// their pages, entity dossiers and relationships, property locations; the
// one list is admittedRoutes and admittedTools below) share a bounded
// number of slots per process. A request that finds every slot taken waits its turn, first
// come first served, when the wait the queue ahead of it should take (its
// length over the slots, times what a slot has lately been held for) is
// within AdmissionWait; otherwise, or when the queue holds queuePerSlot
// requests per slot, or when its turn has not come after AdmissionWait, it
// is answered 503 with Retry-After at once. Cheap reads (a record by id,
// cached pages, /healthz) never take a slot, so they never wait behind
// expensive ones.
const (
	// AdmissionWait bounds how long an expensive request waits for a slot.
	AdmissionWait = 2 * time.Second
	// admissionRetry is the Retry-After of a refused expensive request.
	admissionRetry = 2
	// queuePerSlot bounds the queue: this many waiting requests per slot.
	queuePerSlot = 64
	// slotCostPrior is what a slot is taken to be held for before any
	// request has released one.
	slotCostPrior = 10 * time.Millisecond
)

// gate is the pool of slots expensive requests share, and their queue.
// Go queues the senders blocked on a full channel in arrival order and a
// freed slot goes to the first of them, so a request that arrives later
// never takes a slot before one already waiting.
type gate struct {
	slots    chan struct{}
	maxQueue int64
	wait     time.Duration
	queued   atomic.Int64
	// cost is a moving average of how long a slot is held, in nanoseconds
	// (each release weighs 1/8).
	cost atomic.Int64
}

// newGate is a pool of n slots (at least 1) with a queue of up to
// queuePerSlot·n.
func newGate(n int, wait time.Duration) *gate {
	n = max(n, 1)
	g := &gate{slots: make(chan struct{}, n), maxQueue: int64(queuePerSlot * n), wait: wait}
	g.cost.Store(int64(slotCostPrior))
	return g
}

// defaultSlots is one expensive request per two cores (at least one): the
// other cores are left to the cheap reads, which take no slot.
func defaultSlots() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// errBusy is the refusal of an expensive request the pool has no room for.
var errBusy = record.Errorf(record.EUNAVAILABLE,
	"the service is busy with expensive requests (facets, exact counts, semantic search, analysis, profiles); try again in a few seconds")

// expectedWait is how long the request at position pos of the queue (1
// for the first) should wait for a slot.
func (g *gate) expectedWait(pos int64) time.Duration {
	n := int64(cap(g.slots))
	return time.Duration((pos + n - 1) / n * g.cost.Load())
}

// enter takes a slot, waiting its turn in the queue up to g.wait; release
// gives it back. errBusy when the queue is full, when its expected wait is
// over g.wait, or when the wait runs out; the context's error when the
// client leaves first.
func (g *gate) enter(ctx context.Context) (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
		return g.held(), nil
	default:
	}
	pos := g.queued.Add(1)
	defer g.queued.Add(-1)
	if pos > g.maxQueue || g.expectedWait(pos) > g.wait {
		return nil, errBusy
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.held(), nil
	case <-t.C:
		return nil, errBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// held is the release of a slot taken now: it frees the slot and weighs
// how long it was held into g.cost.
func (g *gate) held() func() {
	start := time.Now()
	return func() {
		took := int64(time.Since(start))
		for {
			old := g.cost.Load()
			if g.cost.CompareAndSwap(old, old+(took-old)/8) {
				break
			}
		}
		<-g.slots
	}
}

// admittedRoutes is the one list of the routes that take a slot, by
// "METHOD /path" as the route table (routes.go) names them, with when
// (nil: always). Every route whose cost grows with the data is here:
// faceted, counted or semantic searches, federated search, passages,
// contract analysis, payroll rows, the batch look-up, agency and vendor
// profiles with their pages (a dossier each), property locations (every
// disposition notice), and every list's CSV twin (asksCSV). Cold feeds take a slot from their handler (inSlot),
// since one served from its cache costs nothing; so does the
// home page's week (GET /, HEAD /, GET /api/week: weekAnswer). TestCostlyRoutesAndToolsTakeASlot
// fails when a route over the admission threshold is missing.
var admittedRoutes = map[string]func(c *gin.Context) bool{
	"GET /api/search":             func(c *gin.Context) bool { return expensiveSearch(c) || asksCSV(c) },
	"GET /api/search/federated":   always,
	"GET /api/passages":           always,
	"GET /api/contracts/analysis": always,
	"GET /contracts/analysis":     always,
	"GET /api/payroll":            always,
	"GET /api/rows":               always,
	"GET /rows":                   always,
	"POST /batch":                 always,
	"GET /api/agencies/*id":       always,
	"GET /api/vendors/*stem":      always,
	"GET /agencies/:id/":          always,
	"GET /vendors/*stem":          always,
	"GET /property-locations":     always,
	"GET /api/contracts":          asksCSV,
	"GET /api/meetings":           asksCSV,
	"GET /api/land-projects":      asksCSV,
	"GET /api/civil-service":      asksCSV,
}

// asksCSV is the when of a list route whose CSV twin (?format=csv) streams
// every row up to procure.MaxRowExport, page after page: the export takes
// a slot, the JSON page does not.
func asksCSV(c *gin.Context) bool {
	return strings.EqualFold(strings.TrimSpace(c.Query("format")), "csv")
}

// admittedTools is the one list of the MCP tools that take a slot
// whatever their arguments: federated search, contract analysis, passage
// retrieval, and the entity dossier and relationships (a profile each).
// Any tool also takes one with an exact count or a semantic or hybrid
// mode (toolExpensive).
var admittedTools = map[string]bool{
	"search_federated": true, "analyze_contracts": true, "retrieve_cited_passages": true,
	"get_entity_dossier": true, "get_entity_relationships": true,
}

// always is the when of a route that always takes a slot.
func always(*gin.Context) bool { return true }

// toolExpensive tells whether a tools/call takes a slot: a tool of
// admittedTools, or any with an exact count or a non-keyword mode.
func toolExpensive(name, mode string, exactCount bool) bool {
	return admittedTools[name] || exactCount || (mode != "" && mode != "keyword")
}

// admission runs the rest of the chain in a slot when the matched route is
// in admittedRoutes and its when holds; a refusal is 503 with Retry-After.
// routes.go runs it on every route after the rate limit.
func (s *Server) admission(c *gin.Context) {
	when, ok := admittedRoutes[c.Request.Method+" "+c.FullPath()]
	if !ok || !when(c) {
		c.Next()
		return
	}
	release, err := s.gate.enter(c.Request.Context())
	if err != nil {
		writeError(c, err) // errBusy: with Retry-After
		return
	}
	defer release()
	c.Next()
}

// inSlot runs build in a slot: for work that is expensive only sometimes
// (a feed built cold, not one served from its cache).
func (s *Server) inSlot(ctx context.Context, build func() error) error {
	release, err := s.gate.enter(ctx)
	if err != nil {
		return err
	}
	defer release()
	return build()
}

// expensiveSearch tells which notice searches are expensive: facets, an
// exact count, or a semantic or hybrid mode.
func expensiveSearch(c *gin.Context) bool {
	q := c.Request.URL.Query()
	on := func(name string) bool {
		switch strings.ToLower(strings.TrimSpace(q.Get(name))) {
		case "1", "true", "yes":
			return true
		}
		return false
	}
	mode := strings.ToLower(strings.TrimSpace(q.Get("mode")))
	return on("facets") || on("exact_count") || (mode != "" && mode != "keyword")
}
