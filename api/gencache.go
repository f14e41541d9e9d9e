package api

import (
	"context"
	"sync"
	"time"
)

// byGeneration keeps one built document (the agency crosswalk …) for as
// long as the engine's generation is the same and it is younger than
// maxAge (writes by other processes do not change this process's
// generation). One build runs at a time; a failed build is not kept.
type byGeneration[T any] struct {
	maxAge time.Duration
	mu     sync.Mutex
	gen    uint64
	at     time.Time
	val    T
	ok     bool
}

// get returns the kept document or builds it.
func (b *byGeneration[T]) get(ctx context.Context, gen uint64, now time.Time, build func(context.Context) (T, error)) (T, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ok && b.gen == gen && now.Sub(b.at) < b.maxAge && !now.Before(b.at) {
		return b.val, nil
	}
	v, err := build(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	b.val, b.gen, b.at, b.ok = v, gen, now, true
	return v, nil
}
