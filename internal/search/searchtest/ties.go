package searchtest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
)

// testRelevanceTies is the relevance order's tie rule: notices with the
// same score are ordered by request id, on the first page and across
// pages, whether the tied notices fit a few hits past the page or run far
// beyond it (an engine may settle the first page's ties itself instead of
// reading a tie-break key for every match; the answer must not change).
func testRelevanceTies(t *testing.T, open Opener) {
	ctx := context.Background()
	b := open(t)
	defer b.Close()
	// 60 notices with the same text (all tied), 3 with the word twice
	// (they score higher), written in an order unrelated to their ids
	var docs []search.Doc
	for i := range 63 {
		id := fmt.Sprintf("2031%07d", (i*37)%63)
		body := "Tiebreak harbor dredging"
		if i%21 == 0 {
			body = "Tiebreak harbor dredging, harbor dredging again"
		}
		n := notice(id, "Procurement", "Solicitation", "Parks and Recreation", "Tiebreak harbor", "", "2031-01-02", "", "", "", body)
		n.Raw = nil
		docs = append(docs, search.Doc{Notice: n})
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	// every notice, by score then id, read one page at a time
	var all []search.Hit
	q := search.Query{Text: "dredging", Limit: 100}
	res, err := b.Search(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	all = res.Hits
	if len(all) != 63 {
		t.Fatalf("%d hits, want 63", len(all))
	}
	for i := 1; i < len(all); i++ {
		a, c := all[i-1], all[i]
		if a.Score < c.Score || (a.Score == c.Score && a.Notice.RequestID > c.Notice.RequestID) {
			t.Fatalf("hit %d (%s, %v) before %s (%v): not score, then request id", i-1, a.Notice.RequestID, a.Score, c.Notice.RequestID, c.Score)
		}
	}
	want := make([]string, len(all))
	for i, h := range all {
		want[i] = h.Notice.RequestID
	}
	for _, limit := range []int{1, 2, 3, 4, 5, 20, 55, 62} {
		got := PageIDs(t, b, search.Query{Text: "dredging", Limit: limit}, 100)
		if !slices.Equal(got, want) {
			t.Errorf("pages of %d: %v\nwant %v", limit, got, want)
		}
	}
}
