package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// A write bbolt itself cannot make (here: the file is no longer open, as
// when it could not be written) is a classified record error — 503 with a
// message saying nothing was stored — never an internal error; the
// bbolt error stays its cause. A write's own refusal (a confirmation
// already used) is returned as it is.
func TestBoltWriteFailuresAreClassified(t *testing.T) {
	s, err := OpenBolt(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	w := watch.Watch{ID: watch.NewID(), Email: "a@example.org", Filter: watch.Filter{Lens: "money"}, Scope: "x", Form: 1,
		Status: watch.StatusActive, CreatedAt: now, ActivatedAt: now}
	if err := s.CreateWatch(ctx, w, "nonce", now.Add(time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	w2 := w
	w2.ID = watch.NewID()
	if err := s.CreateWatch(ctx, w2, "nonce", now.Add(time.Hour), nil); !errors.Is(err, watch.ErrTokenUsed) {
		t.Errorf("a used nonce: %v, want watch.ErrTokenUsed as it is", err)
	}
	if err := s.Probe(ctx); err != nil {
		t.Fatalf("probe on an open store: %v", err)
	}
	s.stopFlusher()
	if err := s.db.Close(); err != nil {
		t.Fatal(err)
	}
	w3 := w
	w3.ID = watch.NewID()
	for name, err := range map[string]error{
		"Probe":       s.Probe(ctx),
		"CreateWatch": s.CreateWatch(ctx, w3, "", time.Time{}, nil),
		"PutShare":    s.PutShare(ctx, Share{ID: "abcdefghijklmnopqrstuv", CreatedAt: now, ExpiresAt: now.Add(ShareTTL), Body: []byte("{}\n")}),
		"Take": func() error {
			_, err := s.Take(ctx, "c", "198.51.100.1", 3, now)
			return err
		}(),
	} {
		if record.ErrorCode(err) != record.EUNAVAILABLE || !strings.Contains(record.ErrorMessage(err), "nothing was stored") ||
			!errors.Is(err, bolt.ErrDatabaseNotOpen) {
			t.Errorf("%s on a store that cannot write: code %q, message %q, err %v", name, record.ErrorCode(err), record.ErrorMessage(err), err)
		}
	}
}
