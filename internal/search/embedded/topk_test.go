package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// topkVocabulary: a few common words and many rare ones, so that some
// windows hold no strong posting and some words are in nearly every notice.
var topkVocabulary = strings.Fields(`bridge repair street paving contract award hearing
	asbestos abatement school roof boiler elevator sewer water main park playground
	library shelter vendor lease parcel tree pruning snow removal harbor ferry pier`)

// topkCorpus writes n random notices in many batches (several segments);
// with churn, it then rewrites and deletes some (deleted documents in older
// segments, until Bleve merges them away).
func topkCorpus(t *testing.T, n int, churn bool) *Backend {
	t.Helper()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	rng := rand.New(rand.NewPCG(7, 19))
	words := func(min, max int) string {
		k := min + rng.IntN(max-min+1)
		ws := make([]string, k)
		for i := range ws {
			// Zipf-like: low indexes far more often
			j := int(float64(len(topkVocabulary)) * rng.Float64() * rng.Float64())
			ws[i] = topkVocabulary[j]
			if rng.IntN(9) == 0 {
				ws[i] = "the" // a stop word
			}
		}
		return strings.Join(ws, " ")
	}
	notice := func(i int) record.Notice {
		nt := record.Notice{
			RequestID: fmt.Sprintf("2026%05d", i),
			Source:    "crol",
			Section:   "Procurement",
			Lens:      "procurement",
			Lenses:    []string{[]string{"procurement", "awards", "hearings"}[rng.IntN(3)]},
			AgencyID:  []string{"dot", "dep", "dcas", "hpd"}[rng.IntN(4)],
			Title:     words(1, 4),
			Text:      words(3, 120),
			StartDate: time.Date(2020+rng.IntN(6), time.Month(1+rng.IntN(12)), 1+rng.IntN(28), 0, 0, 0, 0, time.UTC),
		}
		if rng.IntN(10) == 0 { // exact copies: ties settled by request id
			nt.Title, nt.Text = "bridge repair", "bridge repair contract"
		}
		if rng.IntN(3) > 0 {
			nt.Amount, nt.AmountValid = float64(rng.IntN(5_000_000)), true
		}
		return nt
	}
	ctx := context.Background()
	var batch []search.Doc
	flush := func() {
		if err := b.Upsert(ctx, batch); err != nil {
			t.Fatal(err)
		}
		batch = batch[:0]
	}
	for i := range n {
		batch = append(batch, search.Doc{Notice: notice(i)})
		if len(batch) == 97 {
			flush()
		}
	}
	flush()
	if !churn {
		return b
	}
	settle(t, b)
	// new versions in three batches after the merges: small segments
	// beside the merged one, whose older versions are deleted
	for range 3 {
		for range n / 30 {
			batch = append(batch, search.Doc{Notice: notice(rng.IntN(n))})
		}
		flush()
	}
	var gone []string
	for range n / 20 {
		gone = append(gone, fmt.Sprintf("2026%05d", rng.IntN(n)))
	}
	if err := b.Delete(ctx, gone); err != nil {
		t.Fatal(err)
	}
	return b
}

// settle waits until Bleve's background merges are done (the segment list
// stays the same for half a second).
func settle(t *testing.T, b *Backend) {
	t.Helper()
	ids := func() string {
		snap := snapshotOf(t, b.notices)
		defer snap.Close()
		var s []string
		for _, seg := range snap.Segments() {
			s = append(s, fmt.Sprint(seg.Id()))
		}
		return strings.Join(s, ",")
	}
	last, same := ids(), 0
	for deadline := time.Now().Add(30 * time.Second); same < 5 && time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		if cur := ids(); cur == last {
			same++
		} else {
			last, same = cur, 0
		}
	}
}

// TestRankedPathMatchesExhaustiveRanking: the ranked text path's pages,
// walked by cursor, are exactly the ranking of every match (the same path
// scoring every match, no window skipped); its count, and its facets, are
// Bleve's for the same query.
func TestRankedPathMatchesExhaustiveRanking(t *testing.T) {
	// no notice rewritten or deleted: Bleve's merges, which go on while
	// the test reads, then change no statistic and no score (merging away
	// deleted versions moves the average field length a little, and so the
	// scores between two pages: TestRankedPathWithDeletions)
	b := topkCorpus(t, 3000, false)
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(3, 5))
	min1M := 1_000_000.0
	for c := range 40 {
		var text []string
		for range 1 + rng.IntN(3) {
			text = append(text, topkVocabulary[rng.IntN(len(topkVocabulary))])
		}
		if c%7 == 0 {
			text = append(text, "the")
		}
		q := search.Query{Text: strings.Join(text, " "), Limit: []int{3, 7, 20}[c%3]}
		if c%4 == 1 {
			q.AgencyIDs = []string{"dot", "hpd"}
		}
		if c%5 == 2 {
			q.MinAmount = &min1M
		}
		if c%6 == 3 {
			q.Text += " -" + topkVocabulary[rng.IntN(6)]
		}
		name := fmt.Sprintf("%q agency=%v min=%v limit=%d", q.Text, q.AgencyIDs, q.MinAmount != nil, q.Limit)

		// every page, by cursor
		var got []search.Hit
		exact := q
		exact.ExactCount = true
		pages := searchtest.Pages(t, b, exact, 3000)
		total := pages[0].Total
		for i, res := range pages {
			if res.Total != total {
				t.Fatalf("%s: page %d counts %d, the first %d", name, i, res.Total, total)
			}
			got = append(got, res.Hits...)
		}

		// the exhaustive ranking
		spec := specOf(t, b, q)
		spec.limit, spec.exhaustive, spec.load = 1<<30, true, nil
		want, err := b.topNotices.search(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want.hits) || total != want.total {
			t.Fatalf("%s: %d hits by cursor (count %d), %d ranked exhaustively (count %d)", name, len(got), total, len(want.hits), want.total)
		}
		for i := range got {
			if got[i].Notice.RequestID != want.hits[i].id || got[i].Score != want.hits[i].score {
				t.Fatalf("%s: hit %d is %s (%v), exhaustively %s (%v)", name, i, got[i].Notice.RequestID, got[i].Score, want.hits[i].id, want.hits[i].score)
			}
			if i > 0 && !better(topHit{id: got[i-1].Notice.RequestID, score: got[i-1].Score}, topHit{id: got[i].Notice.RequestID, score: got[i].Score}) {
				t.Fatalf("%s: hits %d and %d out of order", name, i-1, i)
			}
		}

		// Bleve's count and facets for the same query
		br := bleveAnswer(t, b, q, 0)
		if int(br.Total) != total {
			t.Fatalf("%s: counts %d, Bleve %d", name, total, br.Total)
		}
		fq := q
		fq.Facets = true
		fr, err := b.Search(ctx, fq)
		if err != nil {
			t.Fatal(err)
		}
		for fname := range noticeFacets {
			bleveCounts := bleveFacet(br, fname)
			if !slices.Equal(fr.Facets[fname], bleveCounts) && !(len(fr.Facets[fname]) == 0 && len(bleveCounts) == 0) {
				t.Fatalf("%s: facet %s is %v, Bleve's %v", name, fname, fr.Facets[fname], bleveCounts)
			}
		}
	}
}

// TestRankedPathWithDeletions: with rewritten and deleted notices in the
// segments, the ranked path's matches (every page, by cursor) are exactly
// Bleve's, each once, and its counts and facets are Bleve's.
func TestRankedPathWithDeletions(t *testing.T) {
	b := topkCorpus(t, 3000, true)
	ctx := context.Background()
	for c, text := range []string{"bridge", "repair street", "abatement -bridge", "sewer water main", "pier ferry harbor"} {
		q := search.Query{Text: text, Limit: 50, ExactCount: true}
		if c%2 == 1 {
			q.AgencyIDs = []string{"dep"}
		}
		got := map[string]bool{}
		page := q
		page.Facets = true
		first, err := b.Search(ctx, page)
		if err != nil {
			t.Fatal(err)
		}
		page.Facets = false
		for res := first; ; {
			for _, h := range res.Hits {
				if got[h.Notice.RequestID] {
					t.Fatalf("%q: %s twice", text, h.Notice.RequestID)
				}
				got[h.Notice.RequestID] = true
			}
			if res.NextCursor == "" {
				break
			}
			page.Cursor = res.NextCursor
			if res, err = b.Search(ctx, page); err != nil {
				t.Fatal(err)
			}
		}
		br := bleveAnswer(t, b, q, 10000)
		if first.Total != int(br.Total) || len(got) != len(br.Hits) {
			t.Fatalf("%q: count %d, %d walked; Bleve %d", text, first.Total, len(got), br.Total)
		}
		for _, h := range br.Hits {
			if !got[h.ID] {
				t.Fatalf("%q: Bleve matches %s, the ranked path does not", text, h.ID)
			}
		}
		for fname := range noticeFacets {
			want := bleveFacet(br, fname)
			if !slices.Equal(first.Facets[fname], want) {
				t.Fatalf("%q: facet %s is %v, Bleve's %v", text, fname, first.Facets[fname], want)
			}
		}
	}
}

// TestRankedPathPrunes: when a word's best notices sit together, the
// page is found without scoring most matches (the point of the window
// bounds), the answer is the exhaustive one, and a word is read once per
// segment.
func TestRankedPathPrunes(t *testing.T) {
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	filler := strings.Repeat("paving contract award hearing ", 25)
	var docs []search.Doc
	for i := range 3000 {
		n := record.Notice{RequestID: fmt.Sprintf("2026%05d", i), Source: "crol", Title: "street work", Text: "bridge " + filler}
		if i < 15 {
			n.Title, n.Text = "bridge", "bridge bridge"
		}
		docs = append(docs, search.Doc{Notice: n})
	}
	for start := 0; start < len(docs); start += 500 {
		if err := b.Upsert(ctx, docs[start:start+500]); err != nil {
			t.Fatal(err)
		}
	}
	spec := specOf(t, b, search.Query{Text: "bridge", Limit: 10})
	res, err := b.topNotices.search(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if res.total != 3000 || len(res.hits) != 10 {
		t.Fatalf("bridge: %d matches, %d hits", res.total, len(res.hits))
	}
	if res.scored > 1000 {
		t.Fatalf("scored %d of %d matches: the bounds skipped almost nothing", res.scored, res.total)
	}
	for i, h := range res.hits {
		if want := fmt.Sprintf("2026%05d", i); h.id != want {
			t.Fatalf("hit %d is %s, want %s (the short notices, by request id)", i, h.id, want)
		}
	}
	cached := b.topNotices.words.Len()
	spec.exhaustive = true
	all, err := b.topNotices.search(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	if all.scored != 3000 || !slices.EqualFunc(all.hits, res.hits, func(a, c topHit) bool { return a.id == c.id && a.score == c.score }) {
		t.Fatalf("exhaustively %d scored, hits %v; pruned %v", all.scored, all.hits, res.hits)
	}
	if b.topNotices.words.Len() != cached || cached == 0 {
		t.Fatalf("words cached %d, then %d", cached, b.topNotices.words.Len())
	}
}

// specOf is a notice query as the segment path's question (first page).
func specOf(t *testing.T, b *Backend, q search.Query) topSpec {
	t.Helper()
	k, err := q.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	spec, err := noticeSpec(b.notices, q, k, nil)
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// bleveAnswer is Bleve's own answer to a notice query (its first size
// hits), with the four notice facets.
func bleveAnswer(t *testing.T, b *Backend, q search.Query, size int) *bleve.SearchResult {
	t.Helper()
	k, err := q.Normalize()
	if err != nil {
		t.Fatal(err)
	}
	req := bleve.NewSearchRequestOptions(noticeQuery(q, k), size, 0, false)
	for fname, field := range noticeFacets {
		req.AddFacet(fname, bleve.NewFacetRequest(field, 200))
	}
	br, err := b.notices.Search(req)
	if err != nil {
		t.Fatal(err)
	}
	return br
}

// bleveFacet is one of Bleve's facets as the engine reports facets.
func bleveFacet(br *bleve.SearchResult, name string) []search.FacetCount {
	var out []search.FacetCount
	if f := br.Facets[name]; f != nil && f.Terms != nil {
		for _, tc := range f.Terms.Terms() {
			out = append(out, search.FacetCount{Value: tc.Term, Count: tc.Count})
		}
	}
	return search.SortFacet(out, search.FacetSize)
}

// TestSortedPathMatchesBleveOrder: every order but relevance, walked by
// cursor in small pages over notices with many equal dates, is Bleve's own
// sort by the same keys (sort key, then request id).
func TestSortedPathMatchesBleveOrder(t *testing.T) {
	b := topkCorpus(t, 3000, true)
	for sortName, sk := range noticeSortKeys {
		for _, q := range []search.Query{{Sort: sortName, Limit: 7}, {Text: "bridge", Sort: sortName, Limit: 7, AgencyIDs: []string{"dot", "dep"}}} {
			got := searchtest.PageIDs(t, b, q, 3000)
			k, err := q.Normalize()
			if err != nil {
				t.Fatal(err)
			}
			req := bleve.NewSearchRequestOptions(noticeQuery(q, k), 10000, 0, false)
			req.SortByCustom(bsearch.SortOrder{keySort(sk.field, sk.desc), keySort("request_id", false)})
			br, err := b.notices.Search(req)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]string, len(br.Hits))
			for i, h := range br.Hits {
				want[i] = h.ID
			}
			if len(want) < 100 || !slices.Equal(got, want) {
				t.Fatalf("%s %q: %d notices by cursor, Bleve's sort %d; first difference at %d", sortName, q.Text, len(got), len(want), firstDiff(got, want))
			}
		}
	}
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
