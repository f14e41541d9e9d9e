package api

import (
	"bytes"
	"html/template"
	"net/http"
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
		status = statusOf[record.ErrorCode(err)]
		if status == 0 {
			status = http.StatusInternalServerError
		}
		d.Error = record.ErrorMessage(err)
	} else {
		path := land.Path(r.Project, r.Events)
		d.Project, d.Path, d.Title = &r.Project, &path, r.Project.Name
	}
	web.SecurityHeaders(c.Writer.Header())
	var buf bytes.Buffer
	if err := landPage.Execute(&buf, d); err != nil {
		writeError(c, err)
		return
	}
	if status != http.StatusOK {
		c.Header("Cache-Control", "no-store")
		c.Data(status, "text/html; charset=utf-8", buf.Bytes())
		return
	}
	render(c, status, "text/html; charset=utf-8", buf.Bytes(), CacheProfiles, time.Time{})
}
