package embedded

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded/ann"
)

// The filtered nearest-neighbour benchmark's corpus: BenchVectors unit
// vectors in topic clusters (400 subtopics of 40 topics, noise about 0.9
// of a vector), each with a notice's filtered fields: a lens (money half
// the notices, then land, rules, meetings, people, property), one of 200
// agencies (Zipf: the first a tenth of the notices, the 150th 0.04%), a
// publication day over ten years and, for money notices, an amount.
const BenchVectors = 100000

const benchKind = "derived.bench_vector"

var benchLenses = []string{"money", "money", "money", "money", "money", "land", "rules", "meetings", "people", "property"}

func benchCorpus(n int) ([][]float32, []search.Record) {
	r := rand.New(rand.NewPCG(11, 5))
	dims := search.VectorDims
	randVec := func() []float32 {
		v := make([]float32, dims)
		for d := range v {
			v[d] = float32(r.NormFloat64())
		}
		return v
	}
	unit := func(v []float32) []float32 {
		var s float64
		for _, x := range v {
			s += float64(x * x)
		}
		for d := range v {
			v[d] /= float32(math.Sqrt(s))
		}
		return v
	}
	centres := make([][]float32, 400)
	for i := range centres {
		if i < 40 {
			centres[i] = unit(randVec())
			continue
		}
		c, v := centres[i%40], randVec()
		for d := range v {
			v[d] = c[d] + 0.08*v[d]
		}
		centres[i] = unit(v)
	}
	zipf := rand.NewZipf(rand.New(rand.NewPCG(2, 3)), 1.1, 1, 199)
	start := time.Date(2016, 1, 1, 0, 0, 0, 0, time.UTC)
	vecs := make([][]float32, n)
	recs := make([]search.Record, n)
	for i := range vecs {
		c, v := centres[r.IntN(len(centres))], randVec()
		for d := range v {
			v[d] = c[d] + 0.9*v[d]/float32(math.Sqrt(float64(dims)))
		}
		vecs[i] = unit(v)
		lens := benchLenses[r.IntN(len(benchLenses))]
		rec := search.Record{Kind: benchKind, ID: fmt.Sprintf("2%08d", i), Source: "crol",
			Keys: map[string][]string{"lenses": {lens}, "agency_id": {fmt.Sprint("agency-", zipf.Uint64())}},
			Date: start.AddDate(0, 0, r.IntN(3650))}
		if lens == "money" {
			rec.Amount, rec.AmountValid = float64(r.IntN(5_000_000)), true
		}
		recs[i] = rec
	}
	return vecs, recs
}

// benchBackend is a Backend holding only the corpus's graph (what
// NearestRecords reads), built once and kept in the temporary directory
// (building 100,000 vectors takes about a minute on two cores).
func benchBackend(b *testing.B, n int) (*Backend, [][]float32, []search.Record, [][]float32) {
	vecs, recs := benchCorpus(n + 200)
	path := filepath.Join(os.TempDir(), fmt.Sprintf("recordwatch-bench-vectors-%d-v%d.ann", n, 1))
	var g *ann.Graph
	if f, err := os.Open(path); err == nil {
		g, _, err = ann.Read(f)
		f.Close()
		if err != nil {
			g = nil
		}
	}
	if g == nil {
		g = ann.New(search.VectorDims)
		for i := 0; i < n; i++ {
			q, scale := ann.Quantize(vecs[i])
			g.AddMeta(recs[i].ID, q, scale, vectorMeta(recs[i]))
		}
		if f, err := os.Create(path); err == nil {
			if g.WriteTo(f, 1) != nil || f.Close() != nil {
				os.Remove(path)
			}
		}
	}
	return &Backend{vec: &vectors{graphs: map[string]*ann.Graph{benchKind: g}}}, vecs[n:], recs[:n], vecs[:n]
}

// BenchmarkNearestFiltered is filtered nearest-neighbour search through
// NearestRecords over BenchVectors vectors: top-10 and top-1000 (semantic
// search's candidate list) with no filter, a broad filter (the money lens,
// half of the records), a narrow one (one agency, 4.7%) and a selective
// one (another agency, in two of the ten years: 0.25%), reporting the median and 95th percentile and how
// the share of the records the filter matches, the overlap of the answer
// with the exact filtered scan and the share the scan answered (over 50
// queries, untimed).
func BenchmarkNearestFiltered(b *testing.B) {
	be, queries, recs, vecs := benchBackend(b, BenchVectors)
	ctx := context.Background()
	filters := benchFilters()
	for _, k := range []int{10, 1000} {
		for _, f := range filters {
			b.Run(fmt.Sprintf("k=%d/%s", k, f.name), func(b *testing.B) {
				matches := 0
				ref := search.NearQuery{Kind: benchKind, Filter: f.q}.RecordFilter()
				for _, r := range recs {
					if ref.Matches(r) {
						matches++
					}
				}
				times := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					t0 := time.Now()
					got, err := be.NearestRecords(ctx, search.NearQuery{Kind: benchKind, Vector: queries[i%len(queries)], K: k, MinScore: -1, Filter: f.q})
					times = append(times, time.Since(t0))
					if err != nil || len(got) != min(k, matches) {
						b.Fatalf("%d found of %d matching (%v)", len(got), matches, err)
					}
				}
				b.StopTimer()
				slices.Sort(times)
				b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
				b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "p95-ms")
				b.ReportMetric(100*float64(matches)/float64(len(recs)), "match-%")
				var sum float64
				scans := 0
				accept := compileVecFilter(ref).accept
				for _, q := range queries[:50] {
					got, _ := be.NearestRecords(ctx, search.NearQuery{Kind: benchKind, Vector: q, K: k, MinScore: -1, Filter: f.q})
					if _, exact := be.vec.graphs[benchKind].SearchFiltered(q, k, 0, -1, accept); exact && f.name != "none" {
						scans++
					}
					var want []search.Near
					for i, r := range recs {
						if ref.Matches(r) {
							var dot float32
							for d, x := range vecs[i] {
								dot += x * q[d]
							}
							want = append(want, search.Near{ID: r.ID, Score: dot})
						}
					}
					search.SortNear(want)
					sum += search.Overlap(got, want[:min(k, len(want))])
				}
				b.ReportMetric(sum/50, "overlap")
				b.ReportMetric(100*float64(scans)/50, "scan-%")
			})
		}
	}
}

type benchFilter struct {
	name string
	q    search.RecordQuery
}

func benchFilters() []benchFilter {
	return []benchFilter{
		{"none", search.RecordQuery{}},
		{"broad", search.RecordQuery{Keys: map[string][]string{"lenses": {"money"}}}},
		{"narrow", search.RecordQuery{Keys: map[string][]string{"agency_id": {"agency-3"}}}},
		{"selective", search.RecordQuery{Keys: map[string][]string{"agency_id": {"agency-12"}},
			From: time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC), To: time.Date(2019, 12, 31, 0, 0, 0, 0, time.UTC)}},
	}
}
