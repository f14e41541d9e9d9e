package osstore

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// CreateWatch claims the confirmation nonce (op_type=create: a second claim
// gets watch.ErrTokenUsed), then stores the promised mail and the watch.
// If the watch cannot be stored the claim and the mail are removed again,
// so a refused request stores nothing. (A mail whose watch never came is
// dropped by the outbox worker: it delivers a welcome only for a watch it
// can read.)
func (s *Store) CreateWatch(ctx context.Context, w watch.Watch, once string, onceUntil time.Time, mail *watch.Promise) error {
	if w.ID == "" || w.Email == "" {
		return fmt.Errorf("store: a watch needs an id and an address")
	}
	data, err := json.Marshal(w)
	if err != nil {
		return err
	}
	onceID := ""
	if once != "" {
		onceID = docID(kindOnce, once)
		conflict, err := s.put(ctx, onceID, doc{Kind: kindOnce, ExpiresMS: max(onceUntil.Unix(), 0) * 1000}, mustCreate)
		if err != nil {
			return err
		}
		if conflict {
			return watch.ErrTokenUsed
		}
	}
	if mail != nil {
		err = s.QueueMail(ctx, *mail)
	}
	if err == nil {
		var conflict bool
		conflict, err = s.put(ctx, docID(kindWatch, w.ID), doc{Kind: kindWatch, WatchID: w.ID, Data: data}, mustCreate)
		if err == nil && conflict {
			err = fmt.Errorf("store: watch id %q is already taken", w.ID)
		}
	}
	if err != nil && mail != nil {
		_, _ = s.del(context.WithoutCancel(ctx), docID(kindMail, mail.ID), nil)
	}
	if err != nil && onceID != "" {
		if _, derr := s.del(context.WithoutCancel(ctx), onceID, nil); derr != nil {
			err = errors.Join(err, fmt.Errorf("store: the confirmation stays used: %w", derr))
		}
	}
	return err
}

func decodeWatch(d doc) (watch.Watch, error) {
	var w watch.Watch
	if err := json.Unmarshal(d.Data, &w); err != nil {
		return watch.Watch{}, fmt.Errorf("store: watch %q is unreadable: %w", d.WatchID, err)
	}
	return w, nil
}

func (s *Store) getWatch(ctx context.Context, id string) (watch.Watch, *version, error) {
	d, v, err := s.get(ctx, docID(kindWatch, id))
	if err != nil || v == nil {
		return watch.Watch{}, nil, err
	}
	w, err := decodeWatch(d)
	return w, v, err
}

// GetWatch reads one watch.
func (s *Store) GetWatch(ctx context.Context, id string) (watch.Watch, error) {
	w, v, err := s.getWatch(ctx, id)
	if err != nil {
		return watch.Watch{}, err
	}
	if v == nil {
		return watch.Watch{}, record.Errorf(record.ENOTFOUND, "no such watch")
	}
	return w, nil
}

// DeleteWatch removes a watch (with its address) and its deliveries.
func (s *Store) DeleteWatch(ctx context.Context, id string) (bool, error) {
	found, err := s.del(ctx, docID(kindWatch, id), nil)
	if err != nil {
		return false, err
	}
	return found, s.deleteDeliveries(ctx, id)
}

func (s *Store) deleteDeliveries(ctx context.Context, watchID string) error {
	return s.scan(ctx, []any{term("kind", kindDelivery), term("watch_id", watchID)}, nil, func(h hit) error {
		_, err := s.del(ctx, h.ID, nil)
		return err
	})
}

// ListWatches reads every watch.
func (s *Store) ListWatches(ctx context.Context) ([]watch.Watch, error) {
	var out []watch.Watch
	err := s.scan(ctx, []any{term("kind", kindWatch)}, nil, func(h hit) error {
		w, err := decodeWatch(h.Source)
		if err != nil {
			return err
		}
		out = append(out, w)
		return nil
	})
	return out, err
}

// CountWatches counts watches.
func (s *Store) CountWatches(ctx context.Context) (int, error) {
	if err := s.refresh(ctx); err != nil {
		return 0, err
	}
	body, _ := json.Marshal(map[string]any{"size": 0, "track_total_hits": true, "query": term("kind", kindWatch)})
	var res struct {
		Hits struct {
			Total struct {
				Value int `json:"value"`
			} `json:"total"`
		} `json:"hits"`
	}
	if _, err := s.client.Do(ctx, "count watches", http.MethodPost, opensearchapi.SearchReq{Indices: []string{s.alias}, Body: bytes.NewReader(body)}, &res); err != nil {
		return 0, err
	}
	return res.Hits.Total.Value, nil
}

func deliveryID(watchID, window string) string { return docID(kindDelivery, watchID, window) }

// plannedDelivery is a delivery document's data: the delivery, with the
// progress the watch was planned to take (for a PlanDigest that completes
// a planner stopped before advancing the watch). The mapping does not index
// data, so the progress needs no mapping change.
type plannedDelivery struct {
	store.Delivery
	Progress *watch.Progress `json:"progress,omitempty"`
}

func deliveryDoc(d store.Delivery, next *watch.Progress) (doc, error) {
	data, err := json.Marshal(plannedDelivery{Delivery: d, Progress: next})
	if err != nil {
		return doc{}, err
	}
	var seen []string
	if next != nil {
		seen = next.Seen
	}
	return doc{Kind: kindDelivery, WatchID: d.WatchID, Day: d.Window, Open: d.Open(), PlannedMS: d.PlannedAt.UnixMilli(), Seen: seen, Data: data}, nil
}

// plannedProgress is the progress a delivery document was planned with
// (documents written before progress was kept have only the seen set).
func plannedProgress(d doc) *watch.Progress {
	var pd plannedDelivery
	if err := json.Unmarshal(d.Data, &pd); err == nil && pd.Progress != nil {
		return pd.Progress
	}
	if d.Seen == nil {
		return nil
	}
	return &watch.Progress{Seen: d.Seen}
}

func decodeDelivery(d doc) (store.Delivery, error) {
	var out store.Delivery
	if err := json.Unmarshal(d.Data, &out); err != nil {
		return store.Delivery{}, fmt.Errorf("store: delivery %s/%s is unreadable: %w", d.WatchID, d.Day, err)
	}
	return out, nil
}

// PlanDigest stores the delivery for the watch and window unless one
// exists, then sets the watch's seen set and last window. The delivery
// document keeps the seen set it was planned with: a PlanDigest that finds
// the delivery already there completes a planner that stopped before
// advancing the watch, so the result is the same as one transaction's.
func (s *Store) PlanDigest(ctx context.Context, d store.Delivery, next watch.Progress) (store.Delivery, bool, error) {
	if _, v, err := s.getWatch(ctx, d.WatchID); err != nil {
		return store.Delivery{}, false, err
	} else if v == nil {
		return store.Delivery{}, false, record.Errorf(record.ENOTFOUND, "no such watch")
	}
	dd, err := deliveryDoc(d, &next)
	if err != nil {
		return store.Delivery{}, false, err
	}
	id := deliveryID(d.WatchID, d.Window)
	conflict, err := s.put(ctx, id, dd, mustCreate)
	if err != nil {
		return store.Delivery{}, false, err
	}
	if conflict {
		old, v, err := s.get(ctx, id)
		if err != nil {
			return store.Delivery{}, false, err
		}
		if v == nil {
			return store.Delivery{}, false, &record.Error{Code: record.EUNAVAILABLE, Message: "a digest delivery changed while it was planned; try again"}
		}
		got, err := decodeDelivery(old)
		if err != nil {
			return store.Delivery{}, false, err
		}
		prog := watch.Progress{}
		if p := plannedProgress(old); p != nil {
			prog = *p
		}
		if _, err := s.advance(ctx, d.WatchID, d.Window, prog, true); err != nil && record.ErrorCode(err) != record.ENOTFOUND {
			return got, false, err
		}
		return got, false, nil
	}
	if _, err := s.advance(ctx, d.WatchID, d.Window, next, false); err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			// removed meanwhile: its deliveries go with it
			_, _ = s.del(context.WithoutCancel(ctx), id, nil)
		}
		return store.Delivery{}, false, err
	}
	return d, true, nil
}

// advance sets a watch's progress and last window (only when its last
// window is older, if onlyForward). ENOTFOUND when the watch is gone.
func (s *Store) advance(ctx context.Context, watchID, window string, next watch.Progress, onlyForward bool) (bool, error) {
	return s.updateWatch(ctx, watchID, func(w *watch.Watch) bool {
		if onlyForward && w.LastWindow >= window {
			return false
		}
		w.Progress, w.LastWindow = next, window
		return true
	})
}

// SetCadence changes a watch's cadence.
func (s *Store) SetCadence(ctx context.Context, id, cadence string) (bool, error) {
	_, err := s.updateWatch(ctx, id, func(w *watch.Watch) bool {
		w.Cadence = cadence
		return true
	})
	if record.ErrorCode(err) == record.ENOTFOUND {
		return false, nil
	}
	return err == nil, err
}

// updateWatch applies change to a watch (read, change, write if still at
// the version read; retried on a conflict). change returns false to leave
// the watch as it is. ENOTFOUND when the watch is gone.
func (s *Store) updateWatch(ctx context.Context, watchID string, change func(*watch.Watch) bool) (bool, error) {
	for attempt := 0; ; attempt++ {
		w, v, err := s.getWatch(ctx, watchID)
		if err != nil {
			return false, err
		}
		if v == nil {
			return false, record.Errorf(record.ENOTFOUND, "no such watch")
		}
		if !change(&w) {
			return false, nil
		}
		data, err := json.Marshal(w)
		if err != nil {
			return false, err
		}
		conflict, err := s.put(ctx, docID(kindWatch, watchID), doc{Kind: kindWatch, WatchID: watchID, Data: data}, ifAt(v))
		if err != nil {
			return false, err
		}
		if !conflict {
			return true, nil
		}
		if err := conflictWait(ctx, attempt); err != nil {
			return false, err
		}
	}
}

// GetDelivery reads one delivery.
func (s *Store) GetDelivery(ctx context.Context, watchID, window string) (store.Delivery, bool, error) {
	d, v, err := s.get(ctx, deliveryID(watchID, window))
	if err != nil || v == nil {
		return store.Delivery{}, false, err
	}
	out, err := decodeDelivery(d)
	return out, err == nil, err
}

// PutDelivery updates a delivery of a watch that still exists; one whose
// watch is gone (before or during the write) is dropped and false returned.
func (s *Store) PutDelivery(ctx context.Context, d store.Delivery) (bool, error) {
	if _, v, err := s.getWatch(ctx, d.WatchID); err != nil || v == nil {
		return false, err
	}
	id := deliveryID(d.WatchID, d.Window)
	for attempt := 0; ; attempt++ {
		old, v, err := s.get(ctx, id)
		if err != nil {
			return false, err
		}
		dd, err := deliveryDoc(d, plannedProgress(old))
		if err != nil {
			return false, err
		}
		conflict, err := s.put(ctx, id, dd, ifAt(v))
		if err != nil {
			return false, err
		}
		if !conflict {
			break
		}
		if err := conflictWait(ctx, attempt); err != nil {
			return false, err
		}
	}
	if _, v, err := s.getWatch(ctx, d.WatchID); err != nil || v == nil {
		if err == nil {
			_, err = s.del(ctx, id, nil) // the watch was removed meanwhile
		}
		return false, err
	}
	return true, nil
}

// OpenDeliveries lists deliveries with work left.
func (s *Store) OpenDeliveries(ctx context.Context) ([]store.Delivery, error) {
	var out []store.Delivery
	err := s.scan(ctx, []any{term("kind", kindDelivery), term("open", true)}, nil, func(h hit) error {
		d, err := decodeDelivery(h.Source)
		if err == nil && d.Open() { // an unreadable one is skipped, never retried
			out = append(out, d)
		}
		return nil
	})
	return out, err
}

// WatchKey returns the token-signing key, created once for every process.
func (s *Store) WatchKey(ctx context.Context) ([]byte, error) {
	return s.metaKey(ctx, "watch-token-key")
}

// SweepWatches forgets used nonces past their expiry and finished
// deliveries planned more than keep ago.
func (s *Store) SweepWatches(ctx context.Context, now time.Time, keep time.Duration) (int, error) {
	removed := 0
	err := s.scan(ctx, []any{term("kind", kindOnce), rangeQ("expires_ms", map[string]any{"lt": now.Unix() * 1000})}, nil, func(h hit) error {
		ok, err := s.del(ctx, h.ID, h.version())
		if ok {
			removed++
		}
		return err
	})
	if err != nil {
		return removed, err
	}
	err = s.scan(ctx, []any{term("kind", kindDelivery), rangeQ("planned_ms", map[string]any{"lt": now.Add(-keep).UnixMilli()})},
		[]any{term("open", true)}, func(h hit) error {
			d, err := decodeDelivery(h.Source)
			if err != nil || d.Open() || now.Sub(d.PlannedAt) <= keep {
				return nil
			}
			ok, err := s.del(ctx, h.ID, h.version())
			if ok {
				removed++
			}
			return err
		})
	if err != nil {
		return removed, err
	}
	if err := s.clearBodies(ctx, now); err != nil {
		return removed, err
	}
	n, err := s.sweepCalendars(ctx, now)
	return removed + n, err
}
