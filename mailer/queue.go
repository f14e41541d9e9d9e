package mailer

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Mail that a request causes (a welcome, a confirmation) is sent off the
// request path: the request queues the work and answers at once, so its
// timing never depends on what is done for the address (whether a mail is
// composed and handed to a relay, or skipped because the address had its
// daily share), nor on how slow the relay is. A failed send is logged.

const (
	sendWorkers = 4               // concurrent sends at most
	sendTimeout = 2 * time.Minute // one queued job, relay included
)

type sendJob struct {
	what string
	run  func(ctx context.Context) error
	ctx  context.Context // the request's values, without its cancellation
}

// sendQueue is a bounded queue served by at most sendWorkers goroutines,
// started on demand and gone when the queue is empty (a Mailer needs no
// Close).
type sendQueue struct {
	jobs    chan sendJob
	mu      sync.Mutex
	idle    *sync.Cond // broadcast when pending drops to zero
	pending int        // queued or running
	workers int
}

func newSendQueue(size int) *sendQueue {
	q := &sendQueue{jobs: make(chan sendJob, size)}
	q.idle = sync.NewCond(&q.mu)
	return q
}

// later queues fn. When the queue is full it waits for room until ctx
// ends; then the mail is not sent and the failure is logged (the caller's
// answer does not change).
func (m *Mailer) later(ctx context.Context, what string, fn func(ctx context.Context) error) {
	q := m.queue
	q.mu.Lock()
	q.pending++
	q.mu.Unlock()
	select {
	case q.jobs <- sendJob{what: what, run: fn, ctx: context.WithoutCancel(ctx)}:
	case <-ctx.Done():
		q.finish()
		m.log().Error("mailer: mail not queued", "kind", what, "err", ctx.Err())
		return
	}
	q.mu.Lock()
	if q.workers < sendWorkers {
		q.workers++
		go m.work()
	}
	q.mu.Unlock()
}

func (q *sendQueue) finish() {
	q.mu.Lock()
	q.pending--
	if q.pending == 0 {
		q.idle.Broadcast()
	}
	q.mu.Unlock()
}

// work runs queued jobs until the queue is empty.
func (m *Mailer) work() {
	q := m.queue
	for {
		select {
		case j := <-q.jobs:
			m.runJob(j)
			q.finish()
		default:
			q.mu.Lock()
			if len(q.jobs) == 0 {
				q.workers--
				q.mu.Unlock()
				return
			}
			q.mu.Unlock()
		}
	}
}

func (m *Mailer) runJob(j sendJob) {
	ctx, cancel := context.WithTimeout(j.ctx, sendTimeout)
	defer cancel()
	defer func() {
		if v := recover(); v != nil {
			m.log().Error("mailer: queued mail failed", "kind", j.what, "panic", fmt.Sprint(v))
		}
	}()
	if err := j.run(ctx); err != nil {
		m.log().Error("mailer: queued mail not sent", "kind", j.what, "err", err)
	}
}

// Flush waits until every mail queued so far has been sent (or has
// failed). Tests that read the outbox call it; so may a shutdown.
func (m *Mailer) Flush() {
	q := m.queue
	q.mu.Lock()
	for q.pending > 0 {
		q.idle.Wait()
	}
	q.mu.Unlock()
}

// FlushContext is Flush bounded by ctx (a shutdown's deadline). It
// reports whether the queue drained; mail still queued when ctx ends is
// sent only if the process keeps running.
func (m *Mailer) FlushContext(ctx context.Context) bool {
	done := make(chan struct{})
	go func() {
		m.Flush()
		close(done)
	}()
	select {
	case <-done:
		return true
	case <-ctx.Done():
		return false
	}
}
