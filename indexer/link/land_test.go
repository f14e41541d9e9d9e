package link_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// Land projects link to the real City Record notices that name their
// application (ULURP) or CEQR numbers, with the evidence stated, kept as
// link records (notice → land_project); a project no notice names gets no
// link; no notices held decides none. The projects are test fixtures carrying numbers printed in
// real 2014 notices (C 140411 HAK, 695 Grand Street; 14DCP135K, 5402 Fort
// Hamilton Parkway); no bundled ZAP project is named by a bundled notice.
func TestLandProjectLinks(t *testing.T) {
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
	if _, err := ix.LoadCROLDir(context.Background(), os.DirFS("../../testdata/sample"), "crol"); err != nil {
		t.Fatal(err)
	}
	_, keys := land.ULURPKeys("C 140411 HAK")
	items := []land.Project{
		{ID: "2014K9991", Name: "fixture: 695 Grand Street", Actions: []land.Action{{Code: "HA", ULURPNumber: "C140411HAK", ULURPKey: keys[0]}},
			Lots: []land.Lot{{BBL: "3027820036"}}},
		{ID: "2014K9992", Name: "fixture: 5402 Fort Hamilton Parkway", Environmental: land.Environmental{CEQRNumber: "14DCP135K"}},
		{ID: "2014K9993", Name: "fixture: named by no notice", Actions: []land.Action{{Code: "ZM", ULURPNumber: "C999999ZMK", ULURPKey: "999999ZMK"}}},
	}
	kept := &link.Links{}
	if errs := link.LandProjects(context.Background(), link.Env{Notices: be, Links: kept}, items); len(errs) > 0 {
		t.Fatal(errs)
	}
	ls := kept.Take()
	kept.Add(ls...)
	byProject := landLinks(t, kept)
	grand := byProject["2014K9991"]
	if len(grand) == 0 {
		t.Fatal("695 Grand Street: no link")
	}
	for _, l := range grand {
		if l.Method != link.LandByULURP || l.Confidence != "high" || len(l.Evidence) == 0 || !strings.Contains(l.Evidence[0], "140411") || l.RequestID == "" {
			t.Errorf("link %+v", l)
		}
	}
	fort := byProject["2014K9992"]
	if len(fort) == 0 || fort[0].Method != link.LandByCEQR || !strings.Contains(fort[0].Evidence[0], "14DCP135K") {
		t.Errorf("CEQR links %+v", fort)
	}
	if l, ok := byProject["2014K9993"]; ok || len(byProject) != 2 {
		t.Errorf("a project no notice names: links %#v; projects linked %d, want 2", l, len(byProject))
	}
	for _, p := range items {
		if p.Links != nil {
			t.Errorf("project %s carries its links %+v: they are link records only", p.ID, p.Links)
		}
	}
	t.Logf("695 Grand Street: %+v", grand)
	// the land service reads them back from the link records, with each
	// notice's title and publication day
	ctx := context.Background()
	if err := search.Put(ctx, be, land.ProjectKind, items); err != nil {
		t.Fatal(err)
	}
	if err := search.Put(ctx, be, joins.Kind, ls); err != nil {
		t.Fatal(err)
	}
	pr, err := land.New(be).Project(ctx, "2014K9991")
	if err != nil {
		t.Fatal(err)
	}
	if len(pr.Project.Links) != len(grand) {
		t.Fatalf("the service reads %+v, want %+v", pr.Project.Links, grand)
	}
	for i, l := range pr.Project.Links {
		if l.RequestID != grand[i].RequestID || l.Method != grand[i].Method || l.Title == "" || l.Published == "" ||
			!slices.Equal(l.Evidence, grand[i].Evidence) {
			t.Errorf("read %+v, kept %+v", l, grand[i])
		}
	}
	// the same links from the notice's end, as the City Record job makes
	// them when it loads the notices (NoticeLand: one rule, either end)
	var ns []record.Notice
	for _, l := range ls {
		n, err := be.Get(ctx, l.From.ID)
		if err != nil {
			t.Fatal(err)
		}
		ns = append(ns, n)
	}
	fromNotices := &link.Links{}
	if err := link.NoticeLand(ctx, link.Env{Records: be, Links: fromNotices}, ns); err != nil {
		t.Fatal(err)
	}
	got := fromNotices.Take()
	if len(got) != len(ls) {
		t.Fatalf("from the notices' end %d links, from the projects' %d: %+v", len(got), len(ls), got)
	}
	for i := range got {
		if got[i].ID != ls[i].ID || got[i].Method != ls[i].Method || got[i].Confidence != ls[i].Confidence || got[i].Evidence != ls[i].Evidence {
			t.Errorf("from the notice's end %+v, from the project's %+v", got[i], ls[i])
		}
	}
	// decided, none: the notices held were searched and none names it
	nobody, err := land.New(be).Project(ctx, "2014K9993")
	if err != nil {
		t.Fatal(err)
	}
	if len(nobody.Project.Links) != 0 || nobody.Project.NoticeLinksState != land.NoticeLinksDecided ||
		!strings.Contains(nobody.Project.NoticeLinksNote, "none listed means none held named it") || !strings.Contains(nobody.Project.NoticeLinksNote, "City Record notices then held") {
		t.Errorf("a project no notice names: %+v, %q %q", nobody.Project.Links, nobody.Project.NoticeLinksState, nobody.Project.NoticeLinksNote)
	}
	if pr.Project.NoticeLinksState != land.NoticeLinksDecided {
		t.Errorf("a linked project reads %q", pr.Project.NoticeLinksState)
	}
	// undecided: no notices held (none given, or an engine holding none),
	// and a project written before the decision was kept
	empty, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	for name, notices := range map[string]search.Reader{"no notice reader": nil, "an engine holding no notice": empty} {
		undecided := []land.Project{{ID: "2014K9994", Actions: items[0].Actions}}
		none := &link.Links{}
		env := link.Env{Links: none}
		if notices != nil {
			env.Notices = notices
		}
		if errs := link.LandProjects(ctx, env, undecided); len(errs) > 0 || len(none.Take()) != 0 {
			t.Errorf("%s: %v", name, errs)
		}
		if undecided[0].NoticeLinksState != land.NoticeLinksUndecided || !strings.Contains(undecided[0].NoticeLinksNote, "no City Record notices were held") {
			t.Errorf("%s: %q %q", name, undecided[0].NoticeLinksState, undecided[0].NoticeLinksNote)
		}
		if err := search.Put(ctx, be, land.ProjectKind, undecided); err != nil {
			t.Fatal(err)
		}
		r, err := land.New(be).Project(ctx, "2014K9994")
		if err != nil {
			t.Fatal(err)
		}
		if r.Project.NoticeLinksState != land.NoticeLinksUndecided || len(r.Project.Links) != 0 || !strings.HasPrefix(r.Project.NoticeLinksNote, "Not decided: ") {
			t.Errorf("%s: read %q %q", name, r.Project.NoticeLinksState, r.Project.NoticeLinksNote)
		}
	}
	old := []land.Project{{ID: "2014K9995", Actions: items[0].Actions}} // no state kept
	if err := search.Put(ctx, be, land.ProjectKind, old); err != nil {
		t.Fatal(err)
	}
	if r, err := land.New(be).Project(ctx, "2014K9995"); err != nil || r.Project.NoticeLinksState != land.NoticeLinksUndecided ||
		!strings.Contains(r.Project.NoticeLinksNote, "written before the link stage kept its decision") {
		t.Errorf("a project of before the decision was kept: %+v %v", r.Project.NoticeLinksNote, err)
	}
}

// landLinks are the notice → land project link records kept, by project,
// as the land service reads them (without the notices' titles).
func landLinks(t *testing.T, kept *link.Links) map[string][]land.NoticeLink {
	t.Helper()
	out := map[string][]land.NoticeLink{}
	for _, l := range kept.Take() {
		if l.From.Kind != record.RefNotice || l.To.Kind != record.RefLandProject {
			t.Errorf("link %+v is not notice → land project", l)
			continue
		}
		out[l.To.ID] = append(out[l.To.ID], land.NoticeLink{RequestID: l.From.ID, Method: l.Method, Confidence: l.Confidence,
			Evidence: strings.Split(l.Evidence, land.EvidenceSep)})
	}
	return out
}

// A notice whose event falls on a hearing date the project records and
// whose text names the project links with medium confidence; the same
// name on another day does not. The notice is the real CPC hearing notice
// 20260805038 (event 2026-08-26); the projects are fixtures named by its
// text.
func TestLandHearingDateLinks(t *testing.T) {
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk()}
	if _, err := ix.LoadCROLDir(context.Background(), os.DirFS("../../testdata/sample"), "crol"); err != nil {
		t.Fatal(err)
	}
	on := time.Date(2026, 8, 26, 0, 0, 0, 0, record.NewYork)
	items := []land.Project{
		{ID: "2026M9991", Name: "City Planning Commission Public Hearing", Milestones: []land.Milestone{{Milestone: "CPC Public Meeting - Public Hearing", ReviewMeeting: on}}},
		{ID: "2026M9992", Name: "City Planning Commission Public Hearing", Milestones: []land.Milestone{{Milestone: "CPC Public Meeting - Public Hearing", ReviewMeeting: on.AddDate(0, 0, -9)}}},
	}
	kept := &link.Links{}
	if errs := link.LandProjects(context.Background(), link.Env{Notices: be, Links: kept}, items); len(errs) > 0 {
		t.Fatal(errs)
	}
	byProject := landLinks(t, kept)
	if l := byProject["2026M9991"]; len(l) != 1 || l[0].RequestID != "20260805038" || l[0].Method != link.LandByHearing || l[0].Confidence != "medium" ||
		!strings.Contains(l[0].Evidence[0], "2026-08-26") {
		t.Errorf("hearing-day link %+v", l)
	}
	if l := byProject["2026M9992"]; len(l) != 0 {
		t.Errorf("another day linked %+v", l)
	}
}
