package embedded_test

// Benchmarks of the embedded engine over a synthetic corpus (internal/synth)
// learned from the bundled sample. They run only with -bench; plain
// `go test ./internal/search/embedded/` does not build or time anything.
//
//	RECORDWATCH_BENCH_N=100000 go test -run '^$' -bench . -benchtime=5s -timeout=0 -v ./internal/search/embedded/
//
// RECORDWATCH_BENCH_N is the corpus size (default 100000). Building a large
// corpus can take longer than go test's default 10-minute timeout, hence
// -timeout=0; -v shows the logs (build times, cache use, rates by tenth).
//
// BenchmarkIndex indexes the whole corpus into a fresh directory per op,
// through the real pipeline path (indexer.Docs cuts passages, then
// Backend.Upsert in batches of indexer.DefaultBatch = 2000). Generating the
// notices is not timed. Give it a time-based -benchtime (5s, 10s), not Nx:
// one op takes longer than the benchtime, so it runs once; -benchtime=3x
// would index the corpus three times. It reports notices/s (indexing only),
// index-bytes (files under the data dir after Close), cpu-s/op (process
// CPU time per op, generating included; Linux only) and peak-rss-MB (the
// process's VmHWM so far, Linux only). It logs the indexing rate of each
// tenth of the run: a falling rate means writes cost more as the index
// grows.
//
// BenchmarkSearch/<case> runs a fixed query mix against a corpus of N
// notices built once and cached in
// os.TempDir()/recordwatch-bench-<benchVersion>-<fingerprint>-n<N>; later
// runs reuse it. BenchmarkIndex hands its first build over to the cache
// when there is none, so `-bench .` indexes the corpus once. The
// fingerprint hashes the first generated notices, so a change to the sample
// or to internal/synth makes a new cache; bump benchVersion when the
// mapping or the indexing path changes, or set RECORDWATCH_BENCH_REBUILD=1
// (or delete the directory) to rebuild. A cache is used only once its build
// finished (it holds a "complete" marker), and by one process at a time
// (the engine locks its files). Each case reports ns/op and p50-ms, p95-ms,
// p99-ms over all its ops, and hits (the total of its last result).
// BenchmarkSearch/parallel-mix runs the whole mix from GOMAXPROCS
// goroutines (b.RunParallel).

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/synth"
)

const (
	// benchVersion names the cached search corpus; bump it when the
	// mapping or the indexing path changes.
	benchVersion = "v7"
	benchSeed    = 1
	defaultN     = 100_000
)

func benchN(b *testing.B) int {
	s := os.Getenv("RECORDWATCH_BENCH_N")
	if s == "" {
		return defaultN
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if err != nil || n < 1 {
		b.Fatalf("RECORDWATCH_BENCH_N=%q: want a positive number of notices", s)
	}
	return n
}

var benchSample struct {
	once  sync.Once
	model *synth.Model
	err   error
}

// benchModel learns the synthetic corpus model from the bundled sample.
func benchModel(b *testing.B) *synth.Model {
	b.Helper()
	benchSample.once.Do(func() {
		c, errs := crol.Scan(os.DirFS("../../../testdata/sample"), "crol", entity.DefaultCrosswalk())
		if len(errs) > 0 {
			benchSample.err = errors.Join(errs...)
			return
		}
		benchSample.model, benchSample.err = synth.Learn(c.Notices)
	})
	if benchSample.err != nil {
		b.Fatal(benchSample.err)
	}
	return benchSample.model
}

type buildStats struct {
	notices, passages int
	index, generate   time.Duration
	bytes             int64
	batches           []time.Duration // Docs + Upsert time of each batch
}

// deciles is the indexing rate (notices/s) of each tenth of the batches:
// a falling rate means writes cost more as the index grows.
func (st buildStats) deciles() string {
	if len(st.batches) < 10 {
		return "n/a"
	}
	var parts []string
	for d := range 10 {
		lo, hi := d*len(st.batches)/10, (d+1)*len(st.batches)/10
		var t time.Duration
		for _, x := range st.batches[lo:hi] {
			t += x
		}
		parts = append(parts, strconv.Itoa(int(float64((hi-lo)*indexer.DefaultBatch)/t.Seconds())))
	}
	return strings.Join(parts, " ")
}

// build indexes n synthetic notices into dir the way the indexer does, and
// closes the backend. With b set, generating is left out of b's timer.
func build(ctx context.Context, b *testing.B, dir string, m *synth.Model, n int) (buildStats, error) {
	var st buildStats
	be, err := embedded.Open(dir)
	if err != nil {
		return st, err
	}
	batch := make([]record.Notice, 0, indexer.DefaultBatch)
	flush := func() error {
		if b != nil {
			b.StartTimer()
		}
		start := time.Now()
		docs := indexer.Docs(batch)
		err := be.Upsert(ctx, docs)
		took := time.Since(start)
		st.index += took
		st.batches = append(st.batches, took)
		if b != nil {
			b.StopTimer()
		}
		for _, d := range docs {
			st.passages += len(d.Passages)
		}
		st.notices += len(batch)
		batch = batch[:0]
		return err
	}
	if b != nil {
		b.StopTimer()
	}
	genStart := time.Now()
	err = m.Generate(n, benchSeed, func(nt record.Notice) error {
		batch = append(batch, nt)
		if len(batch) == cap(batch) {
			return flush()
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	st.generate = time.Since(genStart) - st.index
	if b != nil {
		b.StartTimer()
	}
	if err == nil {
		err = be.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "synthetic City Record notices",
			RecordType: "notice", ObservedAt: time.Date(2026, 8, 14, 0, 0, 0, 0, record.NewYork)})
	}
	if err == nil {
		err = be.Refresh(ctx)
	}
	start := time.Now()
	err = errors.Join(err, be.Close())
	st.index += time.Since(start)
	if err != nil {
		return st, err
	}
	st.bytes, err = dirSize(dir)
	return st, err
}

// dirSize is the total size of the files under dir.
func dirSize(dir string) (int64, error) {
	var total int64
	err := filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			total += info.Size()
		}
		return nil
	})
	return total, err
}

// peakRSS is the process's peak resident set size in MB (VmHWM), or 0 where
// /proc is not available.
func peakRSS() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err == nil {
				return kb / 1024
			}
		}
	}
	return 0
}

// cpuSeconds is the CPU time (user + system) the process has used, or 0
// where /proc is not available. It counts the engine's background merging
// and persisting, which wall-clock rates on a busy machine hide.
func cpuSeconds() float64 {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	s := string(data)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	utime, err1 := strconv.ParseFloat(f[11], 64)
	stime, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return (utime + stime) / 100 // USER_HZ
}

func BenchmarkIndex(b *testing.B) {
	n := benchN(b)
	m := benchModel(b)
	ctx := context.Background()
	var total buildStats
	var last buildStats
	cpu0 := cpuSeconds()
	for range b.N {
		dir, err := os.MkdirTemp("", "recordwatch-bench-index-")
		if err != nil {
			b.Fatal(err)
		}
		st, err := build(ctx, b, dir, m, n)
		if err != nil {
			os.RemoveAll(dir)
			b.Fatal(err)
		}
		keep(b, dir, m, n) // the first complete build becomes the search corpus
		total.notices += st.notices
		total.passages += st.passages
		total.index += st.index
		total.generate += st.generate
		total.bytes = st.bytes
		last = st
	}
	b.ReportMetric(float64(total.notices)/total.index.Seconds(), "notices/s")
	b.ReportMetric(float64(total.passages)/total.index.Seconds(), "passages/s")
	b.ReportMetric(float64(total.bytes), "index-bytes")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(cpu/float64(b.N), "cpu-s/op") // generating included
	}
	if rss := peakRSS(); rss > 0 {
		b.ReportMetric(rss, "peak-rss-MB")
	}
	b.Logf("N=%d: %d notices, %d passages; indexing %s, generating %s (untimed); %.1f MB on disk",
		n, total.notices/b.N, total.passages/b.N, (total.index / time.Duration(b.N)).Round(time.Millisecond),
		(total.generate / time.Duration(b.N)).Round(time.Millisecond), float64(total.bytes)/1e6)
	b.Logf("notices/s by tenth of the run: %s", last.deciles())
}

// fingerprint identifies the generated corpus: the sample and the
// generator, through the first notices they make.
func fingerprint(m *synth.Model) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	for nt := range m.All(50, benchSeed) {
		_ = enc.Encode(nt)
	}
	return hex.EncodeToString(h.Sum(nil))[:10]
}

const completeMarker = "complete"

// cacheDir is where the search corpus of n notices is cached.
func cacheDir(m *synth.Model, n int) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("recordwatch-bench-%s-%s-n%d", benchVersion, fingerprint(m), n))
}

var rebuilt sync.Once

// cached reports whether dir holds a complete corpus; the first call
// removes it when RECORDWATCH_BENCH_REBUILD is set.
func cached(dir string) bool {
	rebuilt.Do(func() {
		if os.Getenv("RECORDWATCH_BENCH_REBUILD") != "" {
			os.RemoveAll(dir)
		}
	})
	_, err := os.Stat(filepath.Join(dir, completeMarker))
	return err == nil
}

// keep moves a corpus built by BenchmarkIndex into the search cache when
// there is none yet, and removes it otherwise.
func keep(b *testing.B, dir string, m *synth.Model, n int) {
	cache := cacheDir(m, n)
	if !cached(cache) {
		os.RemoveAll(cache)
		if err := os.Rename(dir, cache); err == nil {
			if err := os.WriteFile(filepath.Join(cache, completeMarker), []byte(time.Now().Format(time.RFC3339)+"\n"), 0o644); err != nil {
				b.Fatal(err)
			}
			b.Logf("kept as the search corpus: %s", cache)
			return
		}
	}
	os.RemoveAll(dir)
}

// corpus opens the cached search corpus of n notices, building it first
// when there is none.
func corpus(b *testing.B, m *synth.Model, n int) *embedded.Backend {
	b.Helper()
	dir := cacheDir(m, n)
	marker := filepath.Join(dir, completeMarker)
	if !cached(dir) {
		os.RemoveAll(dir) // absent, or a build that did not finish
		b.Logf("building the search corpus: %d notices into %s", n, dir)
		st, err := build(context.Background(), nil, dir, m, n)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(marker, []byte(time.Now().Format(time.RFC3339)+"\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		b.Logf("built: %d notices, %d passages in %s (+%s generating), %.1f MB; %.0f notices/s (by tenth: %s)",
			st.notices, st.passages, st.index.Round(time.Millisecond), st.generate.Round(time.Millisecond),
			float64(st.bytes)/1e6, float64(st.notices)/st.index.Seconds(), st.deciles())
	} else {
		b.Logf("reusing the search corpus in %s", dir)
	}
	be, err := embedded.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { be.Close() })
	return be
}

type benchCase struct {
	name string
	run  func(ctx context.Context, be search.Backend) (int, error) // returns the total
}

func notices(q search.Query) func(context.Context, search.Backend) (int, error) {
	return func(ctx context.Context, be search.Backend) (int, error) {
		res, err := be.Search(ctx, q)
		return res.Total, err
	}
}

// benchCases is the fixed query mix.
func benchCases(m *synth.Model) []benchCase {
	million := 1_000_000.0
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, record.NewYork) // fixed, so the case does not drift
	return []benchCase{
		{"keyword", notices(search.Query{Text: "construction"})},
		{"keywords-or", notices(search.Query{Text: "asbestos abatement demolition elevator roofing"})},
		{"phrase", notices(search.Query{Text: `"competitive sealed bids"`})},
		{"keyword-agency-amount", notices(search.Query{Text: "services", AgencyIDs: []string{"citywide-administrative-services"},
			MinAmount: &million})},
		{"facets", notices(search.Query{Text: "services", Facets: true})},
		{"vendor-stem", notices(search.Query{VendorStems: m.Vendors()[:1]})},
		{"passages", func(ctx context.Context, be search.Backend) (int, error) {
			res, err := be.Passages(ctx, search.PassageQuery{Text: "bid documents"})
			return res.Total, err
		}},
		{"lens-browse-newest", notices(search.Query{Lenses: []string{record.LensMeetings}, Sort: search.SortNewest})},
		{"open-solicitations", notices(search.Query{NoticeTypes: []string{"Solicitation"}, DueFrom: now,
			IncludeRolling: true, Sort: search.SortDueSoonest})},
	}
}

// reportLatency adds p50, p95 and p99 of durations in milliseconds.
func reportLatency(b *testing.B, durs []time.Duration) {
	if len(durs) == 0 {
		return
	}
	slices.Sort(durs)
	at := func(p float64) float64 {
		return float64(durs[int(p*float64(len(durs)-1))]) / float64(time.Millisecond)
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.95), "p95-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

func BenchmarkSearch(b *testing.B) {
	m := benchModel(b)
	be := corpus(b, m, benchN(b))
	ctx := context.Background()
	cases := benchCases(m)
	// warm up: coverage is computed once and cached until the next write
	for _, c := range cases {
		total, err := c.run(ctx, be)
		if err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
		if total == 0 {
			b.Logf("%s: no hits", c.name)
		}
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			var durs []time.Duration
			total := 0
			for b.Loop() {
				start := time.Now()
				t, err := c.run(ctx, be)
				durs = append(durs, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				total = t
			}
			reportLatency(b, durs)
			b.ReportMetric(float64(total), "hits")
		})
	}
	b.Run("parallel-mix", func(b *testing.B) {
		var mu sync.Mutex
		var all []time.Duration
		var next sync.Mutex
		k := 0
		b.RunParallel(func(pb *testing.PB) {
			next.Lock()
			i := k
			k++
			next.Unlock()
			var durs []time.Duration
			for pb.Next() {
				c := cases[i%len(cases)]
				i++
				start := time.Now()
				_, err := c.run(ctx, be)
				durs = append(durs, time.Since(start))
				if err != nil {
					b.Error(err)
					return
				}
			}
			mu.Lock()
			all = append(all, durs...)
			mu.Unlock()
		})
		reportLatency(b, all)
	})
}
