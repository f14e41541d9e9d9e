// Package searchtest is the contract suite every search.Backend passes:
// the same fixtures, the same queries, the same ids, counts and scope on
// every engine. It runs on the embedded engine always and on OpenSearch
// whenever OPENSEARCH_URL is set.
package searchtest

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Opener returns a new, empty backend; the suite closes it.
type Opener func(t *testing.T) search.Engine

func f(v float64) *float64 { return &v }

// Run runs the whole contract suite against backends made by open.
func Run(t *testing.T, open Opener) {
	ctx := context.Background()
	docs := Fixtures()
	load := func(t *testing.T) search.Engine {
		b := open(t)
		t.Cleanup(func() { b.Close() })
		if err := b.Upsert(ctx, docs); err != nil {
			t.Fatalf("upsert: %v", err)
		}
		if err := b.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "City Record Online", RecordType: "notice",
			ObservedAt: time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)}); err != nil {
			t.Fatalf("observe: %v", err)
		}
		if err := b.Refresh(ctx); err != nil {
			t.Fatalf("refresh: %v", err)
		}
		return b
	}
	b := load(t)
	// Every test name carries the engine (TestContract/opensearch/Keywords/…),
	// so a failure says which engine broke the contract.
	t.Run(b.Name(), func(t *testing.T) { suite(t, b, docs, load, open) })
}

// suite is the contract suite proper; b holds docs, load makes another
// backend holding them, open an empty one.
func suite(t *testing.T, b search.Engine, docs []search.Doc, load func(*testing.T) search.Engine, open Opener) {
	ctx := context.Background()

	t.Run("GetRoundTrip", func(t *testing.T) {
		for _, d := range docs {
			got, err := b.Get(ctx, d.Notice.RequestID)
			if err != nil {
				t.Fatalf("get %s: %v", d.Notice.RequestID, err)
			}
			if !sameJSON(got, d.Notice) {
				t.Errorf("get %s: stored notice differs\n got %s\nwant %s", d.Notice.RequestID, js(got), js(d.Notice))
			}
		}
	})
	t.Run("SearchHitsLeaveOutRaw", func(t *testing.T) {
		res := mustSearch(t, b, search.Query{Limit: 100})
		if len(res.Hits) != len(docs) {
			t.Fatalf("%d hits, want %d", len(res.Hits), len(docs))
		}
		want := map[string]record.Notice{}
		for _, d := range docs {
			want[d.Notice.RequestID] = d.Notice
		}
		for _, h := range res.Hits {
			w := want[h.Notice.RequestID]
			if len(w.Raw) == 0 {
				t.Fatalf("fixture %s has no raw fields to leave out", w.RequestID)
			}
			w.Raw = nil
			if !sameJSON(h.Notice, w) {
				t.Errorf("hit %s: got %s\nwant %s", w.RequestID, js(h.Notice), js(w))
			}
		}
	})
	t.Run("IDsOnly", func(t *testing.T) {
		// the same hits, scores, totals, scope and cursors, each hit's
		// notice its request id alone, in every order
		for _, q := range []search.Query{
			{Text: "parks services inmate notice property award", Limit: 4},
			{Sort: search.SortNewest, Limit: 3},
			{Text: "services", Sort: search.SortAmount, Limit: 2, Facets: true},
		} {
			full := mustSearch(t, b, q)
			q.IDsOnly = true
			only := mustSearch(t, b, q)
			if len(full.Hits) == 0 {
				t.Fatalf("%+v: no hits to compare", q)
			}
			if !slices.Equal(ids(only), ids(full)) || only.Total != full.Total || only.NextCursor != full.NextCursor ||
				!sameJSON(only.Facets, full.Facets) || !sameJSON(only.Scope, full.Scope) {
				t.Errorf("%+v: ids only %v total %d cursor %q, full %v total %d cursor %q", q, ids(only), only.Total, only.NextCursor, ids(full), full.Total, full.NextCursor)
			}
			for i, h := range only.Hits {
				if !sameJSON(h.Notice, record.Notice{RequestID: h.Notice.RequestID}) || h.Score != full.Hits[i].Score {
					t.Errorf("%+v: hit %d is %s (score %v), want its id alone (score %v)", q, i, js(h.Notice), h.Score, full.Hits[i].Score)
				}
			}
		}
	})
	t.Run("GetNotFound", func(t *testing.T) {
		_, err := b.Get(ctx, "20990101999")
		if record.ErrorCode(err) != record.ENOTFOUND {
			t.Fatalf("unknown id: want ENOTFOUND, got %v", err)
		}
		_, err = b.Get(ctx, "2014093000") // a prefix of a real id is not that id
		if record.ErrorCode(err) != record.ENOTFOUND {
			t.Fatalf("prefix id: want ENOTFOUND, got %v", err)
		}
	})

	keyword := []struct {
		name, q string
		want    []string
	}{
		{"single word", "marina", []string{"20141007014"}},
		{"stemmed word", "market", []string{"20141031001"}},
		{"words are OR-matched", "marina pest", []string{"20141007014", "20260624038"}},
		{"phrase", `"green markets"`, []string{"20141031001"}},
		{"phrase word order matters", `"markets green"`, nil},
		{"phrase or word", `"inmate phone" pest`, []string{"20141006012", "20260624038"}},
		{"exclusion", "inmate -renewal", []string{}},
		{"exclusion phrase", `parks -"green markets"`, []string{"20141007014"}},
		{"vendor name is searched", "williamsbridge", []string{"20140930007", "20141118014"}},
		{"html is not text", "strong", nil},
		{"entity decoded", "inquiries", []string{"20130621104"}},
		{"no hits", "zzzqqq", nil},
		{"stop word only", "the", nil},
	}
	for _, tc := range keyword {
		t.Run("Keywords/"+tc.name, func(t *testing.T) {
			res := mustSearch(t, b, search.Query{Text: tc.q, Limit: 100})
			assertIDs(t, ids(res), tc.want)
			assertScope(t, res.Scope, len(docs), res.Total)
		})
	}
	// "inmate -renewal": both Securus awards mention renewal; expected empty.

	byLens := map[string][]string{}
	for _, d := range docs {
		for _, l := range d.Notice.Lenses {
			byLens[l] = append(byLens[l], d.Notice.RequestID)
		}
	}
	validAmounts := func(min, max float64) []string {
		var out []string
		for _, d := range docs {
			if d.Notice.AmountValid && d.Notice.Amount >= min && d.Notice.Amount <= max {
				out = append(out, d.Notice.RequestID)
			}
		}
		return out
	}
	filters := []struct {
		name string
		q    search.Query
		want []string
	}{
		{"lens money", search.Query{Lenses: []string{"money"}}, byLens["money"]},
		{"lens land", search.Query{Lenses: []string{"land"}}, []string{"20260806012"}},
		{"lens meetings", search.Query{Lenses: []string{"meetings"}}, []string{"20260806012", "20260807004"}},
		{"lens property", search.Query{Lenses: []string{"property"}}, []string{"20130621104"}},
		{"lens rules", search.Query{Lenses: []string{"rules"}}, []string{"20260714024"}},
		{"two lenses", search.Query{Lenses: []string{"rules", "property"}}, []string{"20260714024", "20130621104"}},
		{"section", search.Query{Sections: []string{"Agency Rules"}}, []string{"20260714024"}},
		{"notice type", search.Query{NoticeTypes: []string{"Solicitation"}}, []string{"20260624038"}},
		{"agency", search.Query{AgencyIDs: []string{"parks-and-recreation"}}, []string{"20141031001", "20141007014"}},
		{"vendor stem joins suffix variants", search.Query{VendorStems: []string{"SECURUS TECHNOLOGIES"}}, []string{"20141006012", "20260521015"}},
		{"pin exact", search.Query{PINs: []string{"85726B0061"}}, []string{"20260624038"}},
		{"min amount excludes invalid", search.Query{MinAmount: f(1)}, validAmounts(1, 1e18)},
		{"amount range", search.Query{MinAmount: f(1_000_000), MaxAmount: f(2_000_000)}, []string{"20140930007"}},
		{"valid amounts only", search.Query{ValidAmountOnly: true, Lenses: []string{"money"}}, validAmounts(0, 1e18)},
		{"keywords and filters", search.Query{Text: "inmate williamsbridge", MinAmount: f(2)}, []string{"20260521015", "20140930007"}},
		{"date range inclusive", search.Query{From: day("2014-10-07"), To: day("2014-10-14")}, []string{"20140930007", "20141007014", "20141006012"}},
		{"due after with rolling", search.Query{DueFrom: day("2026-08-03"), IncludeRolling: true}, []string{"20260624038", "20140131017"}},
		{"due after without rolling", search.Query{DueFrom: day("2026-08-03")}, []string{"20260624038"}},
		{"due passed", search.Query{DueFrom: day("2026-08-11")}, nil},
		{"event window", search.Query{EventFrom: day("2026-08-19"), EventTo: day("2026-08-19")}, []string{"20260806012"}},
		{"source", search.Query{Sources: []string{record.SourceCROL}, Lenses: []string{"land"}}, []string{"20260806012"}},
		{"filter with no hits", search.Query{AgencyIDs: []string{"no-such-agency"}}, nil},
		{"request ids", search.Query{RequestIDs: []string{"20260806012", "20141007014", "20990101999"}}, []string{"20260806012", "20141007014"}},
		{"request ids are exact", search.Query{RequestIDs: []string{"2014100701"}}, nil},
		{"request ids and filters", search.Query{RequestIDs: []string{"20141031001", "20141007014", "20260624038"}, AgencyIDs: []string{"parks-and-recreation"}, Text: "-marina"}, []string{"20141031001"}},
	}
	for _, tc := range filters {
		t.Run("Filters/"+tc.name, func(t *testing.T) {
			q := tc.q
			q.Limit = 100
			res := mustSearch(t, b, q)
			assertIDs(t, ids(res), tc.want)
			if res.Total != len(tc.want) {
				t.Errorf("total %d, want %d", res.Total, len(tc.want))
			}
			assertScope(t, res.Scope, len(docs), res.Total)
			if q.MinAmount != nil || q.ValidAmountOnly {
				for _, h := range res.Hits {
					if !h.Notice.AmountValid {
						t.Errorf("%s has an invalid amount but passed an amount filter", h.Notice.RequestID)
					}
				}
			}
		})
	}

	t.Run("Sorts", func(t *testing.T) {
		type keyed struct {
			id  string
			key float64
			ok  bool
		}
		order := func(key func(record.Notice) (float64, bool), desc bool) []string {
			var ks []keyed
			for _, d := range docs {
				k, ok := key(d.Notice)
				ks = append(ks, keyed{d.Notice.RequestID, k, ok})
			}
			sort.SliceStable(ks, func(i, j int) bool {
				a, b := ks[i], ks[j]
				if a.ok != b.ok {
					return a.ok // missing last
				}
				if a.ok && a.key != b.key {
					if desc {
						return a.key > b.key
					}
					return a.key < b.key
				}
				return a.id < b.id
			})
			out := make([]string, len(ks))
			for i, k := range ks {
				out[i] = k.id
			}
			return out
		}
		date := func(get func(record.Notice) time.Time) func(record.Notice) (float64, bool) {
			return func(n record.Notice) (float64, bool) {
				t := get(n)
				return float64(t.Unix()), !t.IsZero()
			}
		}
		cases := map[string][]string{
			search.SortNewest:     order(date(func(n record.Notice) time.Time { return n.StartDate }), true),
			search.SortOldest:     order(date(func(n record.Notice) time.Time { return n.StartDate }), false),
			search.SortDueSoonest: order(date(func(n record.Notice) time.Time { return n.DueDate }), false),
			search.SortEvent:      order(date(func(n record.Notice) time.Time { return n.EventDate }), false),
			search.SortAmount:     order(func(n record.Notice) (float64, bool) { return n.Amount, n.AmountValid }, true),
		}
		for name, want := range cases {
			q := search.Query{Sort: name, Limit: 100}
			res := mustSearch(t, b, q)
			got := ids(res)
			if name == search.SortAmount {
				want = want[:len(validAmounts(0, 1e18))]
			}
			if !slices.Equal(got, want) {
				t.Errorf("sort %s:\n got %v\nwant %v", name, got, want)
			}
		}
		// relevance: a notice matching two words ranks above one matching one
		res := mustSearch(t, b, search.Query{Text: "inmate phone", Limit: 100})
		if len(res.Hits) == 0 || res.Hits[0].Notice.RequestID != "20141006012" {
			t.Errorf("relevance: want 20141006012 first, got %v", ids(res))
		}
	})

	t.Run("CursorPaging", func(t *testing.T) {
		for _, s := range []string{search.SortNewest, search.SortRelevance, search.SortDueSoonest, search.SortAmount} {
			text := ""
			if s == search.SortRelevance {
				text = "parks services inmate notice property award"
			}
			all := ids(mustSearch(t, b, search.Query{Text: text, Sort: s, Limit: 100}))
			var paged []string
			for i, res := range Pages(t, b, search.Query{Text: text, Sort: s, Limit: 3}, 20) {
				paged = append(paged, ids(res)...)
				if res.Total != len(all) {
					t.Errorf("sort %s page %d: total %d, want %d", s, i, res.Total, len(all))
				}
			}
			if !slices.Equal(paged, all) {
				t.Errorf("sort %s: pages\n %v\nwant\n %v", s, paged, all)
			}
		}
		first := mustSearch(t, b, search.Query{Sort: search.SortNewest, Limit: 2})
		_, err := b.Search(ctx, search.Query{Sort: search.SortOldest, Limit: 2, Cursor: first.NextCursor})
		if record.ErrorCode(err) != record.EINVALID {
			t.Errorf("cursor of another sort: want EINVALID, got %v", err)
		}
		_, err = b.Search(ctx, search.Query{Limit: 2, Cursor: "not-a-cursor"})
		if record.ErrorCode(err) != record.EINVALID {
			t.Errorf("garbage cursor: want EINVALID, got %v", err)
		}
	})

	t.Run("Validation", func(t *testing.T) {
		bad := []search.Query{
			{Limit: search.MaxLimit + 1}, {Limit: -1}, {Sort: "sideways"},
			{MinAmount: f(10), MaxAmount: f(5)}, {From: day("2026-01-02"), To: day("2026-01-01")},
		}
		for _, q := range bad {
			if _, err := b.Search(ctx, q); record.ErrorCode(err) != record.EINVALID {
				t.Errorf("%+v: want EINVALID, got %v", q, err)
			}
		}
	})

	t.Run("Facets", func(t *testing.T) {
		res := mustSearch(t, b, search.Query{Facets: true, Limit: 1})
		want := map[string]map[string]int{search.FacetLens: {}, search.FacetAgency: {}, search.FacetType: {}, search.FacetYear: {}}
		for _, d := range docs {
			for _, l := range d.Notice.Lenses {
				want[search.FacetLens][l]++
			}
			want[search.FacetAgency][d.Notice.AgencyID]++
			want[search.FacetType][d.Notice.NoticeType]++
			want[search.FacetYear][d.Notice.Year()]++
		}
		for name, w := range want {
			got := map[string]int{}
			for _, fc := range res.Facets[name] {
				got[fc.Value] = fc.Count
			}
			if !reflect.DeepEqual(got, w) {
				t.Errorf("facet %s: got %v want %v", name, got, w)
			}
			fs := res.Facets[name]
			for i := 1; i < len(fs); i++ {
				if fs[i-1].Count < fs[i].Count || (fs[i-1].Count == fs[i].Count && fs[i-1].Value > fs[i].Value) {
					t.Errorf("facet %s not ordered by count then value: %v", name, fs)
				}
			}
		}
		// facets follow the query
		res = mustSearch(t, b, search.Query{Facets: true, Lenses: []string{"money"}, Limit: 1})
		for _, fc := range res.Facets[search.FacetLens] {
			if fc.Value != "money" {
				t.Errorf("money search has lens facet %v", fc)
			}
		}
	})

	t.Run("ScopeWithoutHits", func(t *testing.T) {
		res := mustSearch(t, b, search.Query{Text: "zzzqqq", Lenses: []string{"money"}})
		if res.Total != 0 || len(res.Hits) != 0 {
			t.Fatalf("want no hits, got %d", res.Total)
		}
		s := res.Scope
		assertScope(t, s, len(docs), 0)
		if s.FirstSourceDate != "2014-01-02" || s.LastSourceDate != "2026-08-12" {
			t.Errorf("date bounds %s..%s", s.FirstSourceDate, s.LastSourceDate)
		}
		if !s.CorpusObservedAt.Equal(time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)) {
			t.Errorf("observed at %v", s.CorpusObservedAt)
		}
		if !slices.Equal(s.Searched.Lenses, []string{"money"}) || s.Searched.Terms[0] != "zzzqqq" {
			t.Errorf("searched %+v", s.Searched)
		}
		wantPassages := 0
		for _, d := range docs {
			wantPassages += len(d.Passages)
		}
		if s.PassagesInCorpus != wantPassages {
			t.Errorf("passages in corpus %d, want %d", s.PassagesInCorpus, wantPassages)
		}
	})

	t.Run("Passages", func(t *testing.T) {
		res, err := b.Passages(ctx, search.PassageQuery{Text: "calculating machines"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Passages) == 0 {
			t.Fatal("no passages for 'calculating machines'")
		}
		p := res.Passages[0].Passage
		if p.RequestID != "20130621104" || p.ID != "20130621104#p"+itoa(p.Seq) || p.SourceURL != record.OfficialURL("20130621104") {
			t.Errorf("passage citation %+v", p)
		}
		body := []rune(docs[7].Notice.Body)
		if p.Start < 0 || p.End > len(body) || p.Start >= p.End {
			t.Fatalf("passage offsets %d..%d outside body of %d", p.Start, p.End, len(body))
		}
		if got := record.PlainText(string(body[p.Start:p.End])); got != p.Text {
			t.Errorf("offsets do not point at the passage:\n%q\n%q", got, p.Text)
		}
		if res.Scope.Searched.Kind != "passages" {
			t.Errorf("scope kind %q", res.Scope.Searched.Kind)
		}
		none, err := b.Passages(ctx, search.PassageQuery{Text: "zzzqqq"})
		if err != nil {
			t.Fatal(err)
		}
		if none.Total != 0 {
			t.Errorf("zzzqqq passages: %d", none.Total)
		}
		assertScope(t, none.Scope, len(docs), 0)
		lens, err := b.Passages(ctx, search.PassageQuery{Text: "property", Lenses: []string{"rules"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range lens.Passages {
			if h.Passage.RequestID != "20260714024" {
				t.Errorf("rules passage search returned %s", h.Passage.RequestID)
			}
		}
		if lens.Total != 1 {
			t.Errorf("rules 'property' passages: %d, want 1", lens.Total)
		}
	})

	t.Run("Coverage", func(t *testing.T) {
		cov, err := b.Coverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(cov) != 1 || cov[0].Source != record.SourceCROL || cov[0].Records != len(docs) ||
			cov[0].Label != "City Record Online" || cov[0].RecordType != "notice" {
			t.Errorf("coverage %+v", cov)
		}
	})

	t.Run("Sections", func(t *testing.T) { testSections(t, b, docs) })
	t.Run("SourceRecords", func(t *testing.T) { testSourceRecords(t, open) }) // sources.go
	t.Run("Records", func(t *testing.T) { testRecords(t, open) })             // records.go
	t.Run("Nearest", func(t *testing.T) { testNearest(t, open) })             // nearest.go
	t.Run("Analysis", func(t *testing.T) { testAnalysis(t, open) })           // analysis.go
	t.Run("Counts", func(t *testing.T) { testCounts(t, open) })               // counts.go
	t.Run("RelevanceTies", func(t *testing.T) { testRelevanceTies(t, open) }) // ties.go

	t.Run("IdempotentUpsertAndDelete", func(t *testing.T) {
		b := load(t)
		if err := b.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
		b.Refresh(ctx)
		res := mustSearch(t, b, search.Query{})
		if res.Total != len(docs) {
			t.Fatalf("after second upsert: %d notices, want %d", res.Total, len(docs))
		}
		// a notice changes in place: new title, fewer passages
		d := docs[7]
		before, _ := b.Passages(ctx, search.PassageQuery{RequestID: d.Notice.RequestID, Limit: 100})
		if before.Total < 2 {
			t.Fatalf("fixture %s should have several passages, has %d", d.Notice.RequestID, before.Total)
		}
		changed := d
		changed.Notice.Title = "UNCLAIMED PROPERTY"
		changed.Passages = d.Passages[:1]
		if err := b.Upsert(ctx, []search.Doc{changed}); err != nil {
			t.Fatal(err)
		}
		b.Refresh(ctx)
		got, err := b.Get(ctx, d.Notice.RequestID)
		if err != nil || got.Title != "UNCLAIMED PROPERTY" {
			t.Fatalf("changed notice: %v %q", err, got.Title)
		}
		after, _ := b.Passages(ctx, search.PassageQuery{RequestID: d.Notice.RequestID, Limit: 100})
		if after.Total != 1 {
			t.Errorf("stale passages remain: %d", after.Total)
		}
		if err := b.Delete(ctx, []string{d.Notice.RequestID}); err != nil {
			t.Fatal(err)
		}
		b.Refresh(ctx)
		if _, err := b.Get(ctx, d.Notice.RequestID); record.ErrorCode(err) != record.ENOTFOUND {
			t.Errorf("deleted notice still readable: %v", err)
		}
		gone, _ := b.Passages(ctx, search.PassageQuery{RequestID: d.Notice.RequestID, Limit: 100})
		if gone.Total != 0 {
			t.Errorf("deleted notice keeps %d passages", gone.Total)
		}
		cov, _ := b.Coverage(ctx)
		if len(cov) != 1 || cov[0].Records != len(docs)-1 {
			t.Errorf("coverage after delete %+v", cov)
		}
	})
}

func mustSearch(t *testing.T, b search.Backend, q search.Query) search.Result {
	t.Helper()
	res, err := b.Search(context.Background(), q)
	if err != nil {
		t.Fatalf("search %+v: %v", q, err)
	}
	return res
}

// Pages walks every page of q by cursor and returns them in order. A
// cursor that has not ended after maxPages pages fails the test.
func Pages(t testing.TB, b search.Backend, q search.Query, maxPages int) []search.Result {
	t.Helper()
	var pages []search.Result
	for len(pages) < maxPages {
		res, err := b.Search(context.Background(), q)
		if err != nil {
			t.Fatalf("search %+v: %v", q, err)
		}
		pages = append(pages, res)
		if res.NextCursor == "" {
			return pages
		}
		q.Cursor = res.NextCursor
	}
	t.Fatalf("search %+v: the cursor has not ended after %d pages", q, maxPages)
	return nil
}

// PageIDs are the request ids of every page of q, walked by cursor, in order.
func PageIDs(t testing.TB, b search.Backend, q search.Query, maxPages int) []string {
	t.Helper()
	var out []string
	for _, res := range Pages(t, b, q, maxPages) {
		out = append(out, ids(res)...)
	}
	return out
}

func ids(r search.Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.Notice.RequestID)
	}
	return out
}

func assertIDs(t *testing.T, got, want []string) {
	t.Helper()
	g := slices.Clone(got)
	w := slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if len(g) == 0 && len(w) == 0 {
		return
	}
	if !slices.Equal(g, w) {
		t.Errorf("ids %v, want %v", g, w)
	}
}

func assertScope(t *testing.T, s record.Scope, records, matched int) {
	t.Helper()
	if s.RecordsInCorpus != records || s.Matched != matched || s.MatchedRelation != "" {
		t.Errorf("scope counts: records %d (want %d), matched %d %q (want %d, exact)", s.RecordsInCorpus, records, s.Matched, s.MatchedRelation, matched)
	}
	if len(s.Sources) == 0 || len(s.SourceTypes) == 0 || s.FirstSourceDate == "" || s.LastSourceDate == "" ||
		s.CorpusObservedAt.IsZero() || len(s.Absence) != 4 || s.DateBoundsNote == "" || s.Searched.Kind == "" {
		t.Errorf("scope incomplete: %+v", s)
	}
}

func sameJSON(a, b any) bool { return js(a) == js(b) }

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
