package store

import (
	"testing"
	"time"
)

// The behaviours every store shares (counters, ceilings, shares, watches)
// are checked by the contract suite, package storetest (contract_test.go);
// the bbolt-only ones are here and in counters_bolt_test.go.

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
