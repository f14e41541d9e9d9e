package searchtest

import (
	"context"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// WantSections counts docs per source and section independently of any
// engine: records, and first and last publication dates as New York days.
// Tests of what is built on Reader.Sections (such as /stats) use it too.
func WantSections(docs []search.Doc) map[[2]string]search.SectionCoverage {
	want := map[[2]string]search.SectionCoverage{}
	for _, d := range docs {
		n := d.Notice
		k := [2]string{n.Source, n.Section}
		c := want[k]
		c.Source, c.Section = n.Source, n.Section
		c.Records++
		if !n.StartDate.IsZero() {
			day := n.StartDate.In(record.NewYork).Format("2006-01-02")
			if c.FirstSourceDate == "" || day < c.FirstSourceDate {
				c.FirstSourceDate = day
			}
			if day > c.LastSourceDate {
				c.LastSourceDate = day
			}
		}
		want[k] = c
	}
	return want
}

// testSections: per-section counts and date bounds match an independent
// count over the fixtures, and add up to the coverage's records.
func testSections(t *testing.T, b search.Backend, docs []search.Doc) {
	ctx := context.Background()
	got, err := b.Sections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := WantSections(docs)
	if len(got) != len(want) {
		t.Errorf("%d sections, want %d: %+v", len(got), len(want), got)
	}
	sum := 0
	for i, c := range got {
		sum += c.Records
		if w := want[[2]string{c.Source, c.Section}]; c != w {
			t.Errorf("section %q of %s: got %+v, want %+v", c.Section, c.Source, c, w)
		}
		if i > 0 && (got[i-1].Source > c.Source || got[i-1].Source == c.Source && got[i-1].Section >= c.Section) {
			t.Errorf("sections not ordered by source, then section: %+v", got)
		}
		// the engine's own count for the same filter agrees
		if c.Section != "" {
			res := mustSearch(t, b, search.Query{Sources: []string{c.Source}, Sections: []string{c.Section}, Limit: 1})
			if res.Total != c.Records {
				t.Errorf("section %q: search counts %d, sections %d", c.Section, res.Total, c.Records)
			}
		}
	}
	cov, err := b.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	records := 0
	for _, c := range cov {
		records += c.Records
	}
	if sum != records {
		t.Errorf("sections add up to %d records, coverage holds %d", sum, records)
	}
}
