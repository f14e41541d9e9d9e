package record

import (
	"testing"
	"time"
)

// The fiscal year of a contract is the July–June year of its registration
// date, named for the year it ends.
func TestContractFiscalYearBoundary(t *testing.T) {
	for _, tc := range []struct {
		day  string
		want int
	}{
		{"2026-06-30", 2026},
		{"2026-07-01", 2027},
		{"2025-07-01", 2026},
		{"2027-06-30", 2027},
		{"2026-01-01", 2026},
	} {
		d, err := time.ParseInLocation("2006-01-02", tc.day, NewYork)
		if err != nil {
			t.Fatal(err)
		}
		if got := ContractFiscalYear(d); got != tc.want {
			t.Errorf("ContractFiscalYear(%s) = FY%d, want FY%d", tc.day, got, tc.want)
		}
		// late on June 30 in New York is already July 1 in UTC: still FY of June 30
		if tc.day == "2026-06-30" {
			late := d.Add(23 * time.Hour).UTC()
			if got := ContractFiscalYear(late); got != 2026 {
				t.Errorf("ContractFiscalYear(%s) = FY%d, want FY2026 (New York day)", late, got)
			}
		}
	}
	if got := ContractFiscalYear(time.Time{}); got != 0 {
		t.Errorf("no date: FY%d, want 0", got)
	}
}
