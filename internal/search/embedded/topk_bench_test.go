package embedded

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/recordwatch/recordwatch/internal/search"
)

// BenchmarkSegmentPath measures the segment path (topk.go) in process,
// without HTTP, on the indexes of an earlier run of the benchmark command
// (go -C bench run . -keep), opened read-only:
//
//	RECORDWATCH_BENCH_INDEX=$TMPDIR/recordwatch-bench/ours-n1100000/index \
//	RECORDWATCH_BENCH_AGENCY=citywide-administrative-services \
//	RECORDWATCH_BENCH_VENDOR="HEWLETT PACKARD" \
//	go test -run '^$' -bench SegmentPath ./internal/search/embedded/
//
// The first answer of each case (which reads its words, clauses and
// columns into the caches) is reported apart as first-ms.
func BenchmarkSegmentPath(b *testing.B) {
	dir := os.Getenv("RECORDWATCH_BENCH_INDEX")
	if dir == "" {
		b.Skip("RECORDWATCH_BENCH_INDEX is not set")
	}
	open := func(name string) bleve.Index {
		idx, err := bleve.OpenUsing(filepath.Join(dir, name), map[string]interface{}{"read_only": true})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { idx.Close() })
		return idx
	}
	notices, passages := open("notices.bleve"), open("passages.bleve")
	tn, tp := newTopIndex(notices), newTopIndex(passages)
	ctx := context.Background()
	min1M := 1e6
	agency, vendor := os.Getenv("RECORDWATCH_BENCH_AGENCY"), os.Getenv("RECORDWATCH_BENCH_VENDOR")
	for _, c := range []struct {
		name string
		q    search.Query
	}{
		{"keyword", search.Query{Text: "construction"}},
		{"keyword-common", search.Query{Text: "services"}},
		{"keyword-rare", search.Query{Text: "asbestos"}},
		{"keywords-or", search.Query{Text: "asbestos abatement demolition elevator roofing"}},
		{"keywords-or-common", search.Query{Text: "services construction bridge repair school"}},
		{"phrase", search.Query{Text: `"sealed bids"`}},
		{"keyword-exclusion", search.Query{Text: "construction -demolition"}},
		{"keyword-agency-amount", search.Query{Text: "services", AgencyIDs: []string{agency}, MinAmount: &min1M}},
		{"facets", search.Query{Text: "services", Facets: true}},
		{"vendor-stem", search.Query{VendorStems: []string{vendor}}},
		{"lens-amount-newest", search.Query{Lenses: []string{"money"}, MinAmount: &min1M}},
	} {
		k, err := c.q.Normalize()
		if err != nil {
			b.Fatal(err)
		}
		spec, err := noticeSpec(notices, c.q, k, nil)
		if err != nil {
			b.Fatal(err)
		}
		run(b, c.name, func() (topResult, error) { return tn.search(ctx, spec) })
	}
	pq := search.PassageQuery{Text: "bid documents"}
	k, err := pq.Normalize()
	if err != nil {
		b.Fatal(err)
	}
	spec, err := passageSpec(passages, pq, k, nil)
	if err != nil {
		b.Fatal(err)
	}
	run(b, "passages", func() (topResult, error) { return tp.search(ctx, spec) })
}

func run(b *testing.B, name string, search func() (topResult, error)) {
	b.Run(name, func(b *testing.B) {
		start := time.Now()
		res, err := search()
		if err != nil {
			b.Fatal(err)
		}
		first := time.Since(start)
		var durs []time.Duration
		for b.Loop() {
			start := time.Now()
			if res, err = search(); err != nil {
				b.Fatal(err)
			}
			durs = append(durs, time.Since(start))
		}
		slices.Sort(durs)
		if len(durs) > 0 {
			b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(durs[len(durs)*99/100].Microseconds())/1000, "p99-ms")
		}
		b.ReportMetric(float64(first.Microseconds())/1000, "first-ms")
		b.ReportMetric(float64(res.total), "hits")
		b.ReportMetric(float64(res.scored), "scored")
	})
}
