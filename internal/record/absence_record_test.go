package record

import (
	"testing"
	"time"
)

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

// TestDigestLagOf: the lag to a digest adds the source's lag to
// searchable, the wait for the next window and a digest run.
func TestDigestLagOf(t *testing.T) {
	at := time.Date(2026, 8, 14, 7, 0, 0, 0, NewYork)
	var digests []Receipt
	for i, d := range []time.Duration{time.Second, 3 * time.Second, 2 * time.Second} {
		s := at.Add(time.Duration(i) * time.Hour)
		digests = append(digests, Receipt{Outcome: ReceiptOK, Started: s, Finished: s.Add(d), Written: 1})
	}
	digests = append(digests, Receipt{Outcome: ReceiptFailed, Started: at, Finished: at.Add(time.Hour)},
		Receipt{Outcome: ReceiptOK, Started: at, Finished: at.Add(time.Millisecond)}) // a run that sent nothing
	src := &Lag{Runs: 5, SearchableP50Seconds: 150, SearchableP95Seconds: 285, Note: "n"}
	l := DigestLagOf(src, digests, 24*time.Hour)
	if l == nil || l.Runs != 3 || l.RunP50Seconds != 2 || l.RunP95Seconds != 3 || l.ToDigestP50Seconds != 150+43200+2 || l.ToDigestP95Seconds != 285+0.95*86400+3 {
		t.Fatalf("%+v", l)
	}
	if DigestLagOf(nil, digests, time.Hour) != nil || DigestLagOf(src, nil, time.Hour) != nil {
		t.Error("a lag to digest without a source lag or a digest run")
	}
}
