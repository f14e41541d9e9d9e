package watch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

func (s *memStore) ListWatches(context.Context) ([]Watch, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Watch
	for _, w := range s.watches {
		out = append(out, w)
	}
	return out, nil
}

// dailyAt7 is a daily schedule whose windows open at 7:00 New York time.
func dailyAt7(_ string, now time.Time) (string, time.Time) {
	ny := now.In(record.NewYork)
	d := time.Date(ny.Year(), ny.Month(), ny.Day(), 7, 0, 0, 0, record.NewYork)
	if ny.Before(d) {
		d = d.AddDate(0, 0, -1)
	}
	return d.Format("2006-01-02"), d
}

// TestMissedRun: a watch's scheduled run is missed once its window opened
// after activation and the grace passed with no run of it in the ledger;
// not before, not once it ran, not for a window that opened before the
// watch, not for an ended watch.
func TestMissedRun(t *testing.T) {
	act := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	at := func(day, hour, minute int) time.Time {
		return time.Date(2026, 8, 14+day, hour, minute, 0, 0, record.NewYork)
	}
	w := Watch{Status: StatusActive, ActivatedAt: act}
	for _, c := range []struct {
		name       string
		last, stat string
		now        time.Time
		missed     bool
	}{
		{"the window of activation day", "", StatusActive, at(0, 23, 0), false},
		{"next window, within grace", "", StatusActive, at(1, 7, 59), false},
		{"next window, grace passed", "", StatusActive, at(1, 8, 1), true},
		{"next window ran", "2026-08-15", StatusActive, at(1, 20, 0), false},
		{"a later window not run", "2026-08-15", StatusActive, at(2, 9, 0), true},
		{"ended", "", StatusAwaiting, at(1, 9, 0), false},
	} {
		w.LastWindow, w.Status = c.last, c.stat
		e, ok := MissedRun(w, dailyAt7, time.Hour, c.now)
		if ok != c.missed {
			t.Errorf("%s: missed %v, want %v", c.name, ok, c.missed)
		}
		if ok && (e.Outcome != OutcomeMissed || e.Due.IsZero() || !strings.Contains(e.Reason, "operator error") || e.Window <= c.last) {
			t.Errorf("%s: entry %+v", c.name, e)
		}
	}
	if _, ok := MissedRun(w, nil, time.Hour, at(5, 9, 0)); ok {
		t.Error("a run was judged missed with no schedule")
	}
}
