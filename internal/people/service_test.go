package people_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

const rosterCSV = "t3jq-9nkf_NYCGovernanceOrganizations_v1.8.43_2026-06-12.csv"

// loaded loads the bundled roster sample (plus extra files) through the
// indexer into a fresh embedded engine and returns the service over it.
func loaded(t *testing.T, extra map[string][]byte) *people.Service {
	t.Helper()
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	fsys := fstest.MapFS{}
	for _, name := range []string{rosterCSV, "nycgo_name_crosswalk_v1.8.43.csv"} {
		data, err := os.ReadFile("../../testdata/sample/leaders/" + name)
		if err != nil {
			t.Fatal(err)
		}
		fsys["leaders/"+name] = &fstest.MapFile{Data: data}
	}
	for name, data := range extra {
		fsys["leaders/"+name] = &fstest.MapFile{Data: data}
	}
	src, err := indexer.LookupSource("leaders")
	if err != nil {
		t.Fatal(err)
	}
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: b, Crosswalk: cw, Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
	rep, err := ix.Load(ctx, src, fsys, "leaders")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Errors) != 0 {
		t.Fatalf("load errors: %v", rep.Errors)
	}
	return people.New(b, cw)
}

func rosterIDs(t *testing.T) map[string]bool {
	data, err := os.ReadFile("../../testdata/sample/leaders/" + rosterCSV)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(line, "NYC_GOID_") {
			id, _, _ := strings.Cut(line, ",")
			ids[id] = true
		}
	}
	return ids
}

// Every crosswalk agency the roster names gets a leader node with the
// release date ("as of", never "current") and a confidence; an agency the
// roster does not name reads unknown, not empty.
func TestLeaderNodes(t *testing.T) {
	ctx := context.Background()
	svc := loaded(t, nil)
	named := rosterIDs(t)
	n := 0
	for _, a := range svc.Crosswalk.Agencies() {
		l, err := svc.Leaders(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !named[a.NYCGOID] {
			if l.State != people.Unknown || len(l.Nodes) != 0 || l.Nodes == nil || !strings.Contains(l.Note, "unknown, not empty") {
				t.Fatalf("%s (record %q) is not in the roster: %+v; want unknown with no nodes", a.ID, a.NYCGOID, l)
			}
			continue
		}
		n++
		if len(l.Nodes) != 1 || (l.State != people.Published && l.State != people.Empty) {
			t.Fatalf("%s: %+v", a.ID, l)
		}
		node := l.Nodes[0]
		if node.ID != a.NYCGOID || node.SourceDate != "2026-06-12" || node.AsOf != "as of 2026-06-12" || node.Confidence == "" || len(node.Limits) == 0 || node.Method != people.MethodRecordID {
			t.Fatalf("%s node: %+v", a.ID, node)
		}
		if strings.Contains(strings.ToLower(node.AsOf+l.Note), "current") {
			t.Fatalf("%s claims a current holder: %+v", a.ID, l)
		}
		if (node.NameState == people.Published) != (node.Person != nil) || (node.Person != nil && node.Person.SeparateDossier) {
			t.Fatalf("%s person link: %+v", a.ID, node)
		}
	}
	if n < 250 {
		t.Fatalf("only %d crosswalk agencies have leader nodes", n)
	}
	acs, _ := svc.Leaders(ctx, "administration-for-childrens-services")
	if acs.State != people.Published || acs.Nodes[0].Name != "Rebecca Jones Gaston" || acs.Nodes[0].Confidence != people.ConfidenceHigh ||
		acs.Nodes[0].Person.ID != "NYC_GOID_000002/principal-officer/2026-06-12" {
		t.Fatalf("ACS leaders: %+v", acs)
	}
	p, err := svc.Get(ctx, acs.Nodes[0].Person.ID)
	if err != nil || p.Row.Type != people.TypePerson || p.Row.Name != "Rebecca Jones Gaston" {
		t.Fatalf("the linked person row: %+v %v", p, err)
	}
}

// A name printed for two organizations is two person rows.
func TestIdenticalNamesInTwoAgenciesNotMerged(t *testing.T) {
	ctx := context.Background()
	svc := loaded(t, nil)
	p, err := svc.Browse(ctx, people.Filter{Type: people.TypePerson, Token: "Matthew"}, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	orgs := map[string]string{}
	for _, r := range p.Rows {
		if r.Name == "Neil Matthew" {
			orgs[r.ID] = r.OrgID
		}
	}
	if len(orgs) != 2 || orgs["NYC_GOID_000190/principal-officer/2026-06-12"] != "NYC_GOID_000190" || orgs["NYC_GOID_000377/principal-officer/2026-06-12"] != "NYC_GOID_000377" {
		t.Fatalf("Neil Matthew: %v; want two rows, FISA's and the Office of Payroll Administration's", orgs)
	}
	fisa, _ := svc.Leaders(ctx, "financial-information-services-agency")
	opa, _ := svc.Leaders(ctx, "office-of-payroll-administration")
	if len(fisa.Nodes) != 1 || len(opa.Nodes) != 1 || fisa.Nodes[0].Person.ID == opa.Nodes[0].Person.ID {
		t.Fatalf("the two agencies' leaders share a person: %+v / %+v", fisa, opa)
	}
}

// Two sources that disagree on a field are both returned, attributed.
func TestDisagreementsAttributed(t *testing.T) {
	ctx := context.Background()
	svc := loaded(t, nil)
	ds, err := svc.Disagreements(ctx, "police-department")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) == 0 || ds[0].Field != "name" || len(ds[0].Values) != 2 {
		t.Fatalf("disagreements: %+v", ds)
	}
	cw, roster := ds[0].Values[0], ds[0].Values[1]
	if cw.Value != "Police Department" || cw.Source != people.CrosswalkSource ||
		roster.Value != "New York City Police Department" || !strings.Contains(roster.Source, "t3jq-9nkf") || roster.SourceDate != "2026-06-12" {
		t.Fatalf("name values: %+v", ds[0].Values)
	}
	same, _ := svc.Disagreements(ctx, "administration-for-childrens-services")
	if len(same) != 0 {
		t.Fatalf("ACS: the sources agree, yet %+v", same)
	}
}

// Two releases of different dates both stay, each with its date; a
// snapshot reads the newest unless a release is asked for; pages walk
// every row once; ids are exact.
func TestReleasesSnapshotsAndExactIDs(t *testing.T) {
	ctx := context.Background()
	// the same real rows as a release of an earlier date (file renamed)
	older, err := os.ReadFile("../../testdata/sample/leaders/" + rosterCSV)
	if err != nil {
		t.Fatal(err)
	}
	svc := loaded(t, map[string][]byte{"t3jq-9nkf_NYCGovernanceOrganizations_v1.7.0_2025-12-01.csv": older})
	r, err := svc.Get(ctx, "NYC_GOID_000002")
	if err != nil || r.ReleasesTotal != 2 || r.Row.Release.Date != "2026-06-12" || r.Releases[1].Release.Date != "2025-12-01" {
		t.Fatalf("two releases: %+v %v", r, err)
	}
	l, _ := svc.Leaders(ctx, "administration-for-childrens-services")
	if len(l.Nodes) != 2 || l.Nodes[0].SourceDate != "2026-06-12" || l.Nodes[1].SourceDate != "2025-12-01" {
		t.Fatalf("leader nodes of two releases: %+v", l.Nodes)
	}
	seen := map[string]bool{}
	cursor := ""
	for {
		p, err := svc.Browse(ctx, people.Filter{Type: people.TypeOrganization}, cursor, 100)
		if err != nil {
			t.Fatal(err)
		}
		if p.Filters.Release != "2026-06-12" || len(p.Freshness.ReleasesHeld) != 2 || p.Total != 307 {
			t.Fatalf("snapshot: %+v total %d", p.Freshness, p.Total)
		}
		for _, row := range p.Rows {
			if seen[row.ID] || row.Release.Date != "2026-06-12" {
				t.Fatalf("row %s again or of another release", row.ID)
			}
			seen[row.ID] = true
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if len(seen) != 307 {
		t.Fatalf("pages held %d organizations", len(seen))
	}
	old, err := svc.Browse(ctx, people.Filter{Release: "2025-12-01", Token: "acs"}, "", 10)
	if err != nil || old.Total != 1 || old.Rows[0].Release.Date != "2025-12-01" {
		t.Fatalf("older release by token: %+v %v", old, err)
	}
	for _, id := range []string{"nyc_goid_000002", "NYC_GOID_000002 ", "Administration for Children's Services"} {
		if _, err := svc.Get(ctx, id); record.ErrorCode(err) != record.ENOTFOUND {
			t.Errorf("Get(%q): %v; want ENOTFOUND (ids are exact, names are not ids)", id, err)
		}
	}
	for _, f := range []people.Filter{{Type: "agency"}, {Token: "two words"}, {Release: "June"}} {
		if _, err := svc.Browse(ctx, f, "", 10); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("Browse(%+v): %v; want EINVALID", f, err)
		}
	}
}

// Record dates are New York days: the coverage of the roster and of the
// civil-service rows names the release and list days as printed.
func TestCoverageDaysAreNewYorkDays(t *testing.T) {
	svc := loaded(t, nil)
	cov, err := svc.Records.RecordCoverage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cov {
		if c.RecordType == people.KindOrganization {
			n++
			if c.FirstSourceDate != "2026-06-12" || c.LastSourceDate != "2026-06-12" || c.Records != 307 {
				t.Fatalf("organization coverage %+v", c)
			}
		}
	}
	if n != 1 {
		t.Fatalf("coverage %+v", cov)
	}
}
