package land_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/golden"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

var (
	once sync.Once
	svc  *land.Service
	rep  indexer.Report
)

// service loads the bundled land sample into a real embedded engine.
// readAt is when the tests read: three months after 2024Q0292's planned
// City Planning Commission hearing (2026-08-17).
var readAt = time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)

func service(t *testing.T) *land.Service {
	t.Helper()
	once.Do(func() {
		dir, err := os.MkdirTemp("", "rw-land-*")
		if err != nil {
			t.Fatal(err)
		}
		be, err := embedded.Open(filepath.Join(dir, "index"))
		if err != nil {
			t.Fatal(err)
		}
		ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
		src, err := indexer.LookupSource("land")
		if err != nil {
			t.Fatal(err)
		}
		rep, err = ix.Load(context.Background(), src, os.DirFS("../../testdata/sample"), "land")
		if err != nil {
			t.Fatal(err)
		}
		svc = land.New(be)
		svc.Now = func() time.Time { return readAt } // the reads' clock: planned dates before it have passed
	})
	if svc == nil {
		t.Fatal("no land service")
	}
	return svc
}

func TestLoadCountsRowsAndRecords(t *testing.T) {
	service(t)
	// 165 warehouse rows + 10 seed rows + 96 BBL rows + 3 portal answers +
	// 776 centroids + 75 + 64 recommendation rows + 8 Council items
	if rep.Rows != 1197 || len(rep.Errors) != 0 {
		t.Errorf("rows %d, errors %v", rep.Rows, rep.Errors)
	}
	// 168 projects (165 Open Data rows, 2 seed-only, 1 portal-only) and 147 events
	if rep.Indexed != rep.Notices || rep.Indexed < 300 {
		t.Errorf("indexed %d of %d records", rep.Indexed, rep.Notices)
	}
}

// The three bundled portal projects give decision paths with observed
// milestones, normative stages and explicit absent or unknown stages.
func TestDecisionPathsGolden(t *testing.T) {
	s := service(t)
	for _, id := range []string{"2022M0258", "2024Q0292", "P2018X0210"} {
		d, err := s.DecisionPath(context.Background(), id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		b, _ := json.MarshalIndent(d, "", "  ")
		golden.Assert(t, filepath.Join("testdata", "path_"+id+".json"), append(b, '\n'))
		states := map[string]string{}
		observed := 0
		for _, o := range d.Observed {
			if o.Kind == "milestone" {
				observed++
			}
		}
		for _, st := range d.Normative {
			states[st.ID] = st.State
			for _, ev := range st.Evidence {
				if !strings.HasPrefix(ev, "o") {
					t.Errorf("%s: stage %s evidence %q is not an observation id", id, st.ID, ev)
				}
			}
		}
		if observed == 0 || len(d.Normative) == 0 || d.Procedure == nil || d.Procedure.Source.Title == "" {
			t.Errorf("%s: %d milestones observed, %d stages", id, observed, len(d.Normative))
		}
		if states["community_board"] != land.StateHappened || states["certification"] != land.StateHappened {
			t.Errorf("%s: states %v", id, states)
		}
		switch id {
		case "2024Q0292": // in public review: BP in progress, CPC and Council planned only
			if states["borough_president"] != land.StateInProgress || states["cpc_vote"] != land.StateNotStarted || states["council"] != land.StateNotStarted ||
				states["mayor"] != land.StateAbsent {
				t.Errorf("%s: states %v", id, states)
			}
		default: // completed: the portal stops at the pre-hearing review
			if states["cpc_vote"] != land.StateAbsent || states["council"] != land.StateAbsent || states["borough_board"] != land.StateAbsent {
				t.Errorf("%s: states %v", id, states)
			}
		}
	}
}

func TestUnknownProjectIsNotFound(t *testing.T) {
	s := service(t)
	_, err := s.Project(context.Background(), "2099M9999")
	if record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("unknown id: %v", err)
	}
	_, err = s.DecisionPath(context.Background(), "not-an-id")
	if record.ErrorCode(err) != record.EINVALID {
		t.Errorf("malformed id: %v", err)
	}
}

// A project held only as an Open Data row has unknown stages, never absent.
func TestWarehouseOnlyStagesAreUnknown(t *testing.T) {
	d, err := service(t).DecisionPath(context.Background(), "2018X0438")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range d.Normative {
		if st.State == land.StateAbsent || st.State == land.StateNotStarted {
			t.Errorf("stage %s is %s without a milestone list", st.ID, st.State)
		}
	}
	if d.CurrentStage != "pre_filing" {
		t.Errorf("current stage %q", d.CurrentStage)
	}
}

func TestBrowseFindsCompletedAndFiltersCombine(t *testing.T) {
	s := service(t)
	ctx := context.Background()
	p, err := s.Browse(ctx, land.Filter{Status: "Completed"}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, pr := range p.Projects {
		ids = append(ids, pr.ID)
	}
	if !slices.Contains(ids, "2022M0258") || !slices.Contains(ids, "P2018X0210") {
		t.Errorf("completed projects %v", ids)
	}
	all, err := s.Browse(ctx, land.Filter{}, "", 100)
	if err != nil || all.Total < 160 || all.Groups["completed"] != p.Total {
		t.Fatalf("all %d %v %v", all.Total, all.Groups, err)
	}
	// procedure + action + borough: each narrows, together they intersect
	ulurp, _ := s.Browse(ctx, land.Filter{Procedure: "ULURP"}, "", 100)
	zm, _ := s.Browse(ctx, land.Filter{Procedure: "ULURP", Action: "zm"}, "", 100)
	zmQ, err := s.Browse(ctx, land.Filter{Procedure: "ulurp", Action: "ZM", Borough: "Queens"}, "", 100)
	if err != nil || !(ulurp.Total > zm.Total && zm.Total > zmQ.Total && zmQ.Total > 0) {
		t.Fatalf("ulurp %d, +ZM %d, +Queens %d (%v)", ulurp.Total, zm.Total, zmQ.Total, err)
	}
	for _, pr := range zmQ.Projects {
		if pr.ProcedureID != "ulurp" || !slices.Contains(pr.Actions, "ZM") || !slices.Contains(pr.Boroughs, "Queens") {
			t.Errorf("filtered %+v", pr)
		}
	}
	byBBL, err := s.Browse(ctx, land.Filter{BBL: "1017670067", CommunityDistrict: "MN11"}, "", 10)
	if err != nil || byBBL.Total != 1 || byBBL.Projects[0].ID != "2022M0258" {
		t.Errorf("by BBL and district: %+v %v", byBBL, err)
	}
	stage, err := s.Browse(ctx, land.Filter{Stage: "borough_president", Borough: "Q"}, "", 10)
	if err != nil || stage.Total == 0 {
		t.Errorf("by stage: %+v %v", stage, err)
	}
	for _, pr := range stage.Projects {
		if pr.Stage != "borough_president" {
			t.Errorf("stage filter gave %+v", pr)
		}
	}
	up, err := s.Browse(ctx, land.Filter{Effect: "upzone", Borough: "Queens"}, "", 100)
	if err != nil || up.Total == 0 {
		t.Errorf("by effect: %+v %v", up, err)
	}
	for _, pr := range up.Projects {
		if pr.Effect != "upzone" || !slices.Contains(pr.Boroughs, "Queens") {
			t.Errorf("effect filter gave %+v", pr)
		}
	}
	if _, err := s.Browse(ctx, land.Filter{Stage: "lottery"}, "", 10); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("bad stage: %v", err)
	}
	// pages are bounded and a cursor walks every project once
	seen := map[string]bool{}
	cursor := ""
	for {
		pg, err := s.Browse(ctx, land.Filter{}, cursor, 25)
		if err != nil {
			t.Fatal(err)
		}
		for _, pr := range pg.Projects {
			if seen[pr.ID] {
				t.Fatalf("%s twice", pr.ID)
			}
			seen[pr.ID] = true
		}
		if pg.NextCursor == "" {
			break
		}
		cursor = pg.NextCursor
	}
	if len(seen) != all.Total {
		t.Errorf("walked %d of %d", len(seen), all.Total)
	}
}

// Sources that disagree are kept, each value attributed: the Open Data
// row and the older seed row of 2024M0193 give two public statuses.
func TestConflictsAreAttributed(t *testing.T) {
	r, err := service(t).Project(context.Background(), "2024M0193")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]land.AttributedValue{}
	for _, c := range r.Project.Conflicts {
		got[c.Field] = c.Values
	}
	want := []land.AttributedValue{{Value: "In Public Review", Source: "hgx4-8ukb"}, {Value: "Noticed", Source: "hgx4-8ukb-seed"}}
	if !slices.Equal(got["public_status"], want) || len(got["current_milestone"]) != 2 {
		t.Errorf("conflicts %+v", r.Project.Conflicts)
	}
	if r.Project.PublicStatus != "In Public Review" {
		t.Errorf("status %q: the Open Data row is preferred to the seed", r.Project.PublicStatus)
	}
}

func TestProjectFieldsAndLots(t *testing.T) {
	r, err := service(t).Project(context.Background(), "2022M0258")
	if err != nil {
		t.Fatal(err)
	}
	p := r.Project
	if p.URL != "https://zap.planning.nyc.gov/projects/2022M0258" || p.Environmental.CEQRNumber != "22HPD059M" || len(p.Actions) != 2 ||
		p.Actions[0].ULURPKey != "240046HAM" || p.Applicant == "" || len(p.Lots) != 11 {
		t.Errorf("project %+v", p)
	}
	located := 0
	for _, l := range p.Lots {
		if l.Centroid != nil {
			located++
		} else if l.NoCentroid == "" {
			t.Errorf("lot %s without a centroid says no reason", l.BBL)
		}
	}
	if located == 0 {
		t.Error("no lot centroid")
	}
}

// Events of other publishers attach to a project by its application
// numbers, joined by the link stage (link records land_event →
// land_project), and become evidence of their stage. The project is a test
// fixture carrying the number of the real Council item LU 0001-2026
// (C 250304 PQK, Prospect Farm Acquisition); no bundled ZAP project is
// named by a bundled Council item or borough president row.
func TestEventsAttachByULURPNumber(t *testing.T) {
	s := service(t)
	rs := s.Engine
	fixture := land.Project{ID: "2025K9999", Name: "fixture: Prospect Farm Acquisition", ProcedureID: "ulurp", Procedure: "ULURP",
		Actions: []land.Action{{Code: "PQ", ULURPNumber: "C 250304 PQK", ULURPKey: "250304PQK", Source: "test fixture"}}}
	if err := search.Put(context.Background(), rs, land.ProjectKind, []land.Project{fixture}); err != nil {
		t.Fatal(err)
	}
	defer search.Delete(context.Background(), rs, land.ProjectKind, []string{fixture.ID})
	// events are read from the joins the link stage wrote, never joined
	// at read time: the project put without its link stage has none
	r, err := s.Project(context.Background(), fixture.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Events) != 0 {
		t.Fatalf("events joined at read time: %+v", r.Events)
	}
	kept := &link.Links{}
	if errs := link.LandProjects(context.Background(), link.Env{Records: rs, Links: kept}, []land.Project{fixture}); len(errs) > 0 {
		t.Fatal(errs)
	}
	ls := kept.Take()
	var ids []string
	for _, l := range ls {
		ids = append(ids, l.ID)
		if l.From.Kind == record.RefLandEvent && (l.Method != link.MethodEventULURP || l.Confidence != "high" || l.Key != "250304PQK" ||
			!strings.Contains(l.Evidence, "C 250304 PQK") || !strings.Contains(l.Evidence, fixture.ID)) {
			t.Errorf("event link %+v", l)
		}
	}
	if err := search.Put(context.Background(), rs, joins.Kind, ls); err != nil {
		t.Fatal(err)
	}
	defer search.Delete(context.Background(), rs, joins.Kind, ids)
	r, err = s.Project(context.Background(), fixture.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Events) != 1 || r.Events[0].Type != "council_item" || r.Events[0].Outcome != "Adopted" || r.Events[0].Date.Format("2006-01-02") != "2026-02-24" {
		t.Fatalf("events %+v", r.Events)
	}
	d := land.Path(r.Project, r.Events)
	for _, st := range d.Normative {
		switch st.ID {
		case "council":
			if st.State != land.StateHappened || st.Outcome != "Adopted" || len(st.Evidence) != 1 {
				t.Errorf("council %+v", st)
			}
		case "community_board":
			if st.State != land.StateUnknown {
				t.Errorf("community board %+v: no milestone list is held, so unknown", st)
			}
		}
	}
	steps := 0
	for _, o := range d.Observed {
		if o.Kind == "council_action" {
			steps++
		}
	}
	if steps == 0 {
		t.Error("the Council item's history is not observed")
	}
}

// An ELURP project's path follows ELURP's own definition (§197-e), never
// borrowed ULURP stages; its observations are kept.
func TestELURPPathHasItsOwnProcedure(t *testing.T) {
	d, err := service(t).DecisionPath(context.Background(), "2026X0362")
	if err != nil {
		t.Fatal(err)
	}
	if d.Procedure == nil || d.Procedure.ID != "elurp" || len(d.Normative) == 0 || len(d.Observed) == 0 {
		t.Fatalf("ELURP path %+v", d)
	}
	for _, s := range d.Normative {
		if !strings.HasPrefix(s.Charter, "§197-e") && !strings.HasPrefix(s.Charter, "§197-d(c-1)") && !strings.HasPrefix(s.Charter, "§197-d(f)") {
			t.Errorf("ELURP stage %s cites %s", s.ID, s.Charter)
		}
	}
	p, err := service(t).Browse(context.Background(), land.Filter{Procedure: "ELURP"}, "", 10)
	if err != nil || p.Total != 2 || p.Projects[0].ProcedureID != "elurp" {
		t.Errorf("ELURP browse %d %v", p.Total, err)
	}
}

// A procedure with no definition held (not stated by any source) has an
// explicit unknown normative layer, never borrowed stages (moved here from
// the ELURP case, which now has a definition).
func TestUndefinedProcedureIsExplicit(t *testing.T) {
	d := land.Path(land.Project{ID: "2026X9999", Name: "fixture", ProcedureID: "unknown"}, nil)
	if d.Procedure != nil || len(d.Normative) != 0 || !strings.Contains(d.ProcedureNote, "not stated") || d.CurrentStage != land.StateUnknown {
		t.Errorf("undefined procedure path %+v", d)
	}
}

// browse_land_projects finds a project by one word of its name, applicant
// or brief, and by its CEQR number; a phrase or a malformed number is a
// clear 400, never an empty page.
func TestBrowseByWordAndCEQR(t *testing.T) {
	s := service(t)
	ctx := context.Background()
	for _, f := range []land.Filter{{Word: "Timbale"}, {Word: "TERRACE"}, {Word: "parking"}, {CEQR: "22HPD059M"}, {CEQR: "22hpd059m", Word: "timbale"}} {
		p, err := s.Browse(ctx, f, "", 10)
		if err != nil || p.Total == 0 || !slices.ContainsFunc(p.Projects, func(sm land.Summary) bool { return sm.ID == "2022M0258" }) {
			t.Errorf("%+v: total %d err %v", f, p.Total, err)
		}
	}
	if p, err := s.Browse(ctx, land.Filter{Word: "Kestrel"}, "", 10); err != nil || p.Total != 0 {
		t.Errorf("a word no project holds: %d %v", p.Total, err)
	}
	// (the phrase "Timbale Terrace", once refused here, is found now:
	// TestBrowseByNameOfSeveralWords)
	for _, f := range []land.Filter{{Word: "one two three four five six seven eight nine"}, {Word: " ;; "}, {CEQR: "not a number"}} {
		if _, err := s.Browse(ctx, f, "", 10); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("%+v: %v, want EINVALID", f, err)
		}
	}
}

// A name of several words finds the projects holding every word, in any
// order, in any letter case and with or without accents, across the
// name, applicant and brief; words held only by different projects find
// none (an empty page that says what was searched, never every project).
func TestBrowseByNameOfSeveralWords(t *testing.T) {
	s := service(t)
	ctx := context.Background()
	for _, w := range []string{"Timbale Terrace", "terrace TIMBALE", "Timbale Térrace", "timbale housing preservation", "Terrace, Timbale!"} {
		p, err := s.Browse(ctx, land.Filter{Word: w}, "", 10)
		if err != nil || p.Total != 1 || len(p.Projects) != 1 || p.Projects[0].ID != "2022M0258" {
			t.Errorf("%q: total %d %+v err %v", w, p.Total, p.Projects, err)
			continue
		}
		if f := p.Scope.Searched.Filters; f["id"] != "" || f[land.KeyToken] == "" {
			t.Errorf("%q: scope filters %v: the words, not the ids they matched", w, f)
		}
	}
	// each word alone matches, together none does
	for _, w := range []string{"Timbale", "Rule"} {
		if p, err := s.Browse(ctx, land.Filter{Word: w}, "", 10); err != nil || p.Total == 0 {
			t.Fatalf("%q alone: %d %v", w, p.Total, err)
		}
	}
	p, err := s.Browse(ctx, land.Filter{Word: "Timbale Rule"}, "", 10)
	if err != nil || p.Total != 0 || len(p.Projects) != 0 || p.Scope.Searched.Filters[land.KeyToken] != "timbale rule" {
		t.Errorf("words of two projects: total %d err %v scope %+v", p.Total, err, p.Scope.Searched)
	}
	// combined with another filter, paged: every page holds every word
	all, err := s.Browse(ctx, land.Filter{Word: "housing affordable"}, "", land.MaxLimit)
	if err != nil || all.Total < 3 {
		t.Fatalf("housing affordable: %d %v", all.Total, err)
	}
	var paged []string
	for cur := ""; ; {
		pg, err := s.Browse(ctx, land.Filter{Word: "affordable housing"}, cur, 2)
		if err != nil {
			t.Fatal(err)
		}
		for _, sm := range pg.Projects {
			paged = append(paged, sm.ID)
		}
		if cur = pg.NextCursor; cur == "" {
			break
		}
	}
	var want []string
	for _, sm := range all.Projects {
		want = append(want, sm.ID)
	}
	if !slices.Equal(paged, want) {
		t.Errorf("paged %v, want %v", paged, want)
	}
	inM, err := s.Browse(ctx, land.Filter{Word: "affordable housing", Borough: "M"}, "", land.MaxLimit)
	if err != nil || inM.Total == 0 || inM.Total >= all.Total {
		t.Errorf("with a borough: %d of %d, %v", inM.Total, all.Total, err)
	}
	for _, sm := range inM.Projects {
		if !slices.Contains(sm.Boroughs, "Manhattan") {
			t.Errorf("%s outside Manhattan: %v", sm.ID, sm.Boroughs)
		}
	}
}

// A project's words are held with and without accents, so a name search
// folds them either way (NameWords is the query side of Tokens).
func TestNameWordsFoldAccents(t *testing.T) {
	p := land.Project{ID: "2026X0001", Name: "Plaza de la Café Señora", Applicant: "Éxito LLC"}
	toks := land.Tokens(p)
	for _, w := range land.NameWords("CAFE señora exito") {
		if !slices.Contains(toks, w) {
			t.Errorf("%q not among %v", w, toks)
		}
	}
	if got := land.NameWords("Café  cafe CAFÉ"); !slices.Equal(got, []string{"cafe"}) {
		t.Errorf("NameWords %v", got)
	}
}

// TestPlannedDateInThePastSaysSo: a stage not started whose planned day
// has gone by reads "planned for D; not observed since", never "planned";
// one planned later than the read is a plan.
func TestPlannedDateInThePastSaysSo(t *testing.T) {
	s := service(t)
	d, err := s.DecisionPath(context.Background(), "2024Q0292")
	if err != nil {
		t.Fatal(err)
	}
	passed, planned := 0, 0
	for _, st := range d.Normative {
		if st.PlannedEnd.IsZero() {
			continue
		}
		planned++
		day := st.PlannedEnd.In(record.NewYork).Format("2006-01-02")
		if want := day < "2026-11-20"; st.PlannedPassed != want {
			t.Errorf("stage %s planned %s: planned_passed %v as of 2026-11-20", st.ID, day, st.PlannedPassed)
		}
		if st.PlannedPassed {
			passed++
			if st.PlannedNote != "planned for "+day+"; not observed since (as of 2026-11-20)" {
				t.Errorf("stage %s: note %q", st.ID, st.PlannedNote)
			}
		}
	}
	if passed == 0 {
		t.Fatalf("no stage of 2024Q0292 planned before the read (%d planned): the check proves nothing", planned)
	}
}

// 2024Q0292 carries the portal's appeals milestones: its decision path
// shows the Affordable Housing Appeals Board's stages with them as
// evidence, after the Council and before the Mayor.
func TestAppealsBoardOn2024Q0292(t *testing.T) {
	s := service(t)
	d, err := s.DecisionPath(context.Background(), "2024Q0292")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, o := range d.Observed {
		names[o.ID] = o.Name
	}
	want := map[string]string{"appeals_request": "Request for Appeals Board Review", "appeals_board": "Appeals Board Review"}
	var order []string
	for _, st := range d.Normative {
		order = append(order, st.ID)
		w, ok := want[st.ID]
		if !ok {
			continue
		}
		delete(want, st.ID)
		if len(st.Evidence) != 1 || names[st.Evidence[0]] != w || st.State != land.StateNotStarted || !strings.HasPrefix(st.Charter, "§197-g(") {
			t.Errorf("stage %s: state %s, evidence %v (%q), charter %s", st.ID, st.State, st.Evidence, names[st.Evidence[0]], st.Charter)
		}
	}
	if len(want) != 0 {
		t.Errorf("2024Q0292's path has no %v: %v", want, order)
	}
	if got := strings.Join(order, " "); !strings.Contains(got, "council appeals_request appeals_board mayor") {
		t.Errorf("stage order %s", got)
	}
}
