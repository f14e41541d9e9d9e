package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
)

// nearestStats compares the engine's approximate nearest-neighbour index
// (search.RecordReader.NearestRecords, what semantic search reads) with the
// exact scan (semantic.Index, the reference) on the loaded corpus: top-10
// latency of each and their overlap@10, over queries made of words of the
// corpus's texts (as the log's semantic band).
type nearestStats struct {
	Queries   int     `json:"queries"`
	Vectors   int     `json:"vectors"`
	ExactP50  float64 `json:"exact_p50_ms"`
	ExactP95  float64 `json:"exact_p95_ms"`
	ApproxP50 float64 `json:"approx_p50_ms"`
	ApproxP95 float64 `json:"approx_p95_ms"`
	Overlap10 float64 `json:"overlap_at_10"`
	// TiedOverlap10 counts an approximate hit as found when its exact
	// similarity ties the exact 10th (the synthetic corpus holds many
	// notices with the same words, so the same vector: the exact scan
	// breaks their ties by id, the graph returns another of them).
	TiedOverlap10 float64 `json:"tied_overlap_at_10"`
	// The same queries as semantic search asks them: the semantic.Candidates
	// nearest (the graph search then keeps that many candidates, not
	// search.NearCandidates), of which the first 10 are compared.
	ServiceP50           float64 `json:"service_p50_ms"`
	ServiceP95           float64 `json:"service_p95_ms"`
	ServiceOverlap10     float64 `json:"service_overlap_at_10"`
	ServiceTiedOverlap10 float64 `json:"service_tied_overlap_at_10"`
	Err                  string  `json:"error,omitempty"`
}

// nearestQueries is how many queries measureNearest sends.
const nearestQueries = 200

func measureNearest(ctx context.Context, rs search.Records, notices []record.Notice) nearestStats {
	var st nearestStats
	m, err := semantic.Default()
	if err != nil {
		st.Err = err.Error()
		return st
	}
	var x semantic.Index
	if err := x.Sync(ctx, rs, m.Dims, true, time.Now()); err != nil {
		st.Err = err.Error()
		return st
	}
	st.Vectors = x.Len()
	var exact, approx, service []time.Duration
	var overlap, tied, sOverlap, sTied float64
	for i := 0; i < len(notices) && st.Queries < nearestQueries; i += max(1, len(notices)/nearestQueries) {
		ws := benchWords(notices[i].Title)
		if len(ws) < 2 {
			continue
		}
		vec, ok := m.Embed(strings.Join(ws[:min(3, len(ws))], " "))
		if !ok {
			continue
		}
		t := time.Now()
		want := x.Nearest(vec, 10, semantic.MinSimilarity)
		exact = append(exact, time.Since(t))
		deep := x.Nearest(vec, nearestTieDepth, semantic.MinSimilarity) // the exact similarities of the ties
		ask := func(k int, took *[]time.Duration, overlap, tied *float64) error {
			t := time.Now()
			got, err := rs.NearestRecords(ctx, search.NearQuery{Kind: semantic.NoticeVectorKind.Name, Vector: vec, K: k, MinScore: semantic.MinSimilarity})
			*took = append(*took, time.Since(t))
			if err != nil {
				return err
			}
			got = got[:min(len(got), 10)]
			o, ti := nearOverlap(want, deep, got)
			*overlap += o
			*tied += ti
			return nil
		}
		if err := ask(10, &approx, &overlap, &tied); err != nil {
			st.Err = err.Error()
			return st
		}
		if err := ask(semantic.Candidates, &service, &sOverlap, &sTied); err != nil {
			st.Err = err.Error()
			return st
		}
		st.Queries++
	}
	if st.Queries == 0 {
		st.Err = "no query embeds"
		return st
	}
	msf := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	e50, e95, _ := pcts(exact)
	a50, a95, _ := pcts(approx)
	s50, s95, _ := pcts(service)
	st.ExactP50, st.ExactP95, st.ApproxP50, st.ApproxP95 = msf(e50), msf(e95), msf(a50), msf(a95)
	st.ServiceP50, st.ServiceP95 = msf(s50), msf(s95)
	st.Overlap10 = overlap / float64(st.Queries)
	st.TiedOverlap10 = tied / float64(st.Queries)
	st.ServiceOverlap10 = sOverlap / float64(st.Queries)
	st.ServiceTiedOverlap10 = sTied / float64(st.Queries)
	return st
}

// nearOverlap is the share of the exact top 10 (want) that got holds, by
// id (search.Overlap) and with ties counted (tiedFound); 1 when want is
// empty.
func nearOverlap(want, deep []semantic.Scored, got []search.Near) (byID, tied float64) {
	if len(want) == 0 {
		return 1, 1
	}
	ws := make([]search.Near, len(want))
	for i, w := range want {
		ws[i] = search.Near{ID: w.ID, Score: w.Score}
	}
	return search.Overlap(got, ws), float64(tiedFound(want, deep, got)) / float64(len(want))
}

// nearestTieDepth is how deep the exact scan is read for the similarities
// of the approximate hits that tie its 10th.
const nearestTieDepth = 200

// tiedFound is how many of the approximate hits got are among the exact
// top len(want) once ties are counted: a hit is found when its exact
// similarity (read from deep, the exact scan's longer list) is at least
// the exact len(want)-th's, less a float rounding. At most len(want).
func tiedFound(want, deep []semantic.Scored, got []search.Near) int {
	if len(want) == 0 {
		return 0
	}
	kth := want[len(want)-1].Score - 1e-6
	sim := make(map[string]float32, len(deep))
	for _, d := range deep {
		sim[d.ID] = d.Score
	}
	n := 0
	for _, g := range got {
		if s, ok := sim[g.ID]; ok && s >= kth {
			n++
		}
	}
	return min(n, len(want))
}

// renderNearest is the report's nearest-neighbour table.
func renderNearest(systems []*system) string {
	var b strings.Builder
	any := false
	for _, s := range systems {
		if s.Index.Nearest != nil {
			any = true
		}
	}
	if !any {
		return ""
	}
	b.WriteString("## Nearest neighbours: exact scan vs the engine's approximate index\n\n")
	fmt.Fprintf(&b, "Top 10 of the notice vectors for queries made of words of the corpus's titles, measured in the loading process after its last write: "+
		"the exact scan (semantic.Index, a dot product with every vector, in process) against the engine's index (NearestRecords: embedded, an HNSW graph; "+
		"OpenSearch, the k-NN plugin's Lucene HNSW in the cluster, over HTTP). Overlap@10: the share of the exact top 10 the index returns; ties counted: a returned vector whose exact similarity equals the exact 10th's counts as found (the synthetic corpus holds many notices with the same words, hence the same vector, and the exact scan breaks their ties by id). "+
		"Each query is asked twice of the index: for its top 10 (the graph search keeps %d candidates, `search.NearCandidates`), and as semantic search asks it, for the %d nearest (`semantic.Candidates`; the search then keeps that many), of which the first 10 are compared.\n\n", search.NearCandidates, semantic.Candidates)
	b.WriteString("| engine | vectors | queries | exact p50 / p95 (ms) | top 10: p50 / p95 (ms) | overlap@10 | ties counted | as the service asks: p50 / p95 (ms) | overlap@10 | ties counted |\n|---|---:|---:|---|---|---:|---:|---|---:|---:|\n")
	for _, s := range systems {
		n := s.Index.Nearest
		if n == nil {
			continue
		}
		if n.Err != "" {
			fmt.Fprintf(&b, "| %s | – | – | – | – | not measured: %s | – | – | – | – |\n", s.Name, n.Err)
			continue
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %.2f / %.2f | %.2f / %.2f | %.3f | %.3f | %.2f / %.2f | %.3f | %.3f |\n", s.Name, n.Vectors, n.Queries, n.ExactP50, n.ExactP95,
			n.ApproxP50, n.ApproxP95, n.Overlap10, n.TiedOverlap10, n.ServiceP50, n.ServiceP95, n.ServiceOverlap10, n.ServiceTiedOverlap10)
	}
	b.WriteString("\n")
	return b.String()
}

// childOursNearest measures nearestStats on a loaded index (role
// ours-nearest, after ours-index, so the loading figures leave it out).
func childOursNearest(args []string) error {
	fl := flag.NewFlagSet("ours-nearest", flag.ContinueOnError)
	corpus := fl.String("corpus", "", "corpus file")
	data := fl.String("data", "", "data directory")
	var ef engineFlags
	ef.register(fl)
	if err := fl.Parse(args); err != nil {
		return err
	}
	ctx := context.Background()
	var sample []record.Notice // every 50th notice
	seen := 0
	errEnough := errors.New("enough")
	err := readCorpus(*corpus, 1000, func(ns []record.Notice) error {
		for _, n := range ns {
			if seen%50 == 0 {
				sample = append(sample, n)
			}
			seen++
		}
		if len(sample) >= 20*nearestQueries {
			return errEnough
		}
		return nil
	})
	if err != nil && !errors.Is(err, errEnough) {
		return err
	}
	be, err := ef.open(ctx, *data)
	if err != nil {
		return err
	}
	st := measureNearest(ctx, be, sample)
	if err := be.Close(); err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(st)
}

// runNearest runs the ours-nearest child for s (its errors are the table's).
func runNearest(s *system, args ...string) {
	var st nearestStats
	err := func() error {
		c, err := startChild("ours-nearest", args...)
		if err != nil {
			return err
		}
		var last string
		for line := range c.lines {
			last = line
		}
		if err := c.stop(); err != nil {
			return err
		}
		return jsonUnmarshalString(last, &st)
	}()
	if err != nil {
		st.Err = err.Error()
	}
	s.Index.Nearest = &st
	logf("%s: nearest neighbours over %d vectors: exact p50 %.2f ms, approximate p50 %.2f ms, overlap@10 %.3f (ties counted %.3f) %s", s.Name, st.Vectors,
		st.ExactP50, st.ApproxP50, st.Overlap10, st.TiedOverlap10, st.Err)
}
