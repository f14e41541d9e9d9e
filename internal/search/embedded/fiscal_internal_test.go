package embedded

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// fiscalYearOf is record.FiscalYear: at every fiscal year's first and last
// nanosecond in the table and outside it, and at random instants.
func TestFiscalYearOfIsTheRecordRule(t *testing.T) {
	check := func(at time.Time) {
		t.Helper()
		if got, want := fiscalYearOf(at.UnixNano()), record.FiscalYear(at.In(record.NewYork)); got != want {
			t.Fatalf("%v: fiscal year %d, want %d", at, got, want)
		}
	}
	for y := 1900; y <= 2200; y++ {
		july := time.Date(y, time.July, 1, 0, 0, 0, 0, record.NewYork)
		check(july)
		check(july.Add(-time.Nanosecond))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		check(time.Unix(0, rng.Int64N(5e18)-1e18))
	}
}
