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

func TestRecordsPutAndDelete(t *testing.T) {
	b, f := openFake(t, Config{})
	ctx := context.Background()
	entries := searchtest.SourceRecordFixtures()
	if err := b.PutRecords(ctx, entries); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "records_put", f.requests())
	docs := f.docs("recordwatch-records")
	if len(docs) != len(entries) {
		t.Fatalf("%d record documents, want %d", len(docs), len(entries))
	}
	var d struct {
		Kind        string              `json:"kind"`
		Keys        map[string][]string `json:"keys"`
		ValidAmount *float64            `json:"valid_amount"`
		Body        struct {
			ID string `json:"id"`
		} `json:"body"`
	}
	_ = json.Unmarshal(docs["contract:checkbook:contract:CTR85020131408259:239"], &d)
	if d.Kind != "contract" || fmt.Sprint(d.Keys["pin_key"]) != "[85013B0017001C237]" || fmt.Sprint(d.Keys["pin_base"]) != "[85013B0017]" ||
		fmt.Sprint(d.Keys["agency_id"]) != "[design-and-construction]" || d.ValidAmount == nil || *d.ValidAmount != 209938022.91 ||
		d.Body.ID != "checkbook:contract:CTR85020131408259:239" {
		t.Errorf("record document %+v", d)
	}
	d.ValidAmount = nil
	_ = json.Unmarshal(docs["contract:checkbook:contract:CT185020151429177:1"], &d)
	if d.ValidAmount != nil {
		t.Errorf("an invalid amount is indexed as valid_amount %v", *d.ValidAmount)
	}
	if err := b.DeleteRecords(ctx, "payment.payroll", []string{"checkbook:payroll:1"}); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "records_delete", f.requests())
	if _, ok := f.docs("recordwatch-records")["payment.payroll:checkbook:payroll:1"]; ok {
		t.Error("deleted record still held")
	}
	if err := b.PutRecords(ctx, []search.Record{{Kind: "x", ID: "x"}}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("record without a source: %v", err)
	}
}

// A records answer as OpenSearch 2.x gives it: two hits with their sort
// values (an undated record sorts with Long.MAX_VALUE).
const recordsAnswer = `{"took":2,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":3,"relation":"eq"},"max_score":null,"hits":[
 {"_index":"recordwatch-records.v1","_id":"contract:checkbook:contract:CTR85020131408259:239","_score":null,
  "_source":{"kind":"contract","id":"checkbook:contract:CTR85020131408259:239","source":"checkbook","keys":{"pin_key":["85013B0017001C237"],"fiscal_year":["2022"]},"date":"2021-08-13T00:00:00-04:00","amount":209938022.91,"amount_valid":true,"valid_amount":209938022.91,"body":{"id":"checkbook:contract:CTR85020131408259:239","source":"checkbook","kind":"contract","contract_id":"CTR85020131408259"}},
  "sort":[1628827200000,"checkbook:contract:CTR85020131408259:239","contract"]},
 {"_index":"recordwatch-records.v1","_id":"contract:contracts:procurement:contract:CT112520278800354","_score":null,
  "_source":{"kind":"contract","id":"contracts:procurement:contract:CT112520278800354","source":"contracts","amount":738202,"amount_valid":true,"valid_amount":738202,"body":{"id":"contracts:procurement:contract:CT112520278800354","source":"contracts","kind":"contract"}},
  "sort":[9223372036854775807,"contracts:procurement:contract:CT112520278800354","contract"]}]}}`

const recordTotalsAnswer = `{"took":2,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":3,"relation":"eq"},"max_score":null,"hits":[]},
"aggregations":{
 "valid":{"doc_count":3,"sum":{"value":420456047.27000004}},
 "first":{"value":1628827200000.0},"last":{"value":1629259200000.0},
 "g0":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":"2022","doc_count":2,"valid":{"doc_count":2,"sum":{"value":419717845.27000004}}}]}}}`

func TestRecordsRequestAndParse(t *testing.T) {
	b, f := openFake(t, Config{})
	f.search = func(index string, body map[string]any) (int, string) {
		if body["aggs"] != nil {
			return 200, recordTotalsAnswer
		}
		return 200, recordsAnswer
	}
	ctx := context.Background()
	min := 1.0
	q := search.RecordQuery{Kinds: []string{"contract"}, Sources: []string{"checkbook", "contracts"},
		Keys: map[string][]string{"pin_key": {"85013B0017001C237"}, "pin_base": {"85013B0017"}},
		From: time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC), MinAmount: &min, Limit: 2}
	res, err := b.FindRecords(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 3 || len(res.Records) != 2 || res.Records[0].Keys["pin_key"][0] != "85013B0017001C237" || res.NextCursor == "" {
		t.Errorf("result %+v", res)
	}
	var body struct {
		ContractID string `json:"contract_id"`
	}
	if err := json.Unmarshal(res.Records[0].Body, &body); err != nil || body.ContractID != "CTR85020131408259" {
		t.Errorf("body %s %v", res.Records[0].Body, err)
	}
	// the next page carries the undated record's sort values exactly
	q.Cursor = res.NextCursor
	if _, err := b.FindRecords(ctx, q); err != nil {
		t.Fatal(err)
	}
	tot, err := b.RecordTotals(ctx, q, []string{"fiscal_year"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if tot.Count != 3 || tot.ValidAmounts != 3 || tot.Amount != 420456047.27 || fmt.Sprint(tot.Groups["fiscal_year"]) != "[{2022 2 2 4.1971784527e+08}]" {
		t.Errorf("totals %+v", tot)
	}
	reqs := f.requests()
	checkGolden(t, "records_find", reqs)
	if !strings.Contains(string(reqs[1].raw), `"search_after":[9223372036854775807,"contracts:procurement:contract:CT112520278800354","contract"]`) {
		t.Errorf("second page: %s", reqs[1].raw)
	}
	q.Sort = search.RecordSortAmount
	if _, err := b.FindRecords(ctx, q); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("a cursor of another sort: %v", err)
	}
}

const recordCoverageAnswer = `{"took":2,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
"hits":{"total":{"value":5,"relation":"eq"},"max_score":null,"hits":[]},
"aggregations":{"sources":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
 {"key":"checkbook","doc_count":4,"kinds":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":"contract","doc_count":3,"first":{"value":1437364800000.0,"value_as_string":"2015-07-20T04:00:00.000Z"},"last":{"value":1629259200000.0,"value_as_string":"2021-08-18T04:00:00.000Z"},
   "latest":{"hits":{"total":{"value":3,"relation":"eq"},"max_score":null,"hits":[{"_index":"recordwatch-records.v1","_id":"a","_score":null,"_source":{"observed_at":"2026-04-21T00:00:00Z","source_label":"Checkbook NYC"},"sort":[1776729600000,"a","contract"]}]}}},
  {"key":"payment","doc_count":1,"first":{"value":1500264000000.0,"value_as_string":"2017-07-17T04:00:00.000Z"},"last":{"value":1500264000000.0,"value_as_string":"2017-07-17T04:00:00.000Z"},
   "latest":{"hits":{"total":{"value":1,"relation":"eq"},"max_score":null,"hits":[{"_index":"recordwatch-records.v1","_id":"b","_score":null,"_source":{"observed_at":"2026-04-21T00:00:00Z","source_label":"Checkbook NYC"},"sort":[1776729600000,"b","payment"]}]}}}]}},
 {"key":"zap","doc_count":1,"kinds":{"doc_count_error_upper_bound":0,"sum_other_doc_count":0,"buckets":[
  {"key":"lot","doc_count":1,"first":{"value":null},"last":{"value":null},
   "latest":{"hits":{"total":{"value":1,"relation":"eq"},"max_score":null,"hits":[{"_index":"recordwatch-records.v1","_id":"c","_score":null,"_source":{"observed_at":"2026-08-18T00:00:00Z","source_label":"ZAP lots"},"sort":[1787011200000,"c","lot"]}]}}}]}}]}}}`

func TestRecordCoverageRequestAndParse(t *testing.T) {
	b, f := openFake(t, Config{})
	f.search = func(index string, body map[string]any) (int, string) { return 200, recordCoverageAnswer }
	cov, err := b.RecordCoverage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkGolden(t, "records_coverage", f.requests())
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
			t.Errorf("agency names of notices read %s", index)
			return 500, `{}`
		}
	}
	names, err := b.NoticeAgencyNames(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (two pages of notices)", len(reqs))
	}
	if !strings.Contains(string(reqs[1].raw), `"after":{"agency":"Agency 0999","source":"crol"}`) {
		t.Errorf("second page does not continue after the first: %s", reqs[1].raw)
	}
	checkGolden(t, "agency_names", reqs[1:])
	if len(names) != compositePage+3 || names[0].Source != "crol" || names[0].Raw != "Agency 0000" || names[0].Records != 1 {
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
	b, f := openFake(t, Config{Now: goldenNow}) // the request holds the future cutoff of its day
	if _, err := b.Search(context.Background(), search.Query{PINPrefixes: []string{"12522P0001", "81626W0043"}, Sort: search.SortOldest}); err != nil {
		t.Fatal(err)
	}
	reqs := f.requests()
	checkGolden(t, "search_pin_prefixes", reqs)
	if !strings.Contains(string(reqs[0].raw), `{"prefix":{"pin":{"value":"12522P0001"}}}`) {
		t.Errorf("body %s", reqs[0].raw)
	}
}
