package indexer

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Moved from internal/search/embedded (TestVendorFilterFindsLegacyStems):
// records indexed before the vendor stem rule changed keep their old stems
// ("ABC INC", "A B C", "HO-TRAN"). The engines no longer widen a stem
// filter to them; instead the kind-version bump (ContractKind 3,
// PaymentKind 2) makes the next start re-link the data directory
// (EnsureSampleRecords → Relink): the contracts of the older version are
// linked again and written in the current layout, the notices held are
// linked again, and a filter by the current stem then finds them all, on
// notices and records, with the vendor named once in the scope. Re-linking
// again finds nothing to do.
func TestRelinkRewritesEarlierRuleStems(t *testing.T) {
	b := drillEngine(t, "embedded")
	ctx := context.Background()
	ix := sampleIndexer(b)
	day := time.Date(2014, 10, 7, 0, 0, 0, 0, record.NewYork)
	notice := func(id, vendor, stem string) search.Doc {
		return search.Doc{Notice: record.Notice{RequestID: id, Source: "crol", Section: "Procurement", Lens: record.LensMoney,
			Lenses: []string{record.LensMoney}, NoticeType: "Award", Title: "SERVICES", StartDate: day, VendorName: vendor, VendorStem: stem,
			AgencyRaw: "Parks and Recreation", AgencyID: "parks-and-recreation"}}
	}
	docs := []search.Doc{
		notice("1", "ABC Inc.", "ABC INC"),    // old rule
		notice("2", "ABC Corp", "ABC CORP"),   // old rule
		notice("3", "A.B.C. LLC", "A B C"),    // old rule
		notice("4", "ABC, LLC", "ABC"),        // new rule
		notice("5", "ABCD Inc.", "ABCD"),      // another vendor
		notice("6", "Ho-Tran Inc", "HO-TRAN"), // old rule
		notice("7", "HO TRAN INC", "HO TRAN"), // both rules
		notice("8", "ABC Construction", "ABC CONSTRUCTION"),
	}
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	// contracts written by the previous layout (version 2) with old stems
	contract := func(id, vendor, stem string) search.Record {
		c := record.Contract{ID: id, Source: "checkbook", ContractID: id[len("checkbook:contract:"):], VendorName: vendor, VendorStem: stem,
			RegisteredOn: day, FiscalYear: 2015}
		r, err := procure.ContractKind.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		r.Keys[search.KeyKindVersion] = []string{"2"}
		return r
	}
	if err := b.PutRecords(ctx, []search.Record{
		contract("checkbook:contract:1", "ABC Inc.", "ABC INC"), contract("checkbook:contract:2", "Ho-Tran Inc", "HO-TRAN"),
		contract("checkbook:contract:3", "ABCD Inc.", "ABCD"),
	}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		asked   string
		notices []string
		records []string
	}{
		{"ABC", []string{"1", "2", "3", "4"}, []string{"checkbook:contract:1"}},
		{entity.VendorStem("A.B.C. L.L.C."), []string{"1", "2", "3", "4"}, []string{"checkbook:contract:1"}},
		{entity.VendorStem(entity.StemFromSlug("ho-tran")), []string{"6", "7"}, []string{"checkbook:contract:2"}},
		{entity.VendorStem(entity.StemFromSlug("ho~tran")), []string{"6", "7"}, []string{"checkbook:contract:2"}}, // an old permalink
	}
	find := func(asked string) (notices, records []string, scope string) {
		res, err := b.Search(ctx, search.Query{VendorStems: []string{asked}, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			notices = append(notices, h.Notice.RequestID)
		}
		slices.Sort(notices)
		page, err := b.FindRecords(ctx, search.RecordQuery{Keys: map[string][]string{search.KeyVendorStem: {asked}}, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range page.Records {
			if !search.IsDerived(r.Kind) { // a notice's vector record carries its stem too
				records = append(records, r.ID)
			}
		}
		return notices, records, res.Scope.Searched.Filters["vendor"]
	}
	// before: the engine matches stems as stored, so the old ones are missed
	if got, _, _ := find("ABC"); !slices.Equal(got, []string{"4"}) {
		t.Fatalf("before re-linking, ABC finds %v: the engine still widens stems", got)
	}

	rep, err := ix.Relink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records != 3 || rep.Notices != 4 { // notices 1, 2, 3 and 6 held an old stem
		t.Errorf("re-linked %+v, want 3 records and 4 notices", rep)
	}
	for _, tc := range cases {
		notices, records, scope := find(tc.asked)
		if !slices.Equal(notices, tc.notices) {
			t.Errorf("notices of %q = %v, want %v", tc.asked, notices, tc.notices)
		}
		if !slices.Equal(records, tc.records) {
			t.Errorf("records of %q = %v, want %v", tc.asked, records, tc.records)
		}
		if scope != entity.VendorStem(tc.asked) {
			t.Errorf("scope of %q names vendor %q", tc.asked, scope)
		}
	}
	tot, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: []string{procure.ContractKind.Name},
		Keys: map[string][]string{search.KeyKindVersion: {procure.ContractKind.VersionKey()}}}, nil, 0)
	if err != nil || tot.Count != 3 {
		t.Errorf("contracts of the current layout after re-linking: %d %v", tot.Count, err)
	}
	if again, err := ix.Relink(ctx); err != nil || again != (RelinkReport{}) {
		t.Errorf("re-linking again: %+v %v", again, err)
	}
}

// A data directory whose joins by PIN were written in an older link layout
// (joins.Kind version 1: no PIN group, no notice ↔ notice or
// contract ↔ contract links, no payment → PIN links) gets the joins of
// its registrations, payments and notices written again at the next
// start, in the current layout; a join
// of the older layout whose record is gone is deleted. Re-linking again
// finds nothing to do.
func TestRelinkWritesJoinsOfAnOlderLinkLayout(t *testing.T) {
	b := drillEngine(t, "embedded")
	ctx := context.Background()
	ix := sampleIndexer(b)
	day := time.Date(2022, 7, 6, 0, 0, 0, 0, record.NewYork)
	notice := func(id, pin string) search.Doc {
		return search.Doc{Notice: record.Notice{RequestID: id, Source: "crol", Section: "Procurement", NoticeType: "Award", Title: "SERVICES",
			StartDate: day, PIN: pin, AgencyRaw: "Aging", AgencyID: "aging"}}
	}
	if err := b.Upsert(ctx, []search.Doc{notice("20220706041", "12522P0001001R002"), notice("20240705012", "12522P0001001R004")}); err != nil {
		t.Fatal(err)
	}
	c, err := procure.ContractKind.Encode(record.Contract{ID: "contracts:1", Source: "contracts", ContractID: "CT1", PIN: "12522P0001003",
		PINBase: "12522P0001", RegisteredOn: day, FiscalYear: 2023})
	if err != nil {
		t.Fatal(err)
	}
	old := func(from, to record.Ref, method string) search.Record {
		r, err := joins.Kind.Encode(record.NewLink(from, to, "12522P0001", method, entity.ConfidenceLow, false, "old"))
		if err != nil {
			t.Fatal(err)
		}
		r.Keys[search.KeyKindVersion] = []string{"1"}
		delete(r.Keys, joins.KeyPINGroup)
		return r
	}
	pay, err := procure.PaymentKind.Encode(procure.Payment{ID: "checkbook:payment:1", Source: "checkbook", ContractID: "CT9",
		PIN: "12522P0001001R003", PINBase: "12522P0001", Date: day, FiscalYear: 2023})
	if err != nil {
		t.Fatal(err)
	}
	contract := record.Ref{Kind: record.RefContract, ID: "contracts:1"}
	if err := b.PutRecords(ctx, []search.Record{c, pay,
		old(record.Ref{Kind: record.RefNotice, ID: "20220706041"}, contract, entity.PINPrefix),
		old(record.Ref{Kind: record.RefNotice, ID: "19990101001"}, contract, entity.PINPrefix), // its notice is gone
	}); err != nil {
		t.Fatal(err)
	}
	rep, err := ix.Relink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records != 0 || rep.Links == 0 {
		t.Errorf("re-linked %+v, want link records only", rep)
	}
	p, err := search.Find(ctx, b, joins.Kind, search.RecordQuery{Sort: search.RecordSortID, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range p.Items {
		got = append(got, l.ID+" "+l.Method)
	}
	want := []string{
		"notice:20220706041→contract:contracts:1 prefix",
		"notice:20220706041→notice:20240705012 renewal",
		"notice:20240705012→contract:contracts:1 prefix",
		"payment:checkbook:payment:1→pin:12522P0001001 renewal",
	}
	if !slices.Equal(got, want) {
		t.Errorf("links after re-linking:\n%v\nwant\n%v", got, want)
	}
	for _, r := range p.Records {
		if v := r.Keys[search.KeyKindVersion]; !slices.Equal(v, []string{joins.Kind.VersionKey()}) || !slices.Equal(r.Keys[joins.KeyPINGroup], []string{"12522P0001"}) {
			t.Errorf("link %s: version %v, PIN group %v", r.ID, v, r.Keys[joins.KeyPINGroup])
		}
	}
	if again, err := ix.Relink(ctx); err != nil || again != (RelinkReport{}) {
		t.Errorf("re-linking again: %+v %v", again, err)
	}
}
