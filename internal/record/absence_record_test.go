package record

import "testing"

// TestRecordAbsence: the typed absence of one record follows the one rule
// over the sources of its kinds and the day its id states.
func TestRecordAbsence(t *testing.T) {
	cov := []SourceCoverage{
		{Source: "crol", RecordType: "notice", Records: 10, FirstSourceDate: "2026-01-01", LastSourceDate: "2026-08-14", State: Fresh},
		{Source: "checkbook", RecordType: "contract", Records: 5, FirstSourceDate: "2020-01-01", LastSourceDate: "2026-08-01", State: Stale},
	}
	for _, c := range []struct {
		kinds []string
		id    string
		want  string
	}{
		{[]string{"notice"}, "20260801999", NoneFound},
		{[]string{"notice"}, "19000101999", OutsideCoverage},
		{[]string{"notice"}, "20990101001", OutsideCoverage},
		{[]string{"contract"}, "CT1", AbsentStale},
		{[]string{"notice", "contract"}, "x", AbsentStale},
		{[]string{"land_project"}, "2024Q0292", NotIngested},
		{[]string{"people.person"}, "x", NotIngested},
	} {
		a := RecordAbsence(cov, c.kinds, IDDay(c.id))
		if a == nil || a.Type != c.want || a.Note == "" {
			t.Errorf("%v %s: %+v, want %s", c.kinds, c.id, a, c.want)
		}
	}
	for id, want := range map[string]string{"20260801999": "2026-08-01", "2024Q0292": "", "cb-minutes:mn01-2004-04-20-full-board": "2004-04-20",
		"20261399001": "", "NYC_GOID_000002/principal-officer/2026-06-12": "2026-06-12", "": ""} {
		if got := IDDay(id); got != want {
			t.Errorf("IDDay(%q) = %q, want %q", id, got, want)
		}
	}
}
