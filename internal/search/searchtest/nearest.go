package searchtest

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

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
		rs = append(rs, search.Record{Kind: nearKind, ID: id, Source: "fixture", Vector: vecs[id]})
	}
	for i := 0; i < 40; i++ {
		rs = append(rs, search.Record{Kind: nearOther, ID: fmt.Sprintf("n%03d", i+1000), Source: "fixture", Vector: nearVector(i)})
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
