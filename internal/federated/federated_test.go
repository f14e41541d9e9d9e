package federated_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/view"
)

var (
	fixedNow = time.Date(2026, 7, 31, 12, 0, 0, 0, record.NewYork)
	svc      *federated.Service
)

// TestMain loads the bundled sample, as `go run .` does, into a real
// embedded index.
func TestMain(m *testing.M) {
	// everything the bundled sample holds (EnsureSample), loaded once per
	// test binary
	be, err := sampletest.SharedIndex(sampletest.Full, fixedNow)
	if err != nil {
		panic(err)
	}
	cw := entity.DefaultCrosswalk()
	svc = federated.New(be, cw, view.Links{Base: "http://rw.test", Form: 1}, func() time.Time { return fixedNow })
	os.Exit(sampletest.Main(m)) // closes be
}

// first is the first result of a collection in a search.
func first(t *testing.T, p federated.Page, collection string) federated.Result {
	t.Helper()
	for _, r := range p.Results {
		if r.Collection == collection {
			return r
		}
	}
	t.Fatalf("%q: no %s result in %+v", p.Query, collection, p.Results)
	return federated.Result{}
}

func run(t *testing.T, req federated.Request) federated.Page {
	t.Helper()
	p, err := svc.Search(context.Background(), req)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	return p
}

// Each record kind is found by its own exact keys and names, through its
// kind's keys (no title is searched), with the exact route of the object.
func TestCollectionsMatchByKeys(t *testing.T) {
	cases := []struct {
		q, collection, kind, id, tier, route string
	}{
		{"CT100220268808241", federated.CollectionContracts, federated.KindContract, "CT100220268808241", federated.TierExact, "/api/contracts/CT100220268808241"},
		{"2022M0258", federated.CollectionLandProjects, federated.KindLandProject, "2022M0258", federated.TierExact, "/api/land-projects/2022M0258"},
		{"M11", federated.CollectionLandProjects, federated.KindLandProject, "", federated.TierRelated, ""},
		{"20140930007", federated.CollectionNotices, federated.KindNotice, "20140930007", federated.TierExact, "/api/notices/20140930007"},
		{"Denville Line Painting, Inc.", federated.CollectionVendors, federated.KindVendor, "denville-line-painting", federated.TierExact, "/api/vendors/denville-line-painting"},
		{"Skanska", federated.CollectionVendors, federated.KindVendor, "skanska-trevcon-jv", federated.TierName, "/api/vendors/skanska-trevcon-jv"},
		{"Bronx CB 10", federated.CollectionCommunityBoards, federated.KindCommunityBoard, "bronx-community-board-10", federated.TierExact, "/api/meetings?body=bronx-community-board-10"},
		{"Bronx CB 10", federated.CollectionAgencies, federated.KindAgency, "community-boards", federated.TierExact, "/api/agencies/community-boards"},
		{"Rebecca Jones Gaston", federated.CollectionPeople, federated.KindPerson, "NYC_GOID_000002/principal-officer/2026-06-12", federated.TierName,
			"/api/people/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12"},
		{"ABREU", federated.CollectionPayroll, federated.KindPayrollRow, "", federated.TierName, ""},
		{"DOT", federated.CollectionMeetings, federated.KindMeeting, "", federated.TierRelated, ""},
		{"committee on land use", federated.CollectionMeetings, federated.KindMeeting, "", federated.TierName, ""},
		// the registration of a matched award notice, by its exact PIN
		{`"OLDER ADULT CENTER"`, federated.CollectionContracts, federated.KindContract, "CT112520278800354", federated.TierRelated, "/api/contracts/CT112520278800354"},
	}
	for _, tc := range cases {
		p := run(t, federated.Request{Q: tc.q, Limit: federated.MaxLimit})
		r := first(t, p, tc.collection)
		if r.Kind != tc.kind || (tc.id != "" && r.ID != tc.id) || r.Match.Tier != tc.tier || (tc.route != "" && r.Route != tc.route) || r.Title == "" {
			t.Errorf("%q: first %s result %+v", tc.q, tc.collection, r)
		}
	}
	p := run(t, federated.Request{Q: `"OLDER ADULT CENTER"`, Collections: []string{federated.CollectionNotices, federated.CollectionContracts}})
	if r := first(t, p, federated.CollectionContracts); !strings.Contains(r.Match.Rule, "12522P0001001R004 of matched notice 20260624018") {
		t.Errorf("PIN join rule: %+v", r.Match)
	}
	// a board number is a whole word: board 1 is not board 10
	p = run(t, federated.Request{Q: "Brooklyn community board 1", Collections: []string{federated.CollectionCommunityBoards}})
	if len(p.Results) != 1 || p.Results[0].ID != "brooklyn-community-board-1" {
		t.Errorf("Brooklyn CB 1: %+v", p.Results)
	}
}

// The ranking rule holds on a query that touches many collections: tiers never
// go back, and within a tier collections are interleaved (a collection's n-th object
// never precedes another collection's (n-1)-th of the same tier).
func TestRankingInterleavesTiers(t *testing.T) {
	p := run(t, federated.Request{Q: "NYPD", Limit: federated.MaxLimit})
	tiers := map[string]int{federated.TierExact: 0, federated.TierName: 1, federated.TierRelated: 2}
	kinds := map[string]bool{}
	type key struct{ tier, collection string }
	pos := map[key]int{}
	maxPos := map[string]int{}
	last := 0
	for i, r := range p.Results {
		kinds[r.Kind] = true
		if r.Rank != i+1 {
			t.Errorf("result %d has rank %d", i, r.Rank)
		}
		tr := tiers[r.Match.Tier]
		if tr < last {
			t.Errorf("rank %d (%s %s) is tier %s after a weaker tier", r.Rank, r.Kind, r.ID, r.Match.Tier)
		}
		last = tr
		k := key{r.Match.Tier, r.Collection}
		n := pos[k]
		pos[k]++
		if n+1 < maxPos[r.Match.Tier] {
			t.Errorf("rank %d: %s's object %d of tier %s after another collection's object %d", r.Rank, r.Collection, n, r.Match.Tier, maxPos[r.Match.Tier]-1)
		}
		maxPos[r.Match.Tier] = max(maxPos[r.Match.Tier], n)
	}
	if p.Results[0].Kind != federated.KindAgency || p.Results[0].ID != "police-department" {
		t.Errorf("NYPD first: %+v", p.Results[0])
	}
	if len(kinds) < 5 {
		t.Errorf("NYPD kinds %v", kinds)
	}
	if p.Total < p.Ranked || p.Ranked <= federated.MaxLimit || p.NextCursor == "" || !strings.Contains(p.Ranking, "interleaved") {
		t.Errorf("total %d ranked %d cursor %q", p.Total, p.Ranked, p.NextCursor)
	}
}

// Coverage states: a collection left out of scope says so; a deployment whose
// engine holds no records reads every record collection unavailable and still
// answers the notice collection; an unknown collection or a cursor of another search
// is refused.
func TestCoverageAndErrors(t *testing.T) {
	p := run(t, federated.Request{Q: "NYPD", Collections: []string{"payroll", "agencies", "payroll"}})
	for _, lc := range p.Coverage {
		want := federated.StateNotInScope
		if lc.Collection == federated.CollectionPayroll || lc.Collection == federated.CollectionAgencies {
			want = federated.StateSearched
		}
		if lc.State != want {
			t.Errorf("%s: %s, want %s", lc.Collection, lc.State, want)
		}
		if lc.Collection == federated.CollectionPayroll && (lc.Matched != 22 || len(lc.Sources) != 1 || lc.Sources[0].Records != 1800 || len(lc.Browse) == 0) {
			t.Errorf("payroll coverage %+v", lc)
		}
	}
	for _, r := range p.Results {
		if r.Collection != federated.CollectionPayroll && r.Collection != federated.CollectionAgencies {
			t.Errorf("out of scope: %+v", r)
		}
	}

	notesOnly := &federated.Service{Notices: svc.Notices, Crosswalk: svc.Crosswalk, Links: svc.Links}
	p, err := notesOnly.Search(context.Background(), federated.Request{Q: "NYPD"})
	if err != nil {
		t.Fatal(err)
	}
	for _, lc := range p.Coverage {
		want := federated.StateUnavailable
		switch lc.Collection {
		case federated.CollectionNotices, federated.CollectionAgencies, federated.CollectionVendors: // vendors: stems of award notices
			want = federated.StateSearched
		}
		if lc.State != want || (want == federated.StateUnavailable && lc.Note == "") {
			t.Errorf("notices-only %s: %+v", lc.Collection, lc)
		}
	}

	// no hit anywhere: the answer still carries its scope and says, per
	// collection, that no match is not no record
	p = run(t, federated.Request{Q: "zzyzxqq"})
	if len(p.Results) != 0 || p.Total != 0 || p.Scope.RecordsInCorpus == 0 || p.Scope.FirstSourceDate == "" || len(p.Scope.Absence) == 0 {
		t.Errorf("no-hit answer %+v", p.Scope)
	}
	for _, lc := range p.Coverage {
		if lc.State != federated.StateSearched || !strings.Contains(lc.Note, "does not mean no record exists") {
			t.Errorf("no-hit collection %+v", lc)
		}
	}

	// exclusions apply to every collection's titles
	p = run(t, federated.Request{Q: "NYPD -trailer", Limit: federated.MaxLimit})
	for _, r := range p.Results {
		if strings.Contains(strings.ToLower(r.Title), "trailer") {
			t.Errorf("excluded word in %+v", r)
		}
	}

	for _, req := range []federated.Request{
		{Q: "NYPD", Collections: []string{"weather"}},
		{Q: "-NYPD"},
		{Q: "NYPD", Limit: 51},
		{Q: "DOT", Cursor: run(t, federated.Request{Q: "NYPD"}).NextCursor},
	} {
		_, err := svc.Search(context.Background(), req)
		if record.ErrorCode(err) != record.EINVALID {
			t.Errorf("%+v: %v", req, err)
		}
	}
	_, err = svc.Search(context.Background(), federated.Request{Q: "x", Collections: []string{"weather"}})
	if err == nil || !strings.Contains(err.Error(), strings.Join(federated.Collections, ", ")) {
		t.Errorf("unknown collection error does not list the collections: %v", err)
	}
}

// A land project is found by the words of its name, applicant and brief
// (its address), every word required; a word that is none of them finds it
// only through a matched notice that prints one of its application numbers
// (land.ULURPKeys), and the rule names the number and the notice.
func TestLandProjectThroughPrintedApplicationNumber(t *testing.T) {
	ctx := context.Background()
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	cw := entity.DefaultCrosswalk()
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw, Now: func() time.Time { return fixedNow }}
	src, err := indexer.LookupSource("land")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Load(ctx, src, os.DirFS("../../testdata/sample"), "land"); err != nil {
		t.Fatal(err)
	}
	pr, err := land.New(be).Project(ctx, "2022M0258")
	if err != nil || len(pr.Project.ULURPKeys()) == 0 {
		t.Fatalf("2022M0258: %v %+v", err, pr.Project.Actions)
	}
	number := pr.Project.Actions[0].ULURPNumber
	n, err := crol.Normalize(crol.Row{Fields: map[string]string{
		"requestid": "20260801101", "startdate": "08/01/2026", "agencyname": "City Planning Commission",
		"sectionname": "Public Hearings and Meetings", "shorttitle": "Public hearing on Kestrel Commons",
		"additionaldescription1": "Application " + number + " for a zoning map amendment, Borough of Manhattan.",
	}, File: "made_up_for_test.json", Format: crol.FormatJSON}, cw)
	if err != nil {
		t.Fatal(err)
	}
	if err := be.Upsert(ctx, []search.Doc{{Notice: n, Passages: crol.Passages(n)}}); err != nil {
		t.Fatal(err)
	}
	if err := be.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	s := federated.New(be, cw, view.Links{}, nil)
	p, err := s.Search(ctx, federated.Request{Q: "Kestrel", Collections: []string{federated.CollectionNotices, federated.CollectionLandProjects}})
	if err != nil {
		t.Fatal(err)
	}
	r := first(t, p, federated.CollectionLandProjects)
	if r.ID != "2022M0258" || r.Match.Tier != federated.TierRelated || !strings.Contains(r.Match.Rule, "20260801101") || r.Route != "/api/land-projects/2022M0258" {
		t.Errorf("land project through the notice: %+v", r)
	}
	// without the notices collection there is no notice to read the number from
	p, err = s.Search(ctx, federated.Request{Q: "Kestrel", Collections: []string{federated.CollectionLandProjects}})
	if err != nil || len(p.Results) != 0 {
		t.Errorf("land collection alone: %v %+v", err, p.Results)
	}
	// the project's own name, its applicant and its brief find it by name
	for _, q := range []string{"Timbale Terrace", "timbale", "Housing Preservation", "NYPD parking lot"} {
		p, err = s.Search(ctx, federated.Request{Q: q, Collections: []string{federated.CollectionLandProjects}})
		if err != nil {
			t.Fatal(err)
		}
		if r := first(t, p, federated.CollectionLandProjects); r.ID != "2022M0258" || r.Match.Tier != federated.TierName || !strings.Contains(r.Match.Rule, "name, applicant") {
			t.Errorf("%q: %+v", q, r)
		}
	}
	// every word is required: a word the project does not hold finds nothing
	p, err = s.Search(ctx, federated.Request{Q: "Timbale Kestrel", Collections: []string{federated.CollectionLandProjects}})
	if err != nil || len(p.Results) != 0 {
		t.Errorf("a word the project lacks: %v %+v", err, p.Results)
	}
}
