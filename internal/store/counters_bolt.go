package store

import (
	"context"
	"encoding/binary"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// counterFlushEvery is how often buffered event counts are written.
const counterFlushEvery = time.Second

// counterBuffer holds event counts in memory between writes. Every bbolt
// write transaction ends in an fsync, which capped cached feed requests at
// about 1,500 a second when each one wrote its counter; now a request adds
// to a map and one transaction a second writes them all. Reads (Incr's
// result, Counts) include what is buffered. A crash loses at most the last
// second of counts; Close writes them. Ceilings (Take) are not buffered:
// they must hold across a restart.
type counterBuffer struct {
	mu      sync.Mutex
	pending map[string]int // counterKey → delta not yet written
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once // Close may be called more than once
}

func (s *Bolt) startFlusher(every time.Duration) {
	s.pending = map[string]int{}
	s.stop, s.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(s.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-t.C:
				if err := s.FlushCounters(); err != nil {
					slog.Warn("store: write event counts (kept in memory, retried)", "err", err)
				}
			}
		}
	}()
}

func (s *Bolt) stopFlusher() error {
	var err error
	s.once.Do(func() {
		close(s.stop)
		<-s.done
		err = s.FlushCounters()
	})
	return err
}

// FlushCounters writes the buffered event counts in one transaction. On
// failure they stay buffered.
func (s *Bolt) FlushCounters() error {
	s.mu.Lock()
	defer s.mu.Unlock() // readers wait for the write, so no count is seen twice or missed
	if len(s.pending) == 0 {
		return nil
	}
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketCounters)
		for k, d := range s.pending {
			if err := putInt(b, []byte(k), getInt(b, []byte(k))+d); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil {
		clear(s.pending)
	}
	return err
}

// Incr adds to a per-day counter and returns its total.
func (s *Bolt) Incr(ctx context.Context, name, day string, delta int) (int, error) {
	if strings.ContainsRune(name, 0) {
		return 0, errors.New("store: bad counter name")
	}
	k := counterKey(name, day)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending[string(k)] += delta
	n := s.pending[string(k)]
	err := s.db.View(func(tx *bolt.Tx) error {
		n += getInt(tx.Bucket(bucketCounters), k)
		return nil
	})
	return n, err
}

// Counts reads a counter's per-day totals, buffered counts included.
func (s *Bolt) Counts(ctx context.Context, name, fromDay, toDay string) (map[string]int, error) {
	out := map[string]int{}
	prefix := name + "\x00"
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketCounters).Cursor()
		for k, v := c.Seek(counterKey(name, fromDay)); k != nil && strings.HasPrefix(string(k), prefix); k, v = c.Next() {
			day := string(k[len(prefix):])
			if day > toDay {
				break
			}
			if len(v) == 8 {
				out[day] = int(binary.BigEndian.Uint64(v))
			}
		}
		return nil
	})
	for k, d := range s.pending {
		if day, ok := strings.CutPrefix(k, prefix); ok && day >= fromDay && day <= toDay {
			out[day] += d
		}
	}
	return out, err
}
