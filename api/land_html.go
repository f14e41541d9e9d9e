package api

import (
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The land project page /land-projects/<id> draws the decision path as a
// timeline in two columns that are never merged: what the sources
// recorded (observed, by date) and the stages of the reviewed procedure
// (normative, in procedure order, each with its state and the ids of its
// evidence): web/templates/land_project.html, and the list
// web/templates/land_list.html, in the one layout. Every text is escaped by
// html/template; the JSON twin is linked.

type landListData struct {
	JSON, Base, Error, Next string
	// ErrorKey is Error as a note, when the service wrote one.
	ErrorKey record.Note
	// Widen is the page of an empty list's widening (widenedURL).
	Widen string
	// CSV is the CSV twin of the list shown.
	CSV                string
	Filter             land.Filter
	Page               *land.Page
	Procedures, Stages []string
	Rules              record.Notes
	// Map places the page's projects at their lots (landListMap): how
	// many lots are placed, of how many projects, and how many are not.
	Map                                 *web.NYCMap
	MapPlaced, MapProjects, MapUnplaced int
}

// landProjectsPage is /land-projects: the land lens as a page, filters in
// the URL (the same parameters as its JSON twin /api/land-projects).
func (s *Server) landProjectsPage(c *gin.Context) {
	q := c.Request.URL.Query()
	d := landListData{JSON: s.cfg.BaseURL + "/api/land-projects?" + q.Encode(), CSV: s.csvLink("/api/land-projects", q), Base: s.cfg.BaseURL, Rules: record.AbsenceRuleNotes,
		Procedures: append(land.ProcedureIDs(), "unknown"), Stages: append(land.StageIDs(), "unknown")}
	p := newParams(q, "procedure", "action", "stage", "effect", "borough", "community_district", "bbl", "status", "ulurp", "ceqr", "word", "limit", "cursor")
	d.Filter = land.Filter{Procedure: p.str("procedure"), Action: p.str("action"), Stage: p.str("stage"), Effect: p.str("effect"), Borough: p.str("borough"),
		CommunityDistrict: p.str("community_district"), BBL: p.str("bbl"), Status: p.str("status"), ULURP: p.str("ulurp"), CEQR: p.str("ceqr"), Word: p.str("word")}
	limit := p.integer("limit", land.DefaultLimit, 1, land.MaxLimit)
	status := http.StatusOK
	err := p.err
	if err == nil {
		var page land.Page
		page, err = s.land().Browse(c.Request.Context(), d.Filter, p.str("cursor"), limit)
		if err == nil {
			d.Page = &page
			d.Widen = s.widenedURL("/land-projects", q, page.Widening)
			if s.land().PlaceLots(c.Request.Context(), &page) == nil {
				d.landListMap(c.GetString(langKey), page)
			}
			if page.NextCursor != "" {
				next := c.Request.URL.Query()
				next.Set("cursor", page.NextCursor)
				d.Next = "/land-projects?" + next.Encode()
			}
		}
	}
	if err != nil {
		status = httpStatus(err)
		d.Error, d.ErrorKey = record.ErrorMessage(err), errorNote(err)
	}
	writeHTML(c, status, web.Page{Kind: web.LandList, Title: web.Word(c.GetString(langKey), "w.land.use.projects"), Home: d.Base + "/", JSON: d.JSON, Data: d}, time.Time{})
}

// landListMap places the projects of a list page on the map: a mark per
// project at each distinct place of its lots (the lot's MapPLUTO
// centroid, or the middle of the ZAP outline of the project's lots,
// drawn too), each an SVG link to the project's page.
func (d *landListData) landListMap(lang string, page land.Page) {
	m := &web.NYCMap{ID: "land-map", Title: web.Word(lang, "land.map.title"), Desc: web.Word(lang, "land.map.desc")}
	for _, p := range page.Projects {
		seen := map[string]bool{}
		placed := false
		for _, l := range p.LotPlaces {
			if l.Kind != land.LocationLot || l.Point == nil {
				d.MapUnplaced++
				continue
			}
			d.MapPlaced++
			placed = true
			key := fmt.Sprintf("%.5f,%.5f", l.Point.Lat, l.Point.Lon)
			if seen[key] {
				continue
			}
			seen[key] = true
			label := p.ID + " · BBL " + l.BBL
			if l.Shape == land.ShapeOutline {
				label = p.ID
				m.Shapes = append(m.Shapes, web.MapShape{Label: p.ID, Geometry: l.Geometry})
			}
			m.Points = append(m.Points, web.MapPoint{Label: label, Note: p.Name, Lat: l.Point.Lat, Lon: l.Point.Lon, URL: "/land-projects/" + p.ID})
		}
		if placed {
			d.MapProjects++
		}
	}
	if len(m.Points) > 0 {
		d.Map = m
	}
}

type landPageData struct {
	Title, JSON, PathJSON, Base, Error string
	// ErrorKey is Error as a note, when the service wrote one.
	ErrorKey record.Note
	Project  *land.Project
	Path     *land.DecisionPath
	// Meetings are the meetings joined to the project (link records).
	Meetings []record.Link
	// LinksNote names the bounds of the joins read that were hit
	// (land.ProjectRead.LinksNoteKeys; empty when the read was complete).
	LinksNote record.Notes
	// Hearings are the project's hearings, next first
	// (land.ProjectRead.Hearings), HearingsNote how they are found and
	// HearingsICS the project's calendar.
	Hearings                  []land.Hearing
	HearingsNote, HearingsICS string
	Rules                     record.Notes
	// Diagram draws Path's stages on two tracks (landDiagram).
	Diagram *web.StageDiagram
	// Map draws the project's located lots and shades its community
	// districts (landMap); Places are the lots' places by BBL
	// (land.ProjectRead.LotPlaces), for the list of lots beside it.
	Map    *web.NYCMap
	Places map[string]land.LotPlace
}

// landProjectPage is /land-projects/<id>: the project and its decision
// path as a timeline, observed and normative apart.
func (s *Server) landProjectPage(c *gin.Context) {
	id := c.Param("id")
	d := landPageData{Title: fmt.Sprintf(web.Word(c.GetString(langKey), "page.land"), id), JSON: s.cfg.BaseURL + "/api/land-projects/" + id,
		PathJSON: s.cfg.BaseURL + "/api/land-projects/" + id + "/decision-path", Base: s.cfg.BaseURL, Rules: record.AbsenceRuleNotes}
	status := http.StatusOK
	r, err := s.land().Project(c.Request.Context(), id)
	if err != nil {
		status = httpStatus(err)
		d.Error, d.ErrorKey = record.ErrorMessage(err), errorNote(err)
	} else {
		s.answerBanner(c, r.Sources)
		path := r.Path()
		d.Project, d.Path, d.Title, d.Meetings = &r.Project, &path, r.Project.Name, r.Meetings
		d.LinksNote = r.LinksNoteKeys
		d.Hearings, d.HearingsNote, d.HearingsICS = r.Hearings, r.HearingsNote, s.cfg.BaseURL+"/land-projects/"+r.Project.ID+"/hearings.ics"
		d.Diagram = landDiagram(c.GetString(langKey), path)
		d.Map = landMap(c.GetString(langKey), s.cfg.BaseURL, r.Project, r.LotPlaces)
		d.Places = map[string]land.LotPlace{}
		for _, l := range r.LotPlaces {
			d.Places[l.BBL] = l
		}
	}
	writeHTML(c, status, web.Page{Kind: web.LandProject, Title: d.Title, Home: d.Base + "/", JSON: d.JSON, Data: d}, time.Time{})
}

// landDiagram is the stage diagram of a decision path (nil when no
// reviewed procedure is held: the normative layer is unknown, and the page
// says so in words).
func landDiagram(lang string, p land.DecisionPath) *web.StageDiagram {
	if len(p.Normative) == 0 {
		return nil
	}
	d := &web.StageDiagram{ID: "decision-path", Title: web.Word(lang, "stages.title"), Desc: web.Word(lang, "stages.desc")}
	for _, s := range p.Normative {
		m := web.StageMark{ID: s.ID, Name: web.Label(lang, "land_stage", web.LandStageKey(p.Procedure.ID, s.ID)), State: s.State, StateLabel: web.Label(lang, "stage_state", s.State), Evidence: len(s.Evidence),
			URL: "#stage-" + s.ID} // the stage in words, with its evidence linked
		if len(s.Evidence) > 0 {
			m.URL = "#" + s.Evidence[0] // the first record that evidences it, in the observed list
		}
		if !s.Date.IsZero() {
			m.Date = s.Date.In(record.NewYork).Format("2006-01-02")
		}
		if s.TimeLimitDays > 0 {
			m.Clock = fmt.Sprintf(web.Word(lang, "stages.clock"), s.TimeLimitDays)
		}
		d.Stages = append(d.Stages, m)
	}
	return d
}

// landMap is the map of a project: its lots that a bundled lot file
// locates (centroids), and its community districts shaded (Q06 is
// "Queens CB 6").
func landMap(lang, base string, p land.Project, places []land.LotPlace) *web.NYCMap {
	m := &web.NYCMap{ID: "project-map", Title: web.Word(lang, "map.title"), Desc: web.Word(lang, "map.desc")}
	boro := map[byte]string{'M': "Manhattan", 'X': "Bronx", 'K': "Brooklyn", 'Q': "Queens", 'R': "Staten Island"}
	for _, cd := range p.CommunityDistricts {
		if n, err := strconv.Atoi(cd[min(1, len(cd)):]); err == nil && len(cd) > 1 && boro[cd[0]] != "" {
			m.Districts = append(m.Districts, fmt.Sprintf("%s CB %d", boro[cd[0]], n))
		}
	}
	// each lot placed (land.ProjectRead.LotPlaces: its MapPLUTO centroid,
	// or the middle of the ZAP outline of the project's lots, drawn too)
	// leads to the land projects held on it
	borough, outlined, seen := map[string]string{}, false, map[string]bool{}
	for _, l := range p.Lots {
		borough[l.BBL] = l.Borough
	}
	for _, l := range places {
		if l.Kind != land.LocationLot || l.Point == nil {
			continue
		}
		if at := fmt.Sprintf("%.5f,%.5f", l.Point.Lat, l.Point.Lon); seen[at] {
			continue // the lots of one outline share its middle
		} else {
			seen[at] = true
		}
		if l.Shape == land.ShapeOutline && !outlined {
			outlined = true
			m.Shapes = append(m.Shapes, web.MapShape{Label: p.ID, Geometry: l.Geometry})
		}
		m.Points = append(m.Points, web.MapPoint{Label: l.BBL, Note: borough[l.BBL], Lat: l.Point.Lat, Lon: l.Point.Lon,
			URL: base + "/land-projects?bbl=" + url.QueryEscape(l.BBL)})
	}
	if len(m.Points) == 0 && len(m.Districts) == 0 {
		return nil
	}
	return m
}
