package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/feed"
)

// bucketCalendars: CalendarID(key) → feed.CalendarState JSON.
var bucketCalendars = []byte("calendars")

var _ Calendars = (*Bolt)(nil)

// GetCalendar reads a calendar's state.
func (s *Bolt) GetCalendar(ctx context.Context, key string) (feed.CalendarState, error) {
	var st feed.CalendarState
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		st, err = getCalendar(tx, key)
		return err
	})
	return st, err
}

func getCalendar(tx *bolt.Tx, key string) (feed.CalendarState, error) {
	var st feed.CalendarState
	b := tx.Bucket(bucketCalendars)
	if b == nil {
		return st, nil
	}
	raw := b.Get([]byte(CalendarID(key)))
	if raw == nil {
		return st, nil
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return feed.CalendarState{}, fmt.Errorf("store: calendar state is unreadable: %w", err)
	}
	return st, nil
}

// ReviseCalendar revises a calendar's state in one transaction.
func (s *Bolt) ReviseCalendar(ctx context.Context, key string, revise func(*feed.CalendarState) bool) error {
	// read first: an unchanged calendar costs no write transaction
	st, err := s.GetCalendar(ctx, key)
	if err != nil {
		return err
	}
	if probe := st; !revise(&probe) {
		return nil
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketCalendars)
		if err != nil {
			return err
		}
		st, err := getCalendar(tx, key)
		if err != nil {
			return err
		}
		if !revise(&st) {
			return nil
		}
		v, err := json.Marshal(st)
		if err != nil {
			return err
		}
		return b.Put([]byte(CalendarID(key)), v)
	})
}

// sweepCalendars forgets calendar states not revised since keep before
// now (their cancelled events have expired too).
func sweepCalendars(tx *bolt.Tx, now time.Time, keep time.Duration) (int, error) {
	b := tx.Bucket(bucketCalendars)
	if b == nil {
		return 0, nil
	}
	removed := 0
	c := b.Cursor()
	for k, raw := c.First(); k != nil; {
		var st feed.CalendarState
		if err := json.Unmarshal(raw, &st); err != nil || now.Sub(st.Revised) > keep {
			kk := append([]byte(nil), k...)
			if err := c.Delete(); err != nil {
				return removed, err
			}
			removed++
			k, raw = c.Seek(kk)
			continue
		}
		k, raw = c.Next()
	}
	return removed, nil
}
