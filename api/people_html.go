package api

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The Form 1 pages of an organization (/organizations/<record id>/: its
// row, its leader node per roster release, its civil-service lists and
// payroll positions by title when it is a crosswalk agency) and of a person row (/people/<id>: the roster
// record, role and release that print the name): web/templates/people.html
// in the one layout. Every text is escaped by html/template; each page links
// its JSON twin.

type field struct{ Name, Value string }

type peoplePage struct {
	Title, JSON, Base, Error string
	ErrorKey                 record.Note // Error as a note, when said as one
	Row                      *people.Row
	OrgPage, AgencyPage      string
	Leaders                  []people.Leader
	Limits                   record.Notes
	Variants                 []people.NameVariant
	Civil                    []people.CivilRecord
	CivilNote                record.Note
	Fields                   []field
	Follow                   *people.Follow
	Positions                *people.Positions
	Rules                    record.Notes
}

// orgPagePath is the page of an organization row.
func orgPagePath(id string) string {
	return "/organizations/" + strings.ReplaceAll(people.Route(id), "/api/people/", "") + "/"
}

func (s *Server) writePeoplePage(c *gin.Context, status int, p peoplePage) {
	p.Base = s.cfg.BaseURL
	p.Rules = record.AbsenceRuleNotes
	verbatim := ""
	if p.Error == "" {
		verbatim = p.Title // a row's name as printed
	}
	writeHTML(c, status, web.Page{Kind: web.People, Title: p.Title, TitleVerbatim: verbatim, Home: p.Base + "/", JSON: p.JSON, Data: p}, time.Time{})
}

func (s *Server) peoplePageError(c *gin.Context, json string, err error) {
	s.writePeoplePage(c, httpStatus(err), peoplePage{Title: web.Word(c.GetString(langKey), "page.people.notfound"), JSON: json, Error: record.ErrorMessage(err), ErrorKey: errorNote(err)})
}

func fieldsOf(m map[string]string) []field {
	out := make([]field, 0, len(m))
	for k, v := range m {
		out = append(out, field{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// organizationPage serves /organizations/<record id>/ (the id
// path-escaped; the trailing slash is the page's).
func (s *Server) organizationPage(c *gin.Context) {
	id := strings.TrimSuffix(strings.TrimPrefix(c.Param("id"), "/"), "/")
	json := people.Route(id)
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		s.peoplePageError(c, json, err)
		return
	}
	svc := s.people()
	r, err := svc.Get(c.Request.Context(), id)
	if err == nil && r.Row.Type != people.TypeOrganization {
		err = record.Errorf(record.ENOTFOUND, "%q is a person row, not an organization: see /people/%s", id, id)
	}
	if err != nil {
		s.peoplePageError(c, json, err)
		return
	}
	s.answerBanner(c, r.Sources)
	row := r.Row
	p := peoplePage{Title: row.Name, JSON: json, Row: &row, Limits: people.SourceLimitKeys, Variants: row.Variants, Fields: fieldsOf(row.Fields),
		Follow: people.FollowOf(row)}
	for _, rel := range r.Releases {
		p.Leaders = append(p.Leaders, people.LeaderOf(rel))
	}
	p.Leaders = people.Leadership{Nodes: p.Leaders}.WithRoutes().Nodes
	for i := range p.Leaders {
		if p.Leaders[i].Person != nil {
			p.Leaders[i].Person.Route = "/people/" + strings.TrimPrefix(p.Leaders[i].Person.Route, "/api/people/")
		}
	}
	pos, err := svc.Positions(c.Request.Context(), row.AgencyID)
	if err != nil {
		s.peoplePageError(c, json, err)
		return
	}
	p.Positions = &pos
	if row.AgencyID != "" {
		p.AgencyPage = "/agencies/" + row.AgencyID + "/"
		if civ, err := svc.Civil(c.Request.Context(), people.CivilFilter{Agency: row.AgencyID}, "", 10); err == nil && len(civ.Records) > 0 {
			p.Civil, p.CivilNote = civ.Records, civ.NoteKey
		}
	}
	s.writePeoplePage(c, http.StatusOK, p)
}

// personPage serves /people/<id> (person ids hold "/": the rest of the
// path, path-escaped).
func (s *Server) personPage(c *gin.Context) {
	id := strings.TrimPrefix(c.Param("id"), "/")
	json := people.Route(id)
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		s.peoplePageError(c, json, err)
		return
	}
	r, err := s.people().Get(c.Request.Context(), id)
	if err != nil {
		s.peoplePageError(c, json, err)
		return
	}
	s.answerBanner(c, r.Sources)
	row := r.Row
	p := peoplePage{Title: row.Name, JSON: json, Row: &row, OrgPage: orgPagePath(row.OrgID), Fields: fieldsOf(row.Fields), Follow: people.FollowOf(row)}
	if row.Type == people.TypeOrganization {
		c.Redirect(http.StatusMovedPermanently, orgPagePath(row.ID)+langQuery(c))
		return
	}
	s.writePeoplePage(c, http.StatusOK, p)
}
