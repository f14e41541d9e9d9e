package osstore

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Deliveries lists a watch's deliveries (its ledger).
func (s *Store) Deliveries(ctx context.Context, watchID string) ([]store.Delivery, error) {
	var out []store.Delivery
	err := s.scan(ctx, []any{term("kind", kindDelivery), term("watch_id", watchID)}, nil, func(h hit) error {
		if d, err := decodeDelivery(h.Source); err == nil {
			out = append(out, d)
		}
		return nil
	})
	return out, err
}

// Ledger is the watch's deliveries as its manage page lists them.
func (s *Store) Ledger(ctx context.Context, watchID string) ([]watch.LedgerEntry, error) {
	ds, err := s.Deliveries(ctx, watchID)
	return store.LedgerOf(ds), err
}

// clearBodies drops the mail text of deliveries planned more than
// watch.BodyKeep ago (the ledger keeps the rest of the entry).
func (s *Store) clearBodies(ctx context.Context, now time.Time) error {
	return s.scan(ctx, []any{term("kind", kindDelivery), rangeQ("planned_ms", map[string]any{"lt": now.Add(-watch.BodyKeep).UnixMilli()})}, nil,
		func(h hit) error {
			d, err := decodeDelivery(h.Source)
			if err != nil || d.Body == "" {
				return nil
			}
			d.Body = ""
			dd, err := deliveryDoc(d, plannedProgress(h.Source))
			if err != nil {
				return err
			}
			_, err = s.put(ctx, h.ID, dd, ifAt(h.version())) // a conflict: cleared at the next sweep
			return err
		})
}
