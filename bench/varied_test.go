package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// TestVariedLog: the log built from a synthetic corpus holds at least 1,000
// distinct queries in every band, the same for the same seed; its phrases
// are adjacent words of a notice, its cold-read queries are not in it.
func TestVariedLog(t *testing.T) {
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
