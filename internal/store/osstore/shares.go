package osstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

// shareValue is a snapshot's data: its dates and the exact body (base64 in
// JSON, so kept byte for byte); a swept one keeps its dates only.
type shareValue struct {
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
	Body      []byte    `json:"body,omitempty"`
	SweptAt   time.Time `json:"swept_at,omitzero"`
}

// PutShare stores a new snapshot; an id stored before (swept or not) is
// refused.
func (s *Store) PutShare(ctx context.Context, sh store.Share) error {
	if sh.ID == "" || len(sh.Body) == 0 || !sh.ExpiresAt.After(sh.CreatedAt) {
		return fmt.Errorf("store: share needs an id, a body and an expiry after its creation")
	}
	data, err := json.Marshal(shareValue{CreatedAt: sh.CreatedAt, ExpiresAt: sh.ExpiresAt, Body: sh.Body})
	if err != nil {
		return err
	}
	conflict, err := s.put(ctx, docID(kindShare, sh.ID), doc{Kind: kindShare, ExpiresMS: sh.ExpiresAt.UnixMilli(), Data: data}, mustCreate)
	if err != nil {
		return err
	}
	if conflict {
		return fmt.Errorf("store: share id %q is already taken", sh.ID)
	}
	return nil
}

// GetShare reads a snapshot or its tombstone.
func (s *Store) GetShare(ctx context.Context, id string) (store.Share, error) {
	d, v, err := s.get(ctx, docID(kindShare, id))
	if err != nil {
		return store.Share{}, err
	}
	if v == nil {
		return store.Share{}, record.Errorf(record.ENOTFOUND, "no shared investigation with this id")
	}
	var sv shareValue
	if err := json.Unmarshal(d.Data, &sv); err != nil {
		return store.Share{}, fmt.Errorf("store: share %q is unreadable: %w", id, err)
	}
	return store.Share{ID: id, CreatedAt: sv.CreatedAt, ExpiresAt: sv.ExpiresAt, Body: sv.Body, Swept: d.Swept}, nil
}

// SweepShares removes the content of snapshots expired at now (keeping
// their dates) and forgets tombstones older than store.ShareTombstoneTTL.
func (s *Store) SweepShares(ctx context.Context, now time.Time) (int, error) {
	removed := 0
	err := s.scan(ctx, []any{term("kind", kindShare), rangeQ("expires_ms", map[string]any{"lte": now.UnixMilli()})},
		[]any{term("swept", true)}, func(h hit) error {
			var sv shareValue
			if err := json.Unmarshal(h.Source.Data, &sv); err == nil && now.Before(sv.ExpiresAt) {
				return nil // expires later within this millisecond
			}
			sv.Body, sv.SweptAt = nil, now
			data, err := json.Marshal(sv)
			if err != nil {
				return err
			}
			d := h.Source
			d.Swept, d.Data = true, data
			conflict, err := s.put(ctx, h.ID, d, ifAt(h.version()))
			if err == nil && !conflict {
				removed++
			}
			return err
		})
	if err != nil {
		return removed, err
	}
	// tombstones past their own lifetime (scan refreshes first, so the
	// ones just made are seen too)
	limit := now.Add(-store.ShareTombstoneTTL)
	err = s.scan(ctx, []any{term("kind", kindShare), term("swept", true), rangeQ("expires_ms", map[string]any{"lte": limit.UnixMilli()})},
		nil, func(h hit) error {
			var sv shareValue
			if err := json.Unmarshal(h.Source.Data, &sv); err == nil && now.Before(sv.ExpiresAt.Add(store.ShareTombstoneTTL)) {
				return nil
			}
			ok, err := s.del(ctx, h.ID, h.version())
			if ok {
				removed++
			}
			return err
		})
	return removed, err
}
