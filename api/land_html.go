package api

import (
	"html/template"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The land project page /land-projects/<id> draws the decision path as a
// timeline in two columns that are never merged: what the sources
// recorded (observed, by date) and the stages of the reviewed procedure
// (normative, in procedure order, each with its state and the ids of its
// evidence). Every text is escaped by html/template; the JSON twin is
// linked.

var landPage = template.Must(template.New("land").Funcs(template.FuncMap{
	"day": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(record.NewYork).Format("2006-01-02")
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Recordwatch</title>
<link rel="alternate" type="application/json" href="{{.JSON}}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">
<style>
.path{display:grid;grid-template-columns:1fr 1fr;gap:1.5rem}
.path ol{list-style:none;padding:0;margin:0;border-left:3px solid #888}
.path li{margin:0 0 .8rem;padding-left:.8rem}
.st-happened{border-left:6px solid #2a7}.st-in_progress,.st-current{border-left:6px solid #d90}
.st-not_started{border-left:6px dashed #999}.st-absent,.st-unknown{border-left:6px dotted #c33}
.planned{font-style:italic}
@media (max-width:700px){.path{grid-template-columns:1fr}}
</style>
</head><body class="page">
<header class="top"><div class="wrap"><a class="brand" href="{{.Base}}/">Recordwatch</a></div></header>
<main id="main-content" class="wrap">
<p class="twin"><a href="{{.JSON}}" data-twin="json">JSON twin of this page</a> · <a href="{{.PathJSON}}" data-twin="decision-path">decision path as JSON</a></p>
{{if .Error}}
<h1>{{.Title}}</h1>
<p>{{.Error}}</p>
{{else}}{{with .Project}}
<h1>{{.Name}} <span class="note">{{.ID}}</span></h1>
<p><a href="{{.URL}}">Official ZAP project page</a> · {{.PublicStatus}}{{if .ProjectStatus}} ({{.ProjectStatus}}){{end}} · review procedure {{if .Procedure}}{{.Procedure}}{{else}}not stated{{end}}</p>
<p>{{range $i, $b := .Boroughs}}{{if $i}}, {{end}}{{$b}}{{end}}{{if .CommunityDistricts}} · community districts {{range $i, $c := .CommunityDistricts}}{{if $i}}, {{end}}{{$c}}{{end}}{{end}}{{if .Applicant}} · applicant {{.Applicant}}{{end}}</p>
{{if .Brief}}<p>{{.Brief}}</p>{{end}}
<h2>Actions</h2>
<ul>{{range .Actions}}<li><code>{{.Code}}</code> {{.Name}}{{if .ULURPNumber}} · {{.ULURPNumber}}{{end}}{{if .Status}} · {{.Status}}{{end}} <span class="note">({{.Source}})</span></li>{{else}}<li>No actions held.</li>{{end}}</ul>
{{with .Environmental}}<p>Environmental review: {{if .CEQRNumber}}CEQR {{.CEQRNumber}}{{if .ReviewType}}, {{.ReviewType}}{{end}}{{if .Assessment}}, {{.Assessment}}{{end}}{{else}}no CEQR number held{{end}}</p>{{end}}
{{end}}
{{with .Path}}
<h2>Decision path</h2>
{{if .Procedure}}<p class="note">Procedure: {{.Procedure.Name}}. Source: {{.Procedure.Source.Title}}. {{.Procedure.Source.ReviewNote}}</p>{{else}}<p>{{.ProcedureNote}}</p>{{end}}
<div class="path">
<section aria-labelledby="observed-h"><h3 id="observed-h">Observed: what the sources recorded</h3>
<ol>{{range .Observed}}<li id="{{.ID}}"><strong>{{if .Date}}{{day .Date}}{{else}}no date{{end}}</strong> {{.Name}}{{if .Body}} · {{.Body}}{{end}}{{if .Action}} · {{.Action}}{{end}}{{if .Status}} · {{.Status}}{{end}}{{if .Outcome}} · <em>{{.Outcome}}</em>{{end}}
{{with .Planned}}{{if .End}}<br><span class="planned">planned end {{day .End}} (a plan, not an observation)</span>{{end}}{{end}}
{{if .Note}}<br><span class="note">{{.Note}}</span>{{end}}<br><span class="note">{{.ID}} · {{.Kind}} · {{.Source}}</span></li>{{else}}<li>Nothing recorded is held.</li>{{end}}</ol>
</section>
<section aria-labelledby="normative-h"><h3 id="normative-h">Normative: the procedure's stages</h3>
<ol>{{range .Normative}}<li class="st-{{.State}}"><strong>{{.Name}}</strong> · {{.Actor}} · <b>{{.State}}</b>{{if .Outcome}} · <em>{{.Outcome}}</em>{{end}}{{if .Date}} · {{day .Date}}{{end}}{{if .PlannedEnd}} · <span class="planned">planned {{day .PlannedEnd}}</span>{{end}}
<br><span class="note">{{.Effect}} · {{.Charter}}{{if .TimeLimitDays}} · {{.TimeLimitDays}} days{{end}}{{if .Group}} · parallel group {{.Group}}{{end}}</span>
<br><span class="note">{{.Reason}}{{if .Evidence}} · evidence {{range $i, $e := .Evidence}}{{if $i}}, {{end}}<a href="#{{$e}}">{{$e}}</a>{{end}}{{end}}</span></li>{{end}}</ol>
</section>
</div>
<ul class="note">{{range .Notes}}<li>{{.}}</li>{{end}}</ul>
{{end}}
{{with .Project}}
<h2>Lots</h2>
<ul>{{range .Lots}}<li>{{.BBL}} {{.Borough}}{{if .Centroid}} · centroid {{.Centroid.Lat}}, {{.Centroid.Lon}}{{else}} · <span class="note">no geometry: {{.NoCentroid}}</span>{{end}}</li>{{else}}<li>No lots held.</li>{{end}}</ul>
<h2>City Record notices linked</h2>
<ul>{{range .Links}}<li><a href="/#notice/{{.RequestID}}">{{.Title}}</a> · {{.Method}}, {{.Confidence}} confidence: {{range $i, $e := .Evidence}}{{if $i}}; {{end}}{{$e}}{{end}}</li>{{else}}<li>No notice is linked: none held names its application or CEQR numbers or its lots. That does not mean none was published.</li>{{end}}</ul>
<h2>Sources and conflicts</h2>
<ul>{{range .Sources}}<li>{{.Label}}{{if .File}} <span class="note">({{.File}})</span>{{end}}</li>{{end}}</ul>
{{if .Conflicts}}<ul>{{range .Conflicts}}<li>{{.Field}}: {{range $i, $v := .Values}}{{if $i}} / {{end}}{{$v.Value}} <span class="note">({{$v.Source}})</span>{{end}}</li>{{end}}</ul>{{else}}<p class="note">The held sources do not disagree on the compared fields.</p>{{end}}
{{end}}
{{end}}
<h2>What this page does not say</h2>
<ul class="note">{{range .Rules}}<li>{{.}}</li>{{end}}<li>It reports recorded facts and the procedure's rules; it does not predict outcomes.</li></ul>
</main></body></html>
`))

var landListPage = template.Must(template.New("landlist").Funcs(template.FuncMap{
	"day": func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(record.NewYork).Format("2006-01-02")
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Land-use projects · Recordwatch</title>
<link rel="alternate" type="application/json" href="{{.JSON}}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">
</head><body class="page">
<header class="top"><div class="wrap"><a class="brand" href="{{.Base}}/">Recordwatch</a></div></header>
<main id="main-content" class="wrap">
<p class="twin"><a href="{{.JSON}}" data-twin="json">JSON twin of this page</a></p>
<h1>Land-use projects</h1>
<form method="get" action="/land-projects">
<label>Procedure <select name="procedure"><option value="">any</option>{{range .Procedures}}<option value="{{.}}"{{if eq . $.Filter.Procedure}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<label>Action <input name="action" size="3" maxlength="2" value="{{.Filter.Action}}"></label>
<label>Stage <select name="stage"><option value="">any</option>{{range .Stages}}<option value="{{.}}"{{if eq . $.Filter.Stage}} selected{{end}}>{{.}}</option>{{end}}</select></label>
<label>Borough <input name="borough" size="12" value="{{.Filter.Borough}}"></label>
<label>Community district <input name="community_district" size="4" value="{{.Filter.CommunityDistrict}}"></label>
<label>BBL <input name="bbl" size="10" value="{{.Filter.BBL}}"></label>
<label>Status <input name="status" size="14" value="{{.Filter.Status}}"></label>
<button type="submit">Filter</button>
</form>
{{if .Error}}<p>{{.Error}}</p>{{else}}{{with .Page}}
<p>{{.Total}} projects match (completed and past projects included){{if .Groups}}: {{range $k, $v := .Groups}}{{$k}} {{$v}} · {{end}}{{end}}</p>
<div class="table-scroll"><table><tr><th>Project</th><th>Status</th><th>Procedure</th><th>Actions</th><th>Stage</th><th>Where</th><th>Last milestone</th></tr>
{{range .Projects}}<tr><td><a href="/land-projects/{{.ID}}">{{if .Name}}{{.Name}}{{else}}(no name held){{end}}</a> <span class="note">{{.ID}}</span></td><td>{{.PublicStatus}}</td><td>{{.Procedure}}</td><td>{{range $i, $a := .Actions}}{{if $i}}, {{end}}{{$a}}{{end}}</td><td>{{.Stage}}</td><td>{{range $i, $b := .Boroughs}}{{if $i}}, {{end}}{{$b}}{{end}} {{range .CommunityDistricts}}{{.}} {{end}}</td><td>{{day .LastDate}}</td></tr>{{end}}</table></div>
{{if .NextCursor}}<p><a href="{{$.Next}}">Next page</a></p>{{end}}
{{end}}{{end}}
<h2>What this page does not say</h2>
<ul class="note">{{range .Rules}}<li>{{.}}</li>{{end}}</ul>
</main></body></html>
`))

type landListData struct {
	JSON, Base, Error, Next string
	Filter                  land.Filter
	Page                    *land.Page
	Procedures, Stages      []string
	Rules                   []string
}

// landProjectsPage is /land-projects: the land lens as a page, filters in
// the URL (the same parameters as its JSON twin /api/land-projects).
func (s *Server) landProjectsPage(c *gin.Context) {
	q := c.Request.URL.Query()
	d := landListData{JSON: s.cfg.BaseURL + "/api/land-projects?" + q.Encode(), Base: s.cfg.BaseURL, Rules: record.AbsenceRules,
		Procedures: append(land.ProcedureIDs(), "elurp", "unknown"), Stages: append(land.StageIDs(), "unknown")}
	p := newParams(q, "procedure", "action", "stage", "effect", "borough", "community_district", "bbl", "status", "ulurp", "limit", "cursor")
	d.Filter = land.Filter{Procedure: p.str("procedure"), Action: p.str("action"), Stage: p.str("stage"), Effect: p.str("effect"), Borough: p.str("borough"),
		CommunityDistrict: p.str("community_district"), BBL: p.str("bbl"), Status: p.str("status"), ULURP: p.str("ulurp")}
	limit := p.integer("limit", land.DefaultLimit, 1, land.MaxLimit)
	status := http.StatusOK
	err := p.err
	if err == nil {
		var page land.Page
		page, err = s.land().Browse(c.Request.Context(), d.Filter, p.str("cursor"), limit)
		if err == nil {
			d.Page = &page
			if page.NextCursor != "" {
				next := c.Request.URL.Query()
				next.Set("cursor", page.NextCursor)
				d.Next = "/land-projects?" + next.Encode()
			}
		}
	}
	if err != nil {
		status = httpStatus(err)
		d.Error = record.ErrorMessage(err)
	}
	writeHTML(c, status, landListPage, d, time.Time{})
}

type landPageData struct {
	Title, JSON, PathJSON, Base, Error string
	Project                            *land.Project
	Path                               *land.DecisionPath
	Rules                              []string
}

// landProjectPage is /land-projects/<id>: the project and its decision
// path as a timeline, observed and normative apart.
func (s *Server) landProjectPage(c *gin.Context) {
	id := c.Param("id")
	d := landPageData{Title: "Land project " + id, JSON: s.cfg.BaseURL + "/api/land-projects/" + id,
		PathJSON: s.cfg.BaseURL + "/api/land-projects/" + id + "/decision-path", Base: s.cfg.BaseURL, Rules: record.AbsenceRules}
	status := http.StatusOK
	r, err := s.land().Project(c.Request.Context(), id)
	if err != nil {
		status = httpStatus(err)
		d.Error = record.ErrorMessage(err)
	} else {
		path := land.Path(r.Project, r.Events)
		d.Project, d.Path, d.Title = &r.Project, &path, r.Project.Name
	}
	writeHTML(c, status, landPage, d, time.Time{})
}
