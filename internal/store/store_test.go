package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

func TestCountersSurviveRestart(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		s.Incr(ctx, "redirect", "2026-11-21", 1)
	}
	s.Incr(ctx, "redirect", "2026-11-22", 2)
	s.Incr(ctx, "redirectx", "2026-11-22", 9) // a name that shares a prefix
	s.Close()
	s, err = OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got, err := s.Counts(ctx, "redirect", "2026-11-01", "2026-11-30")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got["2026-11-21"] != 3 || got["2026-11-22"] != 2 {
		t.Fatalf("counts %v", got)
	}
}

func TestDailyCeiling(t *testing.T) {
	ctx := context.Background()
	s, err := OpenBolt(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	now := time.Date(2026, 11, 22, 23, 30, 0, 0, record.NewYork)
	for i := 0; i < 30; i++ {
		a, err := s.Take(ctx, "batch", "192.0.2.1", 30, now)
		if err != nil || !a.Allowed || a.Remaining != 29-i {
			t.Fatalf("call %d: %+v %v", i+1, a, err)
		}
	}
	a, _ := s.Take(ctx, "batch", "192.0.2.1", 30, now)
	if a.Allowed {
		t.Fatal("31st call allowed")
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
}
