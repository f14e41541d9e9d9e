package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/record"
)

// testCalendars: a calendar's revision record survives a restart, is
// revised in one step (a date change raises SEQUENCE once), and is swept
// once it has not been revised for feed.CancelledKeep.
func testCalendars(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	now := time.Date(2026, 11, 22, 7, 0, 0, 0, record.NewYork)
	key := "lens=money&q=" + string(make([]byte, 600)) // a long query is kept under its hash
	f := func(day int) *feed.Feed {
		return &feed.Feed{Items: []feed.Item{{ID: "a", Event: &feed.Event{UID: "a@rw", Summary: "Due", Start: now.AddDate(0, 0, day), AllDay: true}}}}
	}
	revise := func(s Store, fd *feed.Feed, at time.Time) {
		t.Helper()
		if err := s.ReviseCalendar(ctx, key, func(st *feed.CalendarState) bool {
			_, changed := feed.Revise(st, fd, nil, nil, at)
			return changed
		}); err != nil {
			t.Fatal(err)
		}
	}
	revise(s, f(10), now)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = h.Open(t)
	defer s.Close()
	revise(s, f(10), now.Add(time.Hour))
	moved := f(12)
	revise(s, moved, now.Add(2*time.Hour))
	st, err := s.GetCalendar(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	r := st.Events["a@rw"]
	if r.Sequence != 1 || !r.LastModified.Equal(now.Add(2*time.Hour)) || moved.Items[0].Event.Sequence != 1 {
		t.Errorf("after one date change: %+v", r)
	}
	if st2, _ := s.GetCalendar(ctx, "another"); len(st2.Events) != 0 {
		t.Errorf("an unknown calendar holds %v", st2.Events)
	}
	if _, err := s.SweepWatches(ctx, now.Add(feed.CancelledKeep), 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.GetCalendar(ctx, key); len(st.Events) != 1 {
		t.Errorf("a calendar revised within the keep was swept: %v", st)
	}
	if _, err := s.SweepWatches(ctx, now.Add(feed.CancelledKeep+3*time.Hour), 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	if st, _ := s.GetCalendar(ctx, key); len(st.Events) != 0 {
		t.Errorf("a calendar not revised for the keep was not swept: %v", st)
	}
}
