package searchtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// countDocs are n tiny notices, each with one passage: every one holds the
// word "tally"; the first few also "rare" and are in the rules lens.
func countDocs(n, rare int) []search.Doc {
	docs := make([]search.Doc, n)
	for i := range docs {
		section, body := "Procurement", "Tally notice "+fmt.Sprint(i)
		if i < rare {
			section, body = "Property Disposition", "Tally rare notice "+fmt.Sprint(i)
		}
		n := notice(fmt.Sprintf("2030%07d", i), section, "Award", "Parks and Recreation", "TALLY",
			"", "2030-01-02", "", "", "", body)
		n.Raw = nil
		docs[i] = search.Doc{Notice: n, Passages: []record.Passage{{
			ID: n.RequestID + "#p1", RequestID: n.RequestID, Seq: 1, End: len(n.Text), Text: n.Text, Source: n.Source,
			Section: n.Section, Lenses: n.Lenses, AgencyID: n.AgencyID, Title: n.Title, StartDate: n.StartDate, SourceURL: n.OfficialURL,
		}}}
	}
	return docs
}

// testCounts is the count rule (record.CapCount) on a corpus of more than
// record.CountLimit notices: exact up to the limit, then the limit with
// "gte" unless the exact count is asked for; facets stay exact; the scope
// stays complete whatever the relation.
func testCounts(t *testing.T, open Opener) {
	ctx := context.Background()
	const n, rare = record.CountLimit + 50, 7
	b := open(t)
	t.Cleanup(func() { b.Close() })
	if err := b.Upsert(ctx, countDocs(n, rare)); err != nil {
		t.Fatalf("upsert: %v", err)
	}
	if err := b.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice",
		ObservedAt: time.Date(2030, 1, 3, 12, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	check := func(t *testing.T, what string, total int, rel string, s record.Scope, wantTotal int, wantRel string) {
		t.Helper()
		if total != wantTotal || rel != wantRel {
			t.Errorf("%s: total %d %q, want %d %q", what, total, rel, wantTotal, wantRel)
		}
		if s.Matched != wantTotal || s.MatchedRelation != wantRel {
			t.Errorf("%s: scope matched %d %q, want %d %q", what, s.Matched, s.MatchedRelation, wantTotal, wantRel)
		}
		// a lower bound is never "no record": the scope is whole
		if s.RecordsInCorpus != n || len(s.Absence) != 4 || s.DateBoundsNote == "" || len(s.Sources) == 0 || s.CorpusObservedAt.IsZero() {
			t.Errorf("%s: scope incomplete: %+v", what, s)
		}
	}
	for _, q := range []search.Query{
		{Text: "tally", Limit: 5},           // ranked keywords
		{Limit: 5},                          // every notice, newest first
		{Sections: []string{"Procurement"}}, // a filter that still keeps more than the limit
	} {
		want := n
		if len(q.Sections) > 0 {
			want = n - rare
		}
		t.Run(fmt.Sprintf("Notices/%q/%v", q.Text, q.Sections), func(t *testing.T) {
			res := mustSearch(t, b, q)
			check(t, "default", res.Total, res.TotalRelation, res.Scope, record.CountLimit, record.CountAtLeast)
			if len(res.Hits) != q.Limit && !(q.Limit == 0 && len(res.Hits) == search.DefaultLimit) {
				t.Errorf("%d hits", len(res.Hits))
			}
			if res.NextCursor == "" {
				t.Error("no next cursor on a page of a larger result")
			}
			q.ExactCount = true
			exact := mustSearch(t, b, q)
			check(t, "exact", exact.Total, exact.TotalRelation, exact.Scope, want, "")
		})
	}
	t.Run("BelowTheLimitIsExact", func(t *testing.T) {
		res := mustSearch(t, b, search.Query{Text: "rare"})
		check(t, "rare", res.Total, res.TotalRelation, res.Scope, rare, "")
		none := mustSearch(t, b, search.Query{Text: "zzzqqq"})
		check(t, "none", none.Total, none.TotalRelation, none.Scope, 0, "")
	})
	t.Run("FacetsStayExact", func(t *testing.T) {
		res := mustSearch(t, b, search.Query{Text: "tally", Limit: 1, Facets: true})
		check(t, "facets", res.Total, res.TotalRelation, res.Scope, record.CountLimit, record.CountAtLeast)
		got := map[string]int{}
		for _, fc := range res.Facets[search.FacetYear] {
			got[fc.Value] = fc.Count
		}
		if got["2030"] != n {
			t.Errorf("year facet %v, want 2030: %d", res.Facets[search.FacetYear], n)
		}
	})
	t.Run("Passages", func(t *testing.T) {
		p, err := b.Passages(ctx, search.PassageQuery{Text: "tally", Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		check(t, "passages", p.Total, p.TotalRelation, p.Scope, record.CountLimit, record.CountAtLeast)
		p, err = b.Passages(ctx, search.PassageQuery{Text: "tally", Limit: 3, ExactCount: true})
		if err != nil {
			t.Fatal(err)
		}
		check(t, "passages exact", p.Total, p.TotalRelation, p.Scope, n, "")
		p, err = b.Passages(ctx, search.PassageQuery{Text: "rare"})
		if err != nil {
			t.Fatal(err)
		}
		check(t, "rare passages", p.Total, p.TotalRelation, p.Scope, rare, "")
	})
}
