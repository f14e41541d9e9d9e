package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// The indexer role with -live looks the source up and runs its live
// fetch through the one pipeline: a source without one is refused by
// name, a bad -checkbook-from before anything is fetched, and with -every
// a run that fails (here an empty answer: it read nothing) is logged and
// tried again at the next interval, until one completes and observes the
// source.
func TestIndexerLiveRunsThroughThePipeline(t *testing.T) {
	data, err := os.ReadFile("testdata/sample/crol/socrata_2026/changes_in_personnel_appointed_2026-05-22.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal(data, &rows); err != nil {
		var w struct{ Notices []json.RawMessage }
		if err := json.Unmarshal(data, &w); err != nil {
			t.Fatal(err)
		}
		rows = w.Notices
	}
	var mu sync.Mutex
	fetches := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		off, _ := strconv.Atoi(r.URL.Query().Get("$offset"))
		lim, _ := strconv.Atoi(r.URL.Query().Get("$limit"))
		mu.Lock()
		if off == 0 {
			fetches++
		}
		first := fetches == 1
		mu.Unlock()
		if first {
			w.Write([]byte("[]")) // the first fetch's answer is empty
			return
		}
		json.NewEncoder(w).Encode(rows[min(off, len(rows)):min(off+lim, len(rows))])
	}))
	defer srv.Close()

	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var logs strings.Builder
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&logMu, &logs}, nil))
	ix := &indexer.Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk(), Logger: logger}
	ctx := context.Background()

	if err := runIndexer(ctx, Config{Source: "contracts", Live: true}, ix, nil, logger); err == nil ||
		!strings.Contains(err.Error(), `source "contracts" has no live fetch`) {
		t.Errorf("-live on a source without a live fetch: %v", err)
	}
	if err := runIndexer(ctx, Config{Source: "checkbook", Live: true, CheckbookFrom: "last week"}, ix, nil, logger); err == nil ||
		!strings.Contains(err.Error(), "-checkbook-from must be YYYY-MM-DD") {
		t.Errorf("a bad -checkbook-from: %v", err)
	}

	// once: the empty answer fails the run, and nothing is observed
	cfg := Config{Source: "crol", Live: true, SODAEndpoint: srv.URL}
	if err := runIndexer(ctx, cfg, ix, nil, logger); !errors.Is(err, indexer.ErrNothingRead) {
		t.Fatalf("an empty live answer: %v, want ErrNothingRead", err)
	}
	if done, err := ix.SampleLoaded(ctx); err != nil || done {
		t.Fatalf("an empty live answer observed the source: %v %v", done, err)
	}

	// every 20 ms: the next run completes
	cfg.Every = 20 * time.Millisecond
	mu.Lock()
	fetches = 0
	mu.Unlock()
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- runIndexer(runCtx, cfg, ix, nil, logger) }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if ok, err := ix.SampleLoaded(ctx); err != nil {
			t.Fatal(err)
		} else if ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no live run completed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("a repeated live run ended with %v, want nil when stopped", err)
	}
	logMu.Lock()
	log := logs.String()
	logMu.Unlock()
	if !strings.Contains(log, "live run failed; will retry at the next interval") || !strings.Contains(log, "read nothing") {
		t.Errorf("the failed run was not logged:\n%s", log)
	}
	cov, err := b.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cov {
		if c.Source == record.SourceCROL && c.Records != len(rows) {
			t.Errorf("held %d City Record notices, want the %d fetched", c.Records, len(rows))
		}
	}
}

// lockedWriter serializes writes to w.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
