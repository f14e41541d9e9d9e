package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A land project answer built from a join read that hit its bound says
// so on every surface (the JSON twin, the decision path, the page):
// links_complete false and a note naming the bound. The bound
// (joins.MaxRead) is lowered to 1 for a fixture project joined to two
// meetings and two events; at the real bound the same project reads
// complete.
func TestLandProjectSaysWhenJoinsWereCut(t *testing.T) {
	e := newEntityEnv(t, Config{})
	ctx := context.Background()
	p := land.Project{ID: "2025K9997", Name: "fixture: joined more than the bound", ProcedureID: "ulurp", Procedure: "ULURP"}
	if err := search.Put(ctx, e.be, land.ProjectKind, []land.Project{p}); err != nil {
		t.Fatal(err)
	}
	to := record.Ref{Kind: record.RefLandProject, ID: p.ID}
	var ls []record.Link
	for i := range 2 {
		ls = append(ls, record.NewLink(record.Ref{Kind: record.RefMeeting, ID: fmt.Sprintf("legistar:%d", i)}, to, p.ID, "project_id", "medium", false, "fixture"),
			record.NewLink(record.Ref{Kind: record.RefLandEvent, ID: fmt.Sprintf("council:%d", i)}, to, "250304PQK", "ulurp_number", "high", false, "fixture"))
	}
	if err := search.Put(ctx, e.be, joins.Kind, ls); err != nil {
		t.Fatal(err)
	}
	read := func() (LandProjectView, land.DecisionPath, string) {
		t.Helper()
		var v LandProjectView
		var d land.DecisionPath
		for path, into := range map[string]any{"/api/land-projects/" + p.ID: &v, "/api/land-projects/" + p.ID + "/decision-path": &d} {
			res, body := get(t, e, path)
			if res.StatusCode != http.StatusOK || json.Unmarshal(body, into) != nil {
				t.Fatalf("%s: %d %s", path, res.StatusCode, body)
			}
		}
		res, body := get(t, e, "/land-projects/"+p.ID)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("page: %d", res.StatusCode)
		}
		return v, d, string(body)
	}
	v, d, page := read()
	if !v.LinksComplete || v.LinksNote != "" || len(v.Meetings) != 2 || !d.LinksComplete || strings.Contains(page, `data-links-complete="false"`) {
		t.Fatalf("at the real bound: complete %v %q, %d meetings, path complete %v", v.LinksComplete, v.LinksNote, len(v.Meetings), d.LinksComplete)
	}
	defer func(n int) { joins.MaxRead = n }(joins.MaxRead)
	joins.MaxRead = 1
	v, d, page = read()
	cut := joins.BoundNote("meetings joined to the project", 1)
	if v.LinksComplete || !strings.Contains(v.LinksNote, cut) || !strings.Contains(v.LinksNote, joins.BoundNote("events of other publishers joined to the project", 1)) ||
		len(v.Meetings) != 1 {
		t.Errorf("JSON: complete %v, note %q, %d meetings", v.LinksComplete, v.LinksNote, len(v.Meetings))
	}
	if d.LinksComplete || len(d.Notes) == 0 || d.Notes[len(d.Notes)-1] != v.LinksNote {
		t.Errorf("decision path: complete %v, notes %q", d.LinksComplete, d.Notes)
	}
	if !strings.Contains(page, `data-links-complete="false"`) || !strings.Contains(page, "the first 1 are listed") {
		t.Errorf("the page does not say the joins were cut")
	}
	// and the Spanish page says so in Spanish, in the note and the path's notes
	res, es := get(t, e, "/land-projects/"+p.ID+"?lang=es")
	if res.StatusCode != http.StatusOK || strings.Count(string(es), "Incompleto: se guardan más reuniones vinculadas al proyecto de las <span data-verbatim>1</span> que lee") != 2 ||
		strings.Contains(string(es), "Incomplete:") {
		t.Errorf("the Spanish page does not say in Spanish that the joins were cut: %d", res.StatusCode)
	}
}

// A project whose notice links were decided against the notices held and
// none names it reads apart from one whose links were never decided (no
// notices held when it was linked, or written before the decision was
// kept): the same empty notice_links, a different notice_links_state and
// note, on the JSON twin and the page.
func TestLandNoticeLinksDecidedNoneAndUndecidedDiffer(t *testing.T) {
	e := newEntityEnv(t, Config{})
	ctx := context.Background()
	p := land.Project{ID: "2025K9995", Name: "fixture: linked before notices were held", ProcedureID: "ulurp", Procedure: "ULURP",
		NoticeLinksState: land.NoticeLinksUndecided, NoticeLinksNote: land.NoticeLinksUndecidedNote("no City Record notices were held when the project was linked")}
	if err := search.Put(ctx, e.be, land.ProjectKind, []land.Project{p}); err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"2022M0258": land.NoticeLinksDecided, p.ID: land.NoticeLinksUndecided} {
		var v LandProjectView
		res, body := get(t, e, "/api/land-projects/"+id)
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &v) != nil {
			t.Fatalf("%s: %d %s", id, res.StatusCode, body)
		}
		if len(v.Project.Links) != 0 || v.Project.NoticeLinksState != want || v.Project.NoticeLinksNote == "" {
			t.Errorf("%s: %d links, state %q, note %q; want none, %q", id, len(v.Project.Links), v.Project.NoticeLinksState, v.Project.NoticeLinksNote, want)
		}
		_, page := get(t, e, "/land-projects/"+id)
		html := string(page)
		decided := strings.Contains(html, "That does not mean none was published.")
		undecided := strings.Contains(html, "whether any notice names it is unknown here")
		if !strings.Contains(html, `data-notice-links="`+want+`"`) || decided != (want == land.NoticeLinksDecided) || undecided == decided {
			t.Errorf("%s: the page does not say %s", id, want)
		}
	}
}
