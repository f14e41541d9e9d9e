package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// get_land_project and get_land_decision_path say when a join read
// behind them hit its bound: links_complete false and a note naming it.
// The bound (joins.MaxRead) is lowered to 1 for a fixture project joined
// to two notices and two meetings; at the real bound it reads complete.
func TestLandToolsSayWhenJoinsWereCut(t *testing.T) {
	ctx := context.Background()
	p := land.Project{ID: "2025K9996", Name: "fixture: joined more than the bound", ProcedureID: "ulurp", Procedure: "ULURP"}
	to := record.Ref{Kind: record.RefLandProject, ID: p.ID}
	var ls []record.Link
	var ids []string
	for i := range 2 {
		ls = append(ls, record.NewLink(record.Ref{Kind: record.RefMeeting, ID: fmt.Sprintf("legistar:%d", i)}, to, p.ID, "project_id", "medium", false, "fixture"),
			record.NewLink(record.Ref{Kind: record.RefNotice, ID: fmt.Sprintf("2099010100%d", i)}, to, "250304PQK", "ulurp_number", "high", false, "fixture"))
	}
	for _, l := range ls {
		ids = append(ids, l.ID)
	}
	if err := search.Put(ctx, fx.be, land.ProjectKind, []land.Project{p}); err != nil {
		t.Fatal(err)
	}
	if err := search.Put(ctx, fx.be, joins.Kind, ls); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		search.Delete(ctx, fx.be, joins.Kind, ids)
		search.Delete(ctx, fx.be, land.ProjectKind, []string{p.ID})
	})
	s := connect(t, 1)
	got := structured[mcp.LandProjectOut](t, call(t, s, "get_land_project", map[string]any{"id": p.ID}))
	if got.Status != record.Found || got.LinksComplete == nil || !*got.LinksComplete || got.LinksNote != "" || len(got.Project.Links) != 2 {
		t.Fatalf("at the real bound: %+v", got)
	}
	defer func(n int) { joins.MaxRead = n }(joins.MaxRead)
	joins.MaxRead = 1
	got = structured[mcp.LandProjectOut](t, call(t, s, "get_land_project", map[string]any{"id": p.ID}))
	if got.LinksComplete == nil || *got.LinksComplete || !strings.Contains(got.LinksNote, joins.BoundNote("meetings joined to the project", 1)) ||
		!strings.Contains(got.LinksNote, joins.BoundNote("City Record notices linked to the project", 1)) || len(got.Meetings) != 1 || len(got.Project.Links) != 1 {
		t.Errorf("get_land_project: complete %v, note %q, %d meetings, %d notices", got.LinksComplete, got.LinksNote, len(got.Meetings), len(got.Project.Links))
	}
	path := structured[mcp.LandPathOut](t, call(t, s, "get_land_decision_path", map[string]any{"id": p.ID}))
	if path.Path == nil || path.Path.LinksComplete || !strings.Contains(strings.Join(path.Path.Notes, " "), "the first 1 are listed") {
		t.Errorf("get_land_decision_path: %+v", path.Path)
	}
	if missing := structured[mcp.LandProjectOut](t, call(t, s, "get_land_project", map[string]any{"id": "2099M9999"})); missing.LinksComplete != nil {
		t.Errorf("a project not found says links_complete %v", *missing.LinksComplete)
	}
}

// get_land_project tells a project whose notice links were decided and
// none names it (2022M0258, linked with the sample's notices held) from
// one whose links were never decided (a fixture written without the link
// stage's decision): both list no notice.
func TestGetLandProjectNoticeLinksDecidedOrNot(t *testing.T) {
	ctx := context.Background()
	p := land.Project{ID: "2025K9994", Name: "fixture: never linked", ProcedureID: "ulurp", Procedure: "ULURP"}
	if err := search.Put(ctx, fx.be, land.ProjectKind, []land.Project{p}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { search.Delete(ctx, fx.be, land.ProjectKind, []string{p.ID}) })
	s := connect(t, 1)
	for id, want := range map[string]string{"2022M0258": land.NoticeLinksDecided, p.ID: land.NoticeLinksUndecided} {
		got := structured[mcp.LandProjectOut](t, call(t, s, "get_land_project", map[string]any{"id": id}))
		if got.Project == nil || len(got.Project.Links) != 0 || got.Project.NoticeLinksState != want || got.Project.NoticeLinksNote == "" {
			t.Errorf("%s: %+v, want state %q", id, got.Project, want)
		}
	}
}
