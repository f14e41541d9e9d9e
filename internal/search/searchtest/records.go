package searchtest

import (
	"context"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Two fixture kinds that share key names (agency_id, vendor_stem) and ids,
// so every read shows that kinds stay apart. They are declared the way a
// real kind is: a type and a search.Kind, no engine change.

// Award is the body of the fixture kind "test.award".
type Award struct {
	ID       string    `json:"id"`
	Source   string    `json:"source"`
	Agency   string    `json:"agency,omitempty"`
	Vendor   string    `json:"vendor,omitempty"`
	Tags     []string  `json:"tags,omitempty"`
	Awarded  time.Time `json:"awarded,omitzero"`
	Amount   float64   `json:"amount,omitempty"`
	Valid    bool      `json:"valid"`
	Observed time.Time `json:"observed,omitzero"`
}

// Grant is the body of the fixture kind "test.grant".
type Grant struct {
	ID     string    `json:"id"`
	Source string    `json:"source"`
	Agency string    `json:"agency"`
	Vendor string    `json:"vendor,omitempty"`
	Paid   time.Time `json:"paid,omitzero"`
	Amount float64   `json:"amount"`
}

// AwardKind and GrantKind are the fixture kinds.
var (
	AwardKind = search.Kind[Award]{Name: "test.award", Index: func(a Award) search.Record {
		keys := map[string][]string{}
		if a.Agency != "" {
			keys["agency_id"] = []string{a.Agency}
		}
		if a.Vendor != "" {
			keys["vendor_stem"] = []string{a.Vendor}
		}
		if len(a.Tags) > 0 {
			keys["tag"] = a.Tags
		}
		return search.Record{ID: a.ID, Source: a.Source, SourceLabel: "label " + a.Source, ObservedAt: a.Observed, Keys: keys,
			Date: a.Awarded, DateLabel: "awarded", Amount: a.Amount, AmountValid: a.Valid, Title: "award " + a.ID}
	}}
	GrantKind = search.Kind[Grant]{Name: "test.grant", Index: func(g Grant) search.Record {
		keys := map[string][]string{"agency_id": {g.Agency}}
		if g.Vendor != "" {
			keys["vendor_stem"] = []string{g.Vendor}
		}
		return search.Record{ID: g.ID, Source: g.Source, SourceLabel: "grants", Keys: keys, Date: g.Paid, DateLabel: "paid",
			Amount: g.Amount, AmountValid: g.Amount > 0, Text: "a grant"}
	}}
)

// AwardFixtures and GrantFixtures: dated and undated, valid and invalid
// amounts (an invalid one with a number that must never count), equal
// dates and amounts (ties break by id), a date on a fiscal-year boundary
// in New York time, multi-valued keys, and ids both kinds use.
func AwardFixtures() []Award {
	ny := func(s string) time.Time {
		t, err := time.ParseInLocation("2006-01-02 15:04:05", s, record.NewYork)
		if err != nil {
			panic(err)
		}
		return t
	}
	obs1 := time.Date(2026, 4, 1, 9, 0, 0, 0, time.UTC)
	obs2 := time.Date(2026, 5, 2, 9, 0, 0, 0, time.UTC)
	return []Award{
		{ID: "a1", Source: "alpha", Agency: "parks", Vendor: "ACME", Tags: []string{"x", "y"}, Awarded: ny("2020-03-01 10:00:00"), Amount: 100.10, Valid: true, Observed: obs1},
		{ID: "a2", Source: "alpha", Agency: "parks", Vendor: "BOLT", Tags: []string{"y"}, Awarded: ny("2021-06-30 23:30:00"), Amount: 2500, Valid: true, Observed: obs2},
		{ID: "a3", Source: "alpha", Agency: "sanitation", Vendor: "ACME", Awarded: ny("2021-07-01 00:30:00"), Amount: 999999, Valid: false, Observed: obs1},
		{ID: "a4", Source: "alpha", Agency: "sanitation", Awarded: ny("2020-03-01 10:00:00"), Amount: 2500, Valid: true},
		{ID: "shared", Source: "beta", Agency: "parks", Vendor: "ACME", Tags: []string{"x"}, Amount: 50.05, Valid: true},
		{ID: "a6", Source: "beta", Vendor: "CRANE"},
		{ID: "a7", Source: "beta", Agency: "education", Vendor: "BOLT", Awarded: ny("2019-11-15 12:00:00"), Amount: 0.01, Valid: true},
	}
}

// GrantFixtures are the grants (see AwardFixtures).
func GrantFixtures() []Grant {
	return []Grant{
		{ID: "shared", Source: "alpha", Agency: "parks", Vendor: "ACME", Paid: time.Date(2020, 3, 1, 15, 0, 0, 0, time.UTC), Amount: 75},
		{ID: "g2", Source: "gamma", Agency: "parks", Paid: time.Date(2022, 1, 10, 12, 0, 0, 0, time.UTC), Amount: 0},
		{ID: "g3", Source: "gamma", Agency: "health", Vendor: "BOLT", Amount: 1234.5},
	}
}

// fixtureRecords are the records of the fixtures, as the kinds index them.
func fixtureRecords(t *testing.T) []search.Record {
	var out []search.Record
	for _, a := range AwardFixtures() {
		r, err := AwardKind.Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	for _, g := range GrantFixtures() {
		r, err := GrantKind.Encode(g)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// expectRecords is what a query must return, by the reference semantics
// (search.RecordQuery.Matches and search.RecordLess).
func expectRecords(all []search.Record, q search.RecordQuery) []string {
	var rs []search.Record
	for _, r := range all {
		if q.Matches(r) {
			rs = append(rs, r)
		}
	}
	s := q.Sort
	if s == "" {
		s = search.RecordSortDate
	}
	sort.SliceStable(rs, func(i, j int) bool { return search.RecordLess(s, rs[i], rs[j]) })
	return recordKeys(rs)
}

func recordKeys(rs []search.Record) []string {
	out := []string{}
	for _, r := range rs {
		out = append(out, r.Kind+"/"+r.ID)
	}
	return out
}

// testRecords is the contract of search.Records on the fixture kinds.
func testRecords(t *testing.T, open Opener) {
	ctx := context.Background()
	b := open(t)
	t.Cleanup(func() { b.Close() })
	all := fixtureRecords(t)
	for i := 0; i < 2; i++ { // idempotent
		if err := search.Put(ctx, b, AwardKind, AwardFixtures()); err != nil {
			t.Fatal(err)
		}
		if err := search.Put(ctx, b, GrantKind, GrantFixtures()); err != nil {
			t.Fatal(err)
		}
	}
	find := func(t *testing.T, q search.RecordQuery) search.RecordPage {
		t.Helper()
		p, err := b.FindRecords(ctx, q)
		if err != nil {
			t.Fatalf("find %+v: %v", q, err)
		}
		return p
	}

	t.Run("PutIsIdempotent", func(t *testing.T) {
		p := find(t, search.RecordQuery{})
		if p.Total != len(all) || len(p.Records) != len(all) {
			t.Errorf("%d records (%d on the page), want %d", p.Total, len(p.Records), len(all))
		}
	})
	t.Run("GetRoundTrip", func(t *testing.T) {
		for _, want := range all {
			got, err := b.GetRecord(ctx, want.Kind, want.ID)
			if err != nil {
				t.Fatalf("get %s/%s: %v", want.Kind, want.ID, err)
			}
			if !sameJSON(got, want) {
				t.Errorf("get %s/%s\n got %s\nwant %s", want.Kind, want.ID, js(got), js(want))
			}
		}
		for _, a := range AwardFixtures() {
			got, err := search.Get(ctx, b, AwardKind, a.ID)
			if err != nil || !sameJSON(got, a) {
				t.Errorf("typed get %s: %s %v, want %s", a.ID, js(got), err, js(a))
			}
		}
		g, err := search.Get(ctx, b, GrantKind, "shared")
		if err != nil || g.Source != "alpha" || g.Amount != 75 {
			t.Errorf("the grant that shares an id with an award: %+v %v", g, err)
		}
	})
	t.Run("GetNotFound", func(t *testing.T) {
		for _, c := range [][2]string{{"test.award", "g2"}, {"test.grant", "a1"}, {"test.award", "a"}, {"test.other", "a1"}} {
			if _, err := b.GetRecord(ctx, c[0], c[1]); record.ErrorCode(err) != record.ENOTFOUND {
				t.Errorf("%s/%s: want ENOTFOUND, got %v", c[0], c[1], err)
			}
		}
		if _, err := search.Get(ctx, b, GrantKind, "a1"); record.ErrorCode(err) != record.ENOTFOUND {
			t.Errorf("typed get of another kind's id: %v", err)
		}
	})

	f := func(v float64) *float64 { return &v }
	ny := func(s string) time.Time { t, _ := time.ParseInLocation("2006-01-02", s, record.NewYork); return t }
	filters := []struct {
		name string
		q    search.RecordQuery
		n    int // how many match, so the reference cannot drift unseen
	}{
		{"everything", search.RecordQuery{}, 10},
		{"one kind", search.RecordQuery{Kinds: []string{"test.grant"}}, 3},
		{"kinds", search.RecordQuery{Kinds: []string{"test.grant", "test.award"}}, 10},
		{"unknown kind", search.RecordQuery{Kinds: []string{"test.other"}}, 0},
		{"source", search.RecordQuery{Sources: []string{"alpha"}}, 5},
		{"sources and kind", search.RecordQuery{Sources: []string{"alpha", "gamma"}, Kinds: []string{"test.grant"}}, 3},
		{"ids across kinds", search.RecordQuery{IDs: []string{"shared", "a1"}}, 3},
		{"key", search.RecordQuery{Keys: map[string][]string{"agency_id": {"parks"}}}, 5},
		{"key values are alternatives", search.RecordQuery{Keys: map[string][]string{"agency_id": {"parks", "health"}}}, 6},
		{"keys narrow each other", search.RecordQuery{Keys: map[string][]string{"agency_id": {"parks"}, "vendor_stem": {"ACME"}}}, 3},
		{"key and kind", search.RecordQuery{Kinds: []string{"test.award"}, Keys: map[string][]string{"agency_id": {"parks"}, "vendor_stem": {"ACME"}}}, 2},
		{"multi-valued key", search.RecordQuery{Keys: map[string][]string{"tag": {"y"}}}, 2},
		{"key match is exact", search.RecordQuery{Keys: map[string][]string{"agency_id": {"PARKS"}}}, 0},
		// a vendor stem matches as stored, never widened: the link stage
		// writes every stem under the current rule (a data directory of an
		// earlier rule is re-linked, indexer.Relink)
		{"vendor stem matches as stored", search.RecordQuery{Keys: map[string][]string{"vendor_stem": {"ACME"}}}, 4},
		{"vendor stem is not widened", search.RecordQuery{Keys: map[string][]string{"vendor_stem": {"acme"}}}, 0},
		{"unknown key", search.RecordQuery{Keys: map[string][]string{"colour": {"red"}}}, 0},
		{"date from", search.RecordQuery{From: ny("2021-01-01")}, 3},
		{"date range", search.RecordQuery{From: ny("2020-01-01"), To: ny("2021-07-01")}, 4},
		{"date to", search.RecordQuery{To: ny("2020-01-01")}, 1},
		{"valid amounts only", search.RecordQuery{ValidAmountOnly: true}, 7},
		{"amount at least", search.RecordQuery{MinAmount: f(1000)}, 3},
		{"amount range", search.RecordQuery{MinAmount: f(50.05), MaxAmount: f(100.10)}, 3},
		{"invalid amounts never match a bound", search.RecordQuery{MinAmount: f(900000)}, 0},
		{"everything at once", search.RecordQuery{Kinds: []string{"test.award"}, Sources: []string{"alpha"}, Keys: map[string][]string{"agency_id": {"parks", "sanitation"}},
			From: ny("2020-01-01"), MinAmount: f(1)}, 3},
	}
	for _, c := range filters {
		t.Run("Filters/"+c.name, func(t *testing.T) {
			want := expectRecords(all, c.q)
			if len(want) != c.n {
				t.Fatalf("reference: %d records, the case says %d", len(want), c.n)
			}
			p := find(t, c.q)
			assertSeq(t, recordKeys(p.Records), want)
			if p.Total != c.n {
				t.Errorf("total %d, want %d", p.Total, c.n)
			}
		})
	}

	for _, s := range search.RecordSorts {
		t.Run("SortAndCursor/"+s, func(t *testing.T) {
			full := find(t, search.RecordQuery{Sort: s, Limit: search.MaxRecordLimit})
			assertSeq(t, recordKeys(full.Records), expectRecords(all, search.RecordQuery{Sort: s}))
			if full.NextCursor != "" {
				t.Errorf("a page that holds every record has a cursor")
			}
			for _, limit := range []int{1, 3, 4} {
				var got []string
				q := search.RecordQuery{Sort: s, Limit: limit}
				for pages := 0; pages <= len(all); pages++ {
					p := find(t, q)
					if p.Total != len(all) {
						t.Errorf("page total %d, want %d", p.Total, len(all))
					}
					got = append(got, recordKeys(p.Records)...)
					if p.NextCursor == "" {
						break
					}
					q.Cursor = p.NextCursor
				}
				assertSeq(t, got, recordKeys(full.Records))
			}
			// a filtered walk
			q := search.RecordQuery{Sort: s, Limit: 2, Keys: map[string][]string{"agency_id": {"parks", "sanitation"}}}
			var got []string
			for pages := 0; pages <= len(all); pages++ {
				p := find(t, q)
				got = append(got, recordKeys(p.Records)...)
				if p.NextCursor == "" {
					break
				}
				q.Cursor = p.NextCursor
			}
			q.Cursor = ""
			assertSeq(t, got, expectRecords(all, q))
		})
	}
	t.Run("Validation", func(t *testing.T) {
		p := find(t, search.RecordQuery{Sort: search.RecordSortDate, Limit: 2})
		for _, q := range []search.RecordQuery{
			{Cursor: "nonsense"},
			{Cursor: p.NextCursor, Sort: search.RecordSortAmount},
			{Limit: search.MaxRecordLimit + 1},
			{Limit: -1},
			{Sort: "colour"},
			{Keys: map[string][]string{"Bad Key": {"x"}}},
			{From: time.Date(2021, 1, 2, 0, 0, 0, 0, time.UTC), To: time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)},
		} {
			if _, err := b.FindRecords(ctx, q); record.ErrorCode(err) != record.EINVALID {
				t.Errorf("%+v: want EINVALID, got %v", q, err)
			}
		}
		for _, r := range []search.Record{
			{Kind: "", ID: "x", Source: "s"},
			{Kind: "Test", ID: "x", Source: "s"},
			{Kind: "test.award", ID: "", Source: "s"},
			{Kind: "test.award", ID: "x"},
			{Kind: "test.award", ID: "x", Source: "s", Keys: map[string][]string{"k": {""}}},
			{Kind: "test.award", ID: "x", Source: "s", Keys: map[string][]string{"a.b": {"v"}}},
			{Kind: "test.award", ID: "x", Source: "s", Body: []byte(`[1]`)},
		} {
			if err := b.PutRecords(ctx, []search.Record{r}); record.ErrorCode(err) != record.EINVALID {
				t.Errorf("put %+v: want EINVALID, got %v", r, err)
			}
		}
		if _, err := b.RecordTotals(ctx, search.RecordQuery{}, []string{"Bad Key"}, 1); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("bad grouping: %v", err)
		}
		if _, err := search.Find(ctx, b, AwardKind, search.RecordQuery{Kinds: []string{"test.grant"}}); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("a typed find of another kind: %v", err)
		}
	})
	t.Run("TypedFind", func(t *testing.T) {
		p, err := search.Find(ctx, b, GrantKind, search.RecordQuery{Sort: search.RecordSortAmount})
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range p.Items {
			ids = append(ids, g.ID)
		}
		assertSeq(t, ids, []string{"g3", "shared", "g2"})
		if p.Total != 3 || len(p.Records) != 3 || p.Records[0].Kind != "test.grant" {
			t.Errorf("page %+v", p)
		}
	})

	t.Run("Totals", func(t *testing.T) {
		groups := []string{"agency_id", "vendor_stem", "tag", search.GroupByKind, search.GroupBySource, search.GroupByFiscalYear, search.GroupByDay}
		for _, c := range filters {
			for _, size := range []int{0, 2} {
				got, err := b.RecordTotals(ctx, c.q, groups, size)
				if err != nil {
					t.Fatal(err)
				}
				acc := search.NewRecordTotalsAccumulator(groups)
				for _, r := range all {
					if c.q.Matches(r) {
						acc.Add(r)
					}
				}
				if want := acc.Totals(size); !sameJSON(utcTotals(got), utcTotals(want)) {
					t.Errorf("%s, size %d\n got %s\nwant %s", c.name, size, js(utcTotals(got)), js(utcTotals(want)))
				}
			}
		}
		// the numbers themselves: the invalid 999999 is counted, never summed
		got, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: []string{"test.award"}, Sources: []string{"alpha"}}, []string{search.GroupByFiscalYear, "agency_id", search.GroupByDay}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got.Count != 4 || got.ValidAmounts != 3 || got.Amount != 5100.10 {
			t.Errorf("totals %+v, want 4 records, 3 valid amounts summing to 5100.10", got)
		}
		// a2 at 23:30 on June 30 (New York) is in 2021, a3 half an hour
		// after midnight in 2022, whatever UTC says
		wantFY := []search.Bucket{{Value: "2020", Count: 2, ValidAmounts: 2, Amount: 2600.10}, {Value: "2021", Count: 1, ValidAmounts: 1, Amount: 2500},
			{Value: "2022", Count: 1}}
		if !sameJSON(got.Groups[search.GroupByFiscalYear], wantFY) {
			t.Errorf("fiscal years %s, want %s", js(got.Groups[search.GroupByFiscalYear]), js(wantFY))
		}
		// days are New York days too: a2 (23:30 on June 30) and a3 (00:30
		// on July 1) are both July 1 in UTC
		wantDays := []search.Bucket{{Value: "2020-03-01", Count: 2, ValidAmounts: 2, Amount: 2600.10}, {Value: "2021-06-30", Count: 1, ValidAmounts: 1, Amount: 2500},
			{Value: "2021-07-01", Count: 1}}
		if !sameJSON(got.Groups[search.GroupByDay], wantDays) {
			t.Errorf("days %s, want %s", js(got.Groups[search.GroupByDay]), js(wantDays))
		}
		wantAg := []search.Bucket{{Value: "parks", Count: 2, ValidAmounts: 2, Amount: 2600.10}, {Value: "sanitation", Count: 2, ValidAmounts: 1, Amount: 2500}}
		if !sameJSON(got.Groups["agency_id"], wantAg) {
			t.Errorf("agencies %s, want %s", js(got.Groups["agency_id"]), js(wantAg))
		}
		if first, last := got.First.UTC(), got.Last.UTC(); !first.Equal(time.Date(2020, 3, 1, 15, 0, 0, 0, time.UTC)) || !last.Equal(time.Date(2021, 7, 1, 4, 30, 0, 0, time.UTC)) {
			t.Errorf("first %v, last %v", first, last)
		}
		none, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: []string{"test.other"}}, []string{"agency_id"}, 0)
		if err != nil || none.Count != 0 || len(none.Groups["agency_id"]) != 0 {
			t.Errorf("totals of nothing: %+v %v", none, err)
		}
	})

	t.Run("Coverage", func(t *testing.T) {
		cov, err := b.RecordCoverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		obs2 := time.Date(2026, 5, 2, 9, 0, 0, 0, time.UTC)
		want := []record.SourceCoverage{
			{Source: "alpha", Label: "label alpha", RecordType: "test.award", ObservedAt: obs2, FirstSourceDate: "2020-03-01", LastSourceDate: "2021-07-01", Records: 4},
			{Source: "alpha", Label: "grants", RecordType: "test.grant", FirstSourceDate: "2020-03-01", LastSourceDate: "2020-03-01", Records: 1},
			{Source: "beta", Label: "label beta", RecordType: "test.award", FirstSourceDate: "2019-11-15", LastSourceDate: "2019-11-15", Records: 3},
			{Source: "gamma", Label: "grants", RecordType: "test.grant", FirstSourceDate: "2022-01-10", LastSourceDate: "2022-01-10", Records: 2},
		}
		if !sameJSON(cov, want) {
			t.Errorf("coverage\n got %s\nwant %s", js(cov), js(want))
		}
		// a write shows at once (an engine that keeps coverage keeps it
		// per generation), and a caller's change to its copy stays its own
		cov[0].Records = -1
		extra := search.Record{Kind: "test.grant", ID: "coverage-probe", Source: "delta", SourceLabel: "probe"}
		if err := b.PutRecords(ctx, []search.Record{extra}); err != nil {
			t.Fatal(err)
		}
		after, err := b.RecordCoverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(after) != len(want)+1 || after[0].Records != want[0].Records || !slices.ContainsFunc(after, func(c record.SourceCoverage) bool { return c.Source == "delta" && c.Records == 1 }) {
			t.Errorf("coverage after a write: %s", js(after))
		}
		if err := b.DeleteRecords(ctx, extra.Kind, []string{extra.ID}); err != nil {
			t.Fatal(err)
		}
		if again, err := b.RecordCoverage(ctx); err != nil || !sameJSON(again, want) {
			t.Errorf("coverage after the delete: %s (%v)", js(again), err)
		}
	})

	t.Run("WithScope", func(t *testing.T) {
		scoped := search.WithScope(b, b)
		p, err := scoped.FindRecords(ctx, search.RecordQuery{Kinds: []string{"test.grant"}, Limit: 1})
		if err != nil {
			t.Fatal(err)
		}
		s := p.Scope
		if s.Matched != 3 || s.RecordsInCorpus != len(all) || s.Searched.Kind != "records" || s.Searched.Filters["kind"] != "test.grant" ||
			len(s.Absence) == 0 || s.DateBoundsNote == "" || s.FirstSourceDate != "2019-11-15" || s.LastSourceDate != "2022-01-10" ||
			!s.CorpusObservedAt.Equal(time.Date(2026, 5, 2, 9, 0, 0, 0, time.UTC)) || !slices.Equal(s.SourceTypes, []string{"award", "grant"}) {
			t.Errorf("scope %s", js(s))
		}
		empty, err := scoped.FindRecords(ctx, search.RecordQuery{Kinds: []string{"test.other"}})
		if err != nil || empty.Scope.Matched != 0 || empty.Scope.RecordsInCorpus != len(all) || len(empty.Scope.Absence) == 0 {
			t.Errorf("scope without hits: %s %v", js(empty.Scope), err)
		}
	})

	t.Run("Delete", func(t *testing.T) {
		if err := b.DeleteRecords(ctx, "test.award", []string{"shared", "a6", "nothing"}); err != nil {
			t.Fatal(err)
		}
		if _, err := b.GetRecord(ctx, "test.award", "shared"); record.ErrorCode(err) != record.ENOTFOUND {
			t.Errorf("deleted record: %v", err)
		}
		if _, err := b.GetRecord(ctx, "test.grant", "shared"); err != nil {
			t.Errorf("a delete of one kind removed another kind's record: %v", err)
		}
		if p := find(t, search.RecordQuery{}); p.Total != len(all)-2 {
			t.Errorf("%d records after deleting 2 of %d", p.Total, len(all))
		}
		if err := search.Delete(ctx, b, GrantKind, []string{"g2"}); err != nil {
			t.Fatal(err)
		}
		if p := find(t, search.RecordQuery{Kinds: []string{"test.grant"}}); p.Total != 2 {
			t.Errorf("%d grants after a typed delete, want 2", p.Total)
		}
	})
}

// assertSeq compares ids in order (assertIDs compares sets).
func assertSeq(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !slices.Equal(got, want) {
		t.Errorf("ids in order %v, want %v", got, want)
	}
}

// utcTotals compares first and last dates as instants.
func utcTotals(t search.Totals) search.Totals {
	t.First, t.Last = t.First.UTC(), t.Last.UTC()
	return t
}
