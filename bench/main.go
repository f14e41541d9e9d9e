// Command bench measures Recordwatch at city scale against PostgreSQL
// full-text search, SQLite FTS5 and OpenSearch, on one synthetic corpus,
// and writes BENCHMARKS.md. It is not part of CI.
//
//	go -C bench run .                          # 100,000 notices, peers included
//	go -C bench run . -n 1100000               # the size of the real City Record dataset
//	go -C bench run . -peers=false -keep       # ours only, reusing the corpus and index of an earlier run
//	go -C bench run . -opensearch=false        # the database peers only
//
// One run: generate the corpus once with internal/synth (deterministic
// seed) into a JSON-lines file; index it with Recordwatch's real pipeline
// (Indexer.Upsert in batches: passages, the engine's Upsert, semantic
// vectors) in a child process
// whose peak RSS is read from getrusage; serve the real API (api.New) from
// another child on a loopback port and drive the fixed query mix through
// HTTP at each concurrency; then load the same file into SQLite FTS5 and a
// private PostgreSQL cluster (installed from Debian packages when missing)
// and drive the same requests through a small HTTP server over each.
// OpenSearch, the engine users would pick instead of the embedded one, runs
// as a single node of its own (docker/opensearch-local.sh, heap
// -opensearch-heap, default 1g) and is loaded and served by the same
// children with -engine opensearch: Recordwatch's pipeline and API over the
// OpenSearch engine, so its requests are byte-identical to ours. A
// fairness check compares hit counts (and facet counts) for every query and
// makes the run fail when they disagree. Child roles are this same binary
// started with -child=<role>.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

type config struct {
	N        int
	Seed     int64
	Out      string
	Work     string
	Sample   string
	Peers    bool
	Keep     bool
	Duration time.Duration
	Warmup   time.Duration
	Conc     []int
	Pprof    bool
	PGPort   int

	OpenSearch       bool // run the OpenSearch peer (with Peers)
	OpenSearchHeap   string
	OpenSearchHome   string
	OpenSearchPort   int
	OpenSearchScript string
	OpenSearchWarmup time.Duration

	Varied bool // run the varied query log and the cold reads (varied.go)
	// VariedTogether and VariedAlone: the varied log with every system
	// serving at once (interleaved), and with each system served alone,
	// the others stopped (varied_phase.go); either or both.
	VariedTogether bool
	VariedAlone    bool
}

func main() {
	if len(os.Args) > 1 && strings.HasPrefix(os.Args[1], "-child=") {
		role := strings.TrimPrefix(os.Args[1], "-child=")
		if err := runChild(role, os.Args[2:]); err != nil {
			fmt.Fprintf(os.Stderr, "bench child %s: %v\n", role, err)
			os.Exit(1)
		}
		return
	}
	toRepoRoot()
	var cfg config
	var conc string
	fl := flag.NewFlagSet("bench", flag.ExitOnError)
	fl.IntVar(&cfg.N, "n", 100_000, "corpus size (notices)")
	fl.Int64Var(&cfg.Seed, "seed", 1, "corpus seed")
	fl.StringVar(&cfg.Out, "out", "BENCHMARKS.md", "report file")
	fl.StringVar(&cfg.Work, "work", filepath.Join(os.TempDir(), "recordwatch-bench"), "work directory (corpus, indexes, databases, profiles)")
	fl.StringVar(&cfg.Sample, "sample", "testdata/sample", "real sample corpus the generator learns from")
	fl.BoolVar(&cfg.Peers, "peers", true, "also run PostgreSQL and SQLite FTS5")
	fl.BoolVar(&cfg.Keep, "keep", false, "reuse the corpus and the indexes/databases of an earlier run of the same size (their load figures are those of that run)")
	fl.DurationVar(&cfg.Duration, "duration", 5*time.Second, "measured time per query and concurrency")
	fl.DurationVar(&cfg.Warmup, "warmup", time.Second, "unmeasured warm-up per query and concurrency")
	fl.StringVar(&conc, "conc", "1,32", "concurrencies")
	fl.BoolVar(&cfg.Pprof, "pprof", true, "CPU-profile our indexing (and write a heap profile near its peak) and our server under the mixed load at the highest concurrency")
	fl.IntVar(&cfg.PGPort, "pg-port", 15432, "loopback port of the private PostgreSQL cluster (below the ephemeral range 32768–60999, where a client connection of the load may already hold it)")
	fl.BoolVar(&cfg.OpenSearch, "opensearch", true, "also run OpenSearch (a single node of the benchmark's own, served through Recordwatch's API); -peers=false skips it unless this flag is given")
	fl.StringVar(&cfg.OpenSearchHeap, "opensearch-heap", "1g", "OpenSearch JVM heap (-Xms = -Xmx)")
	fl.StringVar(&cfg.OpenSearchHome, "opensearch-home", defaultOSHome(), "RECORDWATCH_OPENSEARCH_HOME of the benchmark's node (distribution, data, pids); keep it apart from a development node's")
	fl.IntVar(&cfg.OpenSearchPort, "opensearch-port", 9290, "HTTP port of the benchmark's node on 127.0.0.1 (transport: this + 100)")
	fl.StringVar(&cfg.OpenSearchScript, "opensearch-script", "docker/opensearch-local.sh", "the script that starts and stops the node")
	fl.DurationVar(&cfg.OpenSearchWarmup, "opensearch-warmup", 15*time.Second, "unmeasured search mix sent to the fresh JVM before its measurements (JIT compilation)")
	fl.BoolVar(&cfg.Varied, "varied", true, "after the fixed mix, send each system a varied log of 1,000+ distinct queries once, then cold reads after a restart (-varied-together, -varied-alone)")
	fl.BoolVar(&cfg.VariedTogether, "varied-together", true, "varied log: every system serving at once, each query sent to each in turn (interleaved)")
	fl.BoolVar(&cfg.VariedAlone, "varied-alone", true, "varied log: each system served alone, the others stopped (its index warm), the same queries")
	cycleOnly := fl.Bool("cycle-only", false, "only score prior-cycle matching on the judged set and print it (seconds; no corpus, no peers)")
	soak := fl.Duration("soak", 0, "instead of the benchmark: a soak of this length (e.g. 10m) — mixed reads and writes against the built binary, SIGKILLed and restarted every -soak-kill-every; fails if an acknowledged write is lost")
	soakClients := fl.Int("soak-clients", 32, "soak: concurrent clients")
	soakKill := fl.Duration("soak-kill-every", 2*time.Minute, "soak: SIGKILL and restart interval")
	admission := fl.Duration("admission", 0, "instead of the benchmark: for each kind of expensive request (searches with facets or a mode, federated, passages, analysis, payroll, profiles and their pages, property locations, batch, MCP dossier and relationships), 64 clients on its costliest request for this long (e.g. 30s) while notice reads by id are timed against the 20 ms p95 goal")
	relevanceOnly := fl.Bool("relevance-only", false, "only score keyword, semantic and hybrid search on the judged query set and print it (seconds; no corpus, no peers)")
	freshness := fl.Bool("freshness", false, "instead of the benchmark: the lag from a row's appearance upstream to searchable, API and MCP (replay publisher, the scheduler's City Record job), with the pipeline's share and the projection at the default schedule")
	freshRows := fl.Int("freshness-rows", 40, "freshness: rows the replay publisher shows")
	freshEvery := fl.Duration("freshness-every", 2*time.Second, "freshness: the City Record job's interval while measuring")
	fl.Parse(os.Args[1:])
	// -peers=false skips OpenSearch too unless -opensearch is given: the
	// engine alone is `-peers=false`, the two engines `-peers=false -opensearch`
	set := map[string]bool{}
	fl.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !cfg.Peers && !set["opensearch"] {
		cfg.OpenSearch = false
	}
	if *freshness {
		err := os.MkdirAll(cfg.Work, 0o755)
		if err == nil {
			err = runFreshness(cfg.Work, *freshRows, *freshEvery)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *admission > 0 {
		if err := runAdmission(*admission, cfg.Work); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *soak > 0 {
		if err := runSoak(soakConfig{Duration: *soak, Clients: *soakClients, KillEvery: *soakKill, Work: cfg.Work}); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		return
	}
	if *relevanceOnly {
		if err := os.MkdirAll(cfg.Work, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		e := evalRelevance(context.Background(), cfg)
		fmt.Print(renderRelevance(e))
		if e.Err != "" {
			os.Exit(1)
		}
		return
	}
	if *cycleOnly {
		if err := os.MkdirAll(cfg.Work, 0o755); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
			os.Exit(1)
		}
		e := evalPriorCycle(context.Background(), cfg)
		fmt.Print(renderCycle(e))
		if e.Err != "" {
			os.Exit(1)
		}
		return
	}
	for _, s := range strings.Split(conc, ",") {
		c, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || c < 1 {
			fmt.Fprintf(os.Stderr, "bench: bad -conc %q\n", conc)
			os.Exit(2)
		}
		cfg.Conc = append(cfg.Conc, c)
	}
	failed, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	if failed != "" {
		fmt.Fprintln(os.Stderr, "bench: FAIRNESS CHECK FAILED:", failed)
		os.Exit(3)
	}
}

func runChild(role string, args []string) error {
	switch role {
	case "ours-index":
		embedded.SetSoftMemoryLimit(os.Getenv) // as main.go does
		return childOursIndex(args)
	case "ours-serve":
		embedded.SetSoftMemoryLimit(os.Getenv)
		return childOursServe(args)
	case "ours-disk":
		return childOursDisk(args)
	case "ours-nearest":
		return childOursNearest(args)
	case "sqlite-load":
		return childSQLiteLoad(args)
	case "pg-load":
		return childPGLoad(args)
	case "peer-serve":
		return childPeerServe(args)
	}
	return fmt.Errorf("unknown child role %q", role)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s bench: %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// system is one engine's figures.
type system struct {
	Key     string // ours, sqlite, postgres, opensearch
	Name    string
	Version string
	// FullAPI: served by Recordwatch's own API (ours, and OpenSearch
	// through it), so the feeds of the mix are measured too.
	FullAPI bool
	Index   indexStats
	// ServePeakMB is the serving processes' peak summed PSS while the mix
	// ran (for PostgreSQL its server processes and its HTTP server, for
	// OpenSearch its JVM and the Recordwatch API server in front of it).
	ServePeakMB float64
	// ServeAnonPeakMB is the anonymous part of ServePeakMB's processes' PSS
	// at its own peak (Recordwatch's API server only).
	ServeAnonPeakMB float64
	Answers         map[string]answer // by query name
	AnswerErr       map[string]string
	Load            map[string]map[int]loadResult // query → concurrency → figures
	Note            string
	// Warmup, when set, is an unmeasured run of the search mix before the
	// measurements (OpenSearch's JVM compiles its hot code under load).
	Warmup time.Duration
	// LoadMean and LoadPeak are the machine's 1-minute load average while
	// this system's queries ran (the benchmark's own work included).
	LoadMean, LoadPeak float64
}

func newSystem(key, name string) *system {
	return &system{Key: key, Name: name, Answers: map[string]answer{}, AnswerErr: map[string]string{},
		Load: map[string]map[int]loadResult{}}
}

// report is everything BENCHMARKS.md is written from.
type report struct {
	Cfg      config
	Machine  machine
	Corpus   corpusMeta
	Mix      []mixQuery
	Systems  []*system
	Fairness []fairRow
	Profiles []profile
	Started  time.Time
	Took     time.Duration
	Command  string
	Cycle    cycleEval
	Quality  relevanceEval
	Varied   variedResult // the varied query log, every system at once (varied.go)
	// VariedAlone is the same log with each system served alone
	VariedAlone variedResult
}

type profile struct {
	Title, File, Top string
}

// toRepoRoot makes the repository root the working directory when the
// benchmark runs from its own module's directory (`go -C bench run .`), so
// that the default paths (testdata/sample, docker/, BENCHMARKS.md) are the
// repository's.
func toRepoRoot() {
	if _, err := os.Stat("testdata/sample"); err == nil {
		return
	}
	if _, err := os.Stat(filepath.Join("..", "testdata", "sample")); err == nil {
		if err := os.Chdir(".."); err != nil {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
	}
}

func run(cfg config) (string, error) {
	rep := &report{Cfg: cfg, Machine: describeMachine(), Started: time.Now(), Command: commandLine()}
	if err := os.MkdirAll(cfg.Work, 0o755); err != nil {
		return "", err
	}
	if _, err := os.Stat(cfg.Sample); err != nil {
		return "", fmt.Errorf("sample corpus %s not found: run from the repository root or set -sample", cfg.Sample)
	}
	meta, err := ensureCorpus(cfg.Work, cfg.Sample, cfg.N, cfg.Seed, cfg.Keep, logf)
	if err != nil {
		return "", err
	}
	rep.Corpus = meta
	rep.Mix = buildMix(meta.Agency, meta.Vendor)
	logf("corpus: %d notices, %.1f MB; filtered query agency %q, vendor %q (stem %q)", meta.N, float64(meta.Bytes)/1e6,
		meta.Agency, meta.Vendor, meta.Stem)
	ctx := context.Background()
	maxConc := 1
	for _, c := range cfg.Conc {
		maxConc = max(maxConc, c)
	}

	// ---- Recordwatch
	ours := newSystem("ours", "Recordwatch")
	ours.FullAPI = true
	rep.Systems = append(rep.Systems, ours)
	dataDir := oursDataDir(cfg.Work, cfg.N)
	statsPath := dataDir + ".stats.json"
	if !cfg.Keep || !readStats(statsPath, &ours.Index) {
		os.Remove(statsPath)
		logf("Recordwatch: indexing through Indexer.Upsert (passages, semantic vectors) on the embedded engine")
		args := []string{"-corpus", meta.Path, "-data", dataDir}
		var prof string
		if cfg.Pprof {
			prof = filepath.Join(cfg.Work, fmt.Sprintf("ours-index-n%d.pprof", cfg.N))
			args = append(args, "-cpuprofile", prof,
				"-heapprofile", filepath.Join(cfg.Work, fmt.Sprintf("ours-index-n%d.heap.pprof", cfg.N)))
		}
		if err := runChildJSON("ours-index", &ours.Index, args...); err != nil {
			return "", err
		}
		saveStats(statsPath, ours.Index)
		if prof != "" {
			rep.Profiles = append(rep.Profiles, profile{Title: "Recordwatch indexing (CPU)", File: prof, Top: pprofTop(prof)})
		}
	} else {
		ours.Index.Reused = true
	}
	logf("Recordwatch: %d notices in %.1fs (%.0f/s), %.1f MB on disk, peak RSS %.0f MiB", ours.Index.Notices, ours.Index.Seconds,
		float64(ours.Index.Notices)/ours.Index.Seconds, float64(ours.Index.Bytes)/1e6, ours.Index.PeakRSSMB)
	runNearest(ours, "-corpus", meta.Path, "-data", dataDir)
	ours.Version = "Bleve " + rep.Machine.Bleve
	{
		args := []string{"-data", dataDir}
		if cfg.Pprof {
			args = append(args, "-pprof")
		}
		c, err := startChild("ours-serve", args...)
		if err != nil {
			return "", err
		}
		var pprofURL string
		if cfg.Pprof {
			if pprofURL, err = c.expect("PPROF", time.Minute); err != nil {
				return "", err
			}
		}
		base, err := c.expect("LISTEN", 5*time.Minute)
		if err != nil {
			return "", err
		}
		if err := c.expectWarm(); err != nil {
			return "", err
		}
		sampler := samplePSS(func() []int { return []int{c.pid()} }, 250*time.Millisecond)
		measure(ctx, cfg, ours, base, rep.Mix)
		ours.ServePeakMB = sampler.PeakMB() // the mix only, not the profiling run after it
		ours.ServeAnonPeakMB = sampler.AnonPeakMB()
		if cfg.Pprof {
			file := filepath.Join(cfg.Work, fmt.Sprintf("ours-serve-n%d-c%d.pprof", cfg.N, maxConc))
			if err := profileMix(ctx, base, pprofURL, rep.Mix, maxConc, 10*time.Second, file); err != nil {
				logf("profile: %v", err)
			} else {
				rep.Profiles = append(rep.Profiles, profile{Title: fmt.Sprintf("Recordwatch server under the search mix at concurrency %d (CPU)", maxConc),
					File: file, Top: pprofTop(file)})
			}
		}
		if err := c.stop(); err != nil {
			return "", err
		}
	}

	if cfg.Peers {
		// ---- SQLite FTS5
		lite := newSystem("sqlite", "SQLite FTS5")
		rep.Systems = append(rep.Systems, lite)
		dbPath := filepath.Join(cfg.Work, fmt.Sprintf("sqlite-n%d.db", cfg.N))
		if err := loadPeer(cfg, lite, dbPath+".stats.json", func() error {
			logf("SQLite: loading")
			return runChildJSON("sqlite-load", &lite.Index, "-corpus", meta.Path, "-db", dbPath)
		}); err != nil {
			return "", err
		}
		if err := servePeer(ctx, cfg, lite, rep.Mix, "peer-serve", nil, "-engine", "sqlite", "-dsn", dbPath, "-conns", strconv.Itoa(maxConc)); err != nil {
			return "", err
		}

		// ---- PostgreSQL
		pg := newSystem("postgres", "PostgreSQL FTS")
		rep.Systems = append(rep.Systems, pg)
		pgDir := filepath.Join(cfg.Work, fmt.Sprintf("pg-n%d", cfg.N))
		statsPath := pgDir + ".stats.json"
		var kept indexStats
		reuse := cfg.Keep && readStats(statsPath, &kept) && kept.Schema == pgTSConfig
		if !reuse {
			os.Remove(statsPath) // a load with another text search configuration is loaded again
		}
		cluster, err := newPGCluster(pgDir, cfg.PGPort, reuse, logf)
		if err != nil {
			return "", err
		}
		if err := cluster.start(); err != nil {
			return "", err
		}
		err = loadPeer(cfg, pg, statsPath, func() error {
			logf("PostgreSQL: loading (COPY, then GIN and B-tree indexes)")
			s := samplePSS(cluster.pids, 250*time.Millisecond)
			err := runChildJSON("pg-load", &pg.Index, "-corpus", meta.Path, "-dsn", cluster.dsn("postgres"))
			pg.Index.ServerMB = s.PeakMB()
			return err
		})
		if err == nil {
			err = servePeer(ctx, cfg, pg, rep.Mix, "peer-serve", cluster.pids, "-engine", "postgres", "-dsn", cluster.dsn(pgDB), "-conns", strconv.Itoa(maxConc))
		}
		if serr := cluster.stop(); err == nil {
			err = serr
		}
		if err != nil {
			return "", err
		}
		pg.Note = "settings: " + strings.Join(pgSettings, ", ")
	}

	// ---- OpenSearch
	if cfg.OpenSearch {
		if err := runOpenSearch(ctx, cfg, rep, meta); err != nil {
			return "", err
		}
	}

	if cfg.Varied && cfg.VariedTogether && len(rep.Systems) > 1 {
		rep.Varied = runVariedPhase(ctx, cfg, rep, meta, false)
		if rep.Varied.Err != "" {
			logf("varied log: %s", rep.Varied.Err)
		}
	}
	if cfg.Varied && (cfg.VariedAlone || len(rep.Systems) == 1) {
		rep.VariedAlone = runVariedPhase(ctx, cfg, rep, meta, true)
		if rep.VariedAlone.Err != "" {
			logf("varied log, each system alone: %s", rep.VariedAlone.Err)
		}
	}
	rep.Fairness = fairness(rep)
	rep.Cycle = evalPriorCycle(ctx, cfg)
	logf("prior cycle: strict precision %.2f recall %.2f; with corroborated precision %.2f recall %.2f (%d judged pairs)",
		rep.Cycle.Strict.Precision, rep.Cycle.Strict.Recall, rep.Cycle.All.Precision, rep.Cycle.All.Recall, rep.Cycle.All.Pairs)
	rep.Quality = evalRelevance(ctx, cfg)
	rep.Took = time.Since(rep.Started)
	md := renderReport(rep)
	if err := os.WriteFile(cfg.Out, []byte(md), 0o644); err != nil {
		return "", err
	}
	logf("wrote %s", cfg.Out)
	var bad []string
	for _, f := range rep.Fairness {
		if !f.Agree {
			bad = append(bad, f.Query)
		}
	}
	bad = append(bad, rep.Varied.disagreements()...)
	bad = append(bad, rep.VariedAlone.disagreements()...)
	return strings.Join(bad, ", "), nil
}

// runOpenSearch starts the benchmark's node, loads the corpus into it
// through Recordwatch's pipeline (unless -keep finds the same corpus loaded
// by an earlier run), measures the mix through Recordwatch's API over it,
// and stops the node.
func runOpenSearch(ctx context.Context, cfg config, rep *report, meta corpusMeta) (err error) {
	s := newSystem("opensearch", "OpenSearch")
	s.FullAPI = true
	s.Warmup = cfg.OpenSearchWarmup
	rep.Systems = append(rep.Systems, s)
	node := &osNode{Script: cfg.OpenSearchScript, Home: cfg.OpenSearchHome, Port: cfg.OpenSearchPort, Heap: cfg.OpenSearchHeap}
	logf("OpenSearch: starting a single node (heap %s, home %s, port %d)", node.Heap, node.Home, node.Port)
	if err := node.start(); err != nil {
		return err
	}
	// an interrupted run does not leave a JVM with a resident heap
	// behind on a shared machine
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sig:
			logf("OpenSearch: interrupted; stopping the node")
			node.stop()
			os.Exit(130)
		case <-done:
		}
	}()
	defer func() {
		signal.Stop(sig)
		close(done)
		if serr := node.stop(); err == nil {
			err = serr
		}
	}()
	if len(node.pids()) == 0 {
		return fmt.Errorf("OpenSearch: no running JVM pid under %s/run", node.Home)
	}
	if s.Version, err = osVersion(ctx, node.URL); err != nil {
		return err
	}
	prefix := fmt.Sprintf("rwbench-n%d", cfg.N)
	statsPath := filepath.Join(cfg.Work, fmt.Sprintf("opensearch-n%d.stats.json", cfg.N))
	lcfg := cfg
	// reuse only what the node still holds: its data outlives the run, but
	// not a `clean` of its home
	lcfg.Keep = cfg.Keep && osNotices(ctx, node.URL, prefix) == meta.N
	engine := []string{"-engine", "opensearch", "-opensearch-url", node.URL, "-prefix", prefix}
	err = loadPeer(lcfg, s, statsPath, func() error {
		if err := osDeleteIndexes(ctx, node.URL, prefix); err != nil {
			return err
		}
		logf("OpenSearch: indexing through Indexer.Upsert (passages, semantic vectors) on the opensearch engine (prefix %s)", prefix)
		sampler := samplePSS(node.pids, 250*time.Millisecond)
		err := runChildJSON("ours-index", &s.Index, append([]string{"-corpus", meta.Path}, engine...)...)
		s.Index.ServerMB = sampler.PeakMB()
		return err
	})
	if err != nil {
		return err
	}
	runNearest(s, append([]string{"-corpus", meta.Path}, engine...)...)
	// the state store (feed counters) of the serving child
	data := filepath.Join(cfg.Work, fmt.Sprintf("opensearch-n%d", cfg.N))
	if err := os.RemoveAll(data); err != nil {
		return err
	}
	if err := servePeer(ctx, cfg, s, rep.Mix, "ours-serve", node.pids, append([]string{"-data", data}, engine...)...); err != nil {
		return err
	}
	s.Note = fmt.Sprintf("node: one node started by `%s start 1` (its own home and ports, 127.0.0.1:%d), heap %s (-Xms = -Xmx), "+
		"the script's settings otherwise; indexes `%s-*` as Recordwatch creates them (mappings/, 1 shard); "+
		"the fresh JVM was sent the search mix from 4 workers for %s, unmeasured, before the measurements (JIT compilation)",
		cfg.OpenSearchScript, cfg.OpenSearchPort, cfg.OpenSearchHeap, prefix, cfg.OpenSearchWarmup)
	return nil
}

func commandLine() string {
	args := []string{"go", "-C", "bench", "run", "."}
	args = append(args, os.Args[1:]...)
	return strings.Join(args, " ")
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

func readStats(path string, st *indexStats) bool {
	b, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(b, st) == nil
}

func saveStats(path string, st indexStats) {
	b, _ := json.MarshalIndent(st, "", "  ")
	_ = os.WriteFile(path, b, 0o644)
}

func jsonUnmarshalString(s string, v any) error { return json.Unmarshal([]byte(s), v) }

// loadPeer runs load unless -keep finds the stats of an earlier load.
func loadPeer(cfg config, s *system, statsPath string, load func() error) error {
	if cfg.Keep && readStats(statsPath, &s.Index) {
		s.Index.Reused = true
		return nil
	}
	os.Remove(statsPath)
	if err := load(); err != nil {
		return err
	}
	saveStats(statsPath, s.Index)
	logf("%s: %d notices in %.1fs (%.0f/s), %.1f MB, peak RSS %.0f MiB", s.Name, s.Index.Notices, s.Index.Seconds,
		float64(s.Index.Notices)/s.Index.Seconds, float64(s.Index.Bytes)/1e6, s.Index.PeakRSSMB)
	return nil
}

// servePeer starts a serving child (role peer-serve, or ours-serve for
// OpenSearch) and measures the mix on it. The child and serverPIDs
// (PostgreSQL's processes, OpenSearch's JVM) are sampled for their summed
// PSS during the run.
func servePeer(ctx context.Context, cfg config, s *system, mix []mixQuery, role string, serverPIDs func() []int, args ...string) error {
	c, err := startChild(role, args...)
	if err != nil {
		return err
	}
	base, err := c.expect("LISTEN", 2*time.Minute)
	if err != nil {
		c.stop()
		return err
	}
	if role == "ours-serve" {
		if err := c.expectWarm(); err != nil {
			c.stop()
			return err
		}
	}
	if role == "peer-serve" {
		if v, err := get(ctx, newClient(1), base+"/version"); err == nil {
			s.Version = string(v)
		}
	}
	if s.Warmup > 0 {
		logf("%s: warming up with the search mix for %s", s.Name, s.Warmup)
		runMix(ctx, base, mix, 4, s.Warmup)
	}
	sampler := samplePSS(func() []int {
		pids := []int{c.pid()}
		if serverPIDs != nil {
			pids = append(pids, serverPIDs()...)
		}
		return pids
	}, 250*time.Millisecond)
	measure(ctx, cfg, s, base, mix)
	s.ServePeakMB = sampler.PeakMB()
	return c.stop()
}

// measure reads each query's answer (the fairness check), then runs the
// load at every concurrency.
func measure(ctx context.Context, cfg config, s *system, base string, mix []mixQuery) {
	client := newClient(64)
	for _, q := range mix {
		if !s.FullAPI && !q.peerServed() {
			continue
		}
		if q.Kind == kindFeedCold || q.Kind == kindFeedCached {
			continue
		}
		a, err := fetchAnswer(ctx, client, base, q)
		if err != nil {
			s.AnswerErr[q.Name] = err.Error()
			logf("%s %s: %v", s.Name, q.Name, err)
			continue
		}
		s.Answers[q.Name] = a
	}
	var seq atomic.Int64
	ls := sampleLoad(2 * time.Second)
	defer func() { s.LoadMean, s.LoadPeak = ls.Stop() }()
	for _, c := range cfg.Conc {
		client := newClient(c)
		for _, q := range mix {
			if !s.FullAPI && !q.peerServed() {
				continue
			}
			r := runLoad(ctx, client, base, q, c, cfg.Warmup, cfg.Duration, &seq)
			if s.Load[q.Name] == nil {
				s.Load[q.Name] = map[int]loadResult{}
			}
			s.Load[q.Name][c] = r
			logf("%-12s c=%-3d %-22s n=%-6d p50=%-9s p95=%-9s p99=%-9s %8.1f req/s  errors=%d %s", s.Key, c, q.Name, r.Requests,
				ms(r.P50), ms(r.P95), ms(r.P99), r.RPS, r.Errors, r.FirstErr)
		}
		client.CloseIdleConnections()
	}
}

// profileMix runs the search queries of the mix round-robin from conc
// workers while the server records a CPU profile.
func profileMix(ctx context.Context, base, pprofURL string, mix []mixQuery, conc int, d time.Duration, file string) error {
	done := make(chan error, 1)
	go func() {
		b, err := get(ctx, newClient(1), fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", pprofURL, int(d.Seconds())))
		if err == nil {
			err = os.WriteFile(file, b, 0o644)
		}
		done <- err
	}()
	runMix(ctx, base, mix, conc, d+500*time.Millisecond)
	return <-done
}

// runMix sends the search queries of the mix round-robin from conc
// workers for d, answers unread.
func runMix(ctx context.Context, base string, mix []mixQuery, conc int, d time.Duration) {
	var searches []mixQuery
	for _, q := range mix {
		if q.peerServed() {
			searches = append(searches, q)
		}
	}
	client := newClient(conc)
	var next atomic.Int64
	stop := time.Now().Add(d)
	errc := make(chan struct{}, conc)
	for range conc {
		go func() {
			defer func() { errc <- struct{}{} }()
			for time.Now().Before(stop) {
				q := searches[int(next.Add(1))%len(searches)]
				_, _ = get(ctx, client, base+q.path(0))
			}
		}()
	}
	for range conc {
		<-errc
	}
	client.CloseIdleConnections()
}

// pprofTop is `go tool pprof -top` of a profile, its first lines.
func pprofTop(file string) string {
	out, err := exec.Command("go", "tool", "pprof", "-top", "-nodecount=25", file).CombinedOutput()
	if err != nil {
		return "go tool pprof failed: " + err.Error() + "\n" + string(out)
	}
	return strings.TrimSpace(string(out))
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d)/float64(time.Millisecond), 'f', 2, 64) + "ms"
}
