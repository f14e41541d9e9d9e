package api

import (
	"html/template"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The Form 1 pages of an organization (/organizations/<record id>/: its
// row, its leader node per roster release, its civil-service lists and
// payroll positions by title when it is a crosswalk agency) and of a person row (/people/<id>: the roster
// record, role and release that print the name). Every text is escaped by
// html/template; each page links its JSON twin.

var peoplePages = template.Must(template.New("people").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Recordwatch</title>
<link rel="alternate" type="application/json" href="{{.JSON}}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">
</head><body class="page">
<header class="top"><div class="wrap"><a class="brand" href="{{.Base}}/">Recordwatch</a></div></header>
<main id="main-content" class="wrap">
<p class="twin"><a href="{{.JSON}}" data-twin="json">JSON twin of this page</a></p>
{{if .Error}}
<h1>{{.Title}}</h1>
<p>{{.Error}}</p>
{{else}}{{with .Row}}
<h1>{{.Name}}</h1>
<p>{{if eq .Type "person"}}Person row{{else}}Organization row{{end}} <code>{{.ID}}</code> · roster release {{.Release.Version}} {{.Release.AsOf}} <span class="note">({{.Release.DateKind}})</span></p>
{{if eq .Type "person"}}
<p>Printed as <strong>{{if .Role}}{{.Role}}{{else}}principal officer{{end}}</strong> of <a href="{{$.OrgPage}}">{{.OrgName}}</a> {{.Release.AsOf}}. This is what the release printed, not proof of who holds the role now.</p>
<p class="note">A name identifies nobody: the same name printed for another organization is another row. No separate dossier exists for a person.</p>
{{else}}
<p>{{.OrgType}}{{if .Status}} · {{.Status}}{{end}}{{if .Acronym}} · {{.Acronym}}{{end}}{{if $.AgencyPage}} · <a href="{{$.AgencyPage}}">agency dossier</a>{{end}}</p>
{{end}}
<h2>Relations</h2>
<div class="table-scroll"><table><tr><th>Relation</th><th>State</th><th>As printed</th></tr>
{{range .Relations}}<tr><td>{{.Name}}</td><td>{{.State}}</td><td>{{.Value}}{{range $i, $v := .Values}}{{if $i}}; {{end}}{{$v}}{{end}}{{if .Note}} <span class="note">{{.Note}}</span>{{end}}</td></tr>{{end}}</table></div>
{{end}}
{{with .Follow}}<h2>Follow</h2>
<p><a href="{{.Feed}}">Atom feed</a> · <a href="{{.JSON}}">JSON feed</a> of the people lens for <code>{{.Agency}}</code>.</p>
<p class="note">{{.Note}}</p>{{end}}
{{if .Leaders}}<h2>Leaders by roster release</h2>
<div class="table-scroll"><table><tr><th>Release</th><th>Title</th><th>Name</th><th>Confidence</th></tr>
{{range .Leaders}}<tr><td>{{.AsOf}}</td><td>{{if .Title}}{{.Title}}{{else}}<span class="note">{{.TitleState}}</span>{{end}}</td><td>{{if .Person}}<a href="{{.Person.Route}}">{{.Name}}</a>{{else if .Name}}{{.Name}}{{else}}<span class="note">{{.NameState}}{{if .Note}}: {{.Note}}{{end}}</span>{{end}}</td><td>{{.Confidence}}</td></tr>{{end}}</table></div>
<ul class="note">{{range .Limits}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{if .Variants}}<h2>Official name variants</h2>
<ul>{{range .Variants}}<li>{{.Name}} <span class="note">({{.System}}, {{.Column}})</span></li>{{end}}</ul>{{end}}
{{if .Civil}}<h2>Civil-service lists naming this agency</h2>
<div class="table-scroll"><table><tr><th>Date</th><th>Exam</th><th>Title</th><th>Source</th></tr>
{{range .Civil}}<tr><td>{{.Date}} <span class="note">{{.DateLabel}}</span></td><td>{{.ExamNumber}}</td><td>{{.Title}}</td><td class="note">{{.SourceLabel}}</td></tr>{{end}}</table></div>
<p class="note">{{.CivilNote}}</p>{{end}}
{{with .Positions}}<h2>Positions held (Citywide Payroll)</h2>
{{if eq .State "published"}}<p>Regular gross paid over every payroll row held for this agency: <strong>{{.Display}}</strong>.</p>
{{range .Years}}<h3>Fiscal year {{.FiscalYear}}</h3>
<p>{{.Rows}} positions (payroll rows) · regular gross paid {{.GrossPaid.Display}} · {{.ValidAmounts}} valid amounts, {{.Excluded}} excluded · {{.TitlesHeld}} titles{{if .RowsNotListed}} ({{.RowsNotListed}} rows of titles not listed){{end}}{{if .RowsNoTitle}} · {{.RowsNoTitle}} rows with no title printed{{end}} · <a href="{{.Browse}}">payroll rows</a></p>
<div class="table-scroll"><table><tr><th>Title as printed</th><th>Positions</th><th>Regular gross paid</th><th>Excluded</th></tr>
{{range .Titles}}<tr><td><a href="{{.Browse}}">{{.Title}}</a></td><td>{{.Rows}}</td><td>{{.GrossPaid.Display}}</td><td>{{.Excluded}}</td></tr>{{end}}</table></div>
{{end}}{{else}}<p><strong>{{.Display}}</strong></p>{{end}}
<p class="note">Measure: {{.Measure}}. {{.Note}}</p>
{{if .Years}}<p class="note">Bounds: {{.Bounds}}.</p>{{end}}{{end}}
<h2>Source fields as read</h2>
<div class="table-scroll"><table><tr><th>Field</th><th>Value</th></tr>{{range .Fields}}<tr><td><code>{{.Name}}</code></td><td>{{.Value}}</td></tr>{{end}}</table></div>
{{end}}
<h2>What this page does not say</h2>
<ul class="note">{{range .Rules}}<li>{{.}}</li>{{end}}</ul>
</main></body></html>
`))

type field struct{ Name, Value string }

type peoplePage struct {
	Title, JSON, Base, Error string
	Row                      *people.Row
	OrgPage, AgencyPage      string
	Leaders                  []people.Leader
	Limits                   []string
	Variants                 []people.NameVariant
	Civil                    []people.CivilRecord
	CivilNote                string
	Fields                   []field
	Follow                   *people.Follow
	Positions                *people.Positions
	Rules                    []string
}

// orgPagePath is the page of an organization row.
func orgPagePath(id string) string {
	return "/organizations/" + strings.ReplaceAll(people.Route(id), "/api/people/", "") + "/"
}

func (s *Server) writePeoplePage(c *gin.Context, status int, p peoplePage) {
	p.Base = s.cfg.BaseURL
	p.Rules = record.AbsenceRules
	writeHTML(c, status, peoplePages, p, time.Time{})
}

func (s *Server) peoplePageError(c *gin.Context, json string, err error) {
	s.writePeoplePage(c, httpStatus(err), peoplePage{Title: "Not found", JSON: json, Error: record.ErrorMessage(err)})
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
	row := r.Row
	p := peoplePage{Title: row.Name, JSON: json, Row: &row, Limits: people.SourceLimits, Variants: row.Variants, Fields: fieldsOf(row.Fields),
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
			p.Civil, p.CivilNote = civ.Records, civ.Note
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
	row := r.Row
	p := peoplePage{Title: row.Name, JSON: json, Row: &row, OrgPage: orgPagePath(row.OrgID), Fields: fieldsOf(row.Fields), Follow: people.FollowOf(row)}
	if row.Type == people.TypeOrganization {
		c.Redirect(http.StatusMovedPermanently, orgPagePath(row.ID))
		return
	}
	s.writePeoplePage(c, http.StatusOK, p)
}
