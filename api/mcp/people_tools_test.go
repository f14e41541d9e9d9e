package mcp_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// peopleSession is a Form 1 tool session over an engine that holds the
// bundled roster and payroll samples.
func peopleSession(t *testing.T) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { be.Close() })
	cw := entity.DefaultCrosswalk()
	src, err := indexer.LookupSource("leaders")
	if err != nil {
		t.Fatal(err)
	}
	ix := &indexer.Indexer{Backend: be, Crosswalk: cw, Now: func() time.Time { return fixedNow }}
	if _, err := ix.Load(ctx, src, os.DirFS("../../testdata/sample"), "leaders"); err != nil {
		t.Fatal(err)
	}
	pay, err := indexer.LookupSource("payroll")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Load(ctx, pay, os.DirFS("../../testdata/sample"), "payroll"); err != nil {
		t.Fatal(err)
	}
	d := depsOver(be, cw, 1)
	ct, st := sdk.NewInMemoryTransports()
	if _, err := mcp.NewServer(d, 1).Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	s, err := sdk.NewClient(&sdk.Implementation{Name: "people-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// get_entity_relationships returns an agency's leaders: one dated node
// with a confidence, the limits of the roster and a link to the person
// row; an agency the roster does not name reads unknown.
func TestRelationshipsReturnLeaders(t *testing.T) {
	s := peopleSession(t)
	rel := structured[mcp.RelationsOut](t, call(t, s, "get_entity_relationships", map[string]any{"kind": "agency", "name": "ACS"}))
	if rel.Status != "found" || rel.Leaders == nil || rel.Leaders.State != people.Published || len(rel.Leaders.Nodes) != 1 {
		t.Fatalf("ACS relationships: %+v", rel)
	}
	n := rel.Leaders.Nodes[0]
	if n.ID != "NYC_GOID_000002" || n.Name != "Rebecca Jones Gaston" || n.AsOf != "as of 2026-06-12" || n.Confidence != "high" || len(n.Limits) == 0 ||
		n.Person == nil || n.Person.SeparateDossier || n.Person.Route != "/api/people/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12" {
		t.Fatalf("ACS leader node: %+v %+v", n, n.Person)
	}
	row := structured[mcp.PersonOrOrgOut](t, call(t, s, "get_person_or_organization", map[string]any{"id": n.Person.ID}))
	if row.Status != "found" || row.Row.Type != "person" || row.Row.OrgID != "NYC_GOID_000002" {
		t.Fatalf("the leader's person row: %+v", row)
	}
	var unknown string
	for _, a := range entity.DefaultCrosswalk().Agencies() {
		if a.NYCGOID == "" {
			unknown = a.ID
			break
		}
	}
	none := structured[mcp.RelationsOut](t, call(t, s, "get_entity_relationships", map[string]any{"kind": "agency", "name": unknown}))
	if none.Leaders == nil || none.Leaders.State != "unknown" || none.Leaders.Nodes == nil || len(none.Leaders.Nodes) != 0 {
		t.Fatalf("%s: %+v; want leaders unknown", unknown, none.Leaders)
	}
}

// get_entity_dossier keeps disagreements: the crosswalk and the roster
// name the police department differently, and both values are returned,
// each attributed.
func TestDossierKeepsAttributedDisagreements(t *testing.T) {
	s := peopleSession(t)
	out := structured[mcp.DossierOut](t, call(t, s, "get_entity_dossier", map[string]any{"kind": "agency", "name": "police-department"}))
	if out.Status != "found" || out.Agency == nil || out.Agency.Leaders == nil || out.Agency.Leaders.State != people.Published {
		t.Fatalf("police dossier: %+v", out)
	}
	var name *people.Disagreement
	for i, d := range out.Agency.Disagreements {
		if d.Field == "name" {
			name = &out.Agency.Disagreements[i]
		}
	}
	if name == nil || len(name.Values) != 2 {
		t.Fatalf("disagreements: %+v", out.Agency.Disagreements)
	}
	got := map[string]string{}
	for _, v := range name.Values {
		got[v.Value] = v.Source + " " + v.SourceDate
	}
	if !strings.Contains(got["Police Department"], "crosswalk") || !strings.Contains(got["New York City Police Department"], "t3jq-9nkf v1.8.43 2026-06-12") {
		t.Fatalf("attributed values: %v", got)
	}
}

// get_person_or_organization reads one exact row (not found explicit);
// browse_organizations reads a bounded snapshot with exact filters, and
// identically named persons in two organizations stay two rows.
func TestPersonAndOrganizationTools(t *testing.T) {
	s := peopleSession(t)
	org := structured[mcp.PersonOrOrgOut](t, call(t, s, "get_person_or_organization", map[string]any{"id": "NYC_GOID_000190"}))
	if org.Status != "found" || org.Row.Type != "organization" || org.Row.Name != "Financial Information Services Agency" || org.Row.Release.Date != "2026-06-12" {
		t.Fatalf("FISA: %+v", org)
	}
	for _, id := range []string{"Neil Matthew", "nyc_goid_000190"} {
		miss := structured[mcp.PersonOrOrgOut](t, call(t, s, "get_person_or_organization", map[string]any{"id": id}))
		if miss.Status != "not_found" || miss.Row != nil || miss.Message == "" {
			t.Errorf("%q: %+v; want not_found", id, miss)
		}
	}
	page := structured[people.Page](t, call(t, s, "browse_organizations", map[string]any{"row_type": "person", "token": "Matthew"}))
	ids := map[string]bool{}
	for _, r := range page.Rows {
		if r.Type != "person" {
			t.Fatalf("row type filter: %+v", r)
		}
		if r.Name == "Neil Matthew" {
			ids[r.ID] = true
		}
	}
	if len(ids) != 2 || page.Freshness.Release != "2026-06-12" || page.Scope.Searched.Kind == "" {
		t.Fatalf("Neil Matthew rows %v, freshness %+v", ids, page.Freshness)
	}
	first := structured[people.Page](t, call(t, s, "browse_organizations", map[string]any{"row_type": "organization", "limit": 5}))
	next := structured[people.Page](t, call(t, s, "browse_organizations", map[string]any{"row_type": "organization", "limit": 5, "cursor": first.NextCursor}))
	if first.Total != 307 || len(first.Rows) != 5 || first.NextCursor == "" || next.Rows[0].ID <= first.Rows[4].ID {
		t.Fatalf("stable pages: %d %d %q", first.Total, len(first.Rows), first.NextCursor)
	}
	if res := call(t, s, "browse_organizations", map[string]any{"token": "two words"}); !res.IsError || !strings.Contains(text(res), "token") {
		t.Errorf("two-word token: %s", text(res))
	}
}

// get_person_or_organization on an organization carries its payroll
// positions by fiscal year and title (bounded, the measure stated); an
// agency without payroll reads "no payroll held"; a person row carries
// none (a payroll row is a position, never a person).
func TestPersonOrOrganizationPositions(t *testing.T) {
	s := peopleSession(t)
	police := structured[mcp.PersonOrOrgOut](t, call(t, s, "get_person_or_organization", map[string]any{"id": "NYC_GOID_000389"}))
	if police.Status != "found" || police.Positions == nil || police.Positions.State != people.Published || len(police.Positions.Years) != 1 {
		t.Fatalf("police: %+v", police)
	}
	y := police.Positions.Years[0]
	if y.FiscalYear != 2016 || y.Rows != 22 || len(y.Titles) == 0 || len(y.Titles) > people.MaxPositionTitles ||
		police.Positions.Measure != procure.PayrollMeasure || y.GrossPaid.Value == nil {
		t.Fatalf("police FY2016: %+v", y)
	}
	// the figures say they are built on the payroll extract held
	if len(police.Positions.Extent) != 1 || !strings.Contains(police.Positions.ExtentWords, "payroll rows held here") ||
		!strings.Contains(police.Positions.ExtentWords, "an extract of the source") {
		t.Errorf("police positions extent %+v %q", police.Positions.Extent, police.Positions.ExtentWords)
	}
	acs := structured[mcp.PersonOrOrgOut](t, call(t, s, "get_person_or_organization", map[string]any{"id": "NYC_GOID_000002"}))
	if acs.Positions == nil || acs.Positions.Display != procure.NoPayroll || len(acs.Positions.Years) != 0 || acs.Positions.ExtentWords != "" {
		t.Fatalf("ACS positions: %+v", acs.Positions)
	}
	person := structured[mcp.PersonOrOrgOut](t, call(t, s, "get_person_or_organization", map[string]any{"id": "NYC_GOID_000002/principal-officer/2026-06-12"}))
	if person.Status != "found" || person.Positions != nil {
		t.Fatalf("person row positions: %+v", person.Positions)
	}
}

// preview_watch on the people lens with an agency shows the roster half
// the watch follows: the agency's roster releases and leader changes, by
// the same rule as the feed, search and digests (notices.Service.Roster).
func TestPreviewWatchPeopleRoster(t *testing.T) {
	s := peopleSession(t)
	pv := structured[mcp.PreviewOut](t, call(t, s, "preview_watch", map[string]any{"lens": "people", "agency": []string{"ACS"}}))
	if len(pv.Roster) != 1 {
		t.Fatalf("preview roster: %+v", pv)
	}
	r := pv.Roster[0]
	if r.AgencyID != "administration-for-childrens-services" || r.RecordID != "NYC_GOID_000002" || r.State != people.Published ||
		r.Newest == nil || r.Newest.Name != "Rebecca Jones Gaston" || len(r.Releases) != 1 || len(r.Changes) != 0 ||
		!strings.Contains(pv.Understood.Scope, "roster releases that change their leader") {
		t.Fatalf("ACS roster in the preview: %+v scope %q", r, pv.Understood.Scope)
	}
	if money := structured[mcp.PreviewOut](t, call(t, s, "preview_watch", map[string]any{"lens": "money", "agency": []string{"ACS"}})); money.Roster != nil {
		t.Errorf("a money watch follows rosters: %+v", money.Roster)
	}
}
