package dossier_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/dossier"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

var (
	fixedNow = time.Date(2026, 7, 31, 12, 0, 0, 0, record.NewYork)
	be       *embedded.Backend
	svc      *dossier.Service
)

// TestMain loads the bundled sample, as `go run .` does, into a real
// embedded index.
func TestMain(m *testing.M) {
	// everything the bundled sample holds (EnsureSample), loaded once per
	// test binary
	var err error
	be, err = sampletest.SharedIndex(sampletest.Full, fixedNow)
	if err != nil {
		panic(err)
	}
	cw := entity.DefaultCrosswalk()
	svc = dossier.New(procure.New(be, cw, func() time.Time { return fixedNow }), people.New(be, cw))
	os.Exit(sampletest.Main(m)) // closes be
}

func TestVendor(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"Denville Line Painting, Inc.", "DENVILLE LINE PAINTING INCORPORATED", "denville-line-painting"} {
		v, err := svc.Vendor(ctx, name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if v.Stem != "DENVILLE LINE PAINTING" || v.Slug != "denville-line-painting" || v.Awards.Total != 3 || v.Awards.Amount != 26895000 ||
			len(v.Notices) != 3 || len(v.Awards.Agencies) != 1 || v.Awards.Agencies[0].ID != "transportation" {
			t.Errorf("%s: %+v", name, v)
		}
		// nothing of the payments dataset is held for Denville: absent, not $0
		if v.Payments.Contracts.Display() != "no contracts held" || v.Payments.Payments.Display() != "no payments held" {
			t.Errorf("payments read %q, %q", v.Payments.Contracts.Display(), v.Payments.Payments.Display())
		}
		if v.Variants[0].Source != record.SourceCROL || v.First == "" || v.Last < v.First || len(v.Scope.Sources) == 0 {
			t.Errorf("variants %+v, dates %s–%s", v.Variants, v.First, v.Last)
		}
	}
	if _, err := svc.Vendor(ctx, "Ab"); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("short stem: %v", err)
	}
	_, err := svc.Vendor(ctx, "Zzyzx Nonexistent Widgets LLC")
	if record.ErrorCode(err) != record.ENOTFOUND || !strings.Contains(record.ErrorMessage(err), "full-text search") {
		t.Errorf("unknown vendor: %v", err)
	}
	bare := dossier.New(procure.New(searchtest.RecordsDown{Engine: be}, entity.DefaultCrosswalk(), nil), nil)
	if _, err := bare.Vendor(ctx, "Denville Line Painting"); record.ErrorCode(err) != record.EUNAVAILABLE {
		t.Errorf("no entries: %v", err)
	}
}

func TestAgency(t *testing.T) {
	ctx := context.Background()
	a, err := svc.Agency(ctx, "DEPT OF PARKS & RECREATION")
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != "parks-and-recreation" || !a.InMapping || a.Awards.Total-a.Awards.ValidAmounts != 14 || a.Notices.Total == 0 ||
		len(a.Notices.Recent) == 0 || len(a.Variants) == 0 {
		t.Errorf("parks %+v", a)
	}
	for _, v := range a.Variants {
		if v.CanonicalID != a.ID {
			t.Errorf("variant %+v", v)
		}
	}
	// Probation holds contract records and no payment (DDC, checked here
	// before, holds a 2018 payment since the spending page was bundled)
	d, err := svc.Agency(ctx, "probation")
	if err != nil {
		t.Fatal(err)
	}
	if !d.Payments.Contracts.Held() || d.Payments.Payments.Display() != "no payments held" {
		t.Errorf("probation payments %+v", d.Payments)
	}
	// registered vs paid by fiscal year: registered value held, no
	// payments held, with the coverage of the payments the sample holds
	// (1,001 Checkbook payments: the 2018-05-02 spending page of 1,000 and
	// the documentation sample of 2017-07-17)
	l := d.Ledger
	registered := 0
	for _, y := range l.ByYear {
		if y.Paid.Value != nil || y.Payments != 0 {
			t.Errorf("ddc paid in %d: %+v", y.FiscalYear, y)
		}
		registered += y.Contracts
	}
	if l.State != procure.NoPaymentsHeld || registered != d.Payments.Contracts.Records || l.Registered.Value == nil ||
		l.JoinedBy != procure.JoinedByAgency || l.Coverage.Payments != 1001 || l.Coverage.First != "2017-07-17" || l.Coverage.Last != "2018-05-02" ||
		!strings.Contains(l.Note, "extract") {
		t.Errorf("probation ledger %+v", l)
	}
	// the payments totals say their extent: read by the service with the
	// answer, so every surface renders the same words. Of registrations,
	// only the sources its rows come from (the read model, not
	// Checkbook's contracts); of payments, none of which is Probation's,
	// every source, which qualifies "no payments held"; no payroll
	// sentence, since no payroll figure is shown
	if pv := d.Payments.View(); !strings.Contains(pv.ExtentWords, "Built on the 1,001 payments held here (1,000 dated 2018-05-02 and 1 dated 2017-07-17; none held on 288 of the 290 days from 2017-07-17 to 2018-05-02)") ||
		strings.Contains(pv.ExtentWords, "payroll") {
		t.Errorf("probation payments extent %+v %q", pv.Extent, pv.ExtentWords)
	}
	for _, e := range d.Payments.Extent.Extent {
		if e.RecordType == procure.ContractKind.Name && e.Source != "contracts" {
			t.Errorf("probation: extent of %s %s, which none of its rows come from", e.Source, e.RecordType)
		}
	}
	if _, err := svc.Agency(ctx, "no-such-agency-here"); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("unknown agency: %v", err)
	}
}

func TestRelationships(t *testing.T) {
	ctx := context.Background()
	r, err := svc.Relationships(ctx, dossier.KindVendor, "Denville Line Painting, Inc")
	if err != nil {
		t.Fatal(err)
	}
	var agencies, matters int
	for _, x := range r.Relations {
		switch x.Type {
		case dossier.AwardedBy:
			agencies++
			if x.TargetID != "transportation" || x.Count != 3 || x.Amount == nil || x.Provenance == "" {
				t.Errorf("relation %+v", x)
			}
		case dossier.PartyToMatter:
			matters++
			if x.Amount != nil || !strings.Contains(x.Provenance, "award notice") {
				t.Errorf("matter %+v", x)
			}
		}
	}
	if agencies != 1 || matters == 0 || r.Leaders != nil {
		t.Errorf("vendor relations %+v", r)
	}
	a, err := svc.Relationships(ctx, dossier.KindAgency, "parks-and-recreation")
	// the bundled sample holds the roster: Parks' leader node is dated
	if err != nil || a.Leaders == nil || a.Leaders.State != "published" || len(a.Leaders.Nodes) != 1 ||
		a.Leaders.Nodes[0].AsOf != "as of 2026-06-12" || len(a.Relations) == 0 {
		t.Errorf("agency relations %+v %v", a, err)
	}
	if _, err := svc.Relationships(ctx, "contract", "x"); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("bad kind: %v", err)
	}
	if _, err := svc.Relationships(ctx, dossier.KindVendor, "  "); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("empty name: %v", err)
	}
}

func TestResolveAgency(t *testing.T) {
	for _, tc := range []struct{ in, id string }{
		{"parks-and-recreation", "parks-and-recreation"},
		{"DEPT OF PARKS & RECREATION", "parks-and-recreation"},
		{"Department of Design and Construction", "design-and-construction"},
	} {
		if id, _, _ := svc.ResolveAgency(tc.in); id != tc.id {
			t.Errorf("%q: %q, want %q", tc.in, id, tc.id)
		}
	}
}

func TestBatch(t *testing.T) {
	ctx := context.Background()
	b, err := svc.Batch(ctx, []string{"Denville Line Painting, Inc.", "Zzyzx Nonexistent Widgets"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Items) != 2 || !b.To.Equal(fixedNow) || !b.From.Equal(fixedNow.AddDate(-2, 0, 0)) || b.Scope.Searched.Kind != "batch" {
		t.Fatalf("batch %+v", b)
	}
	d, z := b.Items[0], b.Items[1]
	if d.Stem != "DENVILLE LINE PAINTING" || d.Awards.Total != 3 || d.Awards.ValidAmounts != 3 || len(d.AwardNotices) != 3 ||
		d.MentionQuery != `"denville line painting"` {
		t.Errorf("denville %+v", d)
	}
	if z.Awards.Total != 0 || z.Mentions != 0 || len(z.AwardNotices) != 0 {
		t.Errorf("unknown name %+v", z)
	}
	if _, err := svc.Batch(ctx, []string{"Denville Line Painting", "Ab"}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("short name: %v", err)
	}
}

func TestCrosswalk(t *testing.T) {
	cw, err := svc.Crosswalk(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cw.Methods {
		n += c
	}
	if len(cw.Rows) == 0 || n != len(cw.Rows) || cw.Scope.Matched != len(cw.Rows) {
		t.Errorf("%d rows, methods %v, scope matched %d", len(cw.Rows), cw.Methods, cw.Scope.Matched)
	}
}
