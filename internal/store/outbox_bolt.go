package store

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/watch"
)

var (
	// bucketMail: promise id → promised mail (watch.Promise JSON).
	bucketMail = []byte("mail_outbox")
	// bucketAddresses: address key → its budget (watch.AddressState JSON).
	bucketAddresses = []byte("mail_addresses")
)

func putJSON(tx *bolt.Tx, bucket []byte, key string, v any) error {
	b, err := tx.CreateBucketIfNotExists(bucket)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return b.Put([]byte(key), raw)
}

func putPromise(tx *bolt.Tx, p watch.Promise) error {
	if p.ID == "" || p.Address == "" || p.Email == "" {
		return fmt.Errorf("store: a promised mail needs an id and an address")
	}
	return putJSON(tx, bucketMail, p.ID, p)
}

// QueueMail stores a promised mail.
func (s *Bolt) QueueMail(ctx context.Context, p watch.Promise) error {
	return s.db.Update(func(tx *bolt.Tx) error { return putPromise(tx, p) })
}

// PendingMail lists the promised mail not yet delivered.
func (s *Bolt) PendingMail(ctx context.Context) ([]watch.Promise, error) {
	var out []watch.Promise
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMail)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			var p watch.Promise
			if err := json.Unmarshal(v, &p); err != nil {
				return fmt.Errorf("store: promised mail %q is unreadable: %w", k, err)
			}
			out = append(out, p)
			return nil
		})
	})
	return out, err
}

// PutMail updates a promised mail still pending.
func (s *Bolt) PutMail(ctx context.Context, p watch.Promise) (bool, error) {
	kept := false
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMail)
		if b == nil || b.Get([]byte(p.ID)) == nil {
			return nil
		}
		kept = true
		return putPromise(tx, p)
	})
	return kept, err
}

// MailDone removes delivered promises and records the address's unasked
// mail, in one transaction.
func (s *Bolt) MailDone(ctx context.Context, address string, ids []string, unaskedAt time.Time) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketMail); b != nil {
			for _, id := range ids {
				if err := b.Delete([]byte(id)); err != nil {
					return err
				}
			}
		}
		if unaskedAt.IsZero() {
			return nil
		}
		a, err := getAddress(tx, address)
		if err != nil {
			return err
		}
		a.Key = address
		if unaskedAt.After(a.UnaskedAt) {
			a.UnaskedAt = unaskedAt
		}
		return putJSON(tx, bucketAddresses, address, a)
	})
}

// DropMail removes every pending promise of an address.
func (s *Bolt) DropMail(ctx context.Context, address string) (int, error) {
	n := 0
	err := s.db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketMail)
		if b == nil {
			return nil
		}
		var drop [][]byte
		err := b.ForEach(func(k, v []byte) error {
			var p watch.Promise
			if json.Unmarshal(v, &p) == nil && p.Address == address {
				drop = append(drop, append([]byte(nil), k...))
			}
			return nil
		})
		if err != nil {
			return err
		}
		for _, k := range drop {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		n = len(drop)
		return nil
	})
	return n, err
}

func getAddress(tx *bolt.Tx, key string) (watch.AddressState, error) {
	var a watch.AddressState
	b := tx.Bucket(bucketAddresses)
	if b == nil {
		return a, nil
	}
	raw := b.Get([]byte(key))
	if raw == nil {
		return a, nil
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return a, fmt.Errorf("store: the mail budget of an address is unreadable: %w", err)
	}
	return a, nil
}

// Address reads an address's mail budget.
func (s *Bolt) Address(ctx context.Context, key string) (watch.AddressState, error) {
	var a watch.AddressState
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		a, err = getAddress(tx, key)
		return err
	})
	return a, err
}

// PutAddress stores an address's mail budget.
func (s *Bolt) PutAddress(ctx context.Context, a watch.AddressState) error {
	if a.Key == "" {
		return fmt.Errorf("store: an address budget needs its key")
	}
	return s.db.Update(func(tx *bolt.Tx) error { return putJSON(tx, bucketAddresses, a.Key, a) })
}

// TouchWatch marks a watch as acted on by its owner.
func (s *Bolt) TouchWatch(ctx context.Context, id string) error {
	return s.db.Update(func(tx *bolt.Tx) error {
		w, ok, err := getWatch(tx, id)
		if err != nil || !ok || !w.Untouched {
			return err
		}
		w.Untouched = false
		return putJSON(tx, bucketWatches, id, w)
	})
}
