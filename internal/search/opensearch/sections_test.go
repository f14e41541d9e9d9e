package opensearch

import (
	"context"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A sections aggregation answer as OpenSearch 2.x gives it: two sources,
// one section without dates, notices without a section under "".
const sectionsAnswer = `{"took":3,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":10,"relation":"eq"},"max_score":null,"hits":[]},
"aggregations":{"sources":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
 {"key":"crol","doc_count":9,"sections":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":"Procurement","doc_count":6,"first":{"value":1412654400000.0,"value_as_string":"2014-10-07T04:00:00.000Z"},"dated":{"last":{"value":1782964800000.0,"value_as_string":"2026-07-02T04:00:00.000Z"}}},
  {"key":"","doc_count":2,"first":{"value":1782878400000.0,"value_as_string":"2026-07-01T04:00:00.000Z"},"dated":{"last":{"value":1782878400000.0,"value_as_string":"2026-07-01T04:00:00.000Z"}}},
  {"key":"Agency Rules","doc_count":1,"first":{"value":null},"dated":{"last":{"value":null}}}]}},
 {"key":"checkbook","doc_count":1,"sections":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":"Contracts","doc_count":1,"first":{"value":1704085200000.0,"value_as_string":"2024-01-01T05:00:00.000Z"},"dated":{"last":{"value":1704085200000.0,"value_as_string":"2024-01-01T05:00:00.000Z"}}}]}}
]}}}`

// goldenNow is the day the request goldens were written: a request holds
// its day's future cutoff (record.FutureCutoff), so a golden taken on
// another day would differ.
func goldenNow() time.Time { return time.Date(2026, 12, 6, 12, 0, 0, 0, record.NewYork) }

func TestSectionsRequestAndParse(t *testing.T) {
	b, f := openFake(t, Config{Now: goldenNow})
	f.search = func(index string, body map[string]any) (int, string) { return 200, sectionsAnswer }
	got, err := b.Sections(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "sections", f.requests())
	want := []search.SectionCoverage{
		{Source: "checkbook", Section: "Contracts", Records: 1, FirstSourceDate: "2024-01-01", LastSourceDate: "2024-01-01"},
		{Source: "crol", Section: "", Records: 2, FirstSourceDate: "2026-07-01", LastSourceDate: "2026-07-01"},
		{Source: "crol", Section: "Agency Rules", Records: 1},
		{Source: "crol", Section: "Procurement", Records: 6, FirstSourceDate: "2014-10-07", LastSourceDate: "2026-07-02"},
	}
	if len(got) != len(want) {
		t.Fatalf("sections = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sections[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	// an empty index has no aggregation buckets
	f.search = func(index string, body map[string]any) (int, string) { return 200, emptyHits }
	if got, err := b.Sections(context.Background()); err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty index: %+v %v", got, err)
	}
	// a failed shard is unavailable, not zero
	f.search = func(index string, body map[string]any) (int, string) {
		return 200, `{"took":1,"timed_out":false,"_shards":{"total":2,"successful":1,"skipped":0,"failed":1,"failures":[{"shard":1,"index":"recordwatch-notices.v1","reason":{"type":"x","reason":"y"}}]},"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}`
	}
	if _, err := b.Sections(context.Background()); code(err) != "unavailable" {
		t.Errorf("partial answer: %v", err)
	}
}
