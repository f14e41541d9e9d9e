package store

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// written reads a counter straight from the file, without the buffer.
func written(t *testing.T, s *Bolt, name, day string) int {
	t.Helper()
	n := 0
	if err := s.db.View(func(tx *bolt.Tx) error {
		n = getInt(tx.Bucket(bucketCounters), counterKey(name, day))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return n
}

// Event counts are buffered (no write transaction per event), every read
// sees them, concurrent increments and flushes lose none, and Close writes
// what is left.
func TestCountersAreBufferedAndNoneIsLost(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	const day = "2026-11-22"
	n, err := s.Incr(ctx, CounterFeedRequest, day, 1)
	if err != nil || n != 1 {
		t.Fatalf("first Incr: %d, %v", n, err)
	}
	if w := written(t, s, CounterFeedRequest, day); w != 0 {
		t.Fatalf("an event was written at once (%d): it should be buffered", w)
	}
	if err := s.FlushCounters(); err != nil {
		t.Fatal(err)
	}
	if w := written(t, s, CounterFeedRequest, day); w != 1 {
		t.Fatalf("after a flush the file holds %d, want 1", w)
	}

	var wg sync.WaitGroup
	for g := 0; g < 50; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				if _, err := s.Incr(ctx, CounterFeedRequest, day, 1); err != nil {
					t.Error(err)
				}
				if i%25 == 0 {
					if err := s.FlushCounters(); err != nil {
						t.Error(err)
					}
				}
			}
		}()
	}
	wg.Wait()
	n, _ = s.Incr(ctx, CounterFeedRequest, day, 1)
	if n != 5002 {
		t.Errorf("Incr returned %d, want 5002", n)
	}
	got, err := s.Counts(ctx, CounterFeedRequest, day, day)
	if err != nil || got[day] != 5002 {
		t.Fatalf("Counts %v, %v; want 5002", got, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if w := written(t, s, CounterFeedRequest, day); w != 5002 {
		t.Fatalf("after Close and reopen the file holds %d, want 5002", w)
	}
}
