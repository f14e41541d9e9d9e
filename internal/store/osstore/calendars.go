package osstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/store"
)

// kindCalendar: one calendar's revision record (feed.CalendarState);
// expires_ms is when it may be swept (feed.CancelledKeep after its last
// revision).
const kindCalendar = "calendar"

func calendarID(key string) string { return docID(kindCalendar, store.CalendarID(key)) }

func (s *Store) getCalendar(ctx context.Context, key string) (feed.CalendarState, *version, error) {
	var st feed.CalendarState
	d, v, err := s.get(ctx, calendarID(key))
	if err != nil || v == nil {
		return st, v, err
	}
	if err := json.Unmarshal(d.Data, &st); err != nil {
		return feed.CalendarState{}, nil, fmt.Errorf("store: calendar state is unreadable: %w", err)
	}
	return st, v, nil
}

// GetCalendar reads a calendar's state.
func (s *Store) GetCalendar(ctx context.Context, key string) (feed.CalendarState, error) {
	st, _, err := s.getCalendar(ctx, key)
	return st, err
}

// ReviseCalendar revises a calendar's state: read, revise, write if still
// at the version read (retried on a conflict).
func (s *Store) ReviseCalendar(ctx context.Context, key string, revise func(*feed.CalendarState) bool) error {
	for attempt := 0; ; attempt++ {
		st, v, err := s.getCalendar(ctx, key)
		if err != nil {
			return err
		}
		if !revise(&st) {
			return nil
		}
		data, err := json.Marshal(st)
		if err != nil {
			return err
		}
		conflict, err := s.put(ctx, calendarID(key), doc{Kind: kindCalendar, Data: data,
			ExpiresMS: st.Revised.Add(feed.CancelledKeep).UnixMilli()}, ifAt(v))
		if err != nil || !conflict {
			return err
		}
		if err := conflictWait(ctx, attempt); err != nil {
			return err
		}
	}
}

// sweepCalendars forgets calendar states past their expiry.
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
