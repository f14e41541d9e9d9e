package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/mappings"
)

func day(y, m, d int) time.Time { return time.Date(y, time.Month(m), d, 0, 0, 0, 0, record.NewYork) }

func notice(id string, start time.Time) record.Notice {
	return record.Notice{
		RequestID: id, Source: record.SourceCROL, Section: record.SectionProcurement,
		Lens: record.LensMoney, Lenses: []string{record.LensMoney}, NoticeType: "Award",
		AgencyRaw: "Transportation", AgencyID: "dot", AgencyName: "Department of Transportation",
		Title: "Bridge painting " + id, StartDate: start, Amount: 1250000, AmountValid: true,
		VendorName: "Acme Painting LLC", VendorStem: "acme painting", Text: "Painting of the East River bridges.",
		Body: "<p>Painting of the East River bridges.</p>", OfficialURL: record.OfficialURL(id), OpenDataURL: record.OpenDataURL(id),
	}
}

func doc(n record.Notice, passages int) search.Doc {
	d := search.Doc{Notice: n}
	for i := 1; i <= passages; i++ {
		d.Passages = append(d.Passages, record.Passage{
			ID: n.RequestID + "#p" + itoa(i), RequestID: n.RequestID, Seq: i, Start: (i - 1) * 10, End: i * 10,
			Text: "passage " + itoa(i) + " of " + n.RequestID, Source: n.Source, Section: n.Section, Lenses: n.Lenses,
			AgencyID: n.AgencyID, Title: n.Title, StartDate: n.StartDate, SourceURL: n.OfficialURL,
		})
	}
	return d
}

func itoa(i int) string { return strconv.Itoa(i) }

// openFake opens a backend on a fresh fake cluster and forgets the
// requests Open made.
func openFake(t *testing.T, cfg Config) (*Backend, *fakeCluster) {
	t.Helper()
	f := newFake(t)
	cfg.URL = f.srv.URL
	cfg.DisableRetry = true
	b, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close() })
	f.requests()
	return b, f
}

func code(err error) string {
	if err == nil {
		return "<nil>"
	}
	return record.ErrorCode(err)
}

func TestOpenCreatesIndexesBehindAliases(t *testing.T) {
	f := newFake(t)
	var logs bytes.Buffer
	b, err := Open(context.Background(), Config{URL: f.srv.URL, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	checkGolden(t, "open_fresh", f.requests())
	for _, kind := range mappings.Kinds {
		alias := "recordwatch-" + kind
		want := fmt.Sprintf("%s.v%d", alias, mappings.Version(kind))
		if got := f.aliases[alias]; !slices.Equal(got, []string{want}) {
			t.Errorf("alias %s → %v, want %s", alias, got, want)
		}
	}
	if !strings.Contains(logs.String(), "created index") {
		t.Errorf("log = %q, want a line per created index", logs.String())
	}

	// a second Open finds everything in place: one alias lookup per kind
	b2, err := Open(context.Background(), Config{URL: f.srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	defer b2.Close()
	checkGolden(t, "open_existing", f.requests())
}

func TestOpenMigratesAnOlderVersion(t *testing.T) {
	f := newFake(t)
	// notices are on an older mapping (v0 stands for "the version before")
	f.indexes["recordwatch-notices.v0"] = map[string]json.RawMessage{
		"A": json.RawMessage(`{"request_id":"A","source":"crol"}`),
		"B": json.RawMessage(`{"request_id":"B","source":"crol"}`),
	}
	f.aliases["recordwatch-notices"] = []string{"recordwatch-notices.v0"}
	var logs bytes.Buffer
	b, err := Open(context.Background(), Config{URL: f.srv.URL, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	reqs := f.requests()
	checkGolden(t, "open_migrate", reqs)
	current := fmt.Sprintf("recordwatch-notices.v%d", mappings.NoticesVersion)
	if got := f.aliases["recordwatch-notices"]; !slices.Equal(got, []string{current}) {
		t.Errorf("alias → %v, want the new version only", got)
	}
	if _, ok := f.indexes["recordwatch-notices.v0"]; !ok {
		t.Error("the old index was removed; it must be kept until removed by hand")
	}
	if n := len(f.indexes[current]); n != 2 {
		t.Errorf("reindexed %d documents, want 2", n)
	}
	if !strings.Contains(logs.String(), "removed by hand") || !strings.Contains(logs.String(), "recordwatch-notices.v0") {
		t.Errorf("log = %q, want a notice that the old index can be removed by hand", logs.String())
	}
	// the alias moved in one atomic call: remove and add together
	for _, ex := range reqs {
		if ex.Path == "/_aliases" && strings.Contains(string(ex.raw), "recordwatch-notices.v0") {
			if !strings.Contains(string(ex.raw), `"remove"`) || !strings.Contains(string(ex.raw), `"add"`) {
				t.Errorf("alias swap is not atomic: %s", ex.raw)
			}
		}
	}
}

func TestOpenRefusesIndexesItDoesNotOwn(t *testing.T) {
	for name, target := range map[string]string{
		"newer":   "recordwatch-notices.v9",
		"foreign": "some-other-index",
	} {
		t.Run(name, func(t *testing.T) {
			f := newFake(t)
			f.indexes[target] = map[string]json.RawMessage{}
			f.aliases["recordwatch-notices"] = []string{target}
			_, err := Open(context.Background(), Config{URL: f.srv.URL})
			if err == nil || !strings.Contains(err.Error(), target) {
				t.Fatalf("Open = %v, want an error naming %s", err, target)
			}
		})
	}
}

func TestOpenValidatesConfig(t *testing.T) {
	for _, cfg := range []Config{
		{URL: ""},
		{URL: "http://127.0.0.1:1", IndexPrefix: "Bad Prefix"},
		{URL: "http://127.0.0.1:1", IndexPrefix: "_leading"},
	} {
		if _, err := Open(context.Background(), cfg); code(err) != record.EINVALID {
			t.Errorf("Open(%+v) = %v, want EINVALID", cfg, err)
		}
	}
	b, f := openFake(t, Config{IndexPrefix: "rw-test"})
	if b.Alias(mappings.Notices) != "rw-test-notices" || b.IndexName(mappings.Passages, 1) != "rw-test-passages.v1" {
		t.Errorf("names: %s %s", b.Alias(mappings.Notices), b.IndexName(mappings.Passages, 1))
	}
	if _, ok := f.aliases["rw-test-meta"]; !ok {
		t.Errorf("aliases = %v, want rw-test-*", f.aliases)
	}
}

func TestOpenUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = Open(ctx, Config{URL: "http://" + addr, DisableRetry: true})
	if code(err) != record.EUNAVAILABLE {
		t.Fatalf("Open = %v, want EUNAVAILABLE", err)
	}
}

func TestUpsertWritesOneBulkAndDropsStalePassages(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	a, c := notice("A", day(2024, 3, 5)), notice("C", day(2024, 4, 1))
	if err := b.Upsert(ctx, []search.Doc{doc(a, 3), doc(c, 1)}); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	checkGolden(t, "upsert", reqs)
	if len(reqs) != 2 || !strings.HasSuffix(reqs[0].Path, "/_mget") || reqs[1].Path != "/_bulk" {
		t.Fatalf("want one mget and one bulk, got %d requests", len(reqs))
	}
	if reqs[1].ContentType != "application/x-ndjson" || reqs[1].Query != "refresh=false&require_alias=true" {
		t.Errorf("bulk content type %q, query %q", reqs[1].ContentType, reqs[1].Query)
	}
	if got := sortedKeys(f.docs("recordwatch-passages")); !slices.Equal(got, []string{"A#p1", "A#p2", "A#p3", "C#p1"}) {
		t.Errorf("passages = %v", got)
	}
	var stored map[string]any
	_ = json.Unmarshal(f.docs("recordwatch-notices")["A"], &stored)
	if stored["year"] != "2024" || !strings.Contains(stored["content"].(string), "Department of Transportation") ||
		len(stored["passage_ids"].([]any)) != 3 {
		t.Errorf("engine fields: year %v, content %v, passage_ids %v", stored["year"], stored["content"], stored["passage_ids"])
	}

	// re-split: A now has one passage; A#p2 and A#p3 go in the same bulk
	if err := b.Upsert(ctx, []search.Doc{doc(a, 1)}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "upsert_resplit", f.requests())
	if got := sortedKeys(f.docs("recordwatch-passages")); !slices.Equal(got, []string{"A#p1", "C#p1"}) {
		t.Errorf("after re-split, passages = %v", got)
	}

	// the same notice twice in one batch: the last version wins, no strays
	if err := b.Upsert(ctx, []search.Doc{doc(c, 3), doc(c, 2)}); err != nil {
		t.Fatal(err)
	}
	f.requests()
	if got := sortedKeys(f.docs("recordwatch-passages")); !slices.Equal(got, []string{"A#p1", "C#p1", "C#p2"}) {
		t.Errorf("after a repeated notice, passages = %v", got)
	}
}

func TestUpsertRejectsDocsWithoutIDs(t *testing.T) {
	b, f := openFake(t, Config{})
	err := b.Upsert(context.Background(), []search.Doc{{Notice: record.Notice{Title: "x"}}})
	if code(err) != record.EINVALID {
		t.Fatalf("Upsert = %v, want EINVALID", err)
	}
	d := doc(notice("A", day(2024, 1, 1)), 1)
	d.Passages[0].ID = ""
	if err := b.Upsert(context.Background(), []search.Doc{d}); code(err) != record.EINVALID {
		t.Fatalf("Upsert = %v, want EINVALID", err)
	}
	if err := b.Upsert(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid or empty upserts", n)
	}
}

func TestUpsertReportsBulkItemErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		item string
		code string
		want string
	}{
		"mapping": {
			item: `{"index":{"_index":"recordwatch-notices.v1","_id":"A","status":400,"error":{"type":"strict_dynamic_mapping_exception","reason":"mapping set to strict, dynamic introduction of [frob] within [_doc] is not allowed"}}}`,
			code: record.EINTERNAL, want: "strict_dynamic_mapping_exception",
		},
		"rejected": {
			item: `{"index":{"_index":"recordwatch-notices.v1","_id":"A","status":429,"error":{"type":"es_rejected_execution_exception","reason":"rejected execution of coordinating operation"}}}`,
			code: record.EUNAVAILABLE, want: "es_rejected_execution_exception",
		},
	} {
		t.Run(name, func(t *testing.T) {
			b, f := openFake(t, Config{})
			f.fault = func(r *http.Request) (int, string, bool) {
				if r.URL.Path != "/_bulk" {
					return 0, "", false
				}
				return 200, `{"took":3,"errors":true,"items":[` +
					`{"index":{"_index":"recordwatch-passages.v1","_id":"A#p1","_version":1,"result":"created","status":201}},` +
					tc.item + `]}`, true
			}
			err := b.Upsert(context.Background(), []search.Doc{doc(notice("A", day(2024, 1, 1)), 1)})
			for _, ex := range f.requests() {
				if verr := validateResponse(ex); verr != nil {
					t.Errorf("canned answer to %s %s: %v", ex.Method, ex.Path, verr)
				}
			}
			if code(err) != tc.code || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "1 of 2") {
				t.Fatalf("Upsert = %v (code %s), want %s mentioning %s", err, code(err), tc.code, tc.want)
			}
		})
	}
}

func TestDeleteRemovesNoticesAndPassages(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	if err := b.Upsert(ctx, []search.Doc{doc(notice("A", day(2024, 3, 5)), 2), doc(notice("C", day(2024, 4, 1)), 1)}); err != nil {
		t.Fatal(err)
	}
	f.requests()
	if err := b.Delete(ctx, []string{"A", "Z"}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "delete", f.requests())
	if got := sortedKeys(f.docs("recordwatch-notices")); !slices.Equal(got, []string{"C"}) {
		t.Errorf("notices = %v", got)
	}
	if got := sortedKeys(f.docs("recordwatch-passages")); !slices.Equal(got, []string{"C#p1"}) {
		t.Errorf("passages = %v", got)
	}
}

func TestObserveRefreshAndCoverage(t *testing.T) {
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	b, f := openFake(t, Config{Now: func() time.Time { return now }})
	ctx := context.Background()
	observed := time.Date(2025, 6, 1, 6, 30, 0, 0, record.NewYork)
	if err := b.Observe(ctx, search.Observation{Source: "crol", Label: "City Record Online", RecordType: "notice", ObservedAt: observed}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "observe", f.requests())

	late := time.Date(2024, 3, 5, 23, 30, 0, 0, record.NewYork) // 04:30 UTC the next day
	other := notice("X", time.Time{})
	other.Source = "checkbook"
	if err := b.Upsert(ctx, []search.Doc{doc(notice("A", day(2023, 7, 1)), 2), doc(notice("B", late), 1), doc(other, 0)}); err != nil {
		t.Fatal(err)
	}
	f.requests()
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "refresh", f.requests())

	cov, err := b.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "coverage", f.requests())
	want := []record.SourceCoverage{
		{Source: "checkbook", RecordType: "notice", Records: 1},
		{Source: "crol", Label: "City Record Online", RecordType: "notice", ObservedAt: observed,
			FirstSourceDate: "2023-07-01", LastSourceDate: "2024-03-05", Records: 2, Passages: 3},
	}
	if len(cov) != len(want) {
		t.Fatalf("coverage = %+v", cov)
	}
	for i := range want {
		if !cov[i].ObservedAt.Equal(want[i].ObservedAt) {
			t.Errorf("%s observed at %v, want %v", cov[i].Source, cov[i].ObservedAt, want[i].ObservedAt)
		}
		cov[i].ObservedAt, want[i].ObservedAt = time.Time{}, time.Time{}
		if !reflect.DeepEqual(cov[i], want[i]) {
			t.Errorf("coverage[%d] = %+v, want %+v", i, cov[i], want[i])
		}
	}

	// cached for 30 s …
	if _, err := b.Coverage(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("cached coverage sent %d requests", n)
	}
	now = now.Add(CoverageTTL + time.Second)
	if _, err := b.Coverage(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("expired coverage sent %d requests, want 3", n)
	}
	// … and dropped on a write
	if err := b.Delete(ctx, []string{"X"}); err != nil {
		t.Fatal(err)
	}
	f.requests()
	cov, err = b.Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 3 || len(cov) != 1 {
		t.Errorf("coverage after a write: %d requests, %+v", n, cov)
	}
}

// cannedSearch answers notice and passage searches with body, and leaves
// the coverage searches (size 0 and the meta index) to the fake.
func cannedSearch(f *fakeCluster, body string) {
	f.search = func(index string, req map[string]any) (int, string) {
		if index == "recordwatch-meta" || req["size"] == json.Number("0") {
			return 0, ""
		}
		return 200, body
	}
}

const emptyHits = `{"took":2,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},"hits":{"total":{"value":0,"relation":"eq"},"max_score":null,"hits":[]}}`

func f64(v float64) *float64 { return &v }

func TestSearchRequests(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	cannedSearch(f, emptyHits)
	if _, err := b.Coverage(ctx); err != nil { // warm the cache: only the searches are recorded
		t.Fatal(err)
	}
	f.requests()
	cases := map[string]search.Query{
		"keywords_facets": {Text: `bridge painting "east river" -ferry -"staten island"`, Facets: true},
		"no_keywords":     {},
		"all_filters": {
			Text: "asbestos", Lenses: []string{"money", "land"}, Sections: []string{record.SectionProcurement},
			NoticeTypes: []string{"Award"}, AgencyIDs: []string{"dot", "dep"}, VendorStems: []string{"acme painting"},
			PINs: []string{"84124B0001"}, Sources: []string{"crol"}, MinAmount: f64(1000), MaxAmount: f64(2500000.5),
			From: day(2024, 1, 1), To: day(2024, 12, 31), DueFrom: day(2024, 2, 1), DueTo: day(2024, 2, 29),
			IncludeRolling: true, EventFrom: day(2024, 3, 1), EventTo: day(2024, 3, 2), Sort: search.SortDueSoonest, Limit: 50,
		},
		"due_without_rolling": {DueFrom: day(2024, 11, 3), Sort: search.SortDueSoonest},
		"valid_amount_only":   {ValidAmountOnly: true, Sort: search.SortAmount},
		"sort_newest":         {Text: "bridge", Sort: search.SortNewest},
		"sort_oldest":         {To: day(2024, 3, 10), Sort: search.SortOldest},
		"sort_event":          {Lenses: []string{"meetings"}, Sort: search.SortEvent},
		"sort_relevance":      {Text: "bridge", Sort: search.SortRelevance, Limit: 5},
	}
	for _, name := range sortedKeys(cases) {
		t.Run(name, func(t *testing.T) {
			res, err := b.Search(ctx, cases[name])
			if err != nil {
				t.Fatal(err)
			}
			if res.Hits == nil || res.Total != 0 || res.NextCursor != "" {
				t.Errorf("empty result = %+v", res)
			}
			if res.Scope.RecordsInCorpus != 0 || res.Scope.Searched.Kind != "notices" || res.Scope.Absence == nil {
				t.Errorf("scope = %+v", res.Scope)
			}
			checkGolden(t, "search_"+name, f.requests())
		})
	}
}

// A page of two hits sorted by newest, with facets.
const twoHits = `{"took":4,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":57,"relation":"eq"},"max_score":null,"hits":[
 {"_index":"recordwatch-notices.v1","_id":"A","_score":2.5,"_source":{"request_id":"A","source":"crol","section":"Procurement","lens":"money","lenses":["money"],"title":"Bridge painting A","start_date":"2024-03-05T00:00:00-05:00","amount":1250000,"amount_valid":true,"due_rolling":false,"agency_raw":"","agency_id":"dot","agency_name":"","official_url":"","open_data_url":""},"sort":[1709614800000,"A"]},
 {"_index":"recordwatch-notices.v1","_id":"B","_score":null,"_source":{"request_id":"B","source":"crol","section":"Procurement","lens":"money","lenses":["money","land"],"title":"Bridge B","due_rolling":true,"amount_valid":false,"agency_raw":"","agency_id":"dep","agency_name":"","official_url":"","open_data_url":""},"sort":[-9223372036854775808,"B"]}
]},
"aggregations":{
 "lens":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":"money","doc_count":57},{"key":"land","doc_count":3}]},
 "agency":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":"dot","doc_count":30},{"key":"dep","doc_count":30},{"key":"","doc_count":2}]},
 "notice_type":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[]},
 "year":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[{"key":"2023","doc_count":7},{"key":"2024","doc_count":50}]}
}}`

func TestSearchParsesHitsFacetsAndCursors(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	if err := b.Observe(ctx, search.Observation{Source: "crol", Label: "City Record Online", RecordType: "notice"}); err != nil {
		t.Fatal(err)
	}
	cannedSearch(f, twoHits)
	res, err := b.Search(ctx, search.Query{Sort: search.SortNewest, Limit: 2, Facets: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 57 || len(res.Hits) != 2 || res.Hits[0].Notice.RequestID != "A" || res.Hits[0].Score != 2.5 ||
		res.Hits[1].Notice.RequestID != "B" || res.Hits[1].Score != 0 || !res.Hits[1].Notice.DueRolling {
		t.Fatalf("result = %+v", res)
	}
	if !res.Hits[0].Notice.StartDate.Equal(day(2024, 3, 5)) {
		t.Errorf("start date = %v", res.Hits[0].Notice.StartDate)
	}
	wantFacets := map[string][]search.FacetCount{
		"lens":        {{Value: "money", Count: 57}, {Value: "land", Count: 3}},
		"agency":      {{Value: "dep", Count: 30}, {Value: "dot", Count: 30}},
		"notice_type": {},
		"year":        {{Value: "2024", Count: 50}, {Value: "2023", Count: 7}},
	}
	for name, want := range wantFacets {
		if got := res.Facets[name]; !slices.Equal(got, want) {
			t.Errorf("facet %s = %v, want %v", name, got, want)
		}
	}
	if res.Scope.Matched != 57 || len(res.Scope.Sources) != 1 || res.Scope.Sources[0].Label != "City Record Online" {
		t.Errorf("scope = %+v", res.Scope)
	}
	vals, err := search.DecodeCursor(search.SortNewest, res.NextCursor)
	if err != nil || !slices.Equal(vals, []string{"-9223372036854775808", "B"}) {
		t.Fatalf("cursor values = %v, %v", vals, err)
	}
	f.requests()

	// the next page sends the sort values back exactly
	if _, err := b.Search(ctx, search.Query{Sort: search.SortNewest, Limit: 2, Cursor: res.NextCursor}); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	checkGolden(t, "search_cursor", reqs)
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].raw), `"search_after":[-9223372036854775808,"B"]`) {
		t.Errorf("search_after not exact: %s", reqs[0].raw)
	}

	// a short page has no next cursor
	res, err = b.Search(ctx, search.Query{Sort: search.SortNewest, Limit: 3})
	if err != nil || res.NextCursor != "" {
		t.Errorf("short page: cursor %q, err %v", res.NextCursor, err)
	}
}

func TestSearchRejectsBadCursors(t *testing.T) {
	b, f := openFake(t, Config{})
	cannedSearch(f, emptyHits)
	for name, q := range map[string]search.Query{
		"other sort":    {Sort: search.SortOldest, Cursor: search.EncodeCursor(search.SortNewest, []string{"1", "A"})},
		"not a number":  {Sort: search.SortNewest, Cursor: search.EncodeCursor(search.SortNewest, []string{"yesterday", "A"})},
		"wrong length":  {Sort: search.SortNewest, Cursor: search.EncodeCursor(search.SortNewest, []string{"1", "A", "B"})},
		"not a cursor":  {Sort: search.SortNewest, Cursor: "!!!"},
		"nan":           {Text: "x", Cursor: search.EncodeCursor(search.SortRelevance, []string{"NaN", "A"})},
		"bad limit":     {Limit: 1000},
		"bad sort name": {Sort: "sideways"},
	} {
		if _, err := b.Search(context.Background(), q); code(err) != record.EINVALID {
			t.Errorf("%s: err = %v, want EINVALID", name, err)
		}
	}
	if n := len(f.requests()); n != 0 {
		t.Errorf("%d requests sent for invalid queries", n)
	}
	// the infinities OpenSearch uses for missing doubles are accepted
	q := search.Query{Sort: search.SortAmount, Cursor: search.EncodeCursor(search.SortAmount, []string{"-Infinity", "A"})}
	if _, err := b.Search(context.Background(), q); err != nil {
		t.Errorf("-Infinity cursor: %v", err)
	}
}

func TestGet(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	n := notice("A/1", day(2024, 3, 5))
	n.DueRolling = true
	n.Raw = map[string]string{"request_id": "A/1"}
	n.Contact = record.Contact{Name: "Pat", Email: "pat@example.org"}
	if err := b.Upsert(ctx, []search.Doc{doc(n, 1)}); err != nil {
		t.Fatal(err)
	}
	f.requests()
	got, err := b.Get(ctx, "A/1")
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "get", f.requests())
	gb, _ := json.Marshal(got)
	wb, _ := json.Marshal(n)
	if !bytes.Equal(gb, wb) {
		t.Errorf("Get round trip:\n got %s\nwant %s", gb, wb)
	}
	if _, err := b.Get(ctx, "nope"); code(err) != record.ENOTFOUND {
		t.Errorf("Get(missing) = %v, want ENOTFOUND", err)
	}
	if _, err := b.Get(ctx, ""); code(err) != record.ENOTFOUND {
		t.Errorf("Get(\"\") = %v, want ENOTFOUND", err)
	}
	delete(f.aliases, "recordwatch-notices")
	if _, err := b.Get(ctx, "A/1"); code(err) != record.EUNAVAILABLE {
		t.Errorf("Get with the index gone = %v, want EUNAVAILABLE", err)
	}
}

func TestErrorsMapToCodes(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	for name, tc := range map[string]struct {
		status int
		body   string
		want   string
	}{
		"503":    {503, `{"error":{"root_cause":[],"type":"cluster_block_exception","reason":"blocked by: [SERVICE_UNAVAILABLE/1/state not recovered / initialized];"},"status":503}`, record.EUNAVAILABLE},
		"500":    {500, `{"error":{"type":"exception","reason":"boom"},"status":500}`, record.EUNAVAILABLE},
		"429":    {429, `{"error":{"type":"circuit_breaking_exception","reason":"[parent] Data too large"},"status":429}`, record.EUNAVAILABLE},
		"400":    {400, `{"error":{"root_cause":[{"type":"parsing_exception","reason":"unknown query [frob]"}],"type":"parsing_exception","reason":"unknown query [frob]"},"status":400}`, record.EINTERNAL},
		"html":   {502, `<html>bad gateway</html>`, record.EUNAVAILABLE},
		"no-msg": {503, ``, record.EUNAVAILABLE},
	} {
		t.Run(name, func(t *testing.T) {
			f.fault = func(r *http.Request) (int, string, bool) { return tc.status, tc.body, true }
			defer func() { f.fault = nil }()
			b.stale()
			_, err := b.Get(ctx, "A")
			if code(err) != tc.want {
				t.Errorf("Get = %v, want %s", err, tc.want)
			}
			if _, err := b.Search(ctx, search.Query{Text: "x"}); code(err) != tc.want {
				t.Errorf("Search = %v, want %s", err, tc.want)
			}
			if _, err := b.Passages(ctx, search.PassageQuery{Text: "x"}); code(err) != tc.want {
				t.Errorf("Passages = %v, want %s", err, tc.want)
			}
			if err := b.Upsert(ctx, []search.Doc{doc(notice("A", day(2024, 1, 1)), 1)}); code(err) != tc.want {
				t.Errorf("Upsert = %v, want %s", err, tc.want)
			}
			if err := b.Refresh(ctx); code(err) != tc.want {
				t.Errorf("Refresh = %v, want %s", err, tc.want)
			}
		})
	}

	// partial results are not answers
	f.fault = func(r *http.Request) (int, string, bool) {
		return 200, `{"took":1,"timed_out":false,"_shards":{"total":2,"successful":1,"skipped":0,"failed":1,"failures":[{"shard":1,"index":"recordwatch-notices.v1","reason":{"type":"node_not_connected_exception","reason":"gone"}}]},"hits":{"total":{"value":0,"relation":"eq"},"hits":[]}}`, true
	}
	if _, err := b.Search(ctx, search.Query{}); code(err) != record.EUNAVAILABLE || !strings.Contains(err.Error(), "node_not_connected_exception") {
		t.Errorf("partial Search = %v, want EUNAVAILABLE", err)
	}
	// an answer that is not JSON is an error, not a panic
	f.fault = func(r *http.Request) (int, string, bool) { return 200, `{"hits":`, true }
	if _, err := b.Search(ctx, search.Query{}); err == nil {
		t.Error("Search on a truncated answer: want an error")
	}
	f.fault = nil

	// the cluster went away
	f.srv.Close()
	if _, err := b.Get(ctx, "A"); code(err) != record.EUNAVAILABLE {
		t.Errorf("Get on a closed server = %v, want EUNAVAILABLE", err)
	}
}

func TestPassages(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	page := `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":3,"relation":"eq"},"max_score":3.1,"hits":[
 {"_index":"recordwatch-passages.v1","_id":"A#p2","_score":3.1,"_source":{"id":"A#p2","request_id":"A","seq":2,"start":10,"end":20,"text":"the East River bridges","source":"crol","section":"Procurement","lenses":["money"],"agency_id":"dot","title":"Bridge painting A","start_date":"2024-03-05T00:00:00-05:00","source_url":"https://a856-cityrecord.nyc.gov/RequestDetail/A"},"sort":[3.1,"A#p2"]},
 {"_index":"recordwatch-passages.v1","_id":"B#p1","_score":1.25,"_source":{"id":"B#p1","request_id":"B","seq":1,"start":0,"end":10,"text":"river","source":"crol","section":"","lenses":["money"],"agency_id":"dot","title":"","source_url":""},"sort":[1.25,"B#p1"]}
]}}`
	cannedSearch(f, page)
	res, err := b.Passages(ctx, search.PassageQuery{
		Text: `river "east river" -ferry`, Lenses: []string{"money"}, AgencyIDs: []string{"dot"}, Sources: []string{"crol"},
		RequestID: "A", From: day(2024, 1, 1), To: day(2024, 6, 30), Limit: 2,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 3 || len(res.Passages) != 2 || res.Passages[0].Passage.ID != "A#p2" || res.Passages[0].Score != 3.1 ||
		res.Passages[0].Passage.End != 20 || res.Scope.Searched.Kind != "passages" || res.Scope.Matched != 3 {
		t.Fatalf("result = %+v", res)
	}
	vals, err := search.DecodeCursor(search.SortRelevance, res.NextCursor)
	if err != nil || !slices.Equal(vals, []string{"1.25", "B#p1"}) {
		t.Fatalf("cursor = %v, %v", vals, err)
	}
	if _, err := b.Passages(ctx, search.PassageQuery{Text: "river", Limit: 2, Cursor: res.NextCursor}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Passages(ctx, search.PassageQuery{}); err != nil {
		t.Fatal(err)
	}
	var searches []exchange
	for _, ex := range f.requests() {
		if ex.Path == "/recordwatch-passages/_search" && !strings.Contains(string(ex.raw), `"size":0`) {
			searches = append(searches, ex)
		}
	}
	checkGolden(t, "passages", searches)
	if _, err := b.Passages(ctx, search.PassageQuery{Cursor: search.EncodeCursor(search.SortRelevance, []string{"x", "y"})}); code(err) != record.EINVALID {
		t.Errorf("bad passage cursor = %v, want EINVALID", err)
	}
}

// Every field the engine writes must be mapped: the mappings are strict.
func TestDocumentsMatchTheMappings(t *testing.T) {
	props := func(kind string) map[string]json.RawMessage {
		b, err := mappings.Get(kind)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Mappings struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"mappings"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		return m.Mappings.Properties
	}
	full := notice("A", day(2024, 3, 5))
	full.NoticeType, full.Category, full.SelectionMethod, full.AgencyDivision = "Award", "Services", "Competitive Sealed Bids", "Bridges"
	full.PIN, full.EndDate, full.DueDate, full.AmountRaw, full.VendorAddress = "84124B0001", day(2024, 3, 9), day(2024, 4, 1), "$1,250,000", "1 Main St"
	full.DocumentLinks, full.EventDate, full.EventPlace = []string{"https://example.org/a.pdf"}, day(2024, 3, 20), "Room 1"
	full.Contact, full.Raw = record.Contact{Name: "Pat", Phone: "212", Fax: "212", Email: "p@example.org", AddressRequest: "x", AddressToSubmit: "y"}, map[string]string{"a": "b"}
	d := doc(full, 1)
	for kind, v := range map[string]any{
		mappings.Notices:  newNoticeDoc(d.Notice, d.Passages),
		mappings.Passages: d.Passages[0],
		mappings.Meta:     observationDoc{Source: "crol", Label: "x", RecordType: "notice", ObservedAt: day(2024, 1, 1)},
	} {
		b, _ := json.Marshal(v)
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(b, &fields)
		mapped := props(kind)
		for name := range fields {
			if _, ok := mapped[name]; !ok {
				t.Errorf("%s document field %q is not in %s", kind, name, mappings.FileName(kind, mappings.Version(kind)))
			}
		}
	}
}

// Config.Shards and Config.Replicas set the layout of the indexes Open
// creates and change nothing else of the mapping; without them the
// mapping files' settings go as they are (one shard, the cluster's default
// replicas).
func TestOpenSetsShardsAndReplicas(t *testing.T) {
	created := func(t *testing.T, cfg Config) map[string]map[string]any {
		t.Helper()
		f := newFake(t)
		cfg.URL = f.srv.URL
		b, err := Open(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer b.Close()
		out := map[string]map[string]any{}
		for _, ex := range f.requests() {
			if ex.Method == http.MethodPut && regexp.MustCompile(`\.v[0-9]+$`).MatchString(ex.Path) {
				out[strings.TrimPrefix(ex.Path, "/")] = ex.Body.(map[string]any)
			}
		}
		if len(out) != len(mappings.Kinds) {
			t.Fatalf("%d indexes created, want %d", len(out), len(mappings.Kinds))
		}
		return out
	}
	plain := created(t, Config{})
	for name, def := range plain {
		idx := def["settings"].(map[string]any)["index"].(map[string]any)
		if _, ok := idx["number_of_replicas"]; ok || fmt.Sprint(idx["number_of_shards"]) != "1" {
			t.Errorf("%s without options: settings.index = %v, want the mapping file's (1 shard, no replicas setting)", name, idx)
		}
	}
	three := 1
	laid := created(t, Config{Shards: 3, Replicas: &three})
	zero := 0
	single := created(t, Config{Replicas: &zero})
	for name, def := range laid {
		idx := def["settings"].(map[string]any)["index"].(map[string]any)
		if fmt.Sprint(idx["number_of_shards"]) != "3" || fmt.Sprint(idx["number_of_replicas"]) != "1" {
			t.Errorf("%s with Shards 3, Replicas 1: settings.index = %v", name, idx)
		}
		delete(idx, "number_of_shards")
		delete(idx, "number_of_replicas")
		p := plain[name]["settings"].(map[string]any)["index"].(map[string]any)
		delete(p, "number_of_shards")
		if !reflect.DeepEqual(def, plain[name]) {
			t.Errorf("%s: Shards/Replicas changed more than the layout:\n got %v\nwant %v", name, def, plain[name])
		}
		s := single[name]["settings"].(map[string]any)["index"].(map[string]any)
		if fmt.Sprint(s["number_of_shards"]) != "1" || fmt.Sprint(s["number_of_replicas"]) != "0" {
			t.Errorf("%s with Replicas 0: settings.index = %v", name, s)
		}
	}
	for _, cfg := range []Config{{Shards: -1}, {Shards: 5000}, {Replicas: new(-1)}} {
		cfg.URL = "http://127.0.0.1:1"
		if _, err := Open(context.Background(), cfg); code(err) != record.EINVALID {
			t.Errorf("Open(%+v) = %v, want EINVALID", cfg, err)
		}
	}
}
