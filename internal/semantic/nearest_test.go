package semantic_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
)

// TestEngineNearestAgreesWithExactScan: the engine's approximate index
// (what Search reads) and the exact scan (Index, the reference) agree on
// at least 95% of the top 10 over the judged queries, and on the top
// Candidates too, with the same similarities.
func TestEngineNearestAgreesWithExactScan(t *testing.T) {
	s, be := service(t)
	ctx := context.Background()
	if err := s.Index.Sync(ctx, be, s.Model.Dims, true, time.Now()); err != nil {
		t.Fatal(err)
	}
	j, err := semantic.LoadJudged(filepath.Join(root, semantic.JudgedFile))
	if err != nil {
		t.Fatal(err)
	}
	var sum10, sumAll float64
	n := 0
	for _, q := range j.Queries {
		vec, ok := s.Model.Embed(q.Q)
		if !ok {
			continue
		}
		for _, k := range []int{10, semantic.Candidates} {
			exact := s.Index.Nearest(vec, k, semantic.MinSimilarity)
			approx, err := be.NearestRecords(ctx, search.NearQuery{Kind: semantic.NoticeVectorKind.Name, Vector: vec, K: k, MinScore: semantic.MinSimilarity})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]float32{}
			for _, a := range approx {
				got[a.ID] = a.Score
			}
			same := 0
			for _, e := range exact {
				if sc, ok := got[e.ID]; ok {
					same++
					if d := sc - e.Score; d > 0.02 || d < -0.02 {
						t.Errorf("%q: %s scores %.4f in the engine, %.4f exactly", q.Q, e.ID, sc, e.Score)
					}
				}
			}
			o := 1.0
			if len(exact) > 0 {
				o = float64(same) / float64(len(exact))
			}
			if k == 10 {
				sum10 += o
				n++
			} else {
				sumAll += o
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d judged queries embed", n)
	}
	at10, atAll := sum10/float64(n), sumAll/float64(n)
	t.Logf("overlap@10 %.4f, overlap@%d %.4f over %d queries", at10, semantic.Candidates, atAll, n)
	if at10 < 0.95 || atAll < 0.95 {
		t.Fatalf("overlap@10 %.4f, overlap@%d %.4f: want at least 0.95", at10, semantic.Candidates, atAll)
	}
}
