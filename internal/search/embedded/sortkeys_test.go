package embedded

import (
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Keys compare as strings the way their values compare, keep their width,
// and the missing-value sentinels sort outside every key.
func TestSortKeysOrderAsValues(t *testing.T) {
	amounts := []float64{0.01, 0.1, 1, 1.5, 999.99, 1_000_000, 9_999_999_999.99}
	for i := 1; i < len(amounts); i++ {
		a, b := amountKey(amounts[i-1]), amountKey(amounts[i])
		if !(a < b) || len(a) != 19 || len(b) != 19 || !(keyMissingLow < a) || !(b < keyMissingHigh) {
			t.Errorf("amount keys %q (%v) and %q (%v)", a, amounts[i-1], b, amounts[i])
		}
		if !validCursorKey(search.SortAmount, b) {
			t.Errorf("amount key %q is not a valid cursor key", b)
		}
	}
	ny, _ := time.LoadLocation("America/New_York")
	times := []time.Time{
		time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), // clamped
		time.Date(1899, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(2014, 10, 7, 0, 0, 0, 0, ny),
		time.Date(2014, 10, 7, 0, 0, 1, 0, ny),
		time.Date(2026, 11, 22, 23, 30, 0, 0, ny), // the next UTC day
		time.Date(2090, 1, 1, 0, 0, 0, 0, ny),
		time.Date(12000, 1, 1, 0, 0, 0, 0, time.UTC), // clamped
	}
	for i := 1; i < len(times); i++ {
		a, b := timeKey(times[i-1]), timeKey(times[i])
		if !(a < b) || len(a) != 14 || len(b) != 14 || !(keyMissingLow < a) || !(b < keyMissingHigh) {
			t.Errorf("time keys %q (%v) and %q (%v)", a, times[i-1], b, times[i])
		}
		if !validCursorKey(search.SortNewest, b) {
			t.Errorf("time key %q is not a valid cursor key", b)
		}
	}
	if got := keyTime(timeKey(times[3])); !got.Equal(times[3]) {
		t.Errorf("keyTime(timeKey(%v)) = %v", times[3], got)
	}
	for _, bad := range []string{"1412654400", "2014-10-07", "20141007x00000", ""} {
		if validCursorKey(search.SortNewest, bad) {
			t.Errorf("%q taken as a date cursor key", bad)
		}
	}
}
