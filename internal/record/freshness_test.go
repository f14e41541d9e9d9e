package record

import (
	"strings"
	"testing"
	"time"
)

// Absence types take the most useful true type: on the bundled sample
// (stale), asking for 1900 or 2099 answered stale, never
// outside_coverage (absence.go:49, :103-111). Dates outside what a source
// holds are outside_coverage even when it is also stale (the note says
// both); a failing source answers upstream_failing with since when and
// why, unless the dates asked all precede what it holds.
func TestAbsenceTakesTheMostUsefulTrueType(t *testing.T) {
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)
	held := SourceCoverage{Source: "crol", RecordType: "notice", Records: 1875, FirstSourceDate: "2013-07-22", LastSourceDate: "2026-08-14",
		ObservedAt: now.Add(-48 * time.Hour)}
	stale := Freshen(held, SourceRun{Job: "crol", Every: 5 * time.Minute, MaxAge: time.Hour, LastOK: now.Add(-48 * time.Hour)}, now)
	failing := Freshen(held, SourceRun{Job: "crol", Every: 5 * time.Minute, MaxAge: time.Hour, LastOK: now.Add(-48 * time.Hour),
		FailingSince: now.Add(-47 * time.Hour), LastError: "upstream answered 500"}, now)
	if stale.State != Stale || failing.State != Failing {
		t.Fatalf("states: %s %s", stale.State, failing.State)
	}
	for _, c := range []struct {
		name     string
		c        SourceCoverage
		from, to string
		typ      string
		note     []string
	}{
		{"stale, 1900", stale, "1900-01-01", "1900-12-31", OutsideCoverage, []string{"holds source dates 2013-07-22 to 2026-08-14", "past its maximum age"}},
		{"stale, 2099", stale, "2099-01-01", "2099-12-31", OutsideCoverage, []string{"holds source dates", "past its maximum age"}},
		{"stale, covered", stale, "2020-01-01", "2020-12-31", AbsentStale, nil},
		{"failing, 2099", failing, "2099-01-01", "2099-12-31", UpstreamFailing, []string{"upstream answered 500", "since 2026-08-12T13:00:00Z", "holds source dates"}},
		{"failing, covered", failing, "2020-01-01", "2020-12-31", UpstreamFailing, []string{"upstream answered 500"}},
		{"failing, 1900", failing, "1900-01-01", "1900-12-31", OutsideCoverage, []string{"holds source dates", "also its live fetch fails", "upstream answered 500"}},
	} {
		s := NewScope(Searched{Kind: "notices", Filters: map[string]string{"from": c.from, "to": c.to}}, []SourceCoverage{c.c}, 0)
		if s.Empty == nil || s.Empty.Type != c.typ || s.Empty.Sources[0].Type != c.typ {
			t.Errorf("%s: %+v, want %s", c.name, s.Empty, c.typ)
			continue
		}
		for _, w := range c.note {
			if !strings.Contains(s.Empty.Sources[0].Note, w) {
				t.Errorf("%s: note %q lacks %q", c.name, s.Empty.Sources[0].Note, w)
			}
		}
	}
}

// The freshness rule: fresh only after the source's own live success
// within its maximum age (files loaded into a scheduled source are not a
// live observation); failing after a failed live fetch whatever its age;
// a file-only source says so.
func TestFreshenOwnFetchOnly(t *testing.T) {
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)
	held := SourceCoverage{Source: "legistar", Records: 88, ObservedAt: now.Add(-time.Minute)} // a file observed a minute ago
	if c := Freshen(held, SourceRun{Job: "meetings", Every: time.Hour, MaxAge: 6 * time.Hour}, now); c.State != Stale || c.Schedule != ScheduleLive ||
		!strings.Contains(c.FreshnessNote, "never fetched live") {
		t.Errorf("a scheduled source with fresh files but no live fetch: %+v", c)
	}
	if c := Freshen(held, SourceRun{Job: "meetings", Every: time.Hour, MaxAge: 6 * time.Hour, LastOK: now.Add(-7 * time.Hour)}, now); c.State != Stale ||
		!c.StateSince.Equal(now.Add(-time.Hour)) {
		t.Errorf("a live success past the maximum age (files newer): %+v", c)
	}
	if c := Freshen(held, SourceRun{Job: "meetings", MaxAge: 6 * time.Hour, LastOK: now.Add(-30 * 24 * time.Hour), FailingSince: now.Add(-29 * 24 * time.Hour),
		LastError: "500"}, now); c.State != Failing || c.LastError != "500" {
		t.Errorf("failing for 29 days: %+v", c)
	}
	if c := Freshen(SourceCoverage{Source: "legistar"}, SourceRun{Job: "meetings", MaxAge: time.Hour, FailingSince: now.Add(-time.Hour), LastError: "500"}, now); c.State != Failing {
		t.Errorf("nothing held, failing: %+v", c)
	}
	if c := Freshen(held, SourceRun{MaxAge: 24 * time.Hour}, now); c.State != Fresh || c.Schedule != ScheduleFileOnly {
		t.Errorf("a file-only source observed a minute ago: %+v", c)
	}
}
