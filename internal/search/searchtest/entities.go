package searchtest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// EntryFixtures are entries whose values are copied from real rows: the
// Checkbook NYC documentation samples (contracts, spending, payroll), a
// registered contract of the cityscroll read model (Crown Heights
// Preservation Committee, PIN 12522P0001001R004) and a MapPLUTO lot
// centroid of a ZAP project lot.
func EntryFixtures() []search.Entry {
	observed := time.Date(2026, 4, 21, 0, 0, 0, 0, time.UTC)
	cw := entity.DefaultCrosswalk()
	mk := func(id, source, kind, agency, vendor, contract, pin, date string, amount string) search.Entry {
		a := cw.Resolve(agency)
		e := search.Entry{ID: id, Source: source, Kind: kind, AgencyRaw: agency, AgencyID: a.ID, AgencyName: a.Name,
			VendorName: vendor, VendorStem: entity.VendorStem(vendor), ContractID: contract, PIN: pin, PINBase: entity.PINBase(pin),
			SourceLabel: "label " + source, ObservedAt: observed, AmountRaw: amount}
		if agency == "" {
			e.AgencyID, e.AgencyName = "", ""
		}
		if date != "" {
			// dated as the sources date each kind (registration, check
			// issue, pay date)
			e.Date, e.DateLabel = day(date), map[string]string{search.EntryContract: "registered",
				search.EntryPayment: "issued", search.EntryPayroll: "paid"}[kind]
			e.FiscalYear = record.FiscalYear(e.Date)
		}
		if amount != "" {
			e.Amount, e.AmountValid = record.ParseAmount(amount)
			if !e.AmountValid {
				e.Amount = 0
			}
		}
		return e
	}
	lot := mk("mappluto:lot:1000380001", "mappluto", search.EntryLot, "", "", "", "", "", "")
	lot.BBL = "1000380001"
	lot.Geometry = json.RawMessage(`{"type":"Point","coordinates":[-74.0067554,40.7052441]}`)
	return []search.Entry{
		mk("checkbook:contract:CT185020151429177:1", "checkbook", search.EntryContract, "Department of Design and Construction",
			"CDE AIR CONDITIONING CO INC", "CT185020151429177", "85015B0065001C021", "2015-07-20", "0"),
		mk("checkbook:contract:CTR85020131408259:239", "checkbook", search.EntryContract, "Department of Design and Construction",
			"SKANSKA-TREVCON JV", "CTR85020131408259", "85013B0017001C237", "2021-08-13", "209938022.91"),
		mk("checkbook:contract:CTR85020131408259:240", "checkbook", search.EntryContract, "Department of Design and Construction",
			"SKANSKA-TREVCON JV", "CTR85020131408259", "85013B0017001C235", "2021-08-18", "209779822.36"),
		mk("checkbook:payment:20180011164-1-DSB-AD", "checkbook", search.EntryPayment, "Queens Borough Public Library",
			"NEW CASTLE COMMUNICATIONS INC", "CT103920171428053", "", "2017-07-17", "35775.00"),
		mk("checkbook:payroll:1", "checkbook", search.EntryPayroll, "Department of Education", "", "", "", "2011-01-31", "58654.89"),
		mk("contracts:procurement:contract:CT112520278800354", "contracts", search.EntryContract, "Aging",
			"CROWN HEIGHTS PRESERVATION COMMITTEE CORP.", "CT112520278800354", "12522P0001001R004", "2026-06-16", "738202"),
		lot,
	}
}

// testEntities is the contract of the entity views: entries by every
// filter, order and paging, totals, coverage, raw agency names, notice
// totals and PIN prefixes.
func testEntities(t *testing.T, open Opener) {
	ctx := context.Background()
	b0 := open(t)
	t.Cleanup(func() { b0.Close() })
	eb, ok := search.Entities(b0)
	if !ok {
		t.Fatalf("%s holds no entries (search.Entities)", b0.Name())
	}
	b := struct {
		search.Backend
		search.EntityBackend
	}{b0, eb}
	docs := Fixtures()
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	entries := EntryFixtures()
	if err := b.UpsertEntries(ctx, entries); err != nil {
		t.Fatal(err)
	}
	if err := b.UpsertEntries(ctx, entries); err != nil { // idempotent
		t.Fatal(err)
	}
	entryIDs := func(r search.EntryResult) []string {
		out := []string{}
		for _, e := range r.Entries {
			out = append(out, e.ID)
		}
		return out
	}
	mustEntries := func(t *testing.T, q search.EntryQuery) search.EntryResult {
		t.Helper()
		r, err := b.Entries(ctx, q)
		if err != nil {
			t.Fatalf("entries %+v: %v", q, err)
		}
		if q.Cursor == "" && r.Total != len(r.Entries) && r.NextCursor == "" {
			t.Errorf("total %d but %d entries and no cursor", r.Total, len(r.Entries))
		}
		return r
	}

	t.Run("EntriesOrderAndRoundTrip", func(t *testing.T) {
		r := mustEntries(t, search.EntryQuery{})
		// by date, oldest first; undated last; ties by id
		assertSeq(t, entryIDs(r), []string{
			"checkbook:payroll:1", "checkbook:contract:CT185020151429177:1", "checkbook:payment:20180011164-1-DSB-AD",
			"checkbook:contract:CTR85020131408259:239", "checkbook:contract:CTR85020131408259:240",
			"contracts:procurement:contract:CT112520278800354", "mappluto:lot:1000380001",
		})
		byID := map[string]search.Entry{}
		for _, e := range entries {
			byID[e.ID] = e
		}
		for _, e := range r.Entries {
			if !sameJSON(e, byID[e.ID]) {
				t.Errorf("entry %s differs\n got %s\nwant %s", e.ID, js(e), js(byID[e.ID]))
			}
		}
	})
	t.Run("EntryFilters", func(t *testing.T) {
		cases := []struct {
			name string
			q    search.EntryQuery
			want []string
		}{
			{"pin exact, any case", search.EntryQuery{PINs: []string{"85013b0017001c237"}}, []string{"checkbook:contract:CTR85020131408259:239"}},
			{"pin base", search.EntryQuery{PINBases: []string{"85013B0017"}}, []string{"checkbook:contract:CTR85020131408259:239", "checkbook:contract:CTR85020131408259:240"}},
			{"renewal pin", search.EntryQuery{PINs: []string{"12522P0001001R004"}}, []string{"contracts:procurement:contract:CT112520278800354"}},
			{"vendor stem", search.EntryQuery{VendorStems: []string{entity.VendorStem("Skanska-Trevcon JV")}}, []string{"checkbook:contract:CTR85020131408259:239", "checkbook:contract:CTR85020131408259:240"}},
			{"agency id", search.EntryQuery{AgencyIDs: []string{"public-library-queens"}}, []string{"checkbook:payment:20180011164-1-DSB-AD"}},
			{"kind", search.EntryQuery{Kinds: []string{search.EntryPayroll}}, []string{"checkbook:payroll:1"}},
			{"source and kind", search.EntryQuery{Sources: []string{"contracts"}, Kinds: []string{search.EntryContract}}, []string{"contracts:procurement:contract:CT112520278800354"}},
			{"contract id", search.EntryQuery{ContractIDs: []string{"CT103920171428053"}}, []string{"checkbook:payment:20180011164-1-DSB-AD"}},
			{"bbl", search.EntryQuery{BBLs: []string{"1000380001", "1000000000"}}, []string{"mappluto:lot:1000380001"}},
			{"ids", search.EntryQuery{IDs: []string{"checkbook:payroll:1"}}, []string{"checkbook:payroll:1"}},
			{"no match", search.EntryQuery{PINs: []string{"99999X9999"}}, []string{}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) { assertIDs(t, entryIDs(mustEntries(t, c.q)), c.want) })
		}
	})
	t.Run("EntryPaging", func(t *testing.T) {
		var got []string
		q := search.EntryQuery{Limit: 3}
		for pages := 0; pages < 5; pages++ {
			r := mustEntries(t, q)
			if r.Total != len(entries) {
				t.Errorf("total %d, want %d", r.Total, len(entries))
			}
			got = append(got, entryIDs(r)...)
			if r.NextCursor == "" {
				break
			}
			q.Cursor = r.NextCursor
		}
		all := entryIDs(mustEntries(t, search.EntryQuery{}))
		assertSeq(t, got, all)
		if _, err := b.Entries(ctx, search.EntryQuery{Cursor: "nonsense"}); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("bad cursor: %v", err)
		}
		if _, err := b.Entries(ctx, search.EntryQuery{Limit: search.MaxEntryLimit + 1}); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("limit: %v", err)
		}
	})
	t.Run("EntryTotals", func(t *testing.T) {
		r := mustEntries(t, search.EntryQuery{AgencyIDs: []string{"design-and-construction"}, Totals: true, Limit: 1})
		want := []search.EntryTotal{
			{Kind: search.EntryContract, FiscalYear: 2016, Count: 1, ValidAmounts: 0, Amount: 0},
			{Kind: search.EntryContract, FiscalYear: 2022, Count: 2, ValidAmounts: 2, Amount: 419717845.27},
		}
		if !sameJSON(r.Totals, want) {
			t.Errorf("totals %s, want %s", js(r.Totals), js(want))
		}
		r = mustEntries(t, search.EntryQuery{Totals: true})
		n := 0
		for _, tot := range r.Totals {
			n += tot.Count
		}
		if n != len(entries) {
			t.Errorf("totals count %d entries, want %d", n, len(entries))
		}
	})
	t.Run("EntryCoverage", func(t *testing.T) {
		cov, err := b.EntryCoverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []record.SourceCoverage{
			{Source: "checkbook", Label: "label checkbook", RecordType: "contract", Records: 3, FirstSourceDate: "2015-07-20", LastSourceDate: "2021-08-18"},
			{Source: "checkbook", Label: "label checkbook", RecordType: "payment", Records: 1, FirstSourceDate: "2017-07-17", LastSourceDate: "2017-07-17"},
			{Source: "checkbook", Label: "label checkbook", RecordType: "payroll", Records: 1, FirstSourceDate: "2011-01-31", LastSourceDate: "2011-01-31"},
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
		names, err := b.AgencyNames(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := map[search.AgencyName]bool{}
		for _, d := range docs {
			k := search.AgencyName{Raw: d.Notice.AgencyRaw, Source: d.Notice.Source}
			want[k] = true
		}
		for _, e := range entries {
			if e.AgencyRaw != "" {
				want[search.AgencyName{Raw: e.AgencyRaw, Source: e.Source}] = true
			}
		}
		got := map[search.AgencyName]bool{}
		for _, n := range names {
			if n.Records < 1 {
				t.Errorf("%+v has no records", n)
			}
			got[search.AgencyName{Raw: n.Raw, Source: n.Source}] = true
		}
		if !sameJSON(keysOf(got), keysOf(want)) {
			t.Errorf("agency names\n got %v\nwant %v", keysOf(got), keysOf(want))
		}
		for _, n := range names {
			if n.Raw == "Department of Design and Construction" && n.Records != 3 {
				t.Errorf("%+v: want 3 records", n)
			}
		}
		if !slices.IsSortedFunc(names, func(a, b search.AgencyName) int {
			if a.Source != b.Source {
				return cmpStr(a.Source, b.Source)
			}
			return cmpStr(a.Raw, b.Raw)
		}) {
			t.Error("agency names are not sorted by source, then string")
		}
	})
	t.Run("NoticeTotals", func(t *testing.T) {
		groups := []string{search.GroupVendorStem, search.GroupFiscalYear, search.GroupAgencyID, search.GroupNoticeType, search.GroupVendorName, search.GroupAgencyRaw, search.GroupSource}
		qs := []search.Query{
			{},
			{NoticeTypes: []string{"Award", "Intent to Award"}},
			{VendorStems: []string{entity.VendorStem("Securus Technologies, Inc.")}},
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
	t.Run("DeleteEntries", func(t *testing.T) {
		if err := b.DeleteEntries(ctx, []string{"checkbook:payroll:1"}); err != nil {
			t.Fatal(err)
		}
		r := mustEntries(t, search.EntryQuery{Kinds: []string{search.EntryPayroll}})
		if r.Total != 0 {
			t.Errorf("deleted entry still held: %v", entryIDs(r))
		}
		// a contract entry is its registered contract (its one store, same
		// id): deleting the entry deletes the contract; the other stays.
		// Writing the contracts again through ContractKind replaces the
		// records the entries wrote (no second copy).
		rs, ok := b0.(search.Records)
		if !ok {
			return
		}
		contracts := search.ContractsOf(entries)
		if len(contracts) != 4 {
			t.Fatalf("%d contracts of the fixtures", len(contracts))
		}
		if err := search.Put(ctx, rs, search.ContractKind, contracts); err != nil {
			t.Fatal(err)
		}
		gone, kept := contracts[0].ID, contracts[1].ID
		if err := b.DeleteEntries(ctx, []string{gone}); err != nil {
			t.Fatal(err)
		}
		if _, err := search.Get(ctx, rs, search.ContractKind, gone); record.ErrorCode(err) != record.ENOTFOUND {
			t.Errorf("contract of a deleted entry still held: %v", err)
		}
		if r := mustEntries(t, search.EntryQuery{IDs: []string{gone}}); r.Total != 0 {
			t.Errorf("deleted contract entry still held")
		}
		if c, err := search.Get(ctx, rs, search.ContractKind, kept); err != nil || c.ID != kept {
			t.Errorf("contract of a kept entry: %+v %v", c, err)
		}
		if r := mustEntries(t, search.EntryQuery{IDs: []string{kept}}); r.Total != 1 {
			t.Errorf("kept contract entry: %d", r.Total)
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
