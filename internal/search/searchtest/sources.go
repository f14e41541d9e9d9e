package searchtest

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// SourceRecordFixtures are records shaped as the source kinds write them
// (contract, payment, payment.payroll, lot: their kinds live with their
// types in the topic packages, which this suite does not import), with
// values copied from real rows: the Checkbook NYC documentation samples
// (contracts, spending, payroll), a registered contract of the cityscroll
// read model (Crown Heights Preservation Committee, PIN
// 12522P0001001R004) and a MapPLUTO lot centroid of a ZAP project lot.
// They carry the keys the views read by (agency_raw, agency_id,
// vendor_stem, contract_id, pin_key, pin_base, fiscal_year, bbl).
func SourceRecordFixtures() []search.Record {
	observed := time.Date(2026, 4, 21, 0, 0, 0, 0, time.UTC)
	mk := func(kind, id, source, agency, vendor, contract, pin, date, amount string) search.Record {
		keys := map[string][]string{}
		set := func(k, v string) {
			if v != "" {
				keys[k] = []string{v}
			}
		}
		set(search.KeyAgencyRaw, agency)
		set(search.KeyAgencyID, derived(recordAgencies, agency))
		set(search.KeyVendorStem, derived(vendorStems, vendor))
		set(search.KeyContractID, contract)
		set(search.KeyPIN, derived(pinKeys, pin)[0])
		set(search.KeyPINBase, derived(pinKeys, pin)[1])
		r := search.Record{Kind: kind, ID: id, Source: source, SourceLabel: "label " + source, ObservedAt: observed, Keys: keys, Title: vendor}
		if date != "" {
			// dated as the sources date each kind (registration, check
			// issue, pay date)
			r.Date, r.DateLabel = day(date), map[string]string{"contract": "registered", "payment": "issued", "payment.payroll": "paid"}[kind]
			set(search.KeyFiscalYear, strconv.Itoa(record.FiscalYear(r.Date)))
		}
		if v, ok := record.ParseAmount(amount); ok {
			r.Amount, r.AmountValid = v, true
		}
		body, _ := json.Marshal(map[string]any{"id": id, "agency": agency, "vendor": vendor, "pin": pin, "amount_raw": amount})
		r.Body = body
		return r
	}
	lot := mk("lot", "mappluto:lot:1000380001", "mappluto", "", "", "", "", "", "")
	lot.Keys[search.KeyBBL] = []string{"1000380001"}
	lot.Body = json.RawMessage(`{"id":"mappluto:lot:1000380001","bbl":"1000380001","geometry":{"type":"Point","coordinates":[-74.0067554,40.7052441]}}`)
	return []search.Record{
		mk("contract", "checkbook:contract:CT185020151429177:1", "checkbook", "Department of Design and Construction",
			"CDE AIR CONDITIONING CO INC", "CT185020151429177", "85015B0065001C021", "2015-07-20", "0"),
		mk("contract", "checkbook:contract:CTR85020131408259:239", "checkbook", "Department of Design and Construction",
			"SKANSKA-TREVCON JV", "CTR85020131408259", "85013B0017001C237", "2021-08-13", "209938022.91"),
		mk("contract", "checkbook:contract:CTR85020131408259:240", "checkbook", "Department of Design and Construction",
			"SKANSKA-TREVCON JV", "CTR85020131408259", "85013B0017001C235", "2021-08-18", "209779822.36"),
		mk("payment", "checkbook:payment:20180011164-1-DSB-AD", "checkbook", "Queens Borough Public Library",
			"NEW CASTLE COMMUNICATIONS INC", "CT103920171428053", "", "2017-07-17", "35775.00"),
		mk("payment.payroll", "checkbook:payroll:1", "checkbook", "Department of Education", "", "", "", "2011-01-31", "58654.89"),
		mk("contract", "contracts:procurement:contract:CT112520278800354", "contracts", "Aging",
			"CROWN HEIGHTS PRESERVATION COMMITTEE CORP.", "CT112520278800354", "12522P0001001R004", "2026-06-16", "738202"),
		lot,
	}
}

// sourceKinds are the record kinds of SourceRecordFixtures.
var sourceKinds = []string{"contract", "payment", "payment.payroll", "lot"}

// testSourceRecords is the contract the views of the procurement and lot
// records rely on (what the retired entry contract asserted, as record
// reads): order and round trip, every key filter they use, paging and its
// bounds, totals by kind and fiscal year, coverage per source and kind,
// raw agency names of notices and records, notice totals, PIN prefixes of
// notices, and deletes.
func testSourceRecords(t *testing.T, open Opener) {
	ctx := context.Background()
	b := open(t)
	t.Cleanup(func() { b.Close() })
	docs := Fixtures()
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	all := SourceRecordFixtures()
	for i := 0; i < 2; i++ { // idempotent
		if err := b.PutRecords(ctx, all); err != nil {
			t.Fatal(err)
		}
	}
	find := func(t *testing.T, q search.RecordQuery) search.RecordPage {
		t.Helper()
		if len(q.Kinds) == 0 {
			q.Kinds = sourceKinds
		}
		p, err := b.FindRecords(ctx, q)
		if err != nil {
			t.Fatalf("find %+v: %v", q, err)
		}
		if q.Cursor == "" && p.Total != len(p.Records) && p.NextCursor == "" {
			t.Errorf("total %d but %d records and no cursor", p.Total, len(p.Records))
		}
		return p
	}
	idsOf := func(p search.RecordPage) []string {
		out := []string{}
		for _, r := range p.Records {
			out = append(out, r.ID)
		}
		return out
	}

	t.Run("OrderAndRoundTrip", func(t *testing.T) {
		p := find(t, search.RecordQuery{})
		// by date, oldest first; undated last; ties by id
		assertSeq(t, idsOf(p), []string{
			"checkbook:payroll:1", "checkbook:contract:CT185020151429177:1", "checkbook:payment:20180011164-1-DSB-AD",
			"checkbook:contract:CTR85020131408259:239", "checkbook:contract:CTR85020131408259:240",
			"contracts:procurement:contract:CT112520278800354", "mappluto:lot:1000380001",
		})
		byID := map[string]search.Record{}
		for _, r := range all {
			byID[r.ID] = r
		}
		for _, r := range p.Records {
			if !sameJSON(r, byID[r.ID]) {
				t.Errorf("record %s differs\n got %s\nwant %s", r.ID, js(r), js(byID[r.ID]))
			}
		}
	})
	t.Run("KeyFilters", func(t *testing.T) {
		keys := func(k string, vs ...string) map[string][]string { return map[string][]string{k: vs} }
		cases := []struct {
			name string
			q    search.RecordQuery
			want []string
		}{
			{"pin key", search.RecordQuery{Keys: keys(search.KeyPIN, "85013B0017001C237")}, []string{"checkbook:contract:CTR85020131408259:239"}},
			{"pin base", search.RecordQuery{Keys: keys(search.KeyPINBase, "85013B0017")}, []string{"checkbook:contract:CTR85020131408259:239", "checkbook:contract:CTR85020131408259:240"}},
			{"renewal pin", search.RecordQuery{Keys: keys(search.KeyPIN, "12522P0001001R004")}, []string{"contracts:procurement:contract:CT112520278800354"}},
			{"vendor stem", search.RecordQuery{Keys: keys(search.KeyVendorStem, "SKANSKA TREVCON JV")}, []string{"checkbook:contract:CTR85020131408259:239", "checkbook:contract:CTR85020131408259:240"}},
			{"agency id", search.RecordQuery{Keys: keys(search.KeyAgencyID, "public-library-queens")}, []string{"checkbook:payment:20180011164-1-DSB-AD"}},
			{"kind", search.RecordQuery{Kinds: []string{"payment.payroll"}}, []string{"checkbook:payroll:1"}},
			{"source and kind", search.RecordQuery{Sources: []string{"contracts"}, Kinds: []string{"contract"}}, []string{"contracts:procurement:contract:CT112520278800354"}},
			{"contract id", search.RecordQuery{Keys: keys(search.KeyContractID, "CT103920171428053")}, []string{"checkbook:payment:20180011164-1-DSB-AD"}},
			{"bbl", search.RecordQuery{Keys: keys(search.KeyBBL, "1000380001", "1000000000")}, []string{"mappluto:lot:1000380001"}},
			{"ids", search.RecordQuery{IDs: []string{"checkbook:payroll:1"}}, []string{"checkbook:payroll:1"}},
			{"no match", search.RecordQuery{Keys: keys(search.KeyPIN, "99999X9999")}, []string{}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { assertIDs(t, idsOf(find(t, c.q)), c.want) })
		}
	})
	t.Run("Paging", func(t *testing.T) {
		var got []string
		q := search.RecordQuery{Limit: 3}
		for pages := 0; pages < 5; pages++ {
			p := find(t, q)
			if p.Total != len(all) {
				t.Errorf("total %d, want %d", p.Total, len(all))
			}
			got = append(got, idsOf(p)...)
			if p.NextCursor == "" {
				break
			}
			q.Cursor = p.NextCursor
		}
		assertSeq(t, got, idsOf(find(t, search.RecordQuery{})))
		if _, err := b.FindRecords(ctx, search.RecordQuery{Kinds: sourceKinds, Cursor: "nonsense"}); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("bad cursor: %v", err)
		}
		if _, err := b.FindRecords(ctx, search.RecordQuery{Kinds: sourceKinds, Limit: search.MaxRecordLimit + 1}); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("limit: %v", err)
		}
	})
	t.Run("TotalsByKindAndFiscalYear", func(t *testing.T) {
		got, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: []string{"contract"}, Keys: map[string][]string{search.KeyAgencyID: {"design-and-construction"}}},
			[]string{search.KeyFiscalYear}, 0)
		if err != nil {
			t.Fatal(err)
		}
		// a "0" amount is counted, never summed; the largest sum first
		want := []search.Bucket{{Value: "2022", Count: 2, ValidAmounts: 2, Amount: 419717845.27}, {Value: "2016", Count: 1}}
		if got.Count != 3 || got.ValidAmounts != 2 || !sameJSON(got.Groups[search.KeyFiscalYear], want) {
			t.Errorf("totals %s, want 3 records and fiscal years %s", js(got), js(want))
		}
		kinds, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: sourceKinds}, []string{search.GroupByKind}, 0)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, bk := range kinds.Groups[search.GroupByKind] {
			n += bk.Count
		}
		if n != len(all) || kinds.Count != len(all) {
			t.Errorf("totals by kind count %d (%d), want %d", n, kinds.Count, len(all))
		}
	})
	t.Run("Coverage", func(t *testing.T) {
		cov, err := b.RecordCoverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []record.SourceCoverage{
			{Source: "checkbook", Label: "label checkbook", RecordType: "contract", Records: 3, FirstSourceDate: "2015-07-20", LastSourceDate: "2021-08-18"},
			{Source: "checkbook", Label: "label checkbook", RecordType: "payment", Records: 1, FirstSourceDate: "2017-07-17", LastSourceDate: "2017-07-17"},
			{Source: "checkbook", Label: "label checkbook", RecordType: "payment.payroll", Records: 1, FirstSourceDate: "2011-01-31", LastSourceDate: "2011-01-31"},
			{Source: "contracts", Label: "label contracts", RecordType: "contract", Records: 1, FirstSourceDate: "2026-06-16", LastSourceDate: "2026-06-16"},
			{Source: "mappluto", Label: "label mappluto", RecordType: "lot", Records: 1},
		}
		for i := range want {
			want[i].ObservedAt = time.Date(2026, 4, 21, 0, 0, 0, 0, time.UTC)
		}
		if !sameJSON(cov, want) {
			t.Errorf("coverage\n got %s\nwant %s", js(cov), js(want))
		}
	})
	t.Run("AgencyNames", func(t *testing.T) {
		// the notices' raw agency strings (NoticeAgencyNames) and the
		// records' (RecordTotals grouped by agency_raw, per source): the
		// entity views read both
		names, err := b.NoticeAgencyNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[search.AgencyName]bool{}
		for _, d := range docs {
			want[search.AgencyName{Raw: d.Notice.AgencyRaw, Source: d.Notice.Source}] = true
		}
		got := map[search.AgencyName]bool{}
		for _, n := range names {
			if n.Records < 1 {
				t.Errorf("%+v has no records", n)
			}
			got[search.AgencyName{Raw: n.Raw, Source: n.Source}] = true
		}
		if !sameJSON(keysOf(got), keysOf(want)) {
			t.Errorf("notice agency names\n got %v\nwant %v", keysOf(got), keysOf(want))
		}
		if !slices.IsSortedFunc(names, func(a, b search.AgencyName) int {
			if a.Source != b.Source {
				return cmpStr(a.Source, b.Source)
			}
			return cmpStr(a.Raw, b.Raw)
		}) {
			t.Error("agency names are not sorted by source, then string")
		}
		for _, src := range []string{"checkbook", "contracts"} {
			tot, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: sourceKinds, Sources: []string{src}}, []string{search.KeyAgencyRaw}, 0)
			if err != nil {
				t.Fatal(err)
			}
			wantN := map[string]int{}
			for _, r := range all {
				if r.Source == src && len(r.Keys[search.KeyAgencyRaw]) > 0 {
					wantN[r.Keys[search.KeyAgencyRaw][0]]++
				}
			}
			gotN := map[string]int{}
			for _, bk := range tot.Groups[search.KeyAgencyRaw] {
				gotN[bk.Value] = bk.Count
			}
			if !sameJSON(gotN, wantN) {
				t.Errorf("%s record agency names %v, want %v", src, gotN, wantN)
			}
			if src == "checkbook" && gotN["Department of Design and Construction"] != 3 {
				t.Errorf("Department of Design and Construction: %d records, want 3", gotN["Department of Design and Construction"])
			}
		}
	})
	t.Run("NoticeTotals", func(t *testing.T) {
		groups := []string{search.GroupVendorStem, search.GroupFiscalYear, search.GroupAgencyID, search.GroupNoticeType, search.GroupVendorName, search.GroupAgencyRaw, search.GroupSource}
		qs := []search.Query{
			{},
			{NoticeTypes: []string{"Award", "Intent to Award"}},
			{VendorStems: []string{derived(vendorStems, "Securus Technologies, Inc.")}},
			{AgencyIDs: []string{docs[0].Notice.AgencyID}, Text: "child"},
		}
		for _, q := range qs {
			got, err := b.NoticeTotals(ctx, q, groups, 2)
			if err != nil {
				t.Fatal(err)
			}
			res := mustSearch(t, b, search.Query{Text: q.Text, NoticeTypes: q.NoticeTypes, VendorStems: q.VendorStems, AgencyIDs: q.AgencyIDs, Limit: 100})
			acc := search.NewTotalsAccumulator(groups)
			for _, h := range res.Hits {
				acc.Add(h.Notice)
			}
			want := acc.Totals(2)
			if !sameJSON(normTimes(got), normTimes(want)) {
				t.Errorf("totals of %+v\n got %s\nwant %s", q, js(normTimes(got)), js(normTimes(want)))
			}
		}
		if _, err := b.NoticeTotals(ctx, search.Query{}, []string{"colour"}, 5); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("unknown grouping: %v", err)
		}
	})
	t.Run("PINPrefixes", func(t *testing.T) {
		res := mustSearch(t, b, search.Query{PINPrefixes: []string{"06814L0041"}})
		assertIDs(t, ids(res), []string{"20140930007"})
		res = mustSearch(t, b, search.Query{PINPrefixes: []string{"85726B0061", "06807N0007"}, Sort: search.SortOldest})
		assertIDs(t, ids(res), []string{"20141118014", "20260624038"})
		if res.Scope.Searched.Filters["pin_prefix"] != "85726B0061,06807N0007" {
			t.Errorf("searched filters %v", res.Scope.Searched.Filters)
		}
	})
	t.Run("Delete", func(t *testing.T) {
		if err := b.DeleteRecords(ctx, "payment.payroll", []string{"checkbook:payroll:1"}); err != nil {
			t.Fatal(err)
		}
		if p := find(t, search.RecordQuery{Kinds: []string{"payment.payroll"}}); p.Total != 0 {
			t.Errorf("deleted record still held: %v", idsOf(p))
		}
		// deleting one contract row keeps the other rows of its contract
		gone, kept := "checkbook:contract:CTR85020131408259:239", "checkbook:contract:CTR85020131408259:240"
		if err := b.DeleteRecords(ctx, "contract", []string{gone}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.GetRecord(ctx, "contract", gone); record.ErrorCode(err) != record.ENOTFOUND {
			t.Errorf("deleted contract still held: %v", err)
		}
		if p := find(t, search.RecordQuery{IDs: []string{gone}}); p.Total != 0 {
			t.Errorf("deleted contract still found")
		}
		if r, err := b.GetRecord(ctx, "contract", kept); err != nil || r.ID != kept {
			t.Errorf("kept contract: %+v %v", r, err)
		}
		if cov, _ := b.RecordCoverage(ctx); len(cov) == 0 || cov[0].Records != 2 {
			t.Errorf("coverage after deletes %s", js(cov))
		}
	})
}

func keysOf(m map[search.AgencyName]bool) []search.AgencyName {
	out := make([]search.AgencyName, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	search.SortAgencyNames(out)
	return out
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// normTimes compares first/last dates as instants.
func normTimes(t search.Totals) search.Totals {
	t.First, t.Last = t.First.UTC(), t.Last.UTC()
	return t
}
