package osstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Promised mail and the per-address budget (watch.Outbox): one document
// each. A promise's name is its address key, so an address's promises are
// found (and dropped) by one term.
const (
	kindMail    = "mail"
	kindAddress = "address"
)

func mailDoc(p watch.Promise) (doc, error) {
	if p.ID == "" || p.Address == "" || p.Email == "" {
		return doc{}, fmt.Errorf("store: a promised mail needs an id and an address")
	}
	data, err := json.Marshal(p)
	if err != nil {
		return doc{}, err
	}
	return doc{Kind: kindMail, Name: p.Address, WatchID: p.WatchID, Data: data}, nil
}

// QueueMail stores a promised mail.
func (s *Store) QueueMail(ctx context.Context, p watch.Promise) error {
	d, err := mailDoc(p)
	if err != nil {
		return err
	}
	_, err = s.put(ctx, docID(kindMail, p.ID), d, overwrite)
	return err
}

func decodeMail(d doc) (watch.Promise, error) {
	var p watch.Promise
	if err := json.Unmarshal(d.Data, &p); err != nil {
		return p, fmt.Errorf("store: promised mail %q is unreadable: %w", d.Key, err)
	}
	return p, nil
}

// PendingMail lists the promised mail not yet delivered.
func (s *Store) PendingMail(ctx context.Context) ([]watch.Promise, error) {
	var out []watch.Promise
	err := s.scan(ctx, []any{term("kind", kindMail)}, nil, func(h hit) error {
		p, err := decodeMail(h.Source)
		if err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	return out, err
}

// PutMail updates a promised mail still pending (at the version read, so
// a promise delivered meanwhile is not written back).
func (s *Store) PutMail(ctx context.Context, p watch.Promise) (bool, error) {
	id := docID(kindMail, p.ID)
	_, v, err := s.get(ctx, id)
	if err != nil || v == nil {
		return false, err
	}
	d, err := mailDoc(p)
	if err != nil {
		return false, err
	}
	conflict, err := s.put(ctx, id, d, ifAt(v))
	return err == nil && !conflict, err
}

// MailDone removes delivered promises, then records the address's
// unasked mail. (OpenSearch has no transaction across documents: a
// process stopped between the two has removed the promises and not moved
// the budget, so at worst one more unasked mail goes a day early.)
func (s *Store) MailDone(ctx context.Context, address string, ids []string, unaskedAt time.Time) error {
	if !unaskedAt.IsZero() {
		a, err := s.Address(ctx, address)
		if err != nil {
			return err
		}
		a.Key = address
		if unaskedAt.After(a.UnaskedAt) {
			a.UnaskedAt = unaskedAt
		}
		if err := s.PutAddress(ctx, a); err != nil {
			return err
		}
	}
	for _, id := range ids {
		if _, err := s.del(ctx, docID(kindMail, id), nil); err != nil {
			return err
		}
	}
	return nil
}

// DropMail removes every pending promise of an address.
func (s *Store) DropMail(ctx context.Context, address string) (int, error) {
	n := 0
	err := s.scan(ctx, []any{term("kind", kindMail), term("name", address)}, nil, func(h hit) error {
		found, err := s.del(ctx, h.ID, nil)
		if found {
			n++
		}
		return err
	})
	return n, err
}

// Address reads an address's mail budget.
func (s *Store) Address(ctx context.Context, key string) (watch.AddressState, error) {
	var a watch.AddressState
	d, v, err := s.get(ctx, docID(kindAddress, key))
	if err != nil || v == nil {
		return a, err
	}
	if err := json.Unmarshal(d.Data, &a); err != nil {
		return a, fmt.Errorf("store: the mail budget of an address is unreadable: %w", err)
	}
	return a, nil
}

// PutAddress stores an address's mail budget.
func (s *Store) PutAddress(ctx context.Context, a watch.AddressState) error {
	if a.Key == "" {
		return fmt.Errorf("store: an address budget needs its key")
	}
	data, err := json.Marshal(a)
	if err != nil {
		return err
	}
	_, err = s.put(ctx, docID(kindAddress, a.Key), doc{Kind: kindAddress, Name: a.Key, Data: data}, overwrite)
	return err
}

// TouchWatch marks a watch as acted on by its owner.
func (s *Store) TouchWatch(ctx context.Context, id string) error {
	_, err := s.updateWatch(ctx, id, func(w *watch.Watch) bool {
		if !w.Untouched {
			return false
		}
		w.Untouched = false
		return true
	})
	if record.ErrorCode(err) == record.ENOTFOUND {
		return nil // ended meanwhile
	}
	return err
}
