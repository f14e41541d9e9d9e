package mcp_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

func TestLandTools(t *testing.T) {
	s := connect(t, 1)
	got := structured[mcp.LandProjectOut](t, call(t, s, "get_land_project", map[string]any{"id": "2022M0258"}))
	if got.Status != record.Found || got.Project == nil || got.Project.Name != "Timbale Terrace" || got.Project.URL != "https://zap.planning.nyc.gov/projects/2022M0258" {
		t.Fatalf("get %+v", got)
	}
	missing := structured[mcp.LandProjectOut](t, call(t, s, "get_land_project", map[string]any{"id": "2099M9999"}))
	if missing.Status != record.NotFound || missing.Project != nil || !strings.Contains(missing.Message, "does not mean") {
		t.Errorf("unknown id %+v", missing)
	}
	// refused by the schema's pattern (land.ProjectIDPattern), naming the argument
	if res := call(t, s, "get_land_project", map[string]any{"id": "Timbale"}); !res.IsError || !strings.Contains(text(res), "/properties/id:") {
		t.Errorf("malformed id: %s", text(res))
	}
	path := structured[mcp.LandPathOut](t, call(t, s, "get_land_decision_path", map[string]any{"id": "2024Q0292"}))
	if path.Status != record.Found || path.Path == nil || path.Path.Procedure == nil || len(path.Path.Observed) == 0 {
		t.Fatalf("path %+v", path)
	}
	states := map[string]string{}
	for _, st := range path.Path.Normative {
		states[st.ID] = st.State
	}
	if states["borough_president"] != land.StateInProgress || states["council"] != land.StateNotStarted || states["mayor"] != land.StateAbsent {
		t.Errorf("states %v", states)
	}
	if p := structured[mcp.LandPathOut](t, call(t, s, "get_land_decision_path", map[string]any{"id": "2099M9999"})); p.Status != record.NotFound {
		t.Errorf("unknown path %+v", p)
	}
	done := structured[land.Page](t, call(t, s, "browse_land_projects", map[string]any{"status": "completed", "procedure": "ULURP"}))
	var ids []string
	for _, p := range done.Projects {
		ids = append(ids, p.ID)
	}
	if !slices.Contains(ids, "2022M0258") || !slices.Contains(ids, "P2018X0210") || done.Scope.Searched.Kind != "land_projects" {
		t.Errorf("completed ULURP projects %v", ids)
	}
	zmQ := structured[land.Page](t, call(t, s, "browse_land_projects", map[string]any{"action": "ZM", "borough": "Q", "limit": 2}))
	if zmQ.Total < 3 || len(zmQ.Projects) != 2 || zmQ.NextCursor == "" {
		t.Errorf("ZM in Queens: %d, %d, %q", zmQ.Total, len(zmQ.Projects), zmQ.NextCursor)
	}
	if res := call(t, s, "browse_land_projects", map[string]any{"stage": "lottery"}); !res.IsError {
		t.Errorf("bad stage accepted: %s", text(res))
	}
}

// list_capability_gaps points to tools that exist.
func TestCapabilityGapsNearestToolsExist(t *testing.T) {
	s := connect(t, 1)
	gaps := structured[mcp.GapsOut](t, call(t, s, "list_capability_gaps", map[string]any{}))
	tools, err := s.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	for _, g := range gaps.Gaps {
		for _, n := range g.NearestTools {
			if !slices.Contains(names, n) {
				t.Errorf("gap %s points to %s, which is not a tool", g.ID, n)
			}
		}
	}
}

// browse_land_projects finds a project by several words of its name, in
// any order and letter case, and says so in its scope; too many words is
// a tool error naming the bound.
func TestBrowseLandProjectsByName(t *testing.T) {
	s := connect(t, 1)
	for _, w := range []string{"Timbale Terrace", "terrace TIMBALE"} {
		got := structured[land.Page](t, call(t, s, "browse_land_projects", map[string]any{"word": w}))
		if got.Total != 1 || len(got.Projects) != 1 || got.Projects[0].ID != "2022M0258" || got.Scope.Searched.Filters[land.KeyToken] == "" {
			t.Errorf("%q: %d %+v scope %v", w, got.Total, got.Projects, got.Scope.Searched.Filters)
		}
	}
	if none := structured[land.Page](t, call(t, s, "browse_land_projects", map[string]any{"word": "Timbale Rule"})); none.Total != 0 || len(none.Projects) != 0 {
		t.Errorf("words of two projects: %+v", none)
	}
	if res := call(t, s, "browse_land_projects", map[string]any{"word": "a b c d e f g h i"}); !res.IsError || !strings.Contains(text(res), "1 to 8 words") {
		t.Errorf("nine words: %s", text(res))
	}
}

// browse_land_projects places each project's lots as the list page and
// its JSON twin do (lot_places): every lot of a project (the first 50)
// placed at its lot, or not with the reason (on this sample, which holds
// no lot location, "MapPLUTO not fetched").
func TestBrowseLandProjectsPlacesLots(t *testing.T) {
	s := connect(t, 1)
	page := structured[land.Page](t, call(t, s, "browse_land_projects", map[string]any{"borough": "Queens", "limit": 100}))
	placed, lots := 0, 0
	for _, p := range page.Projects {
		lots += p.Lots
		if len(p.LotPlaces) != min(p.Lots, land.MaxLotPlaces) {
			t.Errorf("%s: %d lots, %d placed or said why", p.ID, p.Lots, len(p.LotPlaces))
		}
		for _, l := range p.LotPlaces {
			switch {
			case l.Kind == land.LocationLot && l.Point != nil && l.Method != "":
				placed++
			case l.Kind == land.LocationNone && l.Reason != "" && l.ReasonKey != nil && l.ReasonKey.String() == l.Reason:
			default:
				t.Errorf("%s lot %+v", p.ID, l)
			}
		}
	}
	if lots == 0 {
		t.Errorf("no lots on %d projects (%d placed)", len(page.Projects), placed)
	}
}
