package opensearch

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
)

// TestNearestRecordsRequest: a nearest-neighbour search is one k-NN query
// on the records' knn_vector field, filtered to the kind inside the search,
// with the similarity floor as the plugin's score ((1+cosine)/2); the
// answer's scores are read back as cosines, best first, ids without the
// kind.
func TestNearestRecordsRequest(t *testing.T) {
	b, f := openFake(t, Config{})
	var got map[string]any
	f.search = func(index string, body map[string]any) (int, string) {
		got = body
		return 200, `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":2,"relation":"eq"},"max_score":0.95,"hits":[
{"_index":"recordwatch-records.v2","_id":"derived.notice_vector:20240101001","_score":0.8},
{"_index":"recordwatch-records.v2","_id":"derived.notice_vector:20240101002","_score":0.95}]}}`
	}
	v := make([]float32, search.VectorDims)
	v[0] = 1
	res, err := b.NearestRecords(context.Background(), search.NearQuery{Kind: "derived.notice_vector", Vector: v, K: 5, MinScore: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 2 || res[0].ID != "20240101002" || res[1].ID != "20240101001" || res[0].Score < 0.899 || res[0].Score > 0.901 || res[1].Score < 0.599 || res[1].Score > 0.601 {
		t.Fatalf("nearest: %+v", res)
	}
	knn := got["query"].(map[string]any)["knn"].(map[string]any)["vector"].(map[string]any)
	filter, _ := json.Marshal(knn["filter"])
	if knn["k"] != json.Number(fmt.Sprint(search.NearCandidates)) || got["size"] != json.Number("5") || string(filter) != `{"term":{"kind":"derived.notice_vector"}}` || len(knn["vector"].([]any)) != search.VectorDims {
		t.Fatalf("k-NN query: %v", knn)
	}
	if ms, _ := got["min_score"].(json.Number).Float64(); ms < 0.6499 || ms > 0.6501 {
		t.Fatalf("min_score %v, want (1+0.3)/2", got["min_score"])
	}
	if _, err := b.NearestRecords(context.Background(), search.NearQuery{Kind: "derived.notice_vector", Vector: v[:3], K: 5}); err == nil {
		t.Fatal("a short vector was sent")
	}
}

// TestNearestRecordsFilterRequest: a filtered nearest-neighbour search
// sends the record query's filter (kind, keys, sources, dates, amounts) as
// the k-NN query's own filter, not as a filter of its hits.
func TestNearestRecordsFilterRequest(t *testing.T) {
	b, f := openFake(t, Config{})
	var got map[string]any
	f.search = func(index string, body map[string]any) (int, string) {
		got = body
		return 200, `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":0,"relation":"eq"},"max_score":null,"hits":[]}}`
	}
	v := make([]float32, search.VectorDims)
	v[0] = 1
	min := 1000.0
	q := search.NearQuery{Kind: "derived.notice_vector", Vector: v, K: 10, Filter: search.RecordQuery{
		Sources: []string{"crol"}, Keys: map[string][]string{"agency_id": {"parks"}, "lenses": {"money", "land"}},
		From: time.Date(2025, 1, 1, 5, 0, 0, 0, time.UTC), MinAmount: &min,
	}}
	if _, err := b.NearestRecords(context.Background(), q); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["post_filter"]; ok {
		t.Fatalf("the filter is a post filter: %v", got)
	}
	if q := got["query"].(map[string]any); len(q) != 1 {
		t.Fatalf("the query is more than the k-NN query: %v", q)
	}
	knn := got["query"].(map[string]any)["knn"].(map[string]any)["vector"].(map[string]any)
	filter, _ := json.Marshal(knn["filter"])
	want := `{"bool":{"filter":[{"terms":{"kind":["derived.notice_vector"]}},{"terms":{"source":["crol"]}},{"terms":{"keys.agency_id":["parks"]}},{"terms":{"keys.lenses":["money","land"]}},` +
		`{"range":{"date":{"gte":"2025-01-01T05:00:00.000Z"}}},{"exists":{"field":"valid_amount"}},{"range":{"valid_amount":{"gte":1000}}}],"must":[{"match_all":{}}]}}`
	if string(filter) != want {
		t.Fatalf("k-NN filter\n%s\nwant\n%s", filter, want)
	}
}
