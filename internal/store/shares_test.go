package store

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

func openTemp(t *testing.T) (*Bolt, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	return s, path
}

func TestSharesRoundTripAndSurviveRestart(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	created := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	// bytes a JSON round trip would change: indentation, key order, escapes
	body := []byte("{\n  \"z\": 1,\n  \"a\": \"\\u003c\\u00e9\"\n}\n")
	sh := Share{ID: "AAAAAAAAAAAAAAAAAAAAAA", CreatedAt: created, ExpiresAt: created.Add(ShareTTL), Body: body}
	if err := s.PutShare(ctx, sh); err != nil {
		t.Fatal(err)
	}
	if err := s.PutShare(ctx, sh); err == nil {
		t.Error("an id was stored twice")
	}
	s.Close()
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.GetShare(ctx, sh.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Body, body) || !got.CreatedAt.Equal(created) || !got.ExpiresAt.Equal(created.Add(ShareTTL)) || got.Swept {
		t.Errorf("read back %+v", got)
	}
	if _, err := s.GetShare(ctx, "BBBBBBBBBBBBBBBBBBBBBB"); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("unknown id: %v", err)
	}
	for _, bad := range []Share{{ID: "x", CreatedAt: created, ExpiresAt: created}, {ID: "", Body: body}, {ID: "y", ExpiresAt: created.Add(time.Hour)}} {
		if err := s.PutShare(ctx, bad); err == nil {
			t.Errorf("stored %+v", bad)
		}
	}
}

func TestSweepSharesAfterExpiry(t *testing.T) {
	ctx := context.Background()
	s, _ := openTemp(t)
	defer s.Close()
	t0 := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	for i, id := range []string{"early", "later", "latest"} {
		c := t0.Add(time.Duration(i) * 24 * time.Hour)
		if err := s.PutShare(ctx, Share{ID: id, CreatedAt: c, ExpiresAt: c.Add(ShareTTL), Body: []byte(`{"id":"` + id + `"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	// day 89: nothing expired
	if n, err := s.SweepShares(ctx, t0.Add(89*24*time.Hour)); err != nil || n != 0 {
		t.Fatalf("day 89 sweep removed %d (%v)", n, err)
	}
	// one second before the second snapshot's expiry: only the first goes
	now := t0.Add(ShareTTL + 24*time.Hour - time.Second)
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
	// a swept id cannot be reused
	if err := s.PutShare(ctx, Share{ID: "early", CreatedAt: now, ExpiresAt: now.Add(ShareTTL), Body: []byte("{}")}); err == nil {
		t.Error("a swept id was reused")
	}
	// the ordinary hourly Sweep also sweeps shares
	if n, err := s.Sweep(t0.Add(ShareTTL + 3*24*time.Hour)); err != nil || n != 2 {
		t.Errorf("Sweep removed %d (%v), want 2", n, err)
	}
	// tombstones are forgotten a year after expiry
	late := t0.Add(ShareTTL + ShareTombstoneTTL + 36*time.Hour)
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

func TestCountEventAndRunningTotal(t *testing.T) {
	ctx := context.Background()
	s, path := openTemp(t)
	d := func(day int) time.Time { return time.Date(2026, 8, day, 23, 30, 0, 0, record.NewYork) }
	for _, ev := range []struct {
		day, delta int
	}{{1, 1}, {1, 1}, {3, 1}, {5, -1}, {20, 1}} {
		if err := CountEvent(ctx, s, CounterSubscriptionActive, d(ev.day), ev.delta); err != nil {
			t.Fatal(err)
		}
	}
	CountEvent(ctx, s, CounterShareCreated, d(4), 1)
	s.Close()
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	days := Days(d(6), 4) // 08-03 … 08-06
	if days[0] != "2026-08-03" || days[3] != "2026-08-06" || len(days) != 4 {
		t.Fatalf("days %v", days)
	}
	got, err := RunningTotal(ctx, s, CounterSubscriptionActive, days)
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
	c, _ := s.Counts(ctx, CounterShareCreated, "2026-08-01", "2026-08-31")
	if c["2026-08-04"] != 1 || len(c) != 1 {
		t.Errorf("share_created counts %v", c)
	}
}

func TestDaysAcrossDaylightSaving(t *testing.T) {
	// 2026-11-01 is the end of daylight saving time in New York
	now := time.Date(2026, 11, 2, 4, 30, 0, 0, time.UTC) // 23:30 on Nov 1 in New York
	got := Days(now, 3)
	want := []string{"2026-10-30", "2026-10-31", "2026-11-01"}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("days %v, want %v", got, want)
		}
	}
}
