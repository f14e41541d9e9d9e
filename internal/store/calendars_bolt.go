package store

import (
	"context"
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"
)

// bucketCalendars: CalendarID(key) → written-at (unix ms, 8 bytes) and
// the calendar's record.
var bucketCalendars = []byte("calendars")

var _ Calendars = (*Bolt)(nil)

// GetCalendar reads a calendar's record.
func (s *Bolt) GetCalendar(ctx context.Context, key string) ([]byte, error) {
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		out = getCalendar(tx, key)
		return nil
	})
	return out, err
}

func getCalendar(tx *bolt.Tx, key string) []byte {
	b := tx.Bucket(bucketCalendars)
	if b == nil {
		return nil
	}
	raw := b.Get([]byte(CalendarID(key)))
	if len(raw) < 8 {
		return nil
	}
	return append([]byte(nil), raw[8:]...)
}

// ReviseCalendar revises a calendar's record in one transaction; an
// unchanged one costs no write transaction.
func (s *Bolt) ReviseCalendar(ctx context.Context, key string, now time.Time, revise func([]byte) ([]byte, bool, error)) error {
	old, err := s.GetCalendar(ctx, key)
	if err != nil {
		return err
	}
	if _, changed, err := revise(old); err != nil || !changed {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketCalendars)
		if err != nil {
			return err
		}
		next, changed, err := revise(getCalendar(tx, key))
		if err != nil || !changed {
			return err
		}
		v := make([]byte, 8, 8+len(next))
		binary.BigEndian.PutUint64(v, uint64(now.UnixMilli()))
		return b.Put([]byte(CalendarID(key)), append(v, next...))
	})
}

// sweepCalendars forgets calendar records not written for keep.
func sweepCalendars(tx *bolt.Tx, now time.Time, keep time.Duration) (int, error) {
	b := tx.Bucket(bucketCalendars)
	if b == nil {
		return 0, nil
	}
	removed := 0
	c := b.Cursor()
	for k, raw := c.First(); k != nil; {
		if len(raw) < 8 || now.Sub(time.UnixMilli(int64(binary.BigEndian.Uint64(raw[:8])))) > keep {
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
