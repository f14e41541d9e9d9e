package osstore

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/store"
)

// kindCalendar: one calendar's record (opaque to the store); expires_ms
// is when it may be swept (store.CalendarKeep after it was written).
const kindCalendar = "calendar"

func calendarID(key string) string { return docID(kindCalendar, store.CalendarID(key)) }

// GetCalendar reads a calendar's record.
func (s *Store) GetCalendar(ctx context.Context, key string) ([]byte, error) {
	d, v, err := s.get(ctx, calendarID(key))
	if err != nil || v == nil {
		return nil, err
	}
	return d.Data, nil
}

// ReviseCalendar revises a calendar's record: read, revise, write if still
// at the version read (retried on a conflict).
func (s *Store) ReviseCalendar(ctx context.Context, key string, now time.Time, revise func([]byte) ([]byte, bool, error)) error {
	for attempt := 0; ; attempt++ {
		d, v, err := s.get(ctx, calendarID(key))
		if err != nil {
			return err
		}
		var old []byte
		if v != nil {
			old = d.Data
		}
		next, changed, err := revise(old)
		if err != nil || !changed {
			return err
		}
		conflict, err := s.put(ctx, calendarID(key), doc{Kind: kindCalendar, Data: next,
			ExpiresMS: now.Add(store.CalendarKeep).UnixMilli()}, ifAt(v))
		if err != nil || !conflict {
			return err
		}
		if err := conflictWait(ctx, attempt); err != nil {
			return err
		}
	}
}

// sweepCalendars forgets calendar records past their expiry.
func (s *Store) sweepCalendars(ctx context.Context, now time.Time) (int, error) {
	removed := 0
	err := s.scan(ctx, []any{term("kind", kindCalendar), rangeQ("expires_ms", map[string]any{"lt": now.UnixMilli()})}, nil, func(h hit) error {
		ok, err := s.del(ctx, h.ID, h.version())
		if ok {
			removed++
		}
		return err
	})
	return removed, err
}
