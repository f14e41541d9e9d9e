// Package storetest is the contract suite of store.Store: every
// implementation runs it (bbolt always, OpenSearch when OPENSEARCH_URL is
// set) and must show the same behaviour: counters and running totals,
// daily ceilings that never over-grant under concurrent Take, shared
// investigations with expiry and tombstones, watches with single-use
// confirmation nonces, and digest deliveries planned once per window.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Store is what the suite needs of an implementation: the interface plus
// the hourly sweep.
type Store interface {
	store.Store
	store.Sweeper
	store.Receipts
}

// Harness gives each check its own empty state.
type Harness struct {
	// Open opens a store over this check's state. Called again after Close
	// it reopens the same state; with Shared, it may be called while
	// another instance is open, which then shares the state (as separate
	// processes do).
	Open func(t *testing.T) Store
	// Shared: several instances may be open at once (bbolt: no, one
	// process owns the file).
	Shared bool
}

// Run runs every check; newHarness is called once per check.
func Run(t *testing.T, newHarness func(t *testing.T) Harness) {
	checks := []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"CountersSurviveRestart", testCountersSurviveRestart},
		{"CountersConcurrentNoneLost", testCountersConcurrent},
		{"CountersSharedBetweenInstances", testCountersShared},
		{"CountEventAndRunningTotal", testCountEventAndRunningTotal},
		{"DailyCeiling", testDailyCeiling},
		{"CeilingConcurrentTakeNeverOverGrants", testCeilingConcurrent},
		{"SharesRoundTripAndSurviveRestart", testSharesRoundTrip},
		{"SweepSharesAfterExpiry", testSweepShares},
		{"Watches", testWatches},
		{"ConfirmationIsSingleUse", testConfirmationSingleUse},
		{"PlanDigestOncePerWindow", testPlanDigest},
		{"Deliveries", testDeliveries},
		{"WatchKeyIsStable", testWatchKey},
		{"SweepWatches", testSweepWatches},
		{"Calendars", testCalendars},
		{"ReceiptsNewestFirstPerJob", testReceipts},
		{"OutboxKeepsPromisedMail", testOutbox},
		{"ProbeWritesAndLeavesNothing", testProbe},
	}
	for _, c := range checks {
		t.Run(c.name, func(t *testing.T) { c.fn(t, newHarness(t)) })
	}
}

// flusher is implemented by stores that buffer event counts.
type flusher interface{ FlushCounters() error }

func flush(t *testing.T, s Store) {
	t.Helper()
	if f, ok := s.(flusher); ok {
		if err := f.FlushCounters(); err != nil {
			t.Fatal(err)
		}
	}
}

// second opens another instance over the same state when the store allows
// it, else returns the first one (the checks then run within one process).
func second(t *testing.T, h Harness, first Store) Store {
	if !h.Shared {
		return first
	}
	s := h.Open(t)
	t.Cleanup(func() { s.Close() })
	return s
}

func testCountersSurviveRestart(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	for i := 0; i < 3; i++ {
		if _, err := s.Incr(ctx, "redirect", "2026-11-21", 1); err != nil {
			t.Fatal(err)
		}
	}
	s.Incr(ctx, "redirect", "2026-11-22", 2)
	s.Incr(ctx, "redirectx", "2026-11-22", 9) // a name that shares a prefix
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = h.Open(t)
	defer s.Close()
	got, err := s.Counts(ctx, "redirect", "2026-11-01", "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["2026-11-21"] != 3 || got["2026-11-22"] != 2 {
		t.Fatalf("counts %v", got)
	}
	if n, err := s.Incr(ctx, "redirect", "2026-11-21", 1); err != nil || n != 4 {
		t.Errorf("Incr after reopen: %d, %v; want 4", n, err)
	}
}

// Concurrent increments (and flushes, where counts are buffered) lose none.
func testCountersConcurrent(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	const day = "2026-11-22"
	var wg sync.WaitGroup
	for g := 0; g < 20; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				if _, err := s.Incr(ctx, store.CounterFeedRequest, day, 1); err != nil {
					t.Error(err)
				}
				if i%25 == 0 {
					if f, ok := s.(flusher); ok {
						if err := f.FlushCounters(); err != nil {
							t.Error(err)
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	if n, _ := s.Incr(ctx, store.CounterFeedRequest, day, 1); n != 1001 {
		t.Errorf("Incr returned %d, want 1001", n)
	}
	got, err := s.Counts(ctx, store.CounterFeedRequest, day, day)
	if err != nil || got[day] != 1001 {
		t.Fatalf("Counts %v, %v; want 1001", got, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = h.Open(t)
	defer s.Close()
	if got, _ := s.Counts(ctx, store.CounterFeedRequest, day, day); got[day] != 1001 {
		t.Fatalf("after Close and reopen: %v, want 1001", got)
	}
}

// Two instances (two processes) add to the same counters.
func testCountersShared(t *testing.T, h Harness) {
	if !h.Shared {
		t.Skip("one process owns this store")
	}
	ctx := context.Background()
	a := h.Open(t)
	defer a.Close()
	b := second(t, h, a)
	const day = "2026-11-23"
	var wg sync.WaitGroup
	for _, s := range []Store{a, b} {
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 25; i++ {
					if _, err := s.Incr(ctx, store.CounterBatchRequest, day, 1); err != nil {
						t.Error(err)
					}
					if i%10 == 0 {
						flush(t, s)
					}
				}
			}()
		}
	}
	wg.Wait()
	flush(t, a)
	flush(t, b)
	for name, s := range map[string]Store{"first": a, "second": b} {
		got, err := s.Counts(ctx, store.CounterBatchRequest, day, day)
		if err != nil || got[day] != 200 {
			t.Errorf("%s instance counts %v, %v; want 200", name, got, err)
		}
	}
}

func testCountEventAndRunningTotal(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	d := func(day int) time.Time { return time.Date(2026, 8, day, 23, 30, 0, 0, record.NewYork) }
	for _, ev := range []struct{ day, delta int }{{1, 1}, {1, 1}, {3, 1}, {5, -1}, {20, 1}} {
		if err := store.CountEvent(ctx, s, store.CounterSubscriptionActive, d(ev.day), ev.delta); err != nil {
			t.Fatal(err)
		}
	}
	store.CountEvent(ctx, s, store.CounterShareCreated, d(4), 1)
	s.Close()
	s = h.Open(t)
	defer s.Close()
	days := store.Days(d(6), 4) // 08-03 … 08-06
	if days[0] != "2026-08-03" || days[3] != "2026-08-06" || len(days) != 4 {
		t.Fatalf("days %v", days)
	}
	got, err := store.RunningTotal(ctx, s, store.CounterSubscriptionActive, days)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"2026-08-03": 3, "2026-08-04": 3, "2026-08-05": 2, "2026-08-06": 2}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("running total %v, want %v", got, want)
			break
		}
	}
	c, _ := s.Counts(ctx, store.CounterShareCreated, "2026-08-01", "2026-08-31")
	if c["2026-08-04"] != 1 || len(c) != 1 {
		t.Errorf("share_created counts %v", c)
	}
}

func testDailyCeiling(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer s.Close()
	now := time.Date(2026, 11, 22, 23, 30, 0, 0, record.NewYork)
	for i := 0; i < 30; i++ {
		a, err := s.Take(ctx, "batch", "192.0.2.1", 30, now)
		if err != nil || !a.Allowed || a.Remaining != 29-i {
			t.Fatalf("call %d: %+v %v", i+1, a, err)
		}
	}
	a, _ := s.Take(ctx, "batch", "192.0.2.1", 30, now)
	if a.Allowed || a.Remaining != 0 {
		t.Fatalf("31st call: %+v", a)
	}
	if want := time.Date(2026, 11, 23, 0, 0, 0, 0, record.NewYork); !a.ResetAt.Equal(want) {
		t.Errorf("reset at %v, want %v", a.ResetAt, want)
	}
	if b, _ := s.Take(ctx, "batch", "192.0.2.2", 30, now); !b.Allowed {
		t.Error("another client was refused")
	}
	if b, _ := s.Take(ctx, "inv", "192.0.2.1", 10, now); !b.Allowed {
		t.Error("another ceiling was refused")
	}
	next := now.Add(time.Hour)
	if b, _ := s.Take(ctx, "batch", "192.0.2.1", 30, next); !b.Allowed {
		t.Error("ceiling did not reset the next day")
	}
	n, err := s.Sweep(next)
	if err != nil || n != 3 {
		t.Errorf("sweep removed %d (%v), want 3", n, err)
	}
	if b, _ := s.Take(ctx, "batch", "192.0.2.1", 30, next); !b.Allowed || b.Remaining != 28 {
		t.Errorf("today's entry was swept: %+v", b)
	}
}

// Many goroutines, over two instances where the store allows it, take
// from one ceiling: exactly limit are granted, each remaining count once.
func testCeilingConcurrent(t *testing.T, h Harness) {
	ctx := context.Background()
	a := h.Open(t)
	defer a.Close()
	b := second(t, h, a)
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, record.NewYork)
	const limit, workers, each = 25, 8, 6
	var granted atomic.Int32
	var mu sync.Mutex
	remaining := map[int]int{}
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		s := a
		if w%2 == 1 {
			s = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				al, err := s.Take(ctx, "batch", "198.51.100.7", limit, now)
				if err != nil {
					t.Error(err)
					return
				}
				if al.Allowed {
					granted.Add(1)
					mu.Lock()
					remaining[al.Remaining]++
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	if g := granted.Load(); g != limit {
		t.Fatalf("%d of %d takes granted with a limit of %d", g, workers*each, limit)
	}
	for r := 0; r < limit; r++ {
		if remaining[r] != 1 {
			t.Fatalf("remaining counts %v: each of 0..%d should appear once", remaining, limit-1)
		}
	}
	if al, _ := b.Take(ctx, "batch", "198.51.100.7", limit, now); al.Allowed {
		t.Error("a take after the ceiling was granted")
	}
}

func testSharesRoundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	created := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	// bytes a JSON round trip would change: indentation, key order, escapes
	body := []byte("{\n  \"z\": 1,\n  \"a\": \"\\u003c\\u00e9\"\n}\n")
	sh := store.Share{ID: "AAAAAAAAAAAAAAAAAAAAAA", CreatedAt: created, ExpiresAt: created.Add(store.ShareTTL), Body: body}
	if err := s.PutShare(ctx, sh); err != nil {
		t.Fatal(err)
	}
	if err := s.PutShare(ctx, sh); err == nil {
		t.Error("an id was stored twice")
	}
	s.Close()
	s = h.Open(t)
	defer s.Close()
	got, err := s.GetShare(ctx, sh.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Body, body) || !got.CreatedAt.Equal(created) || !got.ExpiresAt.Equal(created.Add(store.ShareTTL)) || got.Swept || got.ID != sh.ID {
		t.Errorf("read back %+v", got)
	}
	if _, err := s.GetShare(ctx, "BBBBBBBBBBBBBBBBBBBBBB"); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("unknown id: %v", err)
	}
	for _, bad := range []store.Share{{ID: "x", CreatedAt: created, ExpiresAt: created}, {ID: "", Body: body}, {ID: "y", ExpiresAt: created.Add(time.Hour)}} {
		if err := s.PutShare(ctx, bad); err == nil {
			t.Errorf("stored %+v", bad)
		}
	}
}

func testSweepShares(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer s.Close()
	t0 := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	for i, id := range []string{"early", "later", "latest"} {
		c := t0.Add(time.Duration(i) * 24 * time.Hour)
		if err := s.PutShare(ctx, store.Share{ID: id, CreatedAt: c, ExpiresAt: c.Add(store.ShareTTL), Body: []byte(`{"id":"` + id + `"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.SweepShares(ctx, t0.Add(89*24*time.Hour)); err != nil || n != 0 {
		t.Fatalf("day 89 sweep removed %d (%v)", n, err)
	}
	// one second before the second snapshot's expiry: only the first goes
	now := t0.Add(store.ShareTTL + 24*time.Hour - time.Second)
	if n, err := s.SweepShares(ctx, now); err != nil || n != 1 {
		t.Fatalf("sweep removed %d (%v), want 1", n, err)
	}
	gone, err := s.GetShare(ctx, "early")
	if err != nil || !gone.Swept || gone.Body != nil || !gone.Expired(now) || !gone.CreatedAt.Equal(t0) {
		t.Errorf("swept share %+v %v", gone, err)
	}
	kept, err := s.GetShare(ctx, "later")
	if err != nil || kept.Swept || len(kept.Body) == 0 || kept.Expired(now) {
		t.Errorf("unexpired share %+v %v", kept, err)
	}
	if err := s.PutShare(ctx, store.Share{ID: "early", CreatedAt: now, ExpiresAt: now.Add(store.ShareTTL), Body: []byte("{}")}); err == nil {
		t.Error("a swept id was reused")
	}
	// the ordinary hourly Sweep also sweeps shares
	if n, err := s.Sweep(t0.Add(store.ShareTTL + 3*24*time.Hour)); err != nil || n != 2 {
		t.Errorf("Sweep removed %d (%v), want 2", n, err)
	}
	// tombstones are forgotten a year after expiry
	late := t0.Add(store.ShareTTL + store.ShareTombstoneTTL + 36*time.Hour)
	if n, err := s.SweepShares(ctx, late); err != nil || n != 2 {
		t.Errorf("tombstone sweep removed %d (%v), want 2", n, err)
	}
	if _, err := s.GetShare(ctx, "early"); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("forgotten share: %v", err)
	}
	if _, err := s.GetShare(ctx, "latest"); err != nil {
		t.Errorf("latest tombstone forgotten too early: %v", err)
	}
}

func newWatch(id string, created time.Time) watch.Watch {
	return watch.Watch{ID: id, Email: "reader@example.org", Scope: "notices about parks", Form: 1,
		Status: watch.StatusActive, CreatedAt: created, ActivatedAt: created, Progress: watch.Progress{Seen: []string{"20260101001"}},
		Filter: watch.Filter{Lens: "money", AnyOf: []string{"parks"}}}
}

func testWatches(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, record.NewYork)
	w1, w2 := newWatch(watch.NewID(), now), newWatch(watch.NewID(), now)
	w2.Email = "other@example.org"
	for _, w := range []watch.Watch{w1, w2} {
		if err := s.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateWatch(ctx, w1, "", time.Time{}, nil); err == nil {
		t.Error("a watch id was stored twice")
	}
	if err := s.CreateWatch(ctx, watch.Watch{ID: "x"}, "", time.Time{}, nil); err == nil {
		t.Error("a watch without an address was stored")
	}
	other := second(t, h, s) // another process sees them
	got, err := other.GetWatch(ctx, w1.ID)
	if err != nil || got.Email != w1.Email || got.Scope != w1.Scope || !got.CreatedAt.Equal(now) ||
		!slices.Equal(got.Seen, w1.Seen) || !slices.Equal(got.Filter.AnyOf, []string{"parks"}) {
		t.Fatalf("GetWatch %+v, %v", got, err)
	}
	list, err := other.ListWatches(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("ListWatches %d, %v", len(list), err)
	}
	if n, err := other.CountWatches(ctx); err != nil || n != 2 {
		t.Fatalf("CountWatches %d, %v", n, err)
	}
	if _, err := s.GetWatch(ctx, "nope"); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("unknown watch: %v", err)
	}
	if ok, err := other.DeleteWatch(ctx, w1.ID); err != nil || !ok {
		t.Fatalf("DeleteWatch %v, %v", ok, err)
	}
	if ok, err := s.DeleteWatch(ctx, w1.ID); err != nil || ok {
		t.Errorf("second DeleteWatch %v, %v", ok, err)
	}
	if _, err := s.GetWatch(ctx, w1.ID); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("deleted watch: %v", err)
	}
	if n, _ := s.CountWatches(ctx); n != 1 {
		t.Errorf("CountWatches after delete: %d", n)
	}
	s.Close()
	s = h.Open(t)
	defer s.Close()
	if list, _ := s.ListWatches(ctx); len(list) != 1 || list[0].ID != w2.ID {
		t.Errorf("after reopen: %+v", list)
	}
}

// A confirmation nonce makes one watch, however many times (and from
// however many processes at once) it is used.
func testConfirmationSingleUse(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer s.Close()
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, record.NewYork)
	if err := s.CreateWatch(ctx, newWatch(watch.NewID(), now), "nonce-1", now.Add(time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	w := newWatch(watch.NewID(), now)
	if err := s.CreateWatch(ctx, w, "nonce-1", now.Add(time.Hour), nil); !errors.Is(err, watch.ErrTokenUsed) {
		t.Fatalf("second use: %v, want ErrTokenUsed", err)
	}
	if _, err := s.GetWatch(ctx, w.ID); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("a refused confirmation stored its watch: %v", err)
	}
	// a failed creation does not use the nonce up
	taken := newWatch(watch.NewID(), now)
	if err := s.CreateWatch(ctx, taken, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWatch(ctx, taken, "nonce-2", now.Add(time.Hour), nil); err == nil {
		t.Fatal("a taken watch id was stored")
	}
	if err := s.CreateWatch(ctx, newWatch(watch.NewID(), now), "nonce-2", now.Add(time.Hour), nil); err != nil {
		t.Errorf("the nonce of a failed creation was used up: %v", err)
	}
	// concurrent clicks on one link
	b := second(t, h, s)
	var ok, used atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		st := s
		if i%2 == 1 {
			st = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := st.CreateWatch(ctx, newWatch(watch.NewID(), now), "nonce-3", now.Add(time.Hour), nil)
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, watch.ErrTokenUsed):
				used.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || used.Load() != 5 {
		t.Errorf("concurrent confirmations: %d made a watch, %d refused; want 1 and 5", ok.Load(), used.Load())
	}
	if n, _ := s.CountWatches(ctx); n != 4 {
		t.Errorf("%d watches, want 4", n)
	}
}

func testPlanDigest(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer s.Close()
	now := time.Date(2026, 11, 22, 7, 0, 0, 0, record.NewYork)
	w := newWatch(watch.NewID(), now)
	if err := s.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	d := store.Delivery{WatchID: w.ID, Window: "2026-11-22", State: store.DeliveryPlanned, RequestIDs: []string{"r2"},
		MessageID: "<digest.1@example.org>", PlannedAt: now}
	d.Kind, d.Updates, d.CatchUpFrom, d.MergedFrom = store.KindDigest, []string{"r2"}, "2026-11-19", []string{"2026-11-21"}
	got, created, err := s.PlanDigest(ctx, d, watch.Progress{Seen: []string{"20260101001", "r2"}, Facts: []string{"a=b"}, QuietSince: now})
	if err != nil || !created || got.MessageID != d.MessageID {
		t.Fatalf("PlanDigest %+v %v %v", got, created, err)
	}
	w2, _ := s.GetWatch(ctx, w.ID)
	if w2.LastWindow != "2026-11-22" || !slices.Equal(w2.Seen, []string{"20260101001", "r2"}) ||
		!slices.Equal(w2.Facts, []string{"a=b"}) || !w2.QuietSince.Equal(now) {
		t.Errorf("watch not advanced: %+v", w2)
	}
	if gd, ok, err := s.GetDelivery(ctx, w.ID, d.Window); err != nil || !ok || gd.CatchUpFrom != "2026-11-19" ||
		!slices.Equal(gd.Updates, []string{"r2"}) || !slices.Equal(gd.MergedFrom, []string{"2026-11-21"}) {
		t.Errorf("delivery read back %+v %v %v", gd, ok, err)
	}
	// the cadence changes through the manage link; progress stays
	if found, err := s.SetCadence(ctx, w.ID, watch.CadenceWeekly); err != nil || !found {
		t.Fatalf("SetCadence %v %v", found, err)
	}
	if wc, _ := s.GetWatch(ctx, w.ID); wc.Cadence != watch.CadenceWeekly || !slices.Equal(wc.Seen, w2.Seen) {
		t.Errorf("after SetCadence %+v", wc)
	}
	if found, err := s.SetCadence(ctx, "gone", watch.CadenceWeekly); err != nil || found {
		t.Errorf("SetCadence of an unknown watch %v %v", found, err)
	}
	// the same window again (a restart, another mailer): the stored one
	again := d
	again.RequestIDs, again.MessageID = []string{"r2", "r3"}, "<digest.2@example.org>"
	got, created, err = s.PlanDigest(ctx, again, watch.Progress{Seen: []string{"x"}})
	if err != nil || created || got.MessageID != d.MessageID || !slices.Equal(got.RequestIDs, []string{"r2"}) {
		t.Fatalf("second PlanDigest %+v %v %v", got, created, err)
	}
	if w3, _ := s.GetWatch(ctx, w.ID); !slices.Equal(w3.Seen, w2.Seen) {
		t.Errorf("a second plan changed the seen set: %v", w3.Seen)
	}
	if _, _, err := s.PlanDigest(ctx, store.Delivery{WatchID: "gone", Window: "2026-11-22", State: store.DeliveryPlanned, PlannedAt: now}, watch.Progress{}); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("plan for an unknown watch: %v", err)
	}
	// two planners of one window at once, over two instances: one wins
	b := second(t, h, s)
	var wins atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		st := s
		if i%2 == 1 {
			st = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			dd := d
			dd.Window, dd.MessageID = "2026-11-23", fmt.Sprintf("<m%d>", i)
			got, created, err := st.PlanDigest(ctx, dd, watch.Progress{Seen: []string{fmt.Sprint(i)}})
			if err != nil {
				t.Error(err)
				return
			}
			if created {
				wins.Add(1)
			} else if got.Window != "2026-11-23" || got.MessageID == "" {
				t.Errorf("loser got %+v", got)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d planners won one window", wins.Load())
	}
	stored, ok, err := s.GetDelivery(ctx, w.ID, "2026-11-23")
	wn, _ := s.GetWatch(ctx, w.ID)
	if err != nil || !ok || len(wn.Seen) != 1 || "<m"+wn.Seen[0]+">" != stored.MessageID || wn.LastWindow != "2026-11-23" {
		t.Errorf("the watch's seen set %v (window %s) is not the winning plan's %s", wn.Seen, wn.LastWindow, stored.MessageID)
	}
}

func testDeliveries(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer s.Close()
	now := time.Date(2026, 11, 22, 7, 0, 0, 0, record.NewYork)
	w, quiet := newWatch(watch.NewID(), now), newWatch(watch.NewID(), now)
	for _, x := range []watch.Watch{w, quiet} {
		if err := s.CreateWatch(ctx, x, "", time.Time{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	d := store.Delivery{WatchID: w.ID, Window: "2026-11-22", State: store.DeliveryPlanned, RequestIDs: []string{"r1"}, MessageID: "<a>", PlannedAt: now}
	if _, _, err := s.PlanDigest(ctx, d, watch.Progress{Seen: []string{"r1"}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.PlanDigest(ctx, store.Delivery{WatchID: quiet.ID, Window: "2026-11-22", State: store.DeliveryEmpty, PlannedAt: now}, watch.Progress{}); err != nil {
		t.Fatal(err)
	}
	open, err := s.OpenDeliveries(ctx)
	if err != nil || len(open) != 1 || open[0].WatchID != w.ID {
		t.Fatalf("open deliveries %+v, %v", open, err)
	}
	d.State, d.Attempts, d.LastError = store.DeliveryFailed, 1, "relay refused"
	d.NextAttempt = now.Add(5 * time.Minute)
	if kept, err := s.PutDelivery(ctx, d); err != nil || !kept {
		t.Fatalf("PutDelivery %v %v", kept, err)
	}
	got, ok, err := s.GetDelivery(ctx, w.ID, d.Window)
	if err != nil || !ok || got.State != store.DeliveryFailed || got.Attempts != 1 || !got.NextAttempt.Equal(d.NextAttempt) || got.LastError != "relay refused" {
		t.Fatalf("GetDelivery %+v %v %v", got, ok, err)
	}
	d.State, d.SentAt, d.LastError = store.DeliverySent, now.Add(6*time.Minute), ""
	if kept, err := s.PutDelivery(ctx, d); err != nil || !kept {
		t.Fatalf("PutDelivery %v %v", kept, err)
	}
	if got, _, _ := s.GetDelivery(ctx, w.ID, d.Window); got.LastError != "" || got.State != store.DeliverySent {
		t.Errorf("sent delivery %+v", got)
	}
	if open, _ := s.OpenDeliveries(ctx); len(open) != 0 {
		t.Errorf("a sent delivery is still open: %+v", open)
	}
	if _, ok, _ := s.GetDelivery(ctx, w.ID, "2026-01-01"); ok {
		t.Error("a delivery that was never planned was found")
	}
	// a removed watch takes its deliveries, and later updates are dropped
	if _, err := s.DeleteWatch(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.GetDelivery(ctx, w.ID, d.Window); ok {
		t.Error("a removed watch's delivery is kept")
	}
	if kept, err := s.PutDelivery(ctx, d); err != nil || kept {
		t.Errorf("PutDelivery for a removed watch: %v %v", kept, err)
	}
	if _, ok, _ := s.GetDelivery(ctx, w.ID, d.Window); ok {
		t.Error("a removed watch's delivery was stored again")
	}
}

func testWatchKey(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	k1, err := s.WatchKey(ctx)
	if err != nil || len(k1) < 32 {
		t.Fatalf("WatchKey %x %v", k1, err)
	}
	b := second(t, h, s)
	if k2, _ := b.WatchKey(ctx); !bytes.Equal(k1, k2) {
		t.Error("two instances have different keys")
	}
	s.Close()
	s = h.Open(t)
	defer s.Close()
	if k3, _ := s.WatchKey(ctx); !bytes.Equal(k1, k3) {
		t.Error("the key changed on reopen")
	}
}

func testSweepWatches(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	defer s.Close()
	now := time.Date(2026, 11, 22, 7, 0, 0, 0, record.NewYork)
	w := newWatch(watch.NewID(), now)
	if err := s.CreateWatch(ctx, w, "n-old", now.Add(time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWatch(ctx, newWatch(watch.NewID(), now), "n-new", now.Add(96*time.Hour), nil); err != nil {
		t.Fatal(err)
	}
	day := func(i int) time.Time { return now.AddDate(0, 0, i) }
	for i, st := range []string{store.DeliverySent, store.DeliveryEmpty, store.DeliveryFailed, store.DeliverySent} {
		d := store.Delivery{WatchID: w.ID, Window: record.NewYorkDay(day(i)), State: st, PlannedAt: day(i), MessageID: fmt.Sprint(i)}
		if _, _, err := s.PlanDigest(ctx, d, watch.Progress{}); err != nil {
			t.Fatal(err)
		}
	}
	// two days later: n-old expired; with keep = 1 day the sent and empty
	// deliveries of days 0 and 1 go, the failed one (still open) and day 3's stay
	n, err := s.SweepWatches(ctx, day(2).Add(time.Hour), 24*time.Hour)
	if err != nil || n != 3 {
		t.Fatalf("SweepWatches removed %d (%v), want 3", n, err)
	}
	for i, want := range []bool{false, false, true, true} {
		if _, ok, _ := s.GetDelivery(ctx, w.ID, record.NewYorkDay(day(i))); ok != want {
			t.Errorf("delivery of day %d kept: %v, want %v", i, ok, want)
		}
	}
	if err := s.CreateWatch(ctx, newWatch(watch.NewID(), now), "n-old", now.Add(time.Hour), nil); err != nil {
		t.Errorf("an expired nonce was not forgotten: %v", err)
	}
	if err := s.CreateWatch(ctx, newWatch(watch.NewID(), now), "n-new", now.Add(time.Hour), nil); !errors.Is(err, watch.ErrTokenUsed) {
		t.Errorf("an unexpired nonce was forgotten: %v", err)
	}
}

// testReceipts: receipts come back per job, newest first, bounded by the
// limit; the same run put again replaces itself; they survive a restart.
func testReceipts(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	for i := range 5 {
		r := record.Receipt{Job: "crol", Source: "crol", Started: t0.Add(time.Duration(i) * 5 * time.Minute), Outcome: record.ReceiptOK, RowsRead: i}
		r.Finished = r.Started.Add(time.Second)
		if err := s.PutReceipt(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	// a job whose name extends the first is its own
	if err := s.PutReceipt(ctx, record.Receipt{Job: "crol-x", Started: t0.Add(time.Hour), Outcome: record.ReceiptFailed, Error: "boom"}); err != nil {
		t.Fatal(err)
	}
	// the same run again (same job and start) replaces it
	if err := s.PutReceipt(ctx, record.Receipt{Job: "crol", Started: t0.Add(20 * time.Minute), Outcome: record.ReceiptFailed, Error: "again"}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutReceipt(ctx, record.Receipt{Job: "", Started: t0}); err == nil {
		t.Error("a receipt without a job was stored")
	}
	if !h.Shared {
		s.Close()
		s = h.Open(t)
	}
	defer s.Close()
	got, err := s.Receipts(ctx, "crol", 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[0].Error != "again" || got[1].RowsRead != 3 || got[2].RowsRead != 2 {
		t.Fatalf("crol receipts (newest 3): %+v", got)
	}
	all, _ := s.Receipts(ctx, "crol", 0)
	if len(all) != 5 {
		t.Errorf("crol receipts: %d, want 5", len(all))
	}
	x, _ := s.Receipts(ctx, "crol-x", 10)
	if len(x) != 1 || x[0].Error != "boom" {
		t.Errorf("crol-x receipts: %+v", x)
	}
	if none, err := s.Receipts(ctx, "nothing", 10); err != nil || len(none) != 0 {
		t.Errorf("receipts of an unknown job: %v, %v", none, err)
	}
}

// Probe (the /readyz write probe) succeeds on a store that takes writes,
// again and again, and leaves the state as it was: the watches, their
// count and a daily ceiling read the same after it, also from another
// process and after a reopen.
func testProbe(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, record.NewYork)
	w := newWatch(watch.NewID(), now)
	if err := s.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Take(ctx, "probe-ceiling", "198.51.100.7", 2, now); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := s.Probe(ctx); err != nil {
			t.Fatalf("probe %d: %v", i, err)
		}
	}
	check := func(s Store, when string) {
		t.Helper()
		if list, err := s.ListWatches(ctx); err != nil || len(list) != 1 || list[0].ID != w.ID {
			t.Errorf("%s: watches %+v, %v", when, list, err)
		}
		if n, err := s.CountWatches(ctx); err != nil || n != 1 {
			t.Errorf("%s: CountWatches %d, %v", when, n, err)
		}
	}
	check(s, "after probes")
	other := second(t, h, s)
	if err := other.Probe(ctx); err != nil {
		t.Fatalf("probe from another instance: %v", err)
	}
	check(other, "another instance")
	if a, err := s.Take(ctx, "probe-ceiling", "198.51.100.7", 2, now); err != nil || !a.Allowed || a.Remaining != 0 {
		t.Errorf("ceiling after probes: %+v, %v (want the second of 2 granted)", a, err)
	}
	s.Close()
	s = h.Open(t)
	defer s.Close()
	check(s, "after reopen")
}
