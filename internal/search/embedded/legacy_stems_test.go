package embedded_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// Records indexed before the vendor stem rule changed keep their old stems
// ("ABC INC", "A B C", "HO-TRAN"); a filter by the current stem finds them
// all, on notices, entries and records, and the scope names the vendor once.
func TestVendorFilterFindsLegacyStems(t *testing.T) {
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	day := time.Date(2014, 10, 7, 0, 0, 0, 0, record.NewYork)
	notice := func(id, vendor, stem string) search.Doc {
		return search.Doc{Notice: record.Notice{RequestID: id, Source: "crol", Section: "Procurement", Lens: record.LensMoney,
			Lenses: []string{record.LensMoney}, NoticeType: "Award", Title: "SERVICES", StartDate: day, VendorName: vendor, VendorStem: stem}}
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
	contract := func(id, stem string) search.Record {
		return search.Record{Kind: "contract", ID: id, Source: "checkbook", Keys: map[string][]string{search.KeyVendorStem: {stem}}, Date: day, DateLabel: "registered"}
	}
	if err := b.PutRecords(ctx, []search.Record{
		contract("checkbook:contract:1", "ABC INC"), contract("checkbook:contract:2", "HO-TRAN"), contract("checkbook:contract:3", "ABCD"),
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		asked   string
		notices []string
		entries []string
	}{
		{"ABC", []string{"1", "2", "3", "4"}, []string{"checkbook:contract:1"}},
		{"ABC INC", []string{"1", "2", "3", "4"}, []string{"checkbook:contract:1"}}, // an old stem in an old link
		{entity.VendorStem("A.B.C. L.L.C."), []string{"1", "2", "3", "4"}, []string{"checkbook:contract:1"}},
		{entity.VendorStem(entity.StemFromSlug("ho-tran")), []string{"6", "7"}, []string{"checkbook:contract:2"}},
		{entity.VendorStem(entity.StemFromSlug("ho~tran")), []string{"6", "7"}, []string{"checkbook:contract:2"}}, // an old permalink
	} {
		res, err := b.Search(ctx, search.Query{VendorStems: []string{tc.asked}, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Notice.RequestID)
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.notices) {
			t.Errorf("notices of %q = %v, want %v", tc.asked, got, tc.notices)
		}
		if f := res.Scope.Searched.Filters["vendor"]; f != entity.VendorStem(tc.asked) {
			t.Errorf("scope of %q names vendor %q", tc.asked, f)
		}
		page, err := b.FindRecords(ctx, search.RecordQuery{Keys: map[string][]string{search.KeyVendorStem: {tc.asked}}, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		got = nil
		for _, r := range page.Records {
			got = append(got, r.ID)
		}
		if !slices.Equal(got, tc.entries) {
			t.Errorf("records of %q = %v, want %v", tc.asked, got, tc.entries)
		}
	}
}

// A stem that joined initials finds its mentions written with periods.
func TestMentionQueryFindsInitials(t *testing.T) {
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	day := time.Date(2014, 10, 7, 0, 0, 0, 0, record.NewYork)
	text := "RECONSTRUCTION OF BRIDGE - PIN# 84114B0001 - AMT: $1.00 - TO: C.A.C. Industries, Inc., 555 Old Country Road"
	if err := b.Upsert(ctx, []search.Doc{{Notice: record.Notice{RequestID: "1", Source: "crol", Section: "Procurement", Lens: record.LensMoney,
		Lenses: []string{record.LensMoney}, NoticeType: "Award", Title: "RECONSTRUCTION OF BRIDGE", StartDate: day, Body: text, Text: text}}}); err != nil {
		t.Fatal(err)
	}
	q := entity.MentionQuery(entity.VendorStem("C.A.C. INDUSTRIES, INC."))
	res, err := b.Search(ctx, search.Query{Text: q, Limit: 5})
	if err != nil || res.Total != 1 {
		t.Errorf("%s: %d %v", q, res.Total, err)
	}
}
