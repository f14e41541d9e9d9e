package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
)

// testReport is a finished run of the mix on the given systems: every
// system answers every query it serves with total 100 (the facets query
// with one facet), OpenSearch and ours the feeds too.
func testReport(keys ...string) *report {
	names := map[string]string{"ours": "Recordwatch", "sqlite": "SQLite FTS5", "postgres": "PostgreSQL FTS", "opensearch": "OpenSearch"}
	rep := &report{
		Cfg:     config{N: 3000, Conc: []int{1, 32}, Duration: time.Second, Warmup: time.Second},
		Corpus:  corpusMeta{N: 3000, Agency: "dcas", Vendor: "Acme Inc.", Stem: "acme"},
		Mix:     buildMix("dcas", "Acme Inc."),
		Command: "go -C bench run . -n 3000",
	}
	for i, k := range keys {
		s := newSystem(k, names[k])
		s.FullAPI = k == "ours" || k == "opensearch"
		s.Version = names[k] + " 1.0"
		s.Index = indexStats{Notices: 3000, Passages: 9000, Seconds: 2, Bytes: 50 << 20, PeakRSSMB: 100}
		if k == "opensearch" || k == "postgres" {
			s.Index.ServerMB = 1200
		}
		if s.FullAPI {
			s.Index.Deciles = []int{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
		}
		for _, q := range rep.Mix {
			if !s.FullAPI && !q.peerServed() {
				continue
			}
			if q.peerServed() {
				a := answer{Total: 100}
				if q.Name == "facets" {
					a.Facets = map[string][]search.FacetCount{search.FacetAgency: {{Value: "dcas", Count: 100}}}
				}
				s.Answers[q.Name] = a
			}
			s.Load[q.Name] = map[int]loadResult{}
			for _, c := range rep.Cfg.Conc {
				p50 := time.Duration(i+1) * time.Millisecond
				s.Load[q.Name][c] = loadResult{Requests: 1000, P50: p50, P95: 2 * p50, P99: 3 * p50, RPS: 1000 / float64(i+1)}
			}
		}
		rep.Systems = append(rep.Systems, s)
	}
	return rep
}

func TestReportWithOpenSearch(t *testing.T) {
	rep := testReport("ours", "sqlite", "postgres", "opensearch")
	rep.Fairness = fairness(rep)
	for _, f := range rep.Fairness {
		if !f.Agree {
			t.Errorf("%s: equal counts disagree: %s", f.Query, f.Detail)
		}
	}
	md := renderReport(rep)
	for _, want := range []string{
		"| Recordwatch 1.0; SQLite FTS5 1.0; PostgreSQL FTS 1.0; OpenSearch 1.0 |", // engines
		"| OpenSearch | **1,500** | 2.0 s | 3,000 | 9,000 | 50 MiB | 1.27 GiB | child process: Recordwatch's pipeline with the OpenSearch engine",
		"OpenSearch write rate by tenth of the run (notices/s, writing only): 10, 9, 8, 7, 6, 5, 4, 3, 2, 1.",
		"OpenSearch p50 / p95 / p99 | req/s | × p50 | × req/s | counts agree |",
		// a feed: n/a for the database peers, measured through our API on OpenSearch (4× slower)
		"| feed-cached | – | 1.00 / 2.00 / 3.00 | 1000 | n/a | n/a | | | n/a | n/a | | | 4.00 / 8.00 / 12.0 | 250 | 4.0× | 4.0× | – |",
		"| keyword | 100 | 1.00 / 2.00 / 3.00 | 1000 | 2.00 / 4.00 / 6.00 | 500 | 2.0× | 2.0× | 3.00 / 6.00 / 9.00 | 333 | 3.0× | 3.0× | 4.00 / 8.00 / 12.0 | 250 | 4.0× | 4.0× | yes |",
		"| query | Recordwatch | SQLite FTS5 | PostgreSQL FTS | OpenSearch | agree | detail |",
		"| facets | 100 | 100 | 100 | 100 | yes | totals and all facet counts equal |",
		"faster than the peers (SQLite FTS5, PostgreSQL FTS, OpenSearch) on the filtered query mix",
		"keyword-agency-amount c=32 vs OpenSearch: 4.0× p50, 4.0× req/s",
		"| OpenSearch | 1.27 GiB |",
		"- **OpenSearch**: Recordwatch's own query translation",
		"- **OpenSearch** is served the way a deployment on it is",
		"OpenSearch — the primary store",
	} {
		if want == "| OpenSearch | 1.27 GiB |" {
			rep.system("opensearch").ServePeakMB = 1300
			md = renderReport(rep)
		}
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(md)
	}

	// a count that differs on OpenSearch alone fails the check
	a := rep.system("opensearch").Answers["phrase"]
	a.Total = 99
	rep.system("opensearch").Answers["phrase"] = a
	for _, f := range fairness(rep) {
		if f.Query == "phrase" && (f.Agree || !strings.Contains(f.Detail, "OpenSearch: 99 hits vs 100")) {
			t.Errorf("phrase: agree %v, detail %q", f.Agree, f.Detail)
		}
		if f.Query == "feed-cold" && f.Counts["opensearch"] != "–" {
			t.Errorf("feeds are not compared: %v", f.Counts)
		}
	}
}

func TestReportWithoutOpenSearch(t *testing.T) {
	rep := testReport("ours", "sqlite", "postgres")
	rep.Fairness = fairness(rep)
	md := renderReport(rep)
	for _, unwanted := range []string{"**OpenSearch**", "OpenSearch's JVM", "OpenSearch is served through"} {
		if strings.Contains(md, unwanted) {
			t.Errorf("a report without OpenSearch mentions %q", unwanted)
		}
	}
	if !strings.Contains(md, "faster than the peers (SQLite FTS5, PostgreSQL FTS) on the filtered query mix") {
		t.Error("targets row names the peers")
	}
	md = renderReport(testReport("ours"))
	if !strings.Contains(md, "peers not run (`-peers=false`)") {
		t.Error("ours only")
	}
}

// The node's pids are the JVMs its pid files name, never another process
// a stale file happens to name.
func TestOSNodePIDs(t *testing.T) {
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "run"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "run", "node-1.pid"), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "run", "node-2.pid"), []byte("not a pid"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := (&osNode{Home: home}).pids(); len(got) != 0 {
		t.Errorf("pids %v: this test process is no OpenSearch JVM", got)
	}
	if got := osPattern("rwbench-n3000"); got != "rwbench-n3000-%2A" && got != "rwbench-n3000-*" {
		t.Errorf("pattern %s", got)
	}
	if heapSize(1<<30) != "1 GiB" || heapSize(512<<20) != "512 MiB" || heapSize(3<<29) != "1.5 GiB" {
		t.Error("heapSize")
	}
}
