package people_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// withPayroll loads the bundled payroll sample (1,800 real FY2016 rows of
// the Manhattan District Attorney and the Police Department) beside the
// roster.
func withPayroll(t *testing.T) *people.Service {
	t.Helper()
	svc := loaded(t, nil)
	files, err := filepath.Glob("../../testdata/sample/payroll/*.csv")
	if err != nil || len(files) == 0 {
		t.Fatalf("payroll sample: %v", err)
	}
	fsys := fstest.MapFS{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fsys["payroll/"+filepath.Base(f)] = &fstest.MapFile{Data: data}
	}
	src, err := indexer.LookupSource("payroll")
	if err != nil {
		t.Fatal(err)
	}
	b, ok := svc.Records.(search.Engine)
	if !ok {
		t.Fatalf("records %T are no indexer backend", svc.Records)
	}
	ix := &indexer.Indexer{Backend: b, Crosswalk: svc.Crosswalk, Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
	if _, err := ix.Load(context.Background(), src, fsys, "payroll"); err != nil {
		t.Fatal(err)
	}
	return svc
}

// Payroll rows read as positions held by title and fiscal year: counts
// and regular gross paid per title agree with the rows, with validity and
// exclusions and the measure stated; no person row is created from a
// payroll name; an agency without payroll reads "no payroll held", one
// without a crosswalk agency "unknown".
func TestPositionsFromPayroll(t *testing.T) {
	ctx := context.Background()
	svc := withPayroll(t)
	pos, err := svc.Positions(ctx, "police-department")
	if err != nil {
		t.Fatal(err)
	}
	if pos.State != people.Published || pos.Measure != procure.PayrollMeasure || len(pos.Years) != 1 || pos.Years[0].FiscalYear != 2016 ||
		len(pos.FiscalYearsHeld) != 1 || pos.Years[0].Rows != 22 {
		t.Fatalf("police positions: %+v", pos)
	}
	// the per-title counts and sums are those of the rows themselves
	rows, err := search.Find(ctx, svc.Records, procure.PayrollKind, search.RecordQuery{Keys: map[string][]string{search.KeyAgencyID: {"police-department"}}, Limit: 100})
	if err != nil || len(rows.Items) != 22 {
		t.Fatalf("police rows: %d %v", len(rows.Items), err)
	}
	type agg struct {
		n, valid int
		sum      float64
	}
	want := map[string]*agg{}
	for _, r := range rows.Items {
		k := record.PayrollText(r.Title)
		if want[k] == nil {
			want[k] = &agg{}
		}
		want[k].n++
		if r.RegularGross.Valid {
			want[k].valid++
			want[k].sum = search.RoundCents(want[k].sum + r.RegularGross.Value)
		}
	}
	y := pos.Years[0]
	if y.TitlesHeld != len(want) || len(y.Titles) != min(len(want), people.MaxPositionTitles) {
		t.Fatalf("titles held %d listed %d; rows have %d titles", y.TitlesHeld, len(y.Titles), len(want))
	}
	listed := 0
	for _, ti := range y.Titles {
		w := want[ti.Title]
		if w == nil || ti.Rows != w.n || ti.ValidAmounts != w.valid || ti.Excluded != w.n-w.valid ||
			(w.valid > 0) != (ti.GrossPaid.Value != nil) || (ti.GrossPaid.Value != nil && *ti.GrossPaid.Value != w.sum) ||
			!strings.HasPrefix(ti.Browse, "/api/payroll?agency=police-department&fiscal_year=2016&title=") {
			t.Errorf("title %+v; rows say %+v", ti, w)
		}
		listed += ti.Rows
	}
	if listed+y.RowsNotListed+y.RowsNoTitle != y.Rows {
		t.Errorf("rows listed %d + not listed %d + no title %d != %d", listed, y.RowsNotListed, y.RowsNoTitle, y.Rows)
	}

	// the Manhattan DA (1,773 rows as printed): many titles, bounded; exclusions counted, never added
	da, err := svc.Positions(ctx, svc.Crosswalk.Resolve("DISTRICT ATTORNEY-MANHATTAN").ID)
	if err != nil || da.State != people.Published || len(da.Years) != 1 {
		t.Fatalf("DA positions: %+v %v", da, err)
	}
	d := da.Years[0]
	if d.Rows != 1773 || d.TitlesHeld <= people.MaxPositionTitles || len(d.Titles) != people.MaxPositionTitles || d.RowsNotListed == 0 {
		t.Errorf("DA year: rows %d titles held %d listed %d not listed %d", d.Rows, d.TitlesHeld, len(d.Titles), d.RowsNotListed)
	}
	if d.ValidAmounts+d.Excluded != d.Rows || d.GrossPaid.Value == nil {
		t.Errorf("DA validity: %+v", d)
	}

	// no payroll held; unknown without an agency
	acs, err := svc.Positions(ctx, "administration-for-childrens-services")
	if err != nil || acs.State != people.Unknown || acs.Display != procure.NoPayroll || len(acs.Years) != 0 || acs.Years == nil {
		t.Errorf("ACS (no payroll in the sample): %+v %v", acs, err)
	}
	none, _ := svc.Positions(ctx, "")
	if none.State != people.Unknown || none.Display != "unknown" {
		t.Errorf("no agency: %+v", none)
	}

	// payroll names never become person rows
	p, err := svc.Browse(ctx, people.Filter{Type: people.TypePerson, Token: "abensur"}, "", 10)
	if err != nil || p.Total != 0 {
		t.Errorf("a payroll name made a person row: %+v %v", p.Rows, err)
	}
	all, err := svc.Browse(ctx, people.Filter{Type: people.TypePerson}, "", 1)
	if err != nil || all.Total > 307 {
		t.Errorf("person rows %d (at most one per roster organization): %v", all.Total, err)
	}
}
