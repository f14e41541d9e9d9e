package store

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// TestUnsubscribeLeavesNoAddress: once a watch is deleted (unsubscribe),
// no key or value in any bucket of the state file holds its address, in
// any letter case: not the watch, not its deliveries (whose mail text may
// quote it), not a ceiling (keyed by an opaque id) nor a counter.
func TestUnsubscribeLeavesNoAddress(t *testing.T) {
	s, err := OpenBolt(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	const addr = "Gone.Person+news@Example.org"
	w := watch.Watch{ID: watch.NewID(), Email: addr, Filter: watch.Filter{Lens: "money"}, Scope: "x", Form: 1, Status: watch.StatusActive,
		CreatedAt: now, ActivatedAt: now}
	if err := s.CreateWatch(ctx, w, "nonce-1", now.Add(time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	d := Delivery{WatchID: w.ID, Window: "2026-08-14", State: DeliverySent, PlannedAt: now, Body: "Sent to " + addr, Subject: "to " + addr}
	if _, _, err := s.PlanDigest(ctx, d, watch.Progress{}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(ctx, watch.CeilingAddress, watch.AddressKey(addr)+" 192.0.2.1", 3, now); err != nil {
		t.Fatal(err)
	}
	if err := CountEvent(ctx, s, CounterSubscriptionActive, now, 1); err != nil {
		t.Fatal(err)
	}
	holds := func() []string {
		t.Helper()
		if err := s.FlushCounters(); err != nil {
			t.Fatal(err)
		}
		var found []string
		needles := [][]byte{[]byte(strings.ToLower(addr)), []byte(strings.ToLower(watch.AddressKey(addr)))}
		var walk func(path string, b *bolt.Bucket) error
		walk = func(path string, b *bolt.Bucket) error {
			return b.ForEach(func(k, v []byte) error {
				if v == nil { // a nested bucket
					return walk(path+"/"+string(k), b.Bucket(k))
				}
				for _, n := range needles {
					if bytes.Contains(bytes.ToLower(k), n) || bytes.Contains(bytes.ToLower(v), n) {
						found = append(found, path+"/"+string(k))
					}
				}
				return nil
			})
		}
		err := s.db.View(func(tx *bolt.Tx) error {
			return tx.ForEach(func(name []byte, b *bolt.Bucket) error { return walk(string(name), b) })
		})
		if err != nil {
			t.Fatal(err)
		}
		return found
	}
	if got := holds(); len(got) < 2 {
		t.Fatalf("the address should be in the watch and its delivery before: %v", got)
	}
	if found, err := s.DeleteWatch(ctx, w.ID); err != nil || !found {
		t.Fatal(found, err)
	}
	if got := holds(); len(got) != 0 {
		t.Errorf("the address is still held after unsubscribe: %v", got)
	}
}
