package searchtest

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// nearKind and nearOther are the fixture kinds of the nearest-neighbour
// contract: vectors in clusters, and another kind's vectors beside them.
const (
	nearKind  = "derived.near_fixture"
	nearOther = "derived.near_other"
)

// nearVector is a deterministic unit vector: one of 12 cluster centres
// plus a smaller per-record part.
func nearVector(i int) []float32 {
	v := make([]float32, search.VectorDims)
	c := i % 12
	var n float64
	for d := range v {
		v[d] = float32(math.Sin(float64((c+1)*(d+3))*0.71)) + 0.6*float32(math.Cos(float64(i*31+d*(i%7+2))*0.13))
		n += float64(v[d]) * float64(v[d])
	}
	for d := range v {
		v[d] /= float32(math.Sqrt(n))
	}
	return v
}

func cosine(a, b []float32) float32 {
	var dot float32
	for d := range a {
		dot += a[d] * b[d]
	}
	return dot
}

// testNearest: NearestRecords finds, per kind, the records whose vectors
// are nearest (≥ 0.95 overlap@10 with an exact scan, cosines within
// quantization), none under the floor, a replaced vector at its new place
// and a deleted one nowhere.
func testNearest(t *testing.T, open Opener) {
	ctx := context.Background()
	b := open(t)
	t.Cleanup(func() { b.Close() })
	vecs := map[string][]float32{}
	var rs []search.Record
	for i := 0; i < 300; i++ {
		id := fmt.Sprintf("n%03d", i)
		vecs[id] = nearVector(i)
		rs = append(rs, nearRecord(nearKind, id, i, vecs[id]))
	}
	for i := 0; i < 40; i++ {
		rs = append(rs, nearRecord(nearOther, fmt.Sprintf("n%03d", i+1000), i, nearVector(i)))
	}
	held := map[string]search.Record{}
	for _, r := range rs[:300] {
		held[r.ID] = r
	}
	if err := b.PutRecords(ctx, rs); err != nil {
		t.Fatal(err)
	}
	exact := func(q []float32, k int, floor float32) []search.Near {
		var out []search.Near
		for id, v := range vecs {
			if s := cosine(q, v); s >= floor {
				out = append(out, search.Near{ID: id, Score: s})
			}
		}
		search.SortNear(out)
		return out[:min(k, len(out))]
	}
	near := func(t *testing.T, q []float32, k int, floor float32) []search.Near {
		t.Helper()
		got, err := b.NearestRecords(ctx, search.NearQuery{Kind: nearKind, Vector: q, K: k, MinScore: floor})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	t.Run("OverlapWithExact", func(t *testing.T) {
		var sum float64
		for i := 0; i < 40; i++ {
			q := nearVector(i*7 + 5000)
			got, want := near(t, q, 10, -1), exact(q, 10, -1)
			if len(got) != 10 {
				t.Fatalf("query %d: %d nearest, want 10", i, len(got))
			}
			scores := map[string]float32{}
			for _, g := range got {
				if _, ok := vecs[g.ID]; !ok {
					t.Fatalf("query %d: %s is not of kind %s", i, g.ID, nearKind)
				}
				scores[g.ID] = g.Score
			}
			if !slices.IsSortedFunc(got, func(a, b search.Near) int { return cmp.Compare(b.Score, a.Score) }) {
				t.Fatalf("query %d: not best first: %v", i, got)
			}
			same := 0
			for _, w := range want {
				if s, ok := scores[w.ID]; ok {
					same++
					if d := s - w.Score; d > 0.02 || d < -0.02 {
						t.Errorf("query %d: %s scores %.4f, exactly %.4f", i, w.ID, s, w.Score)
					}
				}
			}
			sum += float64(same) / 10
		}
		if o := sum / 40; o < 0.95 {
			t.Fatalf("overlap@10 %.3f, want at least 0.95", o)
		}
	})
	t.Run("Floor", func(t *testing.T) {
		q := nearVector(3)
		want := exact(q, 300, 0.9)
		got := near(t, q, 300, 0.9)
		for _, g := range got {
			if g.Score < 0.9-0.01 {
				t.Fatalf("%v under the floor", g)
			}
		}
		if len(got) < len(want)*9/10 || len(got) > len(want)+3 {
			t.Fatalf("%d over the floor, exactly %d", len(got), len(want))
		}
	})
	t.Run("Filtered", func(t *testing.T) { testNearestFiltered(t, b, held) })
	t.Run("ReplaceAndDelete", func(t *testing.T) {
		far := nearVector(7) // n005 moves to n007's cluster
		if err := b.PutRecords(ctx, []search.Record{{Kind: nearKind, ID: "n005", Source: "fixture", Vector: far}}); err != nil {
			t.Fatal(err)
		}
		if got := near(t, far, 2, -1); !slices.ContainsFunc(got, func(n search.Near) bool { return n.ID == "n005" }) {
			t.Fatalf("replaced vector not found at its new place: %v", got)
		}
		if err := b.DeleteRecords(ctx, nearKind, []string{"n007"}); err != nil {
			t.Fatal(err)
		}
		for _, g := range near(t, far, 20, -1) {
			if g.ID == "n007" {
				t.Fatalf("deleted record found: %v", g)
			}
		}
	})
	t.Run("Validation", func(t *testing.T) {
		if _, err := b.NearestRecords(ctx, search.NearQuery{Kind: nearKind, Vector: []float32{1, 0}, K: 3}); err == nil {
			t.Fatal("a short vector was accepted")
		}
		if _, err := b.NearestRecords(ctx, search.NearQuery{Kind: nearKind, Vector: nearVector(1), K: search.MaxNear + 1}); err == nil {
			t.Fatal("k over MaxNear was accepted")
		}
		if err := b.PutRecords(ctx, []search.Record{{Kind: nearKind, ID: "bad", Source: "fixture", Vector: []float32{1}}}); err == nil {
			t.Fatal("a record vector of the wrong length was written")
		}
	})
}

// nearRecord is fixture record i: besides its vector, a group key (i%20,
// so a group is 5% of the records, in every cluster but one), a parity
// key, a source, a date (i%30 days into 2025, none when i%11 is 0) and an
// amount (i×100, invalid when i%7 is 0): what a filter reads.
func nearRecord(kind, id string, i int, v []float32) search.Record {
	r := search.Record{Kind: kind, ID: id, Source: []string{"fixture", "fixture-b"}[i%4/3], Vector: v,
		Keys: map[string][]string{"group": {fmt.Sprint("g", i%20)}, "parity": {[]string{"even", "odd"}[i%2]}}}
	if i%11 != 0 {
		r.Date = time.Date(2025, 1, 1+i%30, 12, 0, 0, 0, time.UTC)
	}
	if i%7 != 0 {
		r.Amount, r.AmountValid = float64(i*100), true
	}
	return r
}

// testNearestFiltered: a filter applies inside the nearest-neighbour
// search, so k records the filter matches come back whenever k match —
// for a selective filter too, where filtering the unfiltered k nearest
// would leave fewer — agreeing with the exact filtered scan (overlap@10 ≥
// 0.95); fewer than k matching means every match; no record of another
// kind is returned; a filter of kinds is refused.
func testNearestFiltered(t *testing.T, b search.Records, held map[string]search.Record) {
	ctx := context.Background()
	exact := func(q []float32, k int, f search.RecordQuery) []search.Near {
		var out []search.Near
		for id, r := range held {
			if f.Matches(r) {
				out = append(out, search.Near{ID: id, Score: cosine(q, r.Vector)})
			}
		}
		search.SortNear(out)
		return out[:min(k, len(out))]
	}
	minAmount := 5000.0
	cases := []struct {
		name      string
		f         search.RecordQuery
		selective bool
	}{
		{"one group (5%)", search.RecordQuery{Keys: map[string][]string{"group": {"g7"}}}, true},
		{"groups and parity", search.RecordQuery{Keys: map[string][]string{"group": {"g1", "g2", "g3", "g4", "g5", "g6"}, "parity": {"odd"}}}, false},
		{"dates", search.RecordQuery{From: time.Date(2025, 1, 3, 0, 0, 0, 0, time.UTC), To: time.Date(2025, 1, 6, 23, 59, 59, 0, time.UTC)}, true},
		{"amounts and source", search.RecordQuery{MinAmount: &minAmount, Sources: []string{"fixture"}}, false},
		{"valid amounts, even", search.RecordQuery{ValidAmountOnly: true, Keys: map[string][]string{"parity": {"even"}}}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sum float64
			short := 0
			for i := 0; i < 30; i++ {
				q := nearVector(i*7 + 5000)
				got, err := b.NearestRecords(ctx, search.NearQuery{Kind: nearKind, Vector: q, K: 10, MinScore: -1, Filter: c.f})
				if err != nil {
					t.Fatal(err)
				}
				ref := c.f
				ref.Kinds = []string{nearKind}
				want := exact(q, 10, ref)
				if len(want) != 10 {
					t.Fatalf("the fixture matches %d, not 10", len(want))
				}
				if len(got) != 10 {
					t.Fatalf("query %d: %d found, want 10", i, len(got))
				}
				for _, g := range got {
					r, ok := held[g.ID]
					if !ok || !ref.Matches(r) {
						t.Fatalf("query %d: %s is not a match", i, g.ID)
					}
				}
				sum += search.Overlap(got, want)
				// what filtering the unfiltered 10 nearest would keep
				kept := 0
				for _, n := range exact(q, 10, search.RecordQuery{}) {
					if ref.Matches(held[n.ID]) {
						kept++
					}
				}
				if kept < 10 {
					short++
				}
			}
			if o := sum / 30; o < 0.95 {
				t.Fatalf("overlap@10 with the exact filtered scan %.3f, want ≥ 0.95", o)
			}
			if c.selective && short < 25 {
				t.Fatalf("filtering after the search would leave fewer than 10 for only %d of 30 queries: the case is not selective", short)
			}
		})
	}
	t.Run("FewerThanK", func(t *testing.T) {
		f := search.RecordQuery{IDs: []string{"n004", "n150", "n299", "n1001"}}
		got, err := b.NearestRecords(ctx, search.NearQuery{Kind: nearKind, Vector: nearVector(4), K: 10, MinScore: -1, Filter: f})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 3 || got[0].ID != "n004" {
			t.Fatalf("ids filter: %v, want n004 first of the three of %s", got, nearKind)
		}
		none, err := b.NearestRecords(ctx, search.NearQuery{Kind: nearKind, Vector: nearVector(4), K: 10, MinScore: -1,
			Filter: search.RecordQuery{Keys: map[string][]string{"group": {"no-such-group"}}}})
		if err != nil || len(none) != 0 {
			t.Fatalf("a filter matching nothing: %v %v", none, err)
		}
	})
	t.Run("Refused", func(t *testing.T) {
		_, err := b.NearestRecords(ctx, search.NearQuery{Kind: nearKind, Vector: nearVector(4), K: 10, Filter: search.RecordQuery{Kinds: []string{nearOther}}})
		if record.ErrorCode(err) != record.EINVALID {
			t.Fatalf("a filter of kinds: %v, want EINVALID", err)
		}
	})
}
