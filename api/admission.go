package api

import (
	"context"
	"runtime"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Admission control: expensive requests (facets, exact counts, semantic
// and hybrid modes, federated search, passages, contract analysis, payroll
// totals, cold feeds, the batch look-up) share a bounded number of slots
// per process with a short queue; past the queue, or after waiting
// AdmissionWait, they are answered 503 with Retry-After. Cheap reads (a
// record by id, cached pages, /healthz) never take a slot, so they never
// wait behind expensive ones.
const (
	// AdmissionWait bounds how long an expensive request waits for a slot.
	AdmissionWait = 2 * time.Second
	// admissionRetry is the Retry-After of a refused expensive request.
	admissionRetry = 2
)

// gate is the pool of slots expensive requests share.
type gate struct {
	slots chan struct{}
	queue chan struct{}
	wait  time.Duration
}

// newGate is a pool of n slots (at least 1) with a queue of 2n.
func newGate(n int, wait time.Duration) *gate {
	n = max(n, 1)
	return &gate{slots: make(chan struct{}, n), queue: make(chan struct{}, 2*n), wait: wait}
}

// defaultSlots is one expensive request per two cores (at least one): the
// other cores are left to the cheap reads, which take no slot.
func defaultSlots() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// errBusy is the refusal of an expensive request the pool has no room for.
var errBusy = record.Errorf(record.EUNAVAILABLE,
	"the service is busy with expensive requests (facets, exact counts, semantic search, analysis); try again in a few seconds")

// enter takes a slot, waiting in the queue up to g.wait; release gives it
// back. errBusy when the queue is full or the wait runs out; the context's
// error when the client leaves first.
func (g *gate) enter(ctx context.Context) (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	default:
	}
	select {
	case g.queue <- struct{}{}:
	default:
		return nil, errBusy
	}
	defer func() { <-g.queue }()
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	case <-t.C:
		return nil, errBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// admit runs the rest of the chain in a slot when expensive says the
// request is expensive (nil: always); a refusal is 503 with Retry-After.
func (s *Server) admit(expensive func(c *gin.Context) bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		if expensive != nil && !expensive(c) {
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
