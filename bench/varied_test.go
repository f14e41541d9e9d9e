package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/registry"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	_ "github.com/recordwatch/recordwatch/internal/search/embedded" // registers the engine's analyzer
)

// syntheticNotices are 4,000 notices generated from the real sample.
func syntheticNotices(t *testing.T) []record.Notice {
	t.Helper()
	m, err := learnModel(filepath.Join("..", "testdata", "sample"))
	if err != nil {
		t.Fatal(err)
	}
	var notices []record.Notice
	if err := generateOrdered(m, 4000, 1, func(n record.Notice, _ []byte) error {
		notices = append(notices, n)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return notices
}

// TestVariedLog: the log built from a synthetic corpus holds at least 1,000
// distinct queries in every band, the same for the same seed; its phrases
// are adjacent words of a notice, its cold-read queries are not in it.
func TestVariedLog(t *testing.T) {
	notices := syntheticNotices(t)
	log := buildVariedLog(notices, 1)
	seen := map[string]bool{}
	bands := map[string]int{}
	for _, q := range log {
		p := q.requestPath()
		if seen[p] {
			t.Fatalf("%s twice", p)
		}
		seen[p] = true
		bands[q.Band]++
		if q.Band == bandPhrase {
			ph := strings.Trim(q.Params.Get("q"), `"`)
			found := false
			for _, n := range notices {
				if strings.Contains(strings.ToLower(n.Text), ph) {
					found = true
					break
				}
			}
			if !found {
				t.Errorf("phrase %q is in no notice", ph)
			}
		}
		if (q.Band == bandFacets) != strings.Contains(p, "facets=true") {
			t.Errorf("%s: band %s", p, q.Band)
		}
		if q.ourOnly() != strings.Contains(p, "mode=") {
			t.Errorf("%s: our-only %v", p, q.ourOnly())
		}
	}
	if len(log) < 1000 {
		t.Fatalf("%d distinct queries, want at least 1,000", len(log))
	}
	for _, b := range variedBands {
		if bands[b.Name] < b.N*9/10 {
			t.Errorf("band %s: %d queries, want about %d", b.Name, bands[b.Name], b.N)
		}
	}
	again := buildVariedLog(notices, 1)
	for i := range log {
		if log[i].requestPath() != again[i].requestPath() {
			t.Fatalf("query %d differs for the same seed: %s, %s", i, log[i].requestPath(), again[i].requestPath())
		}
	}
	t.Logf("%d queries: %v", len(log), bands)
}

func TestVariedPercentilesAndFairness(t *testing.T) {
	r := variedRun{Totals: map[string]map[string]int{
		"a": {"ours": 3, "sqlite": 3}, "b": {"ours": 3, "sqlite": 4}, "s": {"ours": 9, "opensearch": 10}}}
	log := []logQuery{{mixQuery: mixQuery{Name: "a"}, Band: bandRare}, {mixQuery: mixQuery{Name: "b"}, Band: bandRare},
		{mixQuery: mixQuery{Name: "s"}, Band: bandSemantic}}
	if bad := r.disagreements(log); len(bad) != 1 {
		t.Fatalf("disagreements %v, want b only", bad)
	}
	p50, p95, p99 := pcts([]time.Duration{5, 1, 2, 3, 4, 6, 7, 8, 9, 10})
	if p50 != 5 || p95 != 10 || p99 != 10 {
		t.Fatalf("percentiles %v %v %v", p50, p95, p99)
	}
}

// TestVariedLogWordsSurviveAnalysis: no query of the log holds a word an
// engine drops or splits. Every word of every keyword and passage query is
// one token of Recordwatch's analyzer (so not one of Bleve's stop words,
// which Recordwatch and OpenSearch drop and the databases may keep) and is
// not in PostgreSQL's English stop list.
func TestVariedLogWordsSurviveAnalysis(t *testing.T) {
	for _, w := range []string{"cannot", "against", "yourselves", "would", "furtherance"} {
		if got := benchWords("we " + w + " attend"); len(got) != 1 || got[0] != "attend" {
			t.Errorf("benchWords keeps the stop word %q: %v", w, got)
		}
	}
	a, err := registry.NewCache().AnalyzerNamed("recordwatch_en")
	if err != nil {
		t.Fatal(err)
	}
	notices := syntheticNotices(t)
	for _, q := range buildVariedLog(notices, 1) {
		for _, w := range strings.Fields(strings.Trim(q.Params.Get("q"), `"`)) {
			if toks := a.Analyze([]byte(w)); len(toks) != 1 {
				t.Errorf("%s: %q is %d tokens of the engine's analyzer", q.requestPath(), w, len(toks))
			}
		}
	}
}

// TestVariedFairnessStemming: a difference on PostgreSQL alone is set apart
// only when a word's stem is one the two Porter stemmers make differently;
// any other difference fails the check.
func TestVariedFairnessStemming(t *testing.T) {
	for q, want := range map[string]bool{"possible": true, "ecology million": true, "possibly": true,
		"freight facing": false, "generates": false, "emotionally": false, "bisexual petitions using": true} {
		if got := pgStemmed(q); got != want {
			t.Errorf("pgStemmed(%q) = %v, want %v", q, got, want)
		}
	}
	r := variedRun{Totals: map[string]map[string]int{
		"stem":    {"ours": 101, "sqlite": 101, "opensearch": 101, "postgres": 58},
		"nostem":  {"ours": 10, "sqlite": 10, "opensearch": 10, "postgres": 12},
		"notpg":   {"ours": 101, "sqlite": 100, "opensearch": 101, "postgres": 101},
		"agreed":  {"ours": 7, "sqlite": 7, "opensearch": 7, "postgres": 7},
		"twooffs": {"ours": 101, "sqlite": 99, "opensearch": 101, "postgres": 58},
	}}
	q := func(name, words string) logQuery {
		return logQuery{mixQuery: mixQuery{Name: name, Params: url.Values{"q": {words}}}, Band: bandMedium}
	}
	log := []logQuery{q("stem", "possible"), q("nostem", "freight"), q("notpg", "possible"), q("agreed", "possible"), q("twooffs", "possible")}
	bad, stemmed := r.fairness(log)
	if len(bad) != 3 || len(stemmed) != 1 || !strings.HasPrefix(stemmed[0], "q=possible map[opensearch:101 ours:101 postgres:58") {
		t.Fatalf("bad %v, stemmed %v", bad, stemmed)
	}
}

// TestVariedFacetsFairness: a facets query whose totals agree still fails
// the check when a facet count differs, and the log's facets band asks for
// facets.
func TestVariedFacetsFairness(t *testing.T) {
	fc := func(n int) map[string][]search.FacetCount {
		return map[string][]search.FacetCount{search.FacetYear: {{Value: "2024", Count: n}}}
	}
	r := variedRun{
		Totals: map[string]map[string]int{"f": {"ours": 5, "sqlite": 5, "postgres": 5}, "g": {"ours": 5, "sqlite": 5, "postgres": 5}},
		Facets: map[string]map[string]map[string][]search.FacetCount{
			"f": {"ours": fc(5), "sqlite": fc(4), "postgres": fc(5)},
			"g": {"ours": fc(5), "sqlite": fc(5), "postgres": fc(5)},
		},
	}
	log := []logQuery{
		{mixQuery: mixQuery{Name: "f", Params: url.Values{"q": {"freight"}, "facets": {"true"}}}, Band: bandFacets},
		{mixQuery: mixQuery{Name: "g", Params: url.Values{"q": {"freight"}, "facets": {"true"}}}, Band: bandFacets},
	}
	bad, stemmed := r.fairness(log)
	if len(bad) != 1 || !strings.Contains(bad[0], "facets sqlite vs ours") || len(stemmed) != 0 {
		t.Fatalf("bad %v, stemmed %v", bad, stemmed)
	}
}

// TestVariedHonoursRetryAfter: a query refused with 503 and Retry-After is
// sent again after the delay, its latency holds the wait, and it is counted
// as shed in its band; a 503 without Retry-After is an error, not retried.
func TestVariedHonoursRetryAfter(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		switch {
		case r.URL.Query().Get("q") == "broken":
			w.WriteHeader(http.StatusServiceUnavailable)
		case r.URL.Query().Get("facets") == "true" && n == 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			fmt.Fprint(w, `{"total":3}`)
		}
	}))
	defer srv.Close()
	s := newSystem("ours", "Recordwatch")
	s.FullAPI = true
	log := []logQuery{
		{mixQuery: mixQuery{Name: "f", Kind: kindSearch, Params: url.Values{"q": {"freight"}, "facets": {"true"}}}, Band: bandFacets},
		{mixQuery: mixQuery{Name: "b", Kind: kindSearch, Params: url.Values{"q": {"broken"}}}, Band: bandRare},
	}
	r := runVaried(t.Context(), []liveSystem{{S: s, Base: srv.URL}}, log, 1)
	if r.Shed["ours"][bandFacets] != 1 || r.Totals["f"]["ours"] != 3 || calls.Load() != 3 {
		t.Fatalf("shed %v, totals %v, %d calls", r.Shed, r.Totals, calls.Load())
	}
	if took := r.Took["ours"][bandFacets]; len(took) != 1 || took[0] < time.Second {
		t.Fatalf("facets latency %v, want the 1s wait in it", took)
	}
	if r.Errors["ours"] != 1 || r.Shed["ours"][bandRare] != 0 {
		t.Fatalf("errors %v, shed %v: a 503 without Retry-After is an error", r.Errors, r.Shed)
	}
	if line := r.shedLine([]*system{s}); line != "Recordwatch: facets 1 (of 1 answered)" {
		t.Fatalf("shed line %q", line)
	}
}

// TestLoadHonoursRetryAfter: the fixed mix's load retries a shed request
// after its Retry-After instead of counting an error, and counts it shed.
func TestLoadHonoursRetryAfter(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1)%2 == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, `{"total":1}`)
	}))
	defer srv.Close()
	var seq atomic.Int64
	q := mixQuery{Name: "facets", Kind: kindSearch, Params: url.Values{"q": {"services"}, "facets": {"true"}}}
	r := runLoad(t.Context(), newClient(1), srv.URL, q, 1, 0, 100*time.Millisecond, &seq)
	if r.Errors != 0 || r.Requests == 0 || r.Shed != r.Requests {
		t.Fatalf("errors %d, requests %d, shed %d: every request shed once, then answered", r.Errors, r.Requests, r.Shed)
	}
}

// Passes of systems measured alone merge into one run as if served at
// once: each system's latencies, shed counts and wall time kept under its
// key, the totals side by side, so the fairness check still finds a query
// the systems answer differently.
func TestVariedAloneRunsMerge(t *testing.T) {
	ours, peer := emptyRun(1), emptyRun(1)
	ours.Took["ours"] = map[string][]time.Duration{"": {1, 2}}
	ours.Totals = map[string]map[string]int{"a": {"ours": 3}, "b": {"ours": 3}}
	ours.Wall = 2
	peer.Took["sqlite"] = map[string][]time.Duration{"": {5}}
	peer.Shed["sqlite"] = map[string]int{bandRare: 1}
	peer.Errors["sqlite"] = 2
	peer.Totals = map[string]map[string]int{"a": {"sqlite": 3}, "b": {"sqlite": 4}}
	peer.Wall = 5
	m := emptyRun(1)
	m.merge("ours", ours)
	m.merge("sqlite", peer)
	if len(m.Took["ours"][""]) != 2 || len(m.Took["sqlite"][""]) != 1 || m.Shed["sqlite"][bandRare] != 1 || m.Errors["sqlite"] != 2 ||
		m.Walls["ours"] != 2 || m.Walls["sqlite"] != 5 || m.Wall != 7 {
		t.Fatalf("merged %+v", m)
	}
	log := []logQuery{{mixQuery: mixQuery{Name: "a"}, Band: bandRare}, {mixQuery: mixQuery{Name: "b"}, Band: bandRare}}
	if bad := m.disagreements(log); len(bad) != 1 || !strings.Contains(bad[0], "ours:3 sqlite:4") {
		t.Fatalf("disagreements %v, want b only", bad)
	}
}
