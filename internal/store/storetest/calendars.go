package storetest

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

// testCalendars: a calendar's record survives a restart, an unchanged
// revision writes nothing, concurrent revisions are none lost, and a
// record not written for store.CalendarKeep is swept.
func testCalendars(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	now := time.Date(2026, 11, 22, 7, 0, 0, 0, record.NewYork)
	key := "lens=money&q=" + string(make([]byte, 600)) // a long query is kept under its hash
	set := func(s Store, v string, at time.Time) {
		t.Helper()
		if err := s.ReviseCalendar(ctx, key, at, func(old []byte) ([]byte, bool, error) { return []byte(v), string(old) != v, nil }); err != nil {
			t.Fatal(err)
		}
	}
	get := func(s Store, key string) string {
		t.Helper()
		b, err := s.GetCalendar(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	set(s, "0", now)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = h.Open(t)
	defer s.Close()
	if got := get(s, key); got != "0" {
		t.Fatalf("after a restart: %q", got)
	}
	if got := get(s, "another"); got != "" {
		t.Errorf("an unknown calendar holds %q", got)
	}
	// concurrent revisions: each adds one, none is lost
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				err := s.ReviseCalendar(ctx, key, now, func(old []byte) ([]byte, bool, error) {
					n, _ := strconv.Atoi(string(old))
					return []byte(strconv.Itoa(n + 1)), true, nil
				})
				if err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	if got := get(s, key); got != "40" {
		t.Errorf("after 40 concurrent revisions: %q", got)
	}
	set(s, "40", now.Add(store.CalendarKeep)) // unchanged: not written, so not kept longer
	if _, err := s.SweepWatches(ctx, now.Add(store.CalendarKeep-time.Hour), 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := get(s, key); got != "40" {
		t.Errorf("swept within the keep: %q", got)
	}
	if _, err := s.SweepWatches(ctx, now.Add(store.CalendarKeep+time.Hour), 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if got := get(s, key); got != "" {
		t.Errorf("a calendar not written for the keep was not swept: %q", got)
	}
}
