package api

import (
	"html/template"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// The Form 1 permalinks /vendors/<stem>/ and /agencies/<id>/ are small
// server-rendered pages (every text escaped by html/template) that show the
// profile and link its JSON twin. The full site renders the same JSON.

var entityPages = template.Must(template.New("page").Parse(`<!doctype html>
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
{{else if .Vendor}}{{with .Vendor}}
<h1>{{.Name}}</h1>
<p>Vendor name stem <code>{{.Stem}}</code>{{if .First}} · records from {{.First}} to {{.Last}}{{end}}</p>
<h2>Spellings</h2>
<ul>{{range .Variants}}<li>{{.Name}} <span class="note">({{.Source}}, {{.Records}})</span></li>{{end}}</ul>
<h2>Awards and intents</h2>
<p>{{.Awards.Total}} notices; valid amounts total {{.Awards.Amount.Display}}{{if .Awards.ExcludedInvalidAmounts}} ({{.Awards.ExcludedInvalidAmounts}} placeholder or erroneous amounts excluded){{end}}.</p>
<div class="table-scroll"><table><tr><th>Fiscal year</th><th>Notices</th><th>Valid amounts</th></tr>
{{range .Awards.ByFiscalYear}}<tr><td>FY{{.FiscalYear}}</td><td class="n">{{.Count}}</td><td class="n">{{.Amount.Display}}</td></tr>{{end}}</table></div>
<div class="table-scroll"><table><tr><th>Published</th><th>Notice</th><th>Agency</th><th>Amount</th></tr>
{{range .Awards.Notices}}<tr><td>{{.Published}}</td><td><a href="{{.Links.Permalink}}">{{.Title}}</a> <span class="note">{{.NoticeType}}</span></td><td>{{.Agency}}</td><td class="n">{{with .Amount}}{{if .Valid}}{{.Display}}{{else}}<span class="note">{{.SourceText}} (not counted)</span>{{end}}{{end}}</td></tr>{{end}}</table></div>
<h2>Agencies</h2>
<ul>{{range .Awards.Agencies}}<li><a href="{{.Profile}}">{{.Name}}</a>: {{.Count}} notices, {{.Amount.Display}}</li>{{end}}</ul>
<h2>Payments dataset</h2>
{{template "payments" .Payments}}
<h2>What this page does not say</h2>
<ul>{{range .Absence}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{else if .Agency}}{{with .Agency}}
<h1>{{.Name}}</h1>
<p>Canonical id <code>{{.ID}}</code>{{if .Acronyms}} · {{range $i, $a := .Acronyms}}{{if $i}}, {{end}}{{$a}}{{end}}{{end}}</p>
<h2>Spellings in the sources</h2>
<ul>{{range .Variants}}<li>{{.RawString}} <span class="note">({{.Method}}; {{range $i, $s := .Sources}}{{if $i}}, {{end}}{{$s}}{{end}}; {{.Records}} records)</span></li>{{end}}</ul>
<h2>Notices</h2>
<p>{{.Notices.Total}} notices{{if .Notices.First}} from {{.Notices.First}} to {{.Notices.Last}}{{end}}.</p>
<div class="table-scroll"><table><tr><th>Lens</th><th>Notices</th></tr>{{range .Notices.ByLens}}<tr><td>{{.Value}}</td><td class="n">{{.Count}}</td></tr>{{end}}</table></div>
<h2>Awards</h2>
<p>{{.Awards.Total}} award and intent notices; valid amounts total {{.Awards.Amount.Display}}.</p>
<div class="table-scroll"><table><tr><th>Vendor</th><th>Notices</th><th>Valid amounts</th></tr>
{{range .Awards.TopVendors}}<tr><td><a href="{{.Profile}}">{{.Stem}}</a></td><td class="n">{{.Count}}</td><td class="n">{{.Amount.Display}}</td></tr>{{end}}</table></div>
<h2>Payments dataset</h2>
{{template "payments" .Payments}}
<h2>What this page does not say</h2>
<ul>{{range .Absence}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{end}}
<h2>Scope</h2>
<p class="note">{{.ScopeLine}}</p>
<ul class="note">{{range .Rules}}<li>{{.}}</li>{{end}}</ul>
</main></body></html>
{{define "payments"}}{{with .}}<p>{{with .Contracts}}{{if .Count}}{{.Count}} contract records ({{.Amount.Display}}{{if .ValidAmounts}} registered value{{end}}){{else}}{{.Amount.Display}}{{end}}{{end}} · {{with .Payments}}{{if .Count}}{{.Count}} payments ({{.Amount.Display}}{{if .ValidAmounts}} paid{{end}}){{else}}{{.Amount.Display}}{{end}}{{end}}</p><p class="note">{{.Note}}</p>{{else}}<p>No payments-dataset records are held on this deployment.</p>{{end}}{{end}}
`))

type entityPage struct {
	Title, JSON, Base, Error, ScopeLine string
	Vendor                              *VendorProfile
	Agency                              *AgencyProfile
	Rules                               []string
}

func scopeLine(s record.Scope) string {
	if s.RecordsInCorpus == 0 {
		return "Only the records held here were searched."
	}
	line := "Searched " + itoaComma(s.RecordsInCorpus) + " records held here"
	if s.FirstSourceDate != "" {
		line += ", source dates " + s.FirstSourceDate + " to " + s.LastSourceDate
	}
	if !s.CorpusObservedAt.IsZero() {
		line += ", observed " + entityDay(s.CorpusObservedAt)
	}
	return line + "."
}

func itoaComma(n int) string {
	s := money(float64(n))
	return s[1 : len(s)-3]
}

func (s *Server) writePage(c *gin.Context, status int, p entityPage) {
	p.Base = s.cfg.BaseURL
	p.Rules = record.AbsenceRules
	writeHTML(c, status, entityPages, p, p.scopeTime())
}

func (p entityPage) scopeTime() (t time.Time) {
	switch {
	case p.Vendor != nil:
		return p.Vendor.Scope.CorpusObservedAt
	case p.Agency != nil:
		return p.Agency.Scope.CorpusObservedAt
	}
	return t
}

func (s *Server) pageError(c *gin.Context, title, json string, err error) {
	status := httpStatus(err)
	s.writePage(c, status, entityPage{Title: title, JSON: json, Error: record.ErrorMessage(err)})
}

// vendorPage is the Form 1 permalink /vendors/<stem>/; a slug that is not
// the stem's own (a suffix or case variant) redirects to it.
func (s *Server) vendorPage(c *gin.Context) {
	raw := pathValue(c, "stem")
	stem := vendorStem(raw)
	if slug := entity.StemSlug(stem); slug != raw && entity.StemLongEnough(stem) {
		c.Redirect(http.StatusMovedPermanently, view.Links{Form: 1}.Vendor(stem, "")) // the one permalink rule, site-relative
		return
	}
	jsonURL := s.cfg.BaseURL + "/api/vendors/" + raw
	prof, err := s.buildVendorProfile(c)
	if err != nil {
		s.pageError(c, "Vendor "+stem, jsonURL, err)
		return
	}
	s.writePage(c, http.StatusOK, entityPage{Title: prof.Name, JSON: jsonURL, Vendor: prof, ScopeLine: scopeLine(prof.Scope)})
}

// agencyPage is the Form 1 permalink /agencies/<id>/; a name redirects to
// its canonical id.
func (s *Server) agencyPage(c *gin.Context) {
	raw := pathValue(c, "id")
	id, _, _ := s.agencyFromPath(raw)
	if id != raw {
		c.Redirect(http.StatusMovedPermanently, view.Links{Form: 1}.Agency(id, ""))
		return
	}
	jsonURL := s.cfg.BaseURL + "/api/agencies/" + id
	prof, err := s.buildAgencyProfile(c)
	if err != nil {
		s.pageError(c, "Agency "+id, jsonURL, err)
		return
	}
	s.writePage(c, http.StatusOK, entityPage{Title: prof.Name, JSON: jsonURL, Agency: prof, ScopeLine: scopeLine(prof.Scope)})
}
