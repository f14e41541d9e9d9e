package embedded

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// copies makes n notices from the fixtures, each under an id of its own
// (its passages renamed with it).
func copies(n int) []search.Doc {
	fx := searchtest.Fixtures()
	out := make([]search.Doc, 0, n)
	for i := range n {
		d := fx[i%len(fx)]
		id := fmt.Sprintf("%s-%04d", d.Notice.RequestID, i)
		d.Notice.RequestID = id
		ps := append(d.Passages[:0:0], d.Passages...)
		for j := range ps {
			ps[j].RequestID = id
			ps[j].ID = id + "#p" + strings.SplitN(ps[j].ID, "#p", 2)[1]
		}
		d.Passages = ps
		out = append(out, d)
	}
	return out
}

// A call large enough to be written in parts keeps every notice with its
// passages, and of two copies of one notice in the call the last wins,
// passages included.
func TestUpsertInParts(t *testing.T) {
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	docs := copies(3 * upsertPart)
	var many search.Doc // a notice with more than one passage
	for _, d := range docs {
		if len(d.Passages) > 1 {
			many = d
			break
		}
	}
	if many.Notice.RequestID == "" {
		t.Fatal("no fixture has two passages")
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	// again, with the notice cut to one passage and copied twice: the
	// later copy (one passage) must win
	again := append([]search.Doc(nil), docs...)
	cut := many
	cut.Passages = cut.Passages[:1]
	again = append(again, many, cut)
	if n := upsertParts(len(again)); n < 2 && upsertParts(1<<20) >= 2 {
		t.Fatalf("%d notices written in %d part(s)", len(again), n)
	}
	if err := b.Upsert(ctx, again); err != nil {
		t.Fatal(err)
	}
	res, err := b.Search(ctx, search.Query{Limit: 1, ExactCount: true})
	if err != nil || res.Total != len(docs) {
		t.Fatalf("%d notices (%v), want %d", res.Total, err, len(docs))
	}
	want := 0
	for _, d := range docs {
		want += len(d.Passages)
	}
	want -= len(many.Passages) - 1
	pr, err := b.Passages(ctx, search.PassageQuery{Limit: 1, ExactCount: true})
	if err != nil || pr.Total != want {
		t.Fatalf("%d passages (%v), want %d", pr.Total, err, want)
	}
	pr, err = b.Passages(ctx, search.PassageQuery{RequestID: many.Notice.RequestID, Limit: 10, ExactCount: true})
	if err != nil || pr.Total != 1 {
		t.Fatalf("%s holds %d passages (%v), want 1", many.Notice.RequestID, pr.Total, err)
	}
	if got := b.passageCounts([]string{many.Notice.RequestID})[many.Notice.RequestID]; got != 1 {
		t.Fatalf("stored passage count %d, want 1", got)
	}
}

// Copies of one notice land in the same part, in their order.
func TestPartition(t *testing.T) {
	docs := copies(40)
	docs = append(docs, docs[3], docs[17])
	parts := partition(docs, 3)
	if len(parts) != 3 {
		t.Fatalf("%d parts, want 3", len(parts))
	}
	seen := map[string]int{}
	total := 0
	for i, p := range parts {
		total += len(p)
		for _, d := range p {
			if j, ok := seen[d.Notice.RequestID]; ok && j != i {
				t.Fatalf("%s in parts %d and %d", d.Notice.RequestID, j, i)
			}
			seen[d.Notice.RequestID] = i
		}
	}
	if total != len(docs) {
		t.Fatalf("%d notices in the parts, want %d", total, len(docs))
	}
	if got := partition(docs, 1); len(got) != 1 || len(got[0]) != len(docs) {
		t.Fatal("one part is not the whole call")
	}
}
