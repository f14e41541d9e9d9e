package osstore

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"time"
)

type counterKey struct{ name, day string }

// counters buffers event counts between writes, as the bbolt store does:
// a request adds to a map; once a second each changed counter document is
// read and written back with its new total (if_seq_no, retried when
// another process wrote it meanwhile). Reads include what is buffered.
type counters struct {
	mu       sync.Mutex
	pending  map[counterKey]int // not written yet
	inflight map[counterKey]int // being written now
	stored   map[counterKey]int // the total as this process last read or wrote it

	fmu  sync.Mutex // one flush at a time; Counts waits for it, so nothing is counted twice
	stop chan struct{}
	done chan struct{}
	once sync.Once
	s    *Store
}

func (c *counters) startFlusher(s *Store, every time.Duration) {
	c.s = s
	c.pending, c.inflight, c.stored = map[counterKey]int{}, map[counterKey]int{}, map[counterKey]int{}
	c.stop, c.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(c.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-c.stop:
				return
			case <-t.C:
				if err := c.FlushCounters(); err != nil {
					slog.Warn("osstore: write event counts (kept in memory, retried)", "err", err)
				}
			}
		}
	}()
}

func (c *counters) stopFlusher() error {
	var err error
	c.once.Do(func() {
		close(c.stop)
		<-c.done
		err = c.FlushCounters()
	})
	return err
}

// FlushCounters writes the buffered event counts. Counts that could not be
// written stay buffered.
func (c *counters) FlushCounters() error {
	c.fmu.Lock()
	defer c.fmu.Unlock()
	c.mu.Lock()
	batch := c.pending
	c.pending = map[counterKey]int{}
	for k, d := range batch {
		c.inflight[k] = d
	}
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var errs []error
	for k, d := range batch {
		total, err := c.s.addCounter(ctx, k, d)
		c.mu.Lock()
		delete(c.inflight, k)
		if err != nil {
			c.pending[k] += d
			errs = append(errs, err)
		} else {
			c.stored[k] = total
		}
		c.mu.Unlock()
	}
	return errors.Join(errs...)
}

// addCounter adds d to a counter document and returns its new total.
func (s *Store) addCounter(ctx context.Context, k counterKey, d int) (int, error) {
	id := docID(kindCounter, k.name, k.day)
	for attempt := 0; ; attempt++ {
		cur, v, err := s.get(ctx, id)
		if err != nil {
			return 0, err
		}
		total := cur.N + d
		conflict, err := s.put(ctx, id, doc{Kind: kindCounter, Name: k.name, Day: k.day, N: total}, ifAt(v))
		if err != nil {
			return 0, err
		}
		if !conflict {
			return total, nil
		}
		if err := conflictWait(ctx, attempt); err != nil {
			return 0, err
		}
	}
}

// Incr adds delta to a per-day counter and returns its total: this
// process's events exactly, other processes' as of this process's last
// write of the counter (or first read of it).
func (s *Store) Incr(ctx context.Context, name, day string, delta int) (int, error) {
	if strings.ContainsRune(name, 0) || name == "" {
		return 0, errors.New("osstore: bad counter name")
	}
	k := counterKey{name, day}
	s.mu.Lock()
	_, known := s.stored[k]
	s.mu.Unlock()
	if !known {
		cur, _, err := s.get(ctx, docID(kindCounter, name, day))
		if err != nil {
			return 0, err
		}
		s.mu.Lock()
		if _, ok := s.stored[k]; !ok {
			s.stored[k] = cur.N
		}
		s.mu.Unlock()
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pending[k] += delta
	return s.stored[k] + s.inflight[k] + s.pending[k], nil
}

// Counts reads a counter's per-day totals from the index, with this
// process's buffered counts added.
func (s *Store) Counts(ctx context.Context, name, fromDay, toDay string) (map[string]int, error) {
	s.fmu.Lock()
	defer s.fmu.Unlock()
	out := map[string]int{}
	err := s.scan(ctx, []any{term("kind", kindCounter), term("name", name),
		rangeQ("day", map[string]any{"gte": fromDay, "lte": toDay})}, nil, func(h hit) error {
		out[h.Source.Day] += h.Source.N
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for k, d := range s.pending {
		if k.name == name && k.day >= fromDay && k.day <= toDay {
			out[k.day] += d
		}
	}
	return out, nil
}
