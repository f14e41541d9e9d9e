package opensearch

import (
	"context"
	"strings"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Record vectors are the knn_vector field "vector" of the records index
// (mappings/records.v2.json: the k-NN plugin's HNSW on the Lucene engine,
// cosine similarity), so nearest-neighbour search runs in the cluster and
// scales out with its nodes. The plugin scores a cosine c as (1+c)/2.

// nearBody is the _search body of a nearest-neighbour query: the k nearest
// vectors of the records of q's kind that q's filter matches, none under
// q's similarity. The kind and the filter (the bool query of record
// searches, recordFilter) are the k-NN query's own filter: the plugin's
// efficient filtering, which the Lucene engine of the mapping supports
// (OpenSearch 2.4 on; Faiss from 2.9), applies it during the graph search
// (or scans the matches exactly when they are few), so k are found among
// the matches instead of k found and then filtered.
//
// The graph search keeps search.NearCandidates candidates (the k-NN query's k;
// the Lucene engine's ef_search is k) and the answer is the best q.K of
// them: with k = q.K = 10 the graph walk misses a quarter of the exact
// top 10 at 100,000 vectors (overlap@10 0.736 in the benchmark).
func nearBody(q search.NearQuery) obj {
	filter := obj{"term": obj{"kind": q.Kind}}
	if q.Filtered() {
		f := q.RecordFilter()
		f.Normalize() // checked by q.Check
		filter = recordFilter(f)
	}
	return obj{
		"size":      q.K,
		"_source":   false,
		"min_score": (1 + float64(q.MinScore)) / 2,
		"query": obj{"knn": obj{"vector": obj{
			"vector": q.Vector,
			"k":      max(q.K, search.NearCandidates),
			"filter": filter,
		}}},
	}
}

// NearestRecords asks the cluster for the records of one kind nearest q's
// vector (search.RecordReader).
func (b *Backend) NearestRecords(ctx context.Context, q search.NearQuery) ([]search.Near, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	res, err := b.search(ctx, "nearest records", b.records(), nearBody(q))
	if err != nil {
		return nil, err
	}
	prefix := search.RecordDocID(q.Kind, "")
	out := make([]search.Near, 0, len(res.Hits.Hits))
	for _, h := range res.Hits.Hits {
		if h.Score == nil || !strings.HasPrefix(h.ID, prefix) {
			continue
		}
		out = append(out, search.Near{ID: strings.TrimPrefix(h.ID, prefix), Score: float32(2**h.Score - 1)})
	}
	search.SortNear(out)
	return out, nil
}
