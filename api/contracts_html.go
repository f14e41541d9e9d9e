package api

import (
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The contract pages (SPEC §2.6, Form 1): /contracts/<id> shows one
// registered contract and /contracts/analysis?… an analysis. Both are
// small server-rendered pages (every text escaped by html/template) with
// their permalink and a link to their JSON twin (/api/contracts/<id>,
// /api/contracts/analysis?…), which hold the same values.

var contractPages = template.Must(template.New("page").Funcs(template.FuncMap{
	"day": entityDay,
	"fy": func(n int) string {
		if n == 0 {
			return "no fiscal year (not registered)"
		}
		return "FY" + strconv.Itoa(n)
	},
}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Recordwatch</title>
<link rel="canonical" href="{{.Permalink}}">
<link rel="alternate" type="application/json" href="{{.JSON}}">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/static/app.css">
</head><body class="page">
<header class="top"><div class="wrap"><a class="brand" href="{{.Base}}/">Recordwatch</a></div></header>
<main id="main-content" class="wrap">
<p class="twin"><a href="{{.Permalink}}" data-permalink="1">Permalink</a> · <a href="{{.JSON}}" data-twin="json">JSON twin of this page</a></p>
<h1>{{.Title}}</h1>
{{if .Error}}<p>{{.Error}}</p>{{end}}
{{with .Contract}}
<p class="note">Amounts here are registered value, never payments or spending ({{.Measure}}).</p>
{{with .Contract}}
<dl>
<dt>Contract ID</dt><dd><code>{{.ContractID}}</code> <span class="note">(row <code>{{.ID}}</code>)</span></dd>
<dt>Agency</dt><dd>{{if .AgencyID}}<a href="{{$.AgencyLink .AgencyID}}">{{.AgencyName}}</a>{{end}} <span class="note">printed “{{.AgencyLabel}}”</span></dd>
<dt>Vendor</dt><dd>{{if .VendorStem}}<a href="{{$.VendorLink .VendorStem}}">{{.VendorName}}</a>{{else}}{{.VendorName}}{{end}}</dd>
<dt>PIN</dt><dd>{{if .PIN}}<a href="{{$.MatterLink .PIN}}">{{.PIN}}</a>{{else}}none stated{{end}}</dd>
<dt>Registered</dt><dd>{{if .RegisteredOn.IsZero}}no registration date held{{else}}{{day .RegisteredOn}}{{end}} · {{fy .FiscalYear}}</dd>
<dt>Registered amount</dt><dd>{{if .AmountValid}}{{$.Money .Amount}}{{else}}<span class="note">{{if .AmountRaw}}“{{.AmountRaw}}”{{else}}none stated{{end}}: not a valid amount, counted but never summed</span>{{end}}</dd>
<dt>Purpose</dt><dd>{{if .Purpose}}{{.Purpose}}{{else}}none stated{{end}}</dd>
<dt>Procurement method</dt><dd>{{if .Method}}{{.Method}}{{else}}not stated by the source{{end}}</dd>
<dt>Status</dt><dd>{{if .Status}}{{.Status}}{{else}}unknown{{end}}</dd>
<dt>Source</dt><dd>{{.SourceLabel}}{{if not .ObservedAt.IsZero}} · observed {{day .ObservedAt}}{{end}}</dd>
</dl>
<h2>Source links</h2>
{{if .Links}}<ul>{{range .Links}}<li><a href="{{.URL}}" rel="noopener">{{.Label}}</a></li>{{end}}</ul>{{else}}<p>No source link held for this row.</p>{{end}}
{{end}}
<h2>Rows held under this contract ID</h2>
<p>{{.RowsTotal}} row(s){{if gt .RowsTotal (len .Rows)}}, {{len .Rows}} shown{{end}}.</p>
<div class="table-scroll"><table><tr><th>Row</th><th>Registered</th><th>Vendor</th><th>Amount</th></tr>
{{range .Rows}}<tr><td><a href="{{$.ContractLink .ID}}">{{.ID}}</a></td><td>{{if .RegisteredOn.IsZero}}not registered{{else}}{{day .RegisteredOn}}{{end}}</td><td>{{.VendorName}}</td><td class="n">{{if .AmountValid}}{{$.Money .Amount}}{{else}}<span class="note">not valid (not summed)</span>{{end}}</td></tr>{{end}}</table></div>
{{end}}
{{with .Analysis}}
<p class="note">{{.Measure}}.</p>
<p>Group by: {{range $.Groupings}}<a href="{{$.Switch "group_by" .}}">{{.}}</a> {{end}}· Rank by: {{range $.Rankings}}<a href="{{$.Switch "rank_by" .}}">{{.}}</a> {{end}}</p>
{{if .Suggestions}}<p>Suggested labels: {{range $i, $s := .Suggestions}}{{if $i}}, {{end}}<a href="{{$.AnalysisLink $s}}">{{$s}}</a>{{end}}</p>{{end}}
{{with .Population}}
<h2>Population</h2>
<p>{{.Rows}} registered rows: {{.IncludedRows}} with a valid amount, registered value {{.RegisteredValue.Display}}; {{.ExcludedRows}} excluded from the value sums.</p>
{{if .Excluded}}<ul>{{range .Excluded}}<li>{{.Rows}} × {{.Description}}</li>{{end}}</ul>{{end}}
<p class="note">{{.ExcludedNote}}{{if .FirstRegistered}} Registration dates {{.FirstRegistered}} to {{.LastRegistered}}.{{end}}</p>
{{end}}
{{if .Population}}
<h2>Ranked by {{.RankBy}}, grouped by {{.GroupBy}}</h2>
<p>{{.GroupsShown}} of {{.GroupsTotal}} groups shown.</p>
<div class="table-scroll"><table><tr><th>#</th><th>Group</th><th>Rows</th><th>Excluded</th><th>Registered value</th><th>Share of rows</th><th>Share of value</th><th>Browse</th></tr>
{{range .Groups}}<tr><td class="n">{{.Rank}}</td><td>{{.Label}}</td><td class="n">{{.Rows}}</td><td class="n">{{.ExcludedRows}}</td><td class="n">{{.RegisteredValue.Display}}</td><td class="n">{{.ShareOfRows}}%</td><td class="n">{{with .ShareOfValue}}{{.}}%{{else}}none held{{end}}</td><td><a href="{{.Follow.URL}}">every row</a></td></tr>{{end}}</table></div>
{{with .Ungrouped}}<p>{{.Rows}} rows in no group: {{.Reason}}.{{with .Follow}} <a href="{{.URL}}">Browse them</a>.{{end}}</p>{{end}}
{{end}}
<h2>Coverage</h2>
<p>{{.Coverage.Statement}}</p>
{{with .AgencyLabels}}<h2>Accepted agency labels ({{.Count}})</h2>
<p class="note">{{.Source}}</p>
<ul class="labels">{{range .Labels}}<li><a href="{{$.AnalysisLink .}}">{{.}}</a></li>{{end}}</ul>{{end}}
{{end}}
<h2>What this page does not say</h2>
<ul class="note">{{range .Rules}}<li>{{.}}</li>{{end}}</ul>
</main></body></html>
`))

// contractPage is the data of a contract page.
type contractPage struct {
	Title, Permalink, JSON, Base, Error string
	Contract                            *ContractView
	Analysis                            *ContractAnalysisView
	Rules                               []string
	srv                                 *Server
	query                               url.Values
}

func (p contractPage) AgencyLink(id string) string   { return p.srv.permalinks().Agency(id, "") }
func (p contractPage) VendorLink(stem string) string { return p.srv.permalinks().Vendor(stem, "") }
func (p contractPage) MatterLink(pin string) string  { return p.srv.permalinks().Matter(pin) }
func (p contractPage) Money(v float64) string        { return money(v) }
func (p contractPage) ContractLink(id string) string {
	return p.Base + "/contracts/" + url.PathEscape(id)
}

// Groupings and Rankings are the analysis choices the page links.
func (p contractPage) Groupings() []string { return procure.AnalysisGroupings }
func (p contractPage) Rankings() []string  { return procure.AnalysisRankings }

// Switch is this analysis with one parameter set to value.
func (p contractPage) Switch(name, value string) string {
	q := url.Values{}
	for k, v := range p.query {
		q[k] = v
	}
	q.Set(name, value)
	return p.Base + "/contracts/analysis?" + q.Encode()
}

// AnalysisLink is this analysis with another agency label.
func (p contractPage) AnalysisLink(label string) string { return p.Switch("agency", label) }

func (s *Server) writeContractPage(c *gin.Context, status int, p contractPage, observed time.Time) {
	p.Base, p.Rules, p.srv = s.cfg.BaseURL, record.AbsenceRules, s
	writeHTML(c, status, contractPages, p, observed)
}

// contractPage serves /contracts/<id>: one contract by exact ID or row id.
func (s *Server) contractPage(c *gin.Context) {
	id := c.Param("id")
	p := contractPage{Title: "Contract " + id, Permalink: s.cfg.BaseURL + "/contracts/" + url.PathEscape(id),
		JSON: s.cfg.BaseURL + "/api/contracts/" + url.PathEscape(id)}
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		p.Error = record.ErrorMessage(err)
		s.writeContractPage(c, http.StatusBadRequest, p, time.Time{})
		return
	}
	r, err := s.procure().Contract(c.Request.Context(), id)
	if err != nil {
		status := httpStatus(err)
		p.Error = record.ErrorMessage(err)
		if record.ErrorCode(err) == record.ENOTFOUND {
			p.Error += ". This service holds no such contract; that does not mean none was registered."
		}
		s.writeContractPage(c, status, p, time.Time{})
		return
	}
	v := ContractView{Status: record.Found, Contract: r.Contract, Rows: r.Rows, RowsTotal: r.RowsTotal, Measure: procure.ContractMeasure}
	p.Contract = &v
	if r.Contract.Purpose != "" {
		p.Title = r.Contract.ContractID + ": " + r.Contract.Purpose
	} else {
		p.Title = "Contract " + r.Contract.ContractID
	}
	s.writeContractPage(c, http.StatusOK, p, r.Contract.ObservedAt)
}

// contractAnalysisPage serves /contracts/analysis?…: the page of
// GET /api/contracts/analysis with the same parameters.
func (s *Server) contractAnalysisPage(c *gin.Context) {
	p := contractPage{Title: "Registered contracts analysis", Permalink: s.cfg.BaseURL + "/contracts/analysis",
		JSON: s.cfg.BaseURL + "/api/contracts/analysis", query: c.Request.URL.Query()}
	if q := c.Request.URL.Query().Encode(); q != "" {
		p.Permalink += "?" + q
		p.JSON += "?" + q
	}
	v, status, err := s.analysis(c)
	if err != nil {
		status := httpStatus(err)
		p.Error = record.ErrorMessage(err)
		s.writeContractPage(c, status, p, time.Time{})
		return
	}
	p.Analysis = &v
	if v.Status == procure.AnalysisUnknownLabel {
		p.Title = "Unknown agency label"
		p.Error = v.Message
	} else {
		p.Title = "Registered contracts by " + v.GroupBy
		if a := v.Filters["agency"]; a != "" {
			p.Title += " · " + a
		}
	}
	s.writeContractPage(c, status, p, v.Scope.CorpusObservedAt)
}
