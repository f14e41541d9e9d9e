package semantic

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// randomIndex is an index of n random unit vectors (quantized as stored).
func randomIndex(n, dims int) *Index {
	r := rand.New(rand.NewPCG(1, 2))
	x := &Index{dims: dims, ids: make([]string, n), vecs: make([]int8, 0, n*dims), scales: make([]float32, n)}
	v := make([]float32, dims)
	for i := range n {
		for d := range v {
			v[d] = float32(r.NormFloat64())
		}
		normalize(v)
		q, s := quantize(v)
		for _, b := range q {
			x.vecs = append(x.vecs, int8(b))
		}
		x.ids[i], x.scales[i] = strconv.Itoa(i), s
	}
	return x
}

func TestNearestIsExact(t *testing.T) {
	x := randomIndex(5000, 32)
	q := make([]float32, 32)
	for d := range q {
		q[d] = float32(x.vecs[42*32+d]) * x.scales[42]
	}
	normalize(q)
	got := x.Nearest(q, 10, -1)
	if len(got) != 10 || got[0].ID != "42" {
		t.Fatalf("nearest to vector 42: %+v", got)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Score > got[i-1].Score {
			t.Fatalf("not best first: %+v", got)
		}
	}
	// the same as scoring every vector and sorting
	all := x.Nearest(q, 5000, -1)
	for i := range got {
		if all[i] != got[i] {
			t.Fatalf("top 10 differs from the full ranking at %d: %+v vs %+v", i, got[i], all[i])
		}
	}
	if n := len(x.Nearest(q, 10, 0.99)); n != 1 {
		t.Fatalf("a floor of 0.99 keeps %d vectors, want the one itself", n)
	}
}

// BenchmarkNearest is the exact scan at the bundled size and at 1.1M.
func BenchmarkNearest(b *testing.B) {
	for _, n := range []int{1_158, 100_000, 1_100_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			x := randomIndex(n, 128)
			q := make([]float32, 128)
			for d := range q {
				q[d] = float32(x.vecs[d]) * x.scales[0]
			}
			b.ResetTimer()
			for b.Loop() {
				x.Nearest(q, Candidates, MinSimilarity)
			}
		})
	}
}
