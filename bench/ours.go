package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/metrics"
	rpprof "runtime/pprof"
	"syscall"
	"time"

	"github.com/recordwatch/recordwatch/api"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/opensearch"
	"github.com/recordwatch/recordwatch/internal/servicetest"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
)

// indexStats is what a loading child reports on its standard output.
type indexStats struct {
	Notices  int     `json:"notices"`
	Passages int     `json:"passages"`
	Seconds  float64 `json:"seconds"`       // wall time: reading the corpus file to a closed, queryable index
	Write    float64 `json:"write_seconds"` // of which writing (passage cutting + engine writes + final merge/index build)
	Bytes    int64   `json:"bytes"`         // on disk after closing
	Deciles  []int   `json:"deciles,omitempty"`
	// Finish is the seconds after the last batch: the last vectors, the
	// bulk load's end (its segments merged, the graphs built), the
	// observation and the close; Bulk says the load took the bulk path
	Finish float64 `json:"finish_seconds,omitempty"`
	Bulk   bool    `json:"bulk,omitempty"`
	// Disk is where the embedded engine's bytes go (read after the load,
	// outside its time)
	Disk *embedded.DiskReport `json:"disk,omitempty"`
	// set by the parent
	PeakRSSMB float64 `json:"peak_rss_mb"`
	// CPUSeconds is the loading child's user and system time (getrusage):
	// on a shared machine a steadier measure of its work than the wall time
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	ServerMB   float64 `json:"server_peak_mb,omitempty"` // PostgreSQL server processes (sum of PSS), sampled
	// AnonPeakMB is the loading child's peak anonymous memory in MiB
	// (RssAnon sampled every 250 ms): its heap, without the pages of the
	// index files it maps
	AnonPeakMB float64 `json:"anon_peak_mb,omitempty"`
	Reused     bool    `json:"reused,omitempty"`
	// Schema names what a load built that a later run's queries depend
	// on (PostgreSQL: its text search configuration, pgTSConfig); -keep
	// reuses a load only when it matches.
	Schema string `json:"schema,omitempty"`
	// Nearest compares the approximate nearest-neighbour index with the
	// exact scan (nearest.go; Recordwatch's loads only).
	Nearest *nearestStats `json:"nearest,omitempty"`
}

// oursDataDir is the data directory of the Recordwatch corpus; the
// embedded index lives in its "index" folder, as main.go opens it.
func oursDataDir(work string, n int) string { return filepath.Join(work, fmt.Sprintf("ours-n%d", n)) }

// engineFlags are the ours-index and ours-serve children's engine switch:
// the embedded engine in the data directory (default), or OpenSearch at a
// URL with an index prefix (the parent starts the node and, for a load,
// deletes the prefix's indexes first).
type engineFlags struct {
	engine, url, prefix string
	// warming, once open, says whether the engine's warm-up runs (the
	// embedded engine's; nil for OpenSearch, which has none)
	warming func() bool
}

func (e *engineFlags) register(fl *flag.FlagSet) {
	fl.StringVar(&e.engine, "engine", "embedded", "search engine: embedded or opensearch")
	fl.StringVar(&e.url, "opensearch-url", "", "OpenSearch URL (engine opensearch)")
	fl.StringVar(&e.prefix, "prefix", "", "OpenSearch index prefix (engine opensearch)")
}

// open opens the engine as main.go's openEngine does (without the cache:
// the benchmark puts it in front where main.go does).
func (e *engineFlags) open(ctx context.Context, data string) (search.Engine, error) {
	switch e.engine {
	case "embedded":
		b, err := embedded.Open(filepath.Join(data, "index"))
		if err != nil {
			return nil, err
		}
		e.warming = b.Warming
		return b, nil
	case "opensearch":
		if e.url == "" || e.prefix == "" {
			return nil, errors.New("engine opensearch needs -opensearch-url and -prefix")
		}
		return opensearch.Open(ctx, opensearch.Config{URL: e.url, IndexPrefix: e.prefix})
	}
	return nil, fmt.Errorf("unknown engine %q", e.engine)
}

// childOursIndex indexes the corpus file through the real pipeline:
// Indexer.Upsert (passages cut in parallel, semantic vectors made and
// stored, as every production load does) in batches of
// indexer.DefaultBatch, then Observe, Refresh and Close. On OpenSearch a
// _flush (a Lucene commit) follows Refresh, counted in the time as Bleve's
// Close is, and the size on disk is the indexes' store.
func childOursIndex(args []string) error {
	fl := flag.NewFlagSet("ours-index", flag.ContinueOnError)
	corpus := fl.String("corpus", "", "corpus file")
	data := fl.String("data", "", "data directory")
	cpuprofile := fl.String("cpuprofile", "", "write a CPU profile of the whole load here")
	heapprofile := fl.String("heapprofile", "", "write a heap profile here each time the heap's objects grow by a fifth past the last one written (the last is nearest the peak)")
	var ef engineFlags
	ef.register(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		if err := rpprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer f.Close()
		defer rpprof.StopCPUProfile()
	}
	ctx := context.Background()
	start := time.Now()
	if ef.engine == "embedded" {
		if err := os.RemoveAll(*data); err != nil {
			return err
		}
	}
	be, err := ef.open(ctx, *data)
	if err != nil {
		return err
	}
	var st indexStats
	var write time.Duration
	var batches []time.Duration
	ix := &indexer.Indexer{Backend: be, Now: time.Now}
	// a first load takes the engine's bulk path when it has one, as
	// EnsureSample's does (search.BulkLoader)
	if st.Bulk, err = be.BeginBulk(ctx); err != nil {
		return err
	}
	err = readCorpus(*corpus, indexer.DefaultBatch, func(ns []record.Notice) error {
		t := time.Now()
		docs, err := ix.Upsert(ctx, ns) // passages and semantic vectors, as production writes
		d := time.Since(t)
		write += d
		batches = append(batches, d)
		st.Notices += len(ns)
		if *heapprofile != "" {
			if err := heapAtPeak(*heapprofile); err != nil {
				return err
			}
		}
		for _, d := range docs {
			st.Passages += len(d.Passages)
		}
		return err
	})
	finish := time.Now()
	t := time.Now()
	if err == nil {
		err = ix.FlushVectors(ctx) // the last vectors (Indexer.VectorBatch)
		write += time.Since(t)
	}
	t = time.Now()
	if err == nil && st.Bulk {
		err = be.EndBulk(ctx)
	}
	if err == nil {
		err = be.Observe(ctx, search.Observation{Source: record.SourceCROL, Label: "synthetic City Record notices (internal/synth)",
			RecordType: "notice", ObservedAt: time.Date(2026, 8, 14, 0, 0, 0, 0, record.NewYork)})
	}
	if err == nil {
		err = be.Refresh(ctx)
	}
	if err == nil && ef.engine == "opensearch" {
		err = osFlush(ctx, ef.url, ef.prefix)
	}
	err = errors.Join(err, be.Close())
	write += time.Since(t)
	st.Finish = time.Since(finish).Seconds()
	if err != nil {
		return err
	}
	st.Seconds = time.Since(start).Seconds()
	st.Write = write.Seconds()
	if ef.engine == "opensearch" {
		st.Bytes, err = osStoreBytes(ctx, ef.url, ef.prefix)
	} else {
		st.Bytes, err = dirSize(*data)
	}
	if err != nil {
		return err
	}
	// the load's CPU, before the disk is read
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		st.CPUSeconds = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	if ef.engine == "embedded" {
		d, err := embedded.DiskUsage(filepath.Join(*data, "index"))
		if err != nil {
			return err
		}
		st.Disk = &d
	}
	st.Deciles = deciles(batches, indexer.DefaultBatch)
	return json.NewEncoder(os.Stdout).Encode(st)
}

// deciles is the write rate (notices/s) of each tenth of the batches: a
// falling rate means writes cost more as the index grows.
func deciles(batches []time.Duration, size int) []int {
	if len(batches) < 10 {
		return nil
	}
	out := make([]int, 10)
	for d := range 10 {
		lo, hi := d*len(batches)/10, (d+1)*len(batches)/10
		var t time.Duration
		for _, x := range batches[lo:hi] {
			t += x
		}
		out[d] = int(float64((hi-lo)*size) / t.Seconds())
	}
	return out
}

// childOursServe serves the real API (api.New, the router main.go mounts)
// over the built index (the data directory's, or OpenSearch's with
// -engine opensearch; the state store is always in the data directory) on
// a loopback port, until SIGTERM. The
// per-client rate limit is raised: the load generator is one client
// address, which the default (20 requests/s per address) would throttle.
func childOursServe(args []string) error {
	fl := flag.NewFlagSet("ours-serve", flag.ContinueOnError)
	data := fl.String("data", "", "data directory")
	withPprof := fl.Bool("pprof", false, "serve net/http/pprof on a second loopback port")
	var ef engineFlags
	ef.register(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	be, err := ef.open(context.Background(), *data)
	if err != nil {
		return err
	}
	defer be.Close()
	if err := os.MkdirAll(*data, 0o755); err != nil {
		return err
	}
	st, err := store.OpenBolt(filepath.Join(*data, "state.db"))
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	base := "http://" + ln.Addr().String()
	hs := &http.Server{Handler: oursHandler(be, st, base), ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 2 * time.Minute}
	go hs.Serve(ln)
	if *withPprof {
		pl, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		mux := http.NewServeMux()
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		go http.Serve(pl, mux)
		fmt.Printf("PPROF http://%s\n", pl.Addr())
	}
	fmt.Printf("LISTEN %s\n", base)
	// then WARM once the engine's start-up warm-up has read ahead what it
	// reads (at once for an engine without one): runs that time queries
	// wait for it (expectWarm), so none of them shares the machine with it
	go func(start time.Time) {
		for ef.warming != nil && ef.warming() {
			time.Sleep(50 * time.Millisecond)
		}
		fmt.Printf("WARM %.1f\n", time.Since(start).Seconds())
	}(time.Now())
	return waitForTerm(func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		return hs.Shutdown(ctx)
	})
}

// oursHandler is the real API over be and st, with the services main.go's
// buildServices makes over the same engine, and the per-client rate limit
// raised (the load generator is one client).
func oursHandler(be search.Engine, st store.Store, base string) http.Handler {
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	cw := entity.DefaultCrosswalk()
	g := servicetest.New(be, cw, view.Links{Base: base, Form: 1}, time.Now)
	return api.New(api.Config{Form: 1, BaseURL: base, Engine: be.Name(), RatePerSecond: 1e9, Burst: 1 << 30},
		api.Deps{Search: be, Store: st, Crosswalk: cw, Logger: logger, Now: time.Now, Notices: g.Notices, Semantic: g.Semantic, Procure: g.Procure,
			Dossiers: g.Dossiers, Land: g.Land, Meetings: g.Meetings, People: g.People, Federated: g.Federated})
}

// waitForTerm blocks until SIGTERM or SIGINT (or the parent closes our
// standard input), then stops.
func waitForTerm(stop func() error) error {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	stdin := make(chan struct{})
	go func() {
		io.Copy(io.Discard, os.Stdin)
		close(stdin)
	}()
	select {
	case <-sig:
	case <-stdin:
	}
	return stop()
}

// dirSize is the total size of the regular files under dir.
func dirSize(dir string) (int64, error) {
	var total int64
	err := filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			total += info.Size()
		}
		return nil
	})
	return total, err
}

// heapWritten is the heap's object bytes when heapAtPeak last wrote.
var heapWritten uint64

// heapAtPeak writes the heap profile to path when the heap's objects are a
// fifth over what they were at the last one written.
func heapAtPeak(path string) error {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	now := sample[0].Value.Uint64()
	if now < heapWritten+heapWritten/5 {
		return nil
	}
	heapWritten = now
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	logf("ours-index: heap objects %d MB: profile written", now>>20)
	return errors.Join(rpprof.Lookup("heap").WriteTo(f, 0), f.Close())
}

// childOursDisk prints where the bytes of the embedded index under a data
// directory go (embedded.DiskUsage), as JSON: for an index loaded by an
// earlier run.
func childOursDisk(args []string) error {
	fl := flag.NewFlagSet("ours-disk", flag.ContinueOnError)
	data := fl.String("data", "", "data directory")
	if err := fl.Parse(args); err != nil {
		return err
	}
	d, err := embedded.DiskUsage(filepath.Join(*data, "index"))
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(d)
}
