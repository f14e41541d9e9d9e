package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Lifetimes of shared investigation snapshots (SPEC §3, §8).
const (
	// ShareTTL is how long a snapshot stays readable after it is stored.
	ShareTTL = 90 * 24 * time.Hour
	// ShareTombstoneTTL is how long, after expiry, the store still
	// remembers that an id existed (its dates only, no content), so a reader
	// of an old link is told "expired" rather than "unknown".
	ShareTombstoneTTL = 365 * 24 * time.Hour
)

// Share is one stored shared-investigation snapshot. Body is kept exactly
// as given (the bytes GET /inv/<id> serves); it is nil once the expired
// snapshot has been swept, when only the dates remain.
type Share struct {
	ID        string
	CreatedAt time.Time
	ExpiresAt time.Time
	Body      []byte
	// Swept reports that the content was removed by the expiry sweep.
	Swept bool
}

// Expired reports whether the snapshot is past its lifetime at now.
func (s Share) Expired(now time.Time) bool { return !now.Before(s.ExpiresAt) }

// Shares stores shared investigation snapshots. The store knows nothing of
// their content: the API validates and renders them.
type Shares interface {
	// PutShare stores a new snapshot. An id that is already taken is an
	// error (ids are random; a clash means a broken random source).
	PutShare(ctx context.Context, sh Share) error
	// GetShare returns a snapshot, expired or not (the caller decides what
	// an expired one means), or a swept one without its body. ENOTFOUND when
	// the id was never stored or has been forgotten.
	GetShare(ctx context.Context, id string) (Share, error)
	// SweepShares removes the content of snapshots expired at now (keeping
	// a tombstone with their dates) and forgets tombstones older than
	// ShareTombstoneTTL. It returns how many entries it removed.
	SweepShares(ctx context.Context, now time.Time) (int, error)
}

var (
	// bucketShares: id → shareValue (dates and the exact body).
	bucketShares = []byte("shares")
	// bucketShareExpiry: expires_at (8-byte big-endian unix seconds) + id →
	// nothing; lets the sweep find expired snapshots without reading all.
	bucketShareExpiry = []byte("shares_expiry")
	// bucketShareTombstones: id → shareValue without body.
	bucketShareTombstones = []byte("shares_expired")
)

// shareValue is how a snapshot is kept in bbolt: its dates travel with it.
type shareValue struct {
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Body      []byte    `json:"body,omitempty"` // base64 in JSON: kept byte for byte
	SweptAt   time.Time `json:"swept_at,omitzero"`
}

func expiryKey(t time.Time, id string) []byte {
	k := make([]byte, 8, 8+len(id))
	binary.BigEndian.PutUint64(k, uint64(max(t.Unix(), 0)))
	return append(k, id...)
}

func createShareBuckets(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketShares, bucketShareExpiry, bucketShareTombstones} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

// PutShare stores a new snapshot with its dates.
func (s *Bolt) PutShare(ctx context.Context, sh Share) error {
	if sh.ID == "" || len(sh.Body) == 0 || !sh.ExpiresAt.After(sh.CreatedAt) {
		return fmt.Errorf("store: share needs an id, a body and an expiry after its creation")
	}
	v, err := json.Marshal(shareValue{CreatedAt: sh.CreatedAt, ExpiresAt: sh.ExpiresAt, Body: sh.Body})
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		if err := createShareBuckets(tx); err != nil {
			return err
		}
		b := tx.Bucket(bucketShares)
		id := []byte(sh.ID)
		if b.Get(id) != nil || tx.Bucket(bucketShareTombstones).Get(id) != nil {
			return fmt.Errorf("store: share id %q is already taken", sh.ID)
		}
		if err := b.Put(id, v); err != nil {
			return err
		}
		return tx.Bucket(bucketShareExpiry).Put(expiryKey(sh.ExpiresAt, sh.ID), nil)
	})
}

// GetShare reads a snapshot or its tombstone.
func (s *Bolt) GetShare(ctx context.Context, id string) (Share, error) {
	var out Share
	found := false
	err := s.db.View(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bucketShares, bucketShareTombstones} {
			b := tx.Bucket(name)
			if b == nil {
				continue
			}
			raw := b.Get([]byte(id))
			if raw == nil {
				continue
			}
			var v shareValue
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("store: share %q is unreadable: %w", id, err)
			}
			out = Share{ID: id, CreatedAt: v.CreatedAt, ExpiresAt: v.ExpiresAt, Body: v.Body,
				Swept: bytes.Equal(name, bucketShareTombstones)}
			found = true
			return nil
		}
		return nil
	})
	if err != nil {
		return Share{}, err
	}
	if !found {
		return Share{}, record.Errorf(record.ENOTFOUND, "no shared investigation with this id")
	}
	return out, nil
}

// SweepShares removes expired snapshots' content and forgets old tombstones.
func (s *Bolt) SweepShares(ctx context.Context, now time.Time) (int, error) {
	removed := 0
	err := s.update(func(tx *bolt.Tx) error {
		if err := createShareBuckets(tx); err != nil {
			return err
		}
		shares, idx, tomb := tx.Bucket(bucketShares), tx.Bucket(bucketShareExpiry), tx.Bucket(bucketShareTombstones)
		// snapshots whose expiry is at or before now; the index is ordered
		// by expiry second, so stop at the first later one
		c := idx.Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.First() {
			if len(k) < 8 || int64(binary.BigEndian.Uint64(k[:8])) > now.Unix() {
				break
			}
			id := k[8:]
			if raw := shares.Get(id); raw != nil {
				var v shareValue
				if err := json.Unmarshal(raw, &v); err == nil && now.Before(v.ExpiresAt) {
					break // expires later within this second
				}
				v.Body, v.SweptAt = nil, now
				t, err := json.Marshal(v)
				if err != nil {
					return err
				}
				if err := tomb.Put(id, t); err != nil {
					return err
				}
				if err := shares.Delete(id); err != nil {
					return err
				}
				removed++
			}
			if err := c.Delete(); err != nil {
				return err
			}
		}
		// tombstones past their own lifetime
		var forget [][]byte
		err := tomb.ForEach(func(k, raw []byte) error {
			var v shareValue
			if err := json.Unmarshal(raw, &v); err != nil || !now.Before(v.ExpiresAt.Add(ShareTombstoneTTL)) {
				forget = append(forget, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range forget {
			if err := tomb.Delete(k); err != nil {
				return err
			}
			removed++
		}
		return nil
	})
	return removed, err
}
