package semantic_test

import (
	"context"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
)

// filteredReference is what a filtered semantic search must return: the
// notices q's filters match (the keyword engine, no words) whose exact
// similarity to text's vector passes the floor, best first, at most
// semantic.Ranked.
func filteredReference(t *testing.T, s *semantic.Service, be search.Engine, text string, q search.Query) []string {
	t.Helper()
	ctx := context.Background()
	if err := s.Index.Sync(ctx, be, s.Model.Dims, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	match := map[string]bool{}
	fq := q
	fq.Sort, fq.Limit = search.SortNewest, search.MaxLimit
	for {
		res, err := be.Search(ctx, fq)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			match[h.Notice.RequestID] = true
		}
		if res.NextCursor == "" || len(res.Hits) == 0 {
			break
		}
		fq.Cursor = res.NextCursor
	}
	vec, ok := s.Model.Embed(text)
	if !ok {
		t.Fatalf("no vector for %q", text)
	}
	var out []string
	for _, n := range s.Index.Nearest(vec, s.Index.Len(), semantic.MinSimilarity) {
		if match[n.ID] && len(out) < semantic.Ranked {
			out = append(out, n.ID)
		}
	}
	return out
}

// TestSemanticFiltersApplyInsideTheNearestSearch: a semantic search with
// filters (agency, lens with publication dates, amounts, notice type and
// source) returns every notice of the reference — the filtered notices
// nearest the query over the floor — not the few of a fixed candidate
// list that survive the filters.
func TestSemanticFiltersApplyInsideTheNearestSearch(t *testing.T) {
	s, be := service(t)
	ctx := context.Background()
	min := 100000.0
	for _, c := range []struct {
		text string
		q    search.Query
	}{
		{"sewer construction", search.Query{AgencyIDs: []string{"environmental-protection"}}},
		{"public hearing on land use", search.Query{Lenses: []string{record.LensLand}, From: time.Date(2014, 1, 1, 0, 0, 0, 0, record.NewYork), To: time.Date(2030, 1, 1, 0, 0, 0, 0, record.NewYork)}},
		{"construction services", search.Query{MinAmount: &min}},
		{"contract award", search.Query{NoticeTypes: []string{"Award"}, Sources: []string{"crol"}}},
	} {
		want := filteredReference(t, s, be, c.text, c.q)
		if len(want) == 0 {
			t.Fatalf("%q %+v: the reference is empty; the case tests nothing", c.text, c.q)
		}
		q := c.q
		q.Text, q.Limit = c.text, search.MaxLimit
		var hits []search.Hit
		for {
			res, err := s.Search(ctx, q, semantic.ModeSemantic)
			if err != nil {
				t.Fatal(err)
			}
			hits = append(hits, res.Hits...)
			if res.NextCursor == "" {
				break
			}
			q.Cursor = res.NextCursor
		}
		got := map[string]bool{}
		for _, h := range hits {
			got[h.Notice.RequestID] = true
		}
		same := 0
		for _, id := range want {
			if got[id] {
				same++
			}
		}
		t.Logf("%q: %d hits, %d in the reference of %d", c.text, len(hits), same, len(want))
		if len(hits) != len(want) || float64(same) < 0.95*float64(len(want)) {
			t.Fatalf("%q %+v: %d hits, %d of the reference's %d", c.text, c.q, len(hits), same, len(want))
		}
	}
}

// TestVectorsOfTheLayoutBeforeFiltersAreWrittenAgain: vectors written in
// the layout before the filtered fields (version 2: no keys, no date)
// match no filter, so a filtered semantic search finds nothing through
// them; Backfill (run at start) writes every one again in the current
// layout, and the search finds its notices again.
func TestVectorsOfTheLayoutBeforeFiltersAreWrittenAgain(t *testing.T) {
	ctx := context.Background()
	be := ownSample(t)
	s := semantic.New(be, time.Now)
	q := search.Query{Text: "sewer construction", AgencyIDs: []string{"environmental-protection"}, Limit: 50}
	before, err := s.Search(ctx, q, semantic.ModeSemantic)
	if err != nil || len(before.Hits) == 0 {
		t.Fatalf("before: %d hits, %v", len(before.Hits), err)
	}
	// every vector rewritten in the version 2 layout
	v2 := semantic.NoticeVectorKind
	v2.Version = 2
	v2.Index = func(v semantic.NoticeVector) search.Record {
		r := semantic.NoticeVectorKind.Index(v)
		r.Keys = map[string][]string{"model": {v.Model}}
		r.Date, r.ObservedAt, r.Amount, r.AmountValid = v.MadeAt, time.Time{}, 0, false
		return r
	}
	var all []semantic.NoticeVector
	fq := search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
	for {
		p, err := search.Find(ctx, be, semantic.NoticeVectorKind, fq)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, p.Items...)
		if p.NextCursor == "" || len(p.Items) == 0 {
			break
		}
		fq.Cursor = p.NextCursor
	}
	if err := search.Put(ctx, be, v2, all); err != nil {
		t.Fatal(err)
	}
	s = semantic.New(be, time.Now)
	if res, err := s.Search(ctx, q, semantic.ModeSemantic); err != nil || len(res.Hits) != 0 {
		t.Fatalf("through version 2 vectors: %d hits, %v; want none (they carry no agency)", len(res.Hits), err)
	}
	n, err := s.Backfill(ctx)
	if err != nil || n != withVector(all) {
		t.Fatalf("backfill wrote %d vectors, %d of the layout before held one (%v)", n, withVector(all), err)
	}
	after, err := s.Search(ctx, q, semantic.ModeSemantic)
	if err != nil || len(after.Hits) != len(before.Hits) {
		t.Fatalf("after backfill: %d hits, before %d (%v)", len(after.Hits), len(before.Hits), err)
	}
}

// withVector counts the vector records that hold a vector (a notice with
// no word the model knows has a record without one).
func withVector(vs []semantic.NoticeVector) int {
	n := 0
	for _, v := range vs {
		if len(v.Vector) > 0 {
			n++
		}
	}
	return n
}
