package opensearch

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

func TestEntriesUpsertAndDelete(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	entries := searchtest.EntryFixtures()
	if err := b.UpsertEntries(ctx, entries); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "entries_upsert", f.requests())
	docs := f.docs("recordwatch-entries")
	if len(docs) != len(entries) {
		t.Fatalf("%d entry documents, want %d", len(docs), len(entries))
	}
	var d map[string]any
	_ = json.Unmarshal(docs["checkbook:contract:CTR85020131408259:239"], &d)
	if d["pin_key"] != "85013B0017001C237" || d["pin_base"] != "85013B0017" || d["agency_id"] != "design-and-construction" {
		t.Errorf("entry document %v", d)
	}
	if err := b.DeleteEntries(ctx, []string{"checkbook:payroll:1"}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "entries_delete", f.requests())
	if _, ok := f.docs("recordwatch-entries")["checkbook:payroll:1"]; ok {
		t.Error("deleted entry still held")
	}
	if err := b.UpsertEntries(ctx, []search.Entry{{ID: "x"}}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("entry without source and kind: %v", err)
	}
}

// An entries answer as OpenSearch 2.x gives it: two hits with their sort
// values (an undated entry sorts with Long.MAX_VALUE) and the totals.
const entriesAnswer = `{"took":2,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":3,"relation":"eq"},"max_score":null,"hits":[
 {"_index":"recordwatch-entries.v1","_id":"checkbook:contract:CTR85020131408259:239","_score":null,
  "_source":{"id":"checkbook:contract:CTR85020131408259:239","source":"checkbook","kind":"contract","contract_id":"CTR85020131408259","pin":"85013B0017001C237","pin_base":"85013B0017","date":"2021-08-13T00:00:00-04:00","fiscal_year":2022,"amount":209938022.91,"amount_valid":true,"pin_key":"85013B0017001C237"},
  "sort":[1628827200000,"checkbook:contract:CTR85020131408259:239"]},
 {"_index":"recordwatch-entries.v1","_id":"contracts:procurement:contract:CT112520278800354","_score":null,
  "_source":{"id":"contracts:procurement:contract:CT112520278800354","source":"contracts","kind":"contract","amount":738202,"amount_valid":true},
  "sort":[9223372036854775807,"contracts:procurement:contract:CT112520278800354"]}]},
"aggregations":{"kinds":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
 {"key":"contract","doc_count":3,"years":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":2022,"doc_count":2,"valid":{"doc_count":2,"sum":{"value":419717845.27000004}}},
  {"key":0,"doc_count":1,"valid":{"doc_count":1,"sum":{"value":738202.0}}}]}}]}}}`

func TestEntriesRequestAndParse(t *testing.T) {
	b, f := openFake(t, Config{})
	f.search = func(index string, body map[string]any) (int, string) { return 200, entriesAnswer }
	ctx := context.Background()
	res, err := b.Entries(ctx, search.EntryQuery{PINs: []string{"85013b0017001c237"}, PINBases: []string{"85013B0017"},
		Kinds: []string{search.EntryContract}, VendorStems: []string{"SKANSKA-TREVCON JV"}, Limit: 2, Totals: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 3 || len(res.Entries) != 2 || res.Entries[0].ContractID != "CTR85020131408259" || res.NextCursor == "" {
		t.Errorf("result %+v", res)
	}
	want := []search.EntryTotal{
		{Kind: "contract", FiscalYear: 0, Count: 1, ValidAmounts: 1, Amount: 738202},
		{Kind: "contract", FiscalYear: 2022, Count: 2, ValidAmounts: 2, Amount: 419717845.27},
	}
	if fmt.Sprint(res.Totals) != fmt.Sprint(want) {
		t.Errorf("totals %+v, want %+v", res.Totals, want)
	}
	// the next page carries the undated entry's sort values exactly
	if _, err := b.Entries(ctx, search.EntryQuery{Cursor: res.NextCursor, Limit: 2}); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	checkGolden(t, "entries_search", reqs)
	if !strings.Contains(string(reqs[1].raw), `"search_after":[9223372036854775807,"contracts:procurement:contract:CT112520278800354"]`) {
		t.Errorf("second page: %s", reqs[1].raw)
	}
}

const entryCoverageAnswer = `{"took":2,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":5,"relation":"eq"},"max_score":null,"hits":[]},
"aggregations":{"sources":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
 {"key":"checkbook","doc_count":4,"kinds":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":"contract","doc_count":3,"first":{"value":1437364800000.0,"value_as_string":"2015-07-20T04:00:00.000Z"},"last":{"value":1629259200000.0,"value_as_string":"2021-08-18T04:00:00.000Z"},
   "latest":{"hits":{"total":{"value":3,"relation":"eq"},"max_score":null,"hits":[{"_index":"recordwatch-entries.v1","_id":"a","_score":null,"_source":{"observed_at":"2026-04-21T00:00:00Z","source_label":"Checkbook NYC"},"sort":[1776729600000,"a"]}]}}},
  {"key":"payment","doc_count":1,"first":{"value":1500264000000.0,"value_as_string":"2017-07-17T04:00:00.000Z"},"last":{"value":1500264000000.0,"value_as_string":"2017-07-17T04:00:00.000Z"},
   "latest":{"hits":{"total":{"value":1,"relation":"eq"},"max_score":null,"hits":[{"_index":"recordwatch-entries.v1","_id":"b","_score":null,"_source":{"observed_at":"2026-04-21T00:00:00Z","source_label":"Checkbook NYC"},"sort":[1776729600000,"b"]}]}}}]}},
 {"key":"zap","doc_count":1,"kinds":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":"lot","doc_count":1,"first":{"value":null},"last":{"value":null},
   "latest":{"hits":{"total":{"value":1,"relation":"eq"},"max_score":null,"hits":[{"_index":"recordwatch-entries.v1","_id":"c","_score":null,"_source":{"observed_at":"2026-08-18T00:00:00Z","source_label":"ZAP lots"},"sort":[1787011200000,"c"]}]}}}]}}]}}}`

func TestEntryCoverageRequestAndParse(t *testing.T) {
	b, f := openFake(t, Config{})
	f.search = func(index string, body map[string]any) (int, string) { return 200, entryCoverageAnswer }
	cov, err := b.EntryCoverage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "entries_coverage", f.requests())
	obs := time.Date(2026, 4, 21, 0, 0, 0, 0, time.UTC)
	want := []record.SourceCoverage{
		{Source: "checkbook", Label: "Checkbook NYC", RecordType: "contract", ObservedAt: obs, FirstSourceDate: "2015-07-20", LastSourceDate: "2021-08-18", Records: 3},
		{Source: "checkbook", Label: "Checkbook NYC", RecordType: "payment", ObservedAt: obs, FirstSourceDate: "2017-07-17", LastSourceDate: "2017-07-17", Records: 1},
		{Source: "zap", Label: "ZAP lots", RecordType: "lot", ObservedAt: time.Date(2026, 8, 18, 0, 0, 0, 0, time.UTC), Records: 1},
	}
	if fmt.Sprint(cov) != fmt.Sprint(want) {
		t.Errorf("coverage\n got %+v\nwant %+v", cov, want)
	}
}

// compositeAnswer is one page of the agency-name composite aggregation.
func compositeAnswer(source string, from, n int, last bool) string {
	var buckets []string
	for i := from; i < from+n; i++ {
		buckets = append(buckets, fmt.Sprintf(`{"key":{"source":%q,"agency":"Agency %04d"},"doc_count":%d}`, source, i, i%7+1))
	}
	after := ""
	if !last || n > 0 {
		after = fmt.Sprintf(`"after_key":{"source":%q,"agency":"Agency %04d"},`, source, from+n-1)
	}
	return `{"took":1,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":0,"relation":"eq"},"max_score":null,"hits":[]},
"aggregations":{"names":{` + after + `"buckets":[` + strings.Join(buckets, ",") + `]}}}`
}

func TestAgencyNamesPagesCompositeAggregation(t *testing.T) {
	b, f := openFake(t, Config{})
	calls := 0
	f.search = func(index string, body map[string]any) (int, string) {
		calls++
		switch {
		case index == "recordwatch-notices" && calls == 1:
			return 200, compositeAnswer("crol", 0, compositePage, false)
		case index == "recordwatch-notices":
			return 200, compositeAnswer("crol", compositePage, 3, true)
		default:
			return 200, compositeAnswer("checkbook", 0, 2, true)
		}
	}
	names, err := b.AgencyNames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (two pages of notices, one of entries)", len(reqs))
	}
	if !strings.Contains(string(reqs[1].raw), `"after":{"agency":"Agency 0999","source":"crol"}`) {
		t.Errorf("second page does not continue after the first: %s", reqs[1].raw)
	}
	checkGolden(t, "agency_names", reqs[1:])
	if len(names) != compositePage+3+2 || names[0].Source != "checkbook" || names[2].Raw != "Agency 0000" || names[2].Records != 1 {
		t.Errorf("%d names, first %+v", len(names), names[:3])
	}
}

const noticeTotalsAnswer = `{"took":4,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":4,"relation":"eq"},"max_score":null,"hits":[]},
"aggregations":{
 "valid":{"doc_count":2,"sum":{"value":13158788.0}},
 "first":{"value":1412654400000.0,"value_as_string":"2014-10-07T04:00:00.000Z"},
 "last":{"value":1780372800000.0,"value_as_string":"2026-06-02T04:00:00.000Z"},
 "g_vendor_stem":{"doc_count_error_upper_bound":0,"sum_other_doc_count":1,"buckets":[
  {"key":"WILLIAMSBRIDGE NAACP EARLY CHILDHOOD EDUCATION CENTER","doc_count":2,"valid":{"doc_count":1,"sum":{"value":1158788.0}}},
  {"key":"SECURUS TECHNOLOGIES","doc_count":1,"valid":{"doc_count":1,"sum":{"value":12000000.0}}}]},
 "g_fiscal_year":{"buckets":[
  {"key":"2014","from":1.3727808E12,"from_as_string":"2013-07-01T04:00:00.000Z","to":1.4043168E12,"to_as_string":"2014-07-01T04:00:00.000Z","doc_count":0,"valid":{"doc_count":0,"sum":{"value":0.0}}},
  {"key":"2015","from":1.4043168E12,"from_as_string":"2014-07-01T04:00:00.000Z","to":1.4358528E12,"to_as_string":"2015-07-01T04:00:00.000Z","doc_count":3,"valid":{"doc_count":1,"sum":{"value":1158788.0}}},
  {"key":"2026","from":1.7513424E12,"from_as_string":"2025-07-01T04:00:00.000Z","to":1.7828784E12,"to_as_string":"2026-07-01T04:00:00.000Z","doc_count":1,"valid":{"doc_count":1,"sum":{"value":12000000.0}}}]}}}`

func TestNoticeTotalsRequestAndParse(t *testing.T) {
	b, f := openFake(t, Config{})
	f.search = func(index string, body map[string]any) (int, string) { return 200, noticeTotalsAnswer }
	got, err := b.NoticeTotals(context.Background(), search.Query{NoticeTypes: []string{"Award", "Intent to Award"},
		AgencyIDs: []string{"administration-for-childrens-services"}}, []string{search.GroupVendorStem, search.GroupFiscalYear}, 2)
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "notice_totals", f.requests())
	if got.Count != 4 || got.ValidAmounts != 2 || got.Amount != 13158788 || got.First.Format("2006-01-02") != "2014-10-07" ||
		got.Last.Format("2006-01-02") != "2026-06-02" || got.Other[search.GroupVendorStem] != 1 {
		t.Errorf("totals %+v", got)
	}
	vs := got.Groups[search.GroupVendorStem]
	if len(vs) != 2 || vs[0].Value != "SECURUS TECHNOLOGIES" || vs[1].Count != 2 {
		t.Errorf("vendors %+v", vs)
	}
	fy := got.Groups[search.GroupFiscalYear]
	if len(fy) != 2 || fy[0].Value != "2015" || fy[0].Count != 3 || fy[1].Amount != 12000000 {
		t.Errorf("fiscal years %+v", fy)
	}
	if _, err := b.NoticeTotals(context.Background(), search.Query{}, []string{"colour"}, 1); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("unknown grouping: %v", err)
	}
}

// A PIN-prefix filter is a prefix query on the keyword field, any of the
// values.
func TestSearchPINPrefixes(t *testing.T) {
	b, f := openFake(t, Config{})
	if _, err := b.Search(context.Background(), search.Query{PINPrefixes: []string{"12522P0001", "81626W0043"}, Sort: search.SortOldest}); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	checkGolden(t, "search_pin_prefixes", reqs)
	if !strings.Contains(string(reqs[0].raw), `{"prefix":{"pin":{"value":"12522P0001"}}}`) {
		t.Errorf("body %s", reqs[0].raw)
	}
}
