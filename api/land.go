package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// landRoutes mounts the JSON reads of land-use projects (SPEC §2.9),
// twins of get_land_project, browse_land_projects and
// get_land_decision_path, and the project page of the site.
func (s *Server) landRoutes(r *gin.Engine, api *gin.RouterGroup) {
	api.GET("/land-projects", s.landProjects)
	api.GET("/land-projects/:id", s.landProject)
	api.GET("/land-projects/:id/decision-path", s.landDecisionPath)
	r.GET("/land-projects", s.landProjectsPage)
	r.GET("/land-projects/:id", s.landProjectPage)
	r.GET("/land-projects/:id/hearings.ics", s.rateLimit(), s.landHearingsICS)
}

// land is the land service main.go built.
func (s *Server) land() *land.Service { return s.deps.Land }

// LandProjectView is one land project by exact id.
type LandProjectView struct {
	Status       record.Availability `json:"status"`
	Project      land.Project        `json:"project"`
	Events       []land.Event        `json:"events"`
	EventsNote   string              `json:"events_note"`
	Meetings     []record.Link       `json:"meetings"`
	MeetingsNote string              `json:"meetings_note"`
	// LinksComplete and LinksNote: false, with the bound named, when a
	// bounded read of the project's joins hit its bound
	// (land.ProjectRead).
	LinksComplete bool         `json:"links_complete"`
	LinksNote     string       `json:"links_note,omitempty"`
	LinksNoteKeys record.Notes `json:"links_note_keys,omitempty"`
	// LotPlaces place the project's lots as its page's map does
	// (land.ProjectRead.LotPlaces).
	LotPlaces []land.LotPlace `json:"lot_places"`
	// Hearings, NextHearing and HearingsNote: the project's hearings,
	// next first (land.ProjectRead); HearingsICS its calendar.
	Hearings         []land.Hearing `json:"hearings"`
	NextHearing      *land.Hearing  `json:"next_hearing"`
	HearingsNote     string         `json:"hearings_note"`
	HearingsICS      string         `json:"hearings_ics"`
	DecisionPathJSON string         `json:"decision_path_json"`
	Page             string         `json:"page"`
	// Sources are the sources the answer is built from, each with its
	// coverage and freshness (land.ProjectRead.Sources).
	Sources []record.SourceCoverage `json:"sources"`
}

// landProject serves GET /api/land-projects/:id: 400 for a malformed id,
// 404 when none is held, 503 when the engine cannot answer.
func (s *Server) landProject(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	r, err := s.land().Project(c.Request.Context(), c.Param("id"))
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, LandProjectView{Status: record.Found, Project: r.Project, Events: r.Events, EventsNote: r.EventsNote,
		Meetings: r.Meetings, MeetingsNote: r.MeetingsNote, LinksComplete: r.LinksComplete, LinksNote: r.LinksNote, LinksNoteKeys: r.LinksNoteKeys, LotPlaces: r.LotPlaces,
		Hearings: r.Hearings, NextHearing: r.NextHearing, HearingsNote: r.HearingsNote, HearingsICS: "/land-projects/" + r.Project.ID + "/hearings.ics", DecisionPathJSON: "/api/land-projects/" + r.Project.ID + "/decision-path", Page: "/land-projects/" + r.Project.ID, Sources: r.Sources}, cacheShort, time.Time{})
}

// landDecisionPath serves GET /api/land-projects/:id/decision-path.
func (s *Server) landDecisionPath(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	d, err := s.land().DecisionPath(c.Request.Context(), c.Param("id"))
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, d, cacheShort, time.Time{})
}

// landHearingsICS serves GET /land-projects/:id/hearings.ics: the
// project's hearings as a calendar (land.HearingsFeed), revised against
// what it served before (SEQUENCE raised on a change of date, time, place
// or status; a withdrawn hearing kept as CANCELLED).
func (s *Server) landHearingsICS(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	r, err := s.land().Project(ctx, c.Param("id"))
	if err != nil {
		writeError(c, err)
		return
	}
	host := s.tagHost()
	f := land.HearingsFeed(s.cfg.BaseURL, r, func(id string) string { return id + "-event@" + host }) // the notice feeds' UID (feedEvent)
	f = s.calendar(ctx, "land-hearings|"+r.Project.ID, f)
	render(c, http.StatusOK, feed.ContentTypeICS, feed.ICS(f), cacheFeeds, f.Updated)
}

// landProjects serves GET /api/land-projects?procedure=&action=&stage=&effect=&borough=&community_district=&bbl=&status=&ulurp=&ceqr=&word=&limit=&cursor=.
func (s *Server) landProjects(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "procedure", "action", "stage", "effect", "borough", "community_district", "bbl", "status", "ulurp", "ceqr", "word", "limit", "cursor", "format")
	f := land.Filter{Procedure: p.str("procedure"), Action: p.str("action"), Stage: p.str("stage"), Effect: p.str("effect"), Borough: p.str("borough"),
		CommunityDistrict: p.str("community_district"), BBL: p.str("bbl"), Status: p.str("status"), ULURP: p.str("ulurp"), CEQR: p.str("ceqr"), Word: p.str("word")}
	limit := p.integer("limit", land.DefaultLimit, 1, land.MaxLimit)
	cursor := p.str("cursor")
	asCSV := csvFormat(p)
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	if asCSV {
		limit = land.MaxLimit
	}
	ctx := c.Request.Context()
	page, err := s.land().Browse(ctx, f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	if !asCSV {
		if err := s.land().PlaceLots(ctx, &page); err != nil { // the lots on the map, as the page places them
			writeError(c, err)
			return
		}
		renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
		return
	}
	e := startCSV(c, "land-projects")
	e.comment("Recordwatch land-use projects: %s", s.cfg.BaseURL+"/api/land-projects?"+listQuery(c, "format", "limit").Encode())
	e.comment("filters: %s", listQuery(c, "format", "limit", "cursor").Encode())
	if b, err := json.Marshal(page.Filters); err == nil {
		e.comment("filters as read: %s", b)
	}
	e.comment("rows matched: %d", page.Total)
	e.scope("", page.Scope)
	e.stream(landCSVHeader, landCSVPage(page), func(cur string) (csvPage, error) {
		next, err := s.land().Browse(ctx, f, cur, limit)
		return landCSVPage(next), err
	})
}

// landCSVHeader is the header row of the land-use projects CSV; lists are
// joined with " | ".
var landCSVHeader = []string{"id", "name", "public_status", "project_status", "review_procedure", "procedure_id", "actions", "ulurp_numbers",
	"stage", "effect", "boroughs", "community_districts", "lots", "conflicts", "last_date", "url"}

// landCSVPage is a page of land-use projects as CSV rows.
func landCSVPage(p land.Page) csvPage {
	out := csvPage{next: p.NextCursor, total: p.Total}
	for _, r := range p.Projects {
		out.rows = append(out.rows, []string{r.ID, r.Name, r.PublicStatus, r.ProjectStatus, r.Procedure, r.ProcedureID, strings.Join(r.Actions, " | "),
			strings.Join(r.ULURPNumbers, " | "), r.Stage, r.Effect, strings.Join(r.Boroughs, " | "), strings.Join(r.CommunityDistricts, " | "),
			strconv.Itoa(r.Lots), strconv.Itoa(r.Conflicts), dayCell(r.LastDate), r.URL})
	}
	return out
}
