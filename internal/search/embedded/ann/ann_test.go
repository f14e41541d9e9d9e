package ann

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
)

// corpus is n synthetic unit vectors in clusters, as topic vectors are: a
// topic centre, one of its subtopics and noise of about 0.9 of a vector's
// length, quantized as the graph stores them.
func corpus(n, dims int, seed uint64) ([][]float32, [][]int8, []float32) {
	r := rand.New(rand.NewPCG(seed, 1))
	centres := make([][]float32, 400)
	for i := range centres {
		if i < 40 {
			centres[i] = unit(randVec(r, dims))
			continue
		}
		c, v := centres[i%40], randVec(r, dims)
		for d := range v {
			v[d] = c[d] + 0.08*v[d]
		}
		centres[i] = unit(v)
	}
	var fs [][]float32
	var qs [][]int8
	var ss []float32
	for i := 0; i < n; i++ {
		c := centres[r.IntN(len(centres))]
		v := randVec(r, dims)
		for d := range v {
			v[d] = c[d] + 0.9*v[d]/float32(math.Sqrt(float64(dims)))
		}
		v = unit(v)
		q, s := Quantize(v)
		fs, qs, ss = append(fs, v), append(qs, q), append(ss, s)
	}
	return fs, qs, ss
}

func randVec(r *rand.Rand, dims int) []float32 {
	v := make([]float32, dims)
	for d := range v {
		v[d] = float32(r.NormFloat64())
	}
	return v
}

func unit(v []float32) []float32 {
	var n float64
	for _, x := range v {
		n += float64(x * x)
	}
	n = math.Sqrt(n)
	for d := range v {
		v[d] /= float32(n)
	}
	return v
}

// exact is the reference: a dot product with every live vector.
func exact(q []float32, ids []string, qs [][]int8, ss []float32, live map[string]bool, k int, minScore float32) []search.Near {
	var out []search.Near
	for i, id := range ids {
		if live != nil && !live[id] {
			continue
		}
		var dot float32
		for d, v := range qs[i] {
			dot += q[d] * float32(v)
		}
		if s := dot * ss[i]; s >= minScore {
			out = append(out, search.Near{ID: id, Score: s})
		}
	}
	search.SortNear(out)
	if len(out) > k {
		out = out[:k]
	}
	return out
}

func overlap(a, b []search.Near) float64 { return search.Overlap(a, b) }

// build is a graph of n vectors of corpus; fs has 200 more, from the same
// clusters, for queries that are not in the graph.
func build(t testing.TB, n, dims int) (*Graph, []string, [][]float32, [][]int8, []float32) {
	return buildWith(t, n, dims, func(int) []byte { return nil })
}

// buildWith is build with node i's attributes meta(i).
func buildWith(t testing.TB, n, dims int, meta func(i int) []byte) (*Graph, []string, [][]float32, [][]int8, []float32) {
	fs, qs, ss := corpus(n+200, dims, 7)
	qs, ss = qs[:n], ss[:n]
	g := New(dims)
	ids := make([]string, n)
	for i := range qs {
		ids[i] = fmt.Sprintf("n%05d", i)
		if !g.AddMeta(ids[i], qs[i], ss[i], meta(i)) {
			t.Fatal("add refused")
		}
	}
	return g, ids, fs, qs, ss
}

// TestOverlapWithExact: top-10 from the graph agrees with the exact scan on
// at least 95% of the ids, averaged over queries near the corpus, and top-1000
// (semantic search's candidate list) on at least 95% too.
func TestOverlapWithExact(t *testing.T) {
	g, ids, fs, qs, ss := build(t, 6000, 128)
	qfs := fs[6000:] // queries from the same clusters, not in the graph
	var sum10, sum1000 float64
	for i, q := range qfs {
		sum10 += overlap(g.Search(q, 10, 0, -1), exact(q, ids, qs, ss, nil, 10, -1))
		if i < 40 {
			sum1000 += overlap(g.Search(q, 1000, 0, -1), exact(q, ids, qs, ss, nil, 1000, -1))
		}
	}
	at10, at1000 := sum10/float64(len(qfs)), sum1000/40
	t.Logf("overlap@10 %.4f, overlap@1000 %.4f over %d vectors", at10, at1000, g.Len())
	if at10 < 0.95 || at1000 < 0.95 {
		t.Fatalf("overlap@10 %.4f, overlap@1000 %.4f: want ≥ 0.95", at10, at1000)
	}
}

// TestReplaceAndRemove: a replaced vector is found by its new value only, a
// removed one not at all, and Compact keeps every live vector findable.
func TestReplaceAndRemove(t *testing.T) {
	g, ids, fs, qs, ss := build(t, 1500, 32)
	// n00001 takes n00002's vector: searching that vector finds both
	g.Add(ids[1], qs[2], ss[2])
	got := g.Search(fs[2], 2, 0, -1)
	if len(got) != 2 || !(got[0].ID == ids[1] || got[0].ID == ids[2]) || !(got[1].ID == ids[1] || got[1].ID == ids[2]) {
		t.Fatalf("after replacing: %v", got)
	}
	if g.Len() != 1500 || g.Dead() != 1 {
		t.Fatalf("len %d dead %d, want 1500 and 1", g.Len(), g.Dead())
	}
	live := map[string]bool{}
	for i, id := range ids {
		if i%3 == 0 {
			if !g.Remove(id) {
				t.Fatalf("remove %s: not held", id)
			}
		} else {
			live[id] = true
		}
	}
	if g.Remove(ids[0]) {
		t.Fatal("a removed id removed twice")
	}
	for _, h := range g.Search(fs[0], 50, 0, -1) {
		if !live[h.ID] {
			t.Fatalf("removed %s returned", h.ID)
		}
	}
	if !g.Compact() || g.Dead() != 0 || g.Len() != len(live) {
		t.Fatalf("compact: len %d dead %d, want %d and 0", g.Len(), g.Dead(), len(live))
	}
	qs[1], ss[1] = qs[2], ss[2]
	var sum float64
	for i := 1; i < 200; i += 2 {
		sum += overlap(g.Search(fs[i], 10, 0, -1), exact(fs[i], ids, qs, ss, live, 10, -1))
	}
	if o := sum / 100; o < 0.95 {
		t.Fatalf("overlap@10 after compacting %.4f", o)
	}
}

// TestMinScore: nothing under the floor is returned.
func TestMinScore(t *testing.T) {
	g, _, fs, _, _ := build(t, 500, 32)
	for _, h := range g.Search(fs[3], 100, 0, 0.8) {
		if h.Score < 0.8 {
			t.Fatalf("%v under 0.8", h)
		}
	}
	if got := g.Search(fs[3], 10, 0, 2); len(got) != 0 {
		t.Fatalf("above every cosine: %v", got)
	}
	if got := New(32).Search(fs[3], 10, 0, -1); got != nil {
		t.Fatalf("empty graph: %v", got)
	}
}

// TestFileRoundTrip: a graph read back answers as written, with its stamp;
// a cut or altered file is refused.
func TestFileRoundTrip(t *testing.T) {
	g, ids, fs, _, _ := build(t, 800, 32)
	g.Remove(ids[5])
	var buf bytes.Buffer
	if err := g.WriteTo(&buf, 42); err != nil {
		t.Fatal(err)
	}
	h, stamp, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil || stamp != 42 {
		t.Fatalf("read: %v stamp %d", err, stamp)
	}
	if h.Len() != g.Len() || h.Dead() != 1 || h.Has(ids[5]) || !h.Has(ids[6]) {
		t.Fatalf("read back: len %d dead %d", h.Len(), h.Dead())
	}
	for i := 0; i < 20; i++ {
		a, b := g.Search(fs[i], 10, 0, -1), h.Search(fs[i], 10, 0, -1)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("query %d: %v, read back %v", i, a, b)
		}
	}
	// writes continue on a graph read back
	h.Add("new", g.vec(7), g.scales[7])
	if got := h.Search(fs[7], 2, 0, -1); len(got) != 2 || (got[0].ID != "new" && got[1].ID != "new") {
		t.Fatalf("added after reading: %v", got)
	}
	b := buf.Bytes()
	if _, _, err := Read(bytes.NewReader(b[:len(b)-9])); err == nil {
		t.Fatal("a cut file was read")
	}
	alt := bytes.Clone(b)
	alt[len(alt)/2] ^= 0x40
	if _, _, err := Read(bytes.NewReader(alt)); err == nil {
		t.Fatal("an altered file was read")
	}
}

func BenchmarkSearch(b *testing.B) {
	g, _, fs, _, _ := build(b, 5000, 128)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Search(fs[i%len(fs)], 10, 0, -1)
	}
}

// BenchmarkAdd is the cost of one insertion into a graph of 5,000.
func BenchmarkAdd(b *testing.B) {
	_, qs, ss := corpus(5000+b.N, 128, 3)
	g := New(128)
	for i := 0; i < 5000; i++ {
		g.Add(fmt.Sprint(i), qs[i], ss[i])
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		g.Add(fmt.Sprint("b", i), qs[5000+i], ss[5000+i])
	}
}

// Many notices carry the same words, so the same vector (a notice repeated
// on several days, a standard heading). Thousands of identical vectors must
// not fill a search's candidate list: with ef copies of one vector among
// its candidates, a search only takes in vectors more similar than that
// one and cannot walk around it, so it missed closer vectors on the far
// side. The copies are found when their vector is asked for, ties by id,
// and survive removal, the file and further writes.
func TestIdenticalVectorsDoNotFillTheSearch(t *testing.T) {
	const dims, copies, around = 32, 3000, 3000
	r := rand.New(rand.NewPCG(5, 5))
	near := func(c []float32, spread float64) []float32 {
		v := randVec(r, dims)
		for d := range v {
			v[d] = c[d] + float32(spread)*v[d]/float32(math.Sqrt(float64(dims)))
		}
		return unit(v)
	}
	base := unit(randVec(r, dims))
	dup, dupScale := Quantize(near(base, 0.35))
	_, qs, ss := corpus(3000, dims, 11)
	g := New(dims)
	var ids []string
	var allQ [][]int8
	var allS []float32
	add := func(id string, v []int8, s float32) {
		if !g.Add(id, v, s) {
			t.Fatal("add refused")
		}
		ids, allQ, allS = append(ids, id), append(allQ, v), append(allS, s)
	}
	for i := range copies {
		add(fmt.Sprintf("c%05d", i), dup, dupScale)
		v, s := Quantize(near(base, 0.6))
		add(fmt.Sprintf("a%05d", i), v, s)
		add(fmt.Sprintf("n%05d", i), qs[i], ss[i])
	}
	var sum float64
	const queries = 200
	for range queries {
		q := near(base, 0.6)
		sum += overlap(g.Search(q, 10, 0, -1), exact(q, ids, allQ, allS, nil, 10, -1))
	}
	if o := sum / queries; o < 0.95 {
		t.Fatalf("overlap@10 %.4f around %d identical vectors, want ≥ 0.95", o, copies)
	}
	dq := make([]float32, dims)
	for d, v := range dup {
		dq[d] = float32(v) * dupScale
	}
	idsOf := func(ns []search.Near) string {
		var b strings.Builder
		for _, n := range ns {
			b.WriteString(n.ID + " ")
		}
		return b.String()
	}
	got := g.Search(dq, 10, 0, -1)
	want := exact(dq, ids, allQ, allS, nil, 10, -1)
	if idsOf(got) != idsOf(want) {
		t.Fatalf("the copies' vector: %v, want %v (ties by id)", got, want)
	}
	// a copy removed is not returned; the copies left are
	for _, h := range want[:3] {
		g.Remove(h.ID)
	}
	got = g.Search(dq, 10, 0, -1)
	if len(got) != 10 || got[0].ID != "c00003" {
		t.Fatalf("after removing 3 copies: %v", got)
	}
	// a filter takes most copies: the graph (not the scan) finds them
	taken := func(id string, _ []byte) bool { return id[len(id)-1] != '4' } // 90% of them
	live := map[string]bool{}
	for _, id := range ids {
		live[id] = g.Has(id) && taken(id, nil)
	}
	for _, q := range [][]float32{dq, near(base, 0.6)} {
		fgot, scanned := g.SearchFiltered(q, 10, 0, -1, taken)
		if fwant := exact(q, ids, allQ, allS, live, 10, -1); scanned || overlap(fgot, fwant) < 0.9 {
			t.Fatalf("filtered (scan %v): %v, want %v", scanned, fgot, fwant)
		}
	}
	// and survive the file
	var buf bytes.Buffer
	if err := g.WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	h, _, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := idsOf(h.Search(dq, 10, 0, -1)), idsOf(got); a != b {
		t.Fatalf("read back: %v, want %v", a, b)
	}
	h.Add("c-new", dup, dupScale)
	n := 0
	for _, x := range h.Search(dq, 3*copies, 3*copies, -1) {
		if x.ID[0] == 'c' {
			n++
		}
	}
	if n != copies-3+1 {
		t.Fatalf("after adding a copy to the graph read back: %d copies found, want %d", n, copies-3+1)
	}
}
