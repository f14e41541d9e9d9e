package api

import (
	"net/http"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// peopleRoutes mounts the JSON reads of people and organization rows (SPEC
// §2.7, §2.10), twins of the get_person_or_organization and
// browse_organizations tools, and the civil-service exam and list rows
// kept beside them. A row id is kept exactly as given and may
// hold "/" (person ids: record/role/release), so it is the rest of the
// path, path-escaped (people.Route).
func (s *Server) peopleRoutes(r *gin.Engine, api *gin.RouterGroup) {
	r.GET("/organizations/*id", s.rateLimit(), s.organizationPage) // ids kept as given may hold "/"
	r.GET("/people/*id", s.rateLimit(), s.personPage)
	api.GET("/organizations", s.organizations)
	api.GET("/people/*id", s.personOrOrganization)
	api.GET("/civil-service", s.civilService)
}

// civilService serves GET /api/civil-service?kind=&exam_number=&title_code=&agency=&limit=&cursor=:
// exam and eligible-list rows (DCAS), newest first, each with its date
// and source; agency matches the lists that name it.
func (s *Server) civilService(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "kind", "exam_number", "title_code", "agency", "limit", "cursor", "format")
	f := people.CivilFilter{Kind: p.str("kind"), ExamNumber: p.str("exam_number"), TitleCode: p.str("title_code"), Agency: p.str("agency")}
	limit := p.integer("limit", people.DefaultLimit, 1, people.MaxLimit)
	cursor := p.str("cursor")
	asCSV := csvFormat(p)
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	if asCSV {
		limit = people.MaxLimit
	}
	ctx := c.Request.Context()
	page, err := s.people().Civil(ctx, f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	if !asCSV {
		renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
		return
	}
	e := startCSV(c, "civil-service")
	e.comment("Recordwatch civil-service exams and lists: %s", s.cfg.BaseURL+"/api/civil-service?"+listQuery(c, "format", "limit").Encode())
	e.comment("filters: %s", listQuery(c, "format", "limit", "cursor").Encode())
	e.comment("rows matched: %d", page.Total)
	e.comment("%s", page.Note)
	e.scope("", page.Scope)
	e.stream(civilCSVHeader, civilCSVPage(page), func(cur string) (csvPage, error) {
		next, err := s.people().Civil(ctx, f, cur, limit)
		return civilCSVPage(next), err
	})
}

// civilCSVHeader is the header row of the civil-service CSV.
var civilCSVHeader = []string{"id", "kind", "exam_number", "title_code", "title", "category", "date", "date_label", "end", "end_label",
	"agency_code", "agency_name", "agency_id", "notes", "dataset", "source", "url"}

// civilCSVPage is a page of civil-service rows as CSV rows.
func civilCSVPage(p people.CivilPage) csvPage {
	out := csvPage{next: p.NextCursor, total: p.Total}
	for _, r := range p.Records {
		out.rows = append(out.rows, []string{r.ID, r.Kind, r.ExamNumber, r.TitleCode, r.Title, r.Category, r.Date, r.DateLabel, r.End, r.EndLabel,
			r.AgencyCode, r.AgencyName, r.AgencyID, strings.Join(r.Notes, " | "), r.Dataset, r.Source, r.URL})
	}
	return out
}

// people is the people service main.go built.
func (s *Server) people() *people.Service { return s.deps.People }

// PersonOrOrgView is one exact typed row with every release holding its
// id, newest first.
type PersonOrOrgView struct {
	Status        record.Availability `json:"status"`
	Row           people.Row          `json:"row"`
	Releases      []people.Row        `json:"releases"`
	ReleasesTotal int                 `json:"releases_total"`
	Route         string              `json:"route"`
	Follow        *people.Follow      `json:"follow,omitempty"`
	// Positions are an organization's payroll positions by fiscal year and
	// title (organizations only; a payroll row is never a person row).
	Positions *people.Positions `json:"positions,omitempty"`
	Limits    []string          `json:"source_limits"`
	// Sources are the sources the answer is built from, each with its
	// coverage and freshness (people.RowRead.Sources).
	Sources []record.SourceCoverage `json:"sources"`
}

// personOrOrganization serves GET /api/people/<id>: ENOTFOUND (404),
// EINVALID (400) and EUNAVAILABLE (503) in the API's error shape.
func (s *Server) personOrOrganization(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	id := strings.TrimPrefix(c.Param("id"), "/")
	r, err := s.people().Get(c.Request.Context(), id)
	if err != nil {
		writeError(c, err)
		return
	}
	v := PersonOrOrgView{Status: record.Found, Row: r.Row, Releases: r.Releases, ReleasesTotal: r.ReleasesTotal,
		Route: people.Route(r.Row.ID), Follow: people.FollowOf(r.Row), Limits: people.SourceLimits, Sources: r.Sources}
	if r.Row.Type == people.TypeOrganization {
		pos, err := s.people().Positions(c.Request.Context(), r.Row.AgencyID)
		if err != nil {
			writeError(c, err)
			return
		}
		v.Positions = &pos
	}
	renderJSON(c, http.StatusOK, v, cacheShort, time.Time{})
}

// organizations serves GET /api/organizations?row_type=&token=&agency=&release=&limit=&cursor=:
// a bounded, stable page of one roster release with its freshness and scope.
func (s *Server) organizations(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "row_type", "token", "agency", "release", "limit", "cursor")
	f := people.Filter{Type: p.str("row_type"), Token: p.str("token"), Agency: p.str("agency"), Release: p.str("release")}
	limit := p.integer("limit", people.DefaultLimit, 1, people.MaxLimit)
	cursor := p.str("cursor")
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	page, err := s.people().Browse(c.Request.Context(), f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
}
