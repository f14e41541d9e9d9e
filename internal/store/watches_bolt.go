package store

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

var (
	// bucketWatches: id → watch JSON.
	bucketWatches = []byte("watches")
	// bucketWatchOnce: used confirmation nonce → expiry (unix seconds).
	bucketWatchOnce = []byte("watches_once")
	// bucketDeliveries: watch id \x00 window → delivery JSON.
	bucketDeliveries = []byte("watches_deliveries")
	keyWatchSecret   = []byte("watch-token-key")
)

func createWatchBuckets(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketWatches, bucketWatchOnce, bucketDeliveries, bucketMeta} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

func deliveryKey(watchID, window string) []byte { return []byte(watchID + "\x00" + window) }

// CreateWatch stores an active watch, claiming its confirmation nonce,
// with the mail it promises (when mail is set), in one transaction.
func (s *Bolt) CreateWatch(ctx context.Context, w watch.Watch, once string, onceUntil time.Time, mail *watch.Promise) error {
	if w.ID == "" || w.Email == "" {
		return fmt.Errorf("store: a watch needs an id and an address")
	}
	v, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		if err := createWatchBuckets(tx); err != nil {
			return err
		}
		if once != "" {
			ob := tx.Bucket(bucketWatchOnce)
			if ob.Get([]byte(once)) != nil {
				return watch.ErrTokenUsed
			}
			e := make([]byte, 8)
			binary.BigEndian.PutUint64(e, uint64(max(onceUntil.Unix(), 0)))
			if err := ob.Put([]byte(once), e); err != nil {
				return err
			}
		}
		b := tx.Bucket(bucketWatches)
		if b.Get([]byte(w.ID)) != nil {
			return fmt.Errorf("store: watch id %q is already taken", w.ID)
		}
		if mail != nil {
			if err := putPromise(tx, *mail); err != nil {
				return err
			}
		}
		return b.Put([]byte(w.ID), v)
	})
}

func getWatch(tx *bolt.Tx, id string) (watch.Watch, bool, error) {
	b := tx.Bucket(bucketWatches)
	if b == nil {
		return watch.Watch{}, false, nil
	}
	raw := b.Get([]byte(id))
	if raw == nil {
		return watch.Watch{}, false, nil
	}
	var w watch.Watch
	if err := json.Unmarshal(raw, &w); err != nil {
		return watch.Watch{}, false, fmt.Errorf("store: watch %q is unreadable: %w", id, err)
	}
	return w, true, nil
}

// GetWatch reads one watch.
func (s *Bolt) GetWatch(ctx context.Context, id string) (watch.Watch, error) {
	var w watch.Watch
	var ok bool
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		w, ok, err = getWatch(tx, id)
		return err
	})
	if err != nil {
		return watch.Watch{}, err
	}
	if !ok {
		return watch.Watch{}, record.Errorf(record.ENOTFOUND, "no such watch")
	}
	return w, nil
}

// DeleteWatch removes a watch and its deliveries.
func (s *Bolt) DeleteWatch(ctx context.Context, id string) (bool, error) {
	found := false
	err := s.update(func(tx *bolt.Tx) error {
		if err := createWatchBuckets(tx); err != nil {
			return err
		}
		b := tx.Bucket(bucketWatches)
		if b.Get([]byte(id)) != nil {
			found = true
			if err := b.Delete([]byte(id)); err != nil {
				return err
			}
		}
		c := tx.Bucket(bucketDeliveries).Cursor()
		prefix := []byte(id + "\x00")
		for k, _ := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, _ = c.Seek(prefix) {
			if err := c.Delete(); err != nil {
				return err
			}
		}
		return nil
	})
	return found, err
}

// ListWatches reads every watch.
func (s *Bolt) ListWatches(ctx context.Context) ([]watch.Watch, error) {
	var out []watch.Watch
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketWatches)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, raw []byte) error {
			var w watch.Watch
			if err := json.Unmarshal(raw, &w); err != nil {
				return fmt.Errorf("store: watch %q is unreadable: %w", k, err)
			}
			out = append(out, w)
			return nil
		})
	})
	return out, err
}

// CountWatches counts watches.
func (s *Bolt) CountWatches(ctx context.Context) (int, error) {
	n := 0
	err := s.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketWatches); b != nil {
			n = b.Stats().KeyN
		}
		return nil
	})
	return n, err
}

func getDelivery(tx *bolt.Tx, watchID, window string) (Delivery, bool, error) {
	b := tx.Bucket(bucketDeliveries)
	if b == nil {
		return Delivery{}, false, nil
	}
	raw := b.Get(deliveryKey(watchID, window))
	if raw == nil {
		return Delivery{}, false, nil
	}
	var d Delivery
	if err := json.Unmarshal(raw, &d); err != nil {
		return Delivery{}, false, fmt.Errorf("store: delivery %s/%s is unreadable: %w", watchID, window, err)
	}
	return d, true, nil
}

// PlanDigest stores a planned delivery and advances the watch, once.
func (s *Bolt) PlanDigest(ctx context.Context, d Delivery, next watch.Progress) (Delivery, bool, error) {
	created := false
	out := d
	err := s.update(func(tx *bolt.Tx) error {
		if err := createWatchBuckets(tx); err != nil {
			return err
		}
		if old, ok, err := getDelivery(tx, d.WatchID, d.Window); err != nil || ok {
			out = old
			return err
		}
		w, ok, err := getWatch(tx, d.WatchID)
		if err != nil {
			return err
		}
		if !ok {
			return record.Errorf(record.ENOTFOUND, "no such watch")
		}
		w.Progress, w.LastWindow = next, d.Window
		wv, err := json.Marshal(w)
		if err != nil {
			return err
		}
		dv, err := json.Marshal(d)
		if err != nil {
			return err
		}
		if err := tx.Bucket(bucketWatches).Put([]byte(w.ID), wv); err != nil {
			return err
		}
		created = true
		return tx.Bucket(bucketDeliveries).Put(deliveryKey(d.WatchID, d.Window), dv)
	})
	return out, created, err
}

// SetCadence changes a watch's cadence.
func (s *Bolt) SetCadence(ctx context.Context, id, cadence string) (bool, error) {
	found := false
	err := s.update(func(tx *bolt.Tx) error {
		if err := createWatchBuckets(tx); err != nil {
			return err
		}
		w, ok, err := getWatch(tx, id)
		if err != nil || !ok {
			return err
		}
		found = true
		w.Cadence = cadence
		v, err := json.Marshal(w)
		if err != nil {
			return err
		}
		return tx.Bucket(bucketWatches).Put([]byte(id), v)
	})
	return found, err
}

// GetDelivery reads one delivery.
func (s *Bolt) GetDelivery(ctx context.Context, watchID, window string) (Delivery, bool, error) {
	var d Delivery
	var ok bool
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		d, ok, err = getDelivery(tx, watchID, window)
		return err
	})
	return d, ok, err
}

// PutDelivery updates a delivery of a watch that still exists.
func (s *Bolt) PutDelivery(ctx context.Context, d Delivery) (bool, error) {
	v, err := json.Marshal(d)
	if err != nil {
		return false, err
	}
	kept := false
	err = s.update(func(tx *bolt.Tx) error {
		if err := createWatchBuckets(tx); err != nil {
			return err
		}
		if tx.Bucket(bucketWatches).Get([]byte(d.WatchID)) == nil {
			return nil
		}
		kept = true
		return tx.Bucket(bucketDeliveries).Put(deliveryKey(d.WatchID, d.Window), v)
	})
	return kept, err
}

// OpenDeliveries lists deliveries with work left.
func (s *Bolt) OpenDeliveries(ctx context.Context) ([]Delivery, error) {
	var out []Delivery
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDeliveries)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, raw []byte) error {
			var d Delivery
			if err := json.Unmarshal(raw, &d); err != nil {
				return nil // an unreadable row is skipped, never retried
			}
			if d.Open() {
				out = append(out, d)
			}
			return nil
		})
	})
	return out, err
}

// WatchKey returns the token key, creating it on first use.
func (s *Bolt) WatchKey(ctx context.Context) ([]byte, error) {
	var key []byte
	err := s.update(func(tx *bolt.Tx) error {
		if err := createWatchBuckets(tx); err != nil {
			return err
		}
		m := tx.Bucket(bucketMeta)
		if k := m.Get(keyWatchSecret); len(k) >= 32 {
			key = append([]byte(nil), k...)
			return nil
		}
		key = make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return err
		}
		return m.Put(keyWatchSecret, key)
	})
	return key, err
}

// SweepWatches forgets expired nonces and old finished deliveries.
func (s *Bolt) SweepWatches(ctx context.Context, now time.Time, keep time.Duration) (int, error) {
	removed := 0
	err := s.update(func(tx *bolt.Tx) error {
		if err := createWatchBuckets(tx); err != nil {
			return err
		}
		c := tx.Bucket(bucketWatchOnce).Cursor()
		for k, v := c.First(); k != nil; {
			if len(v) == 8 && int64(binary.BigEndian.Uint64(v)) < now.Unix() {
				kk := append([]byte(nil), k...)
				if err := c.Delete(); err != nil {
					return err
				}
				removed++
				k, v = c.Seek(kk)
				continue
			}
			k, v = c.Next()
		}
		db := tx.Bucket(bucketDeliveries)
		dc := db.Cursor()
		var bodies [][]byte // keys whose mail text is past watch.BodyKeep
		for k, raw := dc.First(); k != nil; {
			var d Delivery
			err := json.Unmarshal(raw, &d)
			if err == nil && !d.Open() && now.Sub(d.PlannedAt) > keep {
				kk := append([]byte(nil), k...)
				if err := dc.Delete(); err != nil {
					return err
				}
				removed++
				k, raw = dc.Seek(kk)
				continue
			}
			if err == nil && d.Body != "" && now.Sub(d.PlannedAt) > watch.BodyKeep {
				bodies = append(bodies, append([]byte(nil), k...))
			}
			k, raw = dc.Next()
		}
		for _, k := range bodies {
			var d Delivery
			if err := json.Unmarshal(db.Get(k), &d); err != nil {
				continue
			}
			d.Body = ""
			v, err := json.Marshal(d)
			if err != nil {
				return err
			}
			if err := db.Put(k, v); err != nil {
				return err
			}
		}
		n, err := sweepCalendars(tx, now, CalendarKeep)
		removed += n
		return err
	})
	return removed, err
}

// Deliveries lists a watch's deliveries (its ledger).
func (s *Bolt) Deliveries(ctx context.Context, watchID string) ([]Delivery, error) {
	var out []Delivery
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketDeliveries)
		if b == nil {
			return nil
		}
		prefix := []byte(watchID + "\x00")
		c := b.Cursor()
		for k, raw := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, raw = c.Next() {
			var d Delivery
			if json.Unmarshal(raw, &d) == nil {
				out = append(out, d)
			}
		}
		return nil
	})
	return out, err
}

// Ledger is the watch's deliveries as its manage page lists them.
func (s *Bolt) Ledger(ctx context.Context, watchID string) ([]watch.LedgerEntry, error) {
	ds, err := s.Deliveries(ctx, watchID)
	return LedgerOf(ds), err
}
