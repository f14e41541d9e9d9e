package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The varied log's phase of a run: after every system was loaded and
// measured on the fixed mix, all of them are served at once (each over the
// index or database it already holds) and the log is sent to them
// interleaved at every concurrency; then every serving process (and
// PostgreSQL's cluster, OpenSearch's node) is started again and the first
// ColdReads distinct queries of another log are sent at c=1.

// ColdReads is how many distinct queries the cold-read pass sends.
const ColdReads = 200

// variedSample is how many notices of the corpus the log is built from.
const variedSample = 20_000

// server is one system's serving side: start brings it up (again) and
// returns its base URL and how to stop it; with warm, once its start-up
// warm-up is over (our engine's; the peers have none).
type server struct {
	s     *system
	start func(warm bool) (string, func() error, error)
	stop  func() error
	base  string
}

func (sv *server) up(warm bool) error {
	base, stop, err := sv.start(warm)
	if err != nil {
		return fmt.Errorf("%s: %w", sv.s.Name, err)
	}
	sv.base, sv.stop = base, stop
	return nil
}

func (sv *server) down() error {
	if sv.stop == nil {
		return nil
	}
	err := sv.stop()
	sv.stop = nil
	return err
}

func childServer(role string, args ...string) func(warm bool) (string, func() error, error) {
	return func(warm bool) (string, func() error, error) {
		c, err := startChild(role, args...)
		if err != nil {
			return "", nil, err
		}
		base, err := c.expect("LISTEN", 5*time.Minute)
		if err != nil {
			c.stop()
			return "", nil, err
		}
		if warm && role == "ours-serve" {
			if err := c.expectWarm(); err != nil {
				c.stop()
				return "", nil, err
			}
		}
		return base, c.stop, nil
	}
}

// corpusLogs are the log, the cold-read queries (another seed, none in
// the log) and the throughput pool (further seeds, in neither) of a corpus.
func corpusLogs(path string, seed uint64) ([]logQuery, []logQuery, []logQuery, error) {
	var notices []record.Notice
	errEnough := errors.New("enough")
	err := readCorpus(path, 1000, func(b []record.Notice) error {
		notices = append(notices, b...)
		if len(notices) >= variedSample {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return nil, nil, nil, err
	}
	if len(notices) == 0 {
		return nil, nil, nil, errors.New("the corpus is empty")
	}
	log := buildVariedLog(notices, seed)
	inLog := map[string]bool{}
	for _, q := range log {
		inLog[q.requestPath()] = true
	}
	var cold []logQuery
	for _, q := range buildVariedLog(notices, seed+1) {
		if !inLog[q.requestPath()] && len(cold) < ColdReads {
			cold = append(cold, q)
		}
	}
	for _, q := range cold {
		inLog[q.requestPath()] = true
	}
	pool := throughputPool(func(s uint64) []logQuery { return buildVariedLog(notices, s) }, seed+2, inLog, ThroughputQueries)
	return log, cold, pool, nil
}

// runVariedPhase measures the log on every system of rep: served at once,
// each query sent to each in turn; or, alone, each system served by itself
// (the others stopped) through the same log, throughput and cold reads.
func runVariedPhase(ctx context.Context, cfg config, rep *report, meta corpusMeta, alone bool) (v variedResult) {
	log, cold, pool, err := corpusLogs(meta.Path, uint64(cfg.Seed))
	if err != nil {
		v.Err = err.Error()
		return v
	}
	v.Queries, v.Bands, v.ColdN, v.Log, v.Alone = len(log), map[string]int{}, len(cold), log, alone
	for _, q := range log {
		v.Bands[q.Band]++
	}
	maxConc := 1
	for _, c := range cfg.Conc {
		maxConc = max(maxConc, c)
	}
	var servers []*server
	for _, s := range rep.Systems {
		switch s.Key {
		case "ours":
			servers = append(servers, &server{s: s, start: childServer("ours-serve", "-data", oursDataDir(cfg.Work, cfg.N))})
		case "sqlite":
			db := filepath.Join(cfg.Work, fmt.Sprintf("sqlite-n%d.db", cfg.N))
			servers = append(servers, &server{s: s, start: childServer("peer-serve", "-engine", "sqlite", "-dsn", db, "-conns", strconv.Itoa(maxConc))})
		case "postgres":
			cluster, err := newPGCluster(filepath.Join(cfg.Work, fmt.Sprintf("pg-n%d", cfg.N)), cfg.PGPort, true, logf)
			if err != nil {
				v.Err = err.Error()
				return v
			}
			serve := childServer("peer-serve", "-engine", "postgres", "-dsn", cluster.dsn(pgDB), "-conns", strconv.Itoa(maxConc))
			servers = append(servers, &server{s: s, start: func(warm bool) (string, func() error, error) {
				if err := cluster.start(); err != nil {
					return "", nil, err
				}
				base, stop, err := serve(warm)
				if err != nil {
					cluster.stop()
					return "", nil, err
				}
				return base, func() error { return errors.Join(stop(), cluster.stop()) }, nil
			}})
		case "opensearch":
			node := &osNode{Script: cfg.OpenSearchScript, Home: cfg.OpenSearchHome, Port: cfg.OpenSearchPort, Heap: cfg.OpenSearchHeap}
			data := filepath.Join(cfg.Work, fmt.Sprintf("opensearch-n%d", cfg.N))
			servers = append(servers, &server{s: s, start: func(warm bool) (string, func() error, error) {
				if err := node.start(); err != nil {
					return "", nil, err
				}
				base, stop, err := childServer("ours-serve", "-data", data, "-engine", "opensearch", "-opensearch-url", node.URL,
					"-prefix", fmt.Sprintf("rwbench-n%d", cfg.N))(warm)
				if err != nil {
					node.stop()
					return "", nil, err
				}
				return base, func() error { return errors.Join(stop(), node.stop()) }, nil
			}})
		}
	}
	for _, sv := range servers {
		v.Systems = append(v.Systems, sv.s)
	}
	v.ColdNote = "Every serving process started again on its existing index (PostgreSQL's cluster and OpenSearch's node too; the OS page cache is not dropped), " +
		"then these queries, none of them in the log, sent once each at c=1 as soon as it listens (Recordwatch's start-up warm-up may still be running; the log above waited for it to end)."
	if !alone {
		if err := measureVaried(ctx, cfg, &v, servers, log, cold, pool, maxConc); err != nil {
			v.Err = err.Error()
		}
		return v
	}
	// each system alone: its own pass through the same log, the others
	// stopped; the passes are merged, so the tables and the fairness check
	// read as for systems served at once
	for _, sv := range servers {
		one := variedResult{Bands: v.Bands}
		if err := measureVaried(ctx, cfg, &one, []*server{sv}, log, cold, pool, maxConc); err != nil {
			v.Err = err.Error()
			return v
		}
		for i, r := range one.Runs {
			if i == len(v.Runs) {
				v.Runs = append(v.Runs, emptyRun(r.Conc))
			}
			v.Runs[i].merge(sv.s.Key, r)
		}
		if v.Cold.Took == nil {
			v.Cold = emptyRun(0)
		}
		v.Cold.merge(sv.s.Key, one.Cold)
		v.Throughput = append(v.Throughput, one.Throughput...)
	}
	return v
}

// measureVaried serves servers at once (warm), sends them the log at each
// concurrency, the throughput pool, then starts them again and sends the
// cold reads; it stops them all.
func measureVaried(ctx context.Context, cfg config, v *variedResult, servers []*server, log, cold, pool []logQuery, maxConc int) error {
	defer func() {
		for _, sv := range servers {
			if err := sv.down(); err != nil {
				logf("varied log: stop %s: %v", sv.s.Name, err)
			}
		}
	}()
	live := func() []liveSystem {
		out := make([]liveSystem, len(servers))
		for i, sv := range servers {
			out[i] = liveSystem{S: sv.s, Base: sv.base}
		}
		return out
	}
	var names []string
	for _, sv := range servers {
		names = append(names, sv.s.Name)
		if err := sv.up(true); err != nil { // the log is timed on servers past their start-up warm-up
			return err
		}
	}
	logf("varied log: %d distinct queries (%s) to %s", len(log), bandList(v.Bands), strings.Join(names, ", "))
	// the log is cut in as many slices as concurrencies: no query is sent
	// twice to a system
	for i, c := range cfg.Conc {
		part := log[i*len(log)/len(cfg.Conc) : (i+1)*len(log)/len(cfg.Conc)]
		r := runVaried(ctx, live(), part, c)
		v.Runs = append(v.Runs, r)
		logf("varied log c=%d: %d queries in %.1fs; %d disagree; errors %v", c, len(part), r.Wall.Seconds(), len(r.disagreements(part)), r.Errors)
	}
	v.Throughput = throughputPhase(ctx, live(), pool, maxConc)
	for _, r := range v.Throughput {
		logf("throughput %s (%s): %d answered, %d shed, %d errors in %.1fs: %.0f req/s", r.Name, r.Bands, r.OK, r.Shed, r.Errors, r.Elapsed.Seconds(), r.ReqPerSec())
	}
	for _, sv := range servers {
		if err := sv.down(); err != nil {
			return err
		}
	}
	for _, sv := range servers {
		if err := sv.up(false); err != nil { // cold: the first queries after a start
			return err
		}
	}
	v.Cold = runVaried(ctx, live(), cold, 1)
	v.Cold.Conc = 0
	logf("cold reads: %d queries in %.1fs; errors %v", len(cold), v.Cold.Wall.Seconds(), v.Cold.Errors)
	return nil
}
