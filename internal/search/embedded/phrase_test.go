package embedded

import (
	"context"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
)

// TestPhraseMatcherAgreesWithBleve: for phrases of two and three words, with
// stop words (a gap), repeated words, a word no notice holds and a phrase
// of stop words only, the segment path's phrase matcher finds exactly the
// documents Bleve's phrase searcher finds, in every segment, with deleted
// and rewritten notices about.
func TestPhraseMatcherAgreesWithBleve(t *testing.T) {
	b := topkCorpus(t, 1500, true)
	snap := snapshotOf(t, b.notices)
	defer snap.Close()
	segs := snap.Segments()
	offsets := segmentOffsets(segs)
	if len(segs) < 2 {
		t.Fatalf("%d segments: the test wants several", len(segs))
	}
	phrases := []string{"bridge repair", "repair contract", "sewer water main", "water main", "the bridge", "bridge the repair",
		"street paving", "paving street", "repair repair", "bridge zeppelin", "the the", "school roof boiler", "tree pruning snow",
		"contract award hearing", "park playground"}
	found := 0
	var bleveTook, ownTook time.Duration
	for _, p := range phrases {
		q := phraseQueries([]string{p}, "content")[0]
		slots, field, ok := b.topNotices.phraseOf(q)
		if !ok {
			t.Fatalf("%q is not read as a phrase", p)
		}
		start := time.Now()
		want, err := bleveMatches(context.Background(), snap, b.notices, q, offsets)
		if err != nil {
			t.Fatal(err)
		}
		bleveTook += time.Since(start)
		for i, s := range segs {
			start := time.Now()
			got, err := phraseMatches(s.Segment(), field, slots)
			if err != nil {
				t.Fatal(err)
			}
			ownTook += time.Since(start)
			if d := s.Deleted(); d != nil {
				got.AndNot(d)
			}
			if !got.Equals(want[i]) {
				t.Errorf("%q in segment %d: %d documents, Bleve %d", p, i, got.GetCardinality(), want[i].GetCardinality())
			}
			found += int(got.GetCardinality())
		}
	}
	if found == 0 {
		t.Fatal("no phrase found anything")
	}
	t.Logf("%d phrases, first evaluation: Bleve's phrase searcher %s, the segment path's matcher %s", len(phrases), bleveTook, ownTook)
}

// snapshotOf is idx's current snapshot; the caller closes it.
func snapshotOf(t *testing.T, idx bleve.Index) *scorch.IndexSnapshot {
	t.Helper()
	adv, err := idx.Advanced()
	if err != nil {
		t.Fatal(err)
	}
	r, err := adv.Reader()
	if err != nil {
		t.Fatal(err)
	}
	return r.(*scorch.IndexSnapshot)
}
