package semantic

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Index holds the notice vectors the engine stores, in memory, for exact
// nearest-neighbour search (a dot product with every vector: 1,158 bundled
// notices take microseconds; see BenchmarkNearest for larger sets). Search
// asks the engine's approximate index (search.RecordReader.NearestRecords);
// this exact scan is the reference it is tested against, and what Backfill
// reads to find the notices without a vector. It is
// rebuilt from the engine's NoticeVectorKind records whenever their count
// or last date differs from what it holds, and whenever forced (Sync), so vectors written
// by another process (an indexer role on a shared cluster) are read too.
type Index struct {
	mu      sync.RWMutex
	dims    int
	ids     []string
	vecs    []int8
	scales  []float32
	held    signature
	checked time.Time
	loading sync.Mutex
}

// signature is what the engine says of the vectors it holds.
type signature struct {
	count int
	last  time.Time
}

// SyncEvery bounds how often Sync asks the engine whether vectors changed.
const SyncEvery = 2 * time.Second

// Scored is one nearest vector.
type Scored struct {
	ID    string
	Score float32
}

// Len is the number of vectors held.
func (x *Index) Len() int {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return len(x.ids)
}

// Sync makes the index hold the vectors the engine holds: it asks the
// engine for their count and last date (at most every SyncEvery) and reads
// them all again when either differs, or always when force.
func (x *Index) Sync(ctx context.Context, rs search.Records, dims int, force bool, now time.Time) error {
	x.loading.Lock()
	defer x.loading.Unlock()
	x.mu.RLock()
	fresh := !force && now.Sub(x.checked) < SyncEvery && x.dims == dims
	x.mu.RUnlock()
	if fresh {
		return nil
	}
	t, err := search.TotalsOf(ctx, rs, NoticeVectorKind, search.RecordQuery{Keys: vectorKeys()}, nil, 0)
	if err != nil {
		return err
	}
	sig := signature{count: t.Count, last: t.Last}
	x.mu.RLock()
	same := !force && sig == x.held && x.dims == dims
	x.mu.RUnlock()
	if same {
		x.mu.Lock()
		x.checked = now
		x.mu.Unlock()
		return nil
	}
	ids := make([]string, 0, sig.count)
	vecs := make([]int8, 0, sig.count*dims)
	scales := make([]float32, 0, sig.count)
	q := search.RecordQuery{Keys: vectorKeys(), Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
	for {
		p, err := search.Find(ctx, rs, NoticeVectorKind, q)
		if err != nil {
			return err
		}
		for _, v := range p.Items {
			if len(v.Vector) != dims {
				continue // another layout: rebuilt by Backfill
			}
			ids = append(ids, v.RequestID)
			for _, b := range v.Vector {
				vecs = append(vecs, int8(b))
			}
			scales = append(scales, v.Scale)
		}
		if p.NextCursor == "" || len(p.Items) == 0 {
			break
		}
		q.Cursor = p.NextCursor
	}
	x.mu.Lock()
	x.dims, x.ids, x.vecs, x.scales, x.held, x.checked = dims, ids, vecs, scales, sig, now
	x.mu.Unlock()
	return nil
}

// Has reports the ids the index holds a vector for.
func (x *Index) Has() map[string]bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	out := make(map[string]bool, len(x.ids))
	for _, id := range x.ids {
		out[id] = true
	}
	return out
}

// Nearest is the k vectors most similar to q (cosine: every vector is of
// unit length) with a similarity of at least min, best first, ties by id.
func (x *Index) Nearest(q []float32, k int, minScore float32) []Scored {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if len(q) != x.dims || k <= 0 {
		return nil
	}
	best := make([]Scored, 0, k+1)
	worst := minScore
	for i, id := range x.ids {
		row := x.vecs[i*x.dims : (i+1)*x.dims]
		var dot float32
		for d, v := range row {
			dot += q[d] * float32(v)
		}
		s := dot * x.scales[i]
		if s < worst {
			continue
		}
		best = append(best, Scored{ID: id, Score: s})
		if len(best) > 2*k {
			best = topK(best, k)
			worst = max(minScore, best[len(best)-1].Score)
		}
	}
	return topK(best, k)
}

func topK(s []Scored, k int) []Scored {
	slices.SortFunc(s, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	if len(s) > k {
		s = s[:k]
	}
	return s
}
