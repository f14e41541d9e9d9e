package api

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// feedCacheSize bounds the number of distinct feeds kept in memory.
const feedCacheSize = 512

// feedBuildTimeout bounds one shared backend call for a feed.
const feedBuildTimeout = 15 * time.Second

// feedEntry is one feed rendered in every format.
type feedEntry struct {
	built        time.Time
	lastModified time.Time
	bodies       [numFormats][]byte
	etags        [numFormats]string
}

// feedCache is the in-process response cache of feeds, keyed by the
// normalized parameter set: a feed is built at most once per TTL (by the
// injected clock), whatever its format and however many readers poll it at
// once, so repeated polls do not touch the backend. It holds at most max
// feeds; when full, expired entries go first, then the oldest.
type feedCache struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu      sync.Mutex
	entries map[string]*feedEntry
	group   singleflight.Group
}

func newFeedCache(ttl time.Duration, max int, now func() time.Time) *feedCache {
	return &feedCache{ttl: ttl, max: max, now: now, entries: map[string]*feedEntry{}}
}

// get returns the fresh entry for key, or builds it once (concurrent
// callers for the same key share one build). Failed builds are not cached.
func (fc *feedCache) get(ctx context.Context, key string, build func(context.Context) (*feedEntry, error)) (*feedEntry, error) {
	if e := fc.lookup(key); e != nil {
		return e, nil
	}
	ch := fc.group.DoChan(key, func() (any, error) {
		if e := fc.lookup(key); e != nil {
			return e, nil
		}
		// the build outlives a caller that goes away: others may wait on it
		bctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), feedBuildTimeout)
		defer cancel()
		e, err := build(bctx)
		if err != nil {
			return nil, err
		}
		fc.store(key, e)
		return e, nil
	})
	select {
	case r := <-ch:
		if r.Err != nil {
			return nil, r.Err
		}
		return r.Val.(*feedEntry), nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (fc *feedCache) fresh(e *feedEntry, now time.Time) bool {
	return now.Sub(e.built) < fc.ttl && !now.Before(e.built)
}

func (fc *feedCache) lookup(key string) *feedEntry {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	e := fc.entries[key]
	if e == nil || !fc.fresh(e, fc.now()) {
		return nil
	}
	return e
}

func (fc *feedCache) store(key string, e *feedEntry) {
	fc.mu.Lock()
	defer fc.mu.Unlock()
	if _, ok := fc.entries[key]; !ok && len(fc.entries) >= fc.max {
		now := fc.now()
		for k, old := range fc.entries {
			if !fc.fresh(old, now) {
				delete(fc.entries, k)
			}
		}
		for len(fc.entries) >= fc.max {
			var oldestKey string
			var oldest time.Time
			for k, old := range fc.entries {
				if oldestKey == "" || old.built.Before(oldest) || old.built.Equal(oldest) && k < oldestKey {
					oldestKey, oldest = k, old.built
				}
			}
			delete(fc.entries, oldestKey)
		}
	}
	fc.entries[key] = e
}
