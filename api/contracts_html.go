package api

import (
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// The contract pages (SPEC §2.6, Form 1): /contracts/<id> shows one
// registered contract and /contracts/analysis?… an analysis. Both are
// small server-rendered pages (web/templates/contract.html in the one
// layout; every text escaped by html/template) with
// their permalink and a link to their JSON twin (/api/contracts/<id>,
// /api/contracts/analysis?…), which hold the same values.

// contractPage is the data of a contract page.
type contractPage struct {
	Title, Permalink, JSON, Base, Error string
	// ErrorKey is Error as a note, when the service wrote one (the page
	// says it in the reader's language).
	ErrorKey record.Note
	// Heading and Verbatim are the heading when it ends in record text
	// (a contract's purpose, an agency label as given): the site's words,
	// then the record text as published; else the heading is Title.
	Heading, Verbatim string
	Contract          *ContractView
	Analysis          *ContractAnalysisView
	Rules             record.Notes
	// Chart draws the ranking (a bar per group, groups with excluded rows
	// marked); Trend the registered value by fiscal year of the same
	// population (contracts_html.go analysisCharts).
	Chart *web.BarChart
	Trend *web.Trend
	srv   *Server
	query url.Values
	lang  string
}

func (p contractPage) AgencyLink(id string) string   { return p.srv.permalinks().Agency(id, "") }
func (p contractPage) VendorLink(stem string) string { return p.srv.permalinks().Vendor(stem, "") }
func (p contractPage) MatterLink(pin string) string  { return p.srv.permalinks().Matter(pin) }
func (p contractPage) Money(v float64) string        { return view.Money(v) }
func (p contractPage) RowsPage(api string) string    { return p.srv.RowsPage(api) }
func (p contractPage) ContractLink(id string) string {
	return p.Base + "/contracts/" + url.PathEscape(id)
}

// VerbatimGroups is whether the analysis's group labels are record text
// (agency and vendor names as printed), shown as published; the other
// groupings' labels are the service's words, said in the page's language.
func (p contractPage) VerbatimGroups() bool {
	return p.Analysis != nil && (p.Analysis.GroupBy == procure.GroupAgency || p.Analysis.GroupBy == procure.GroupVendor)
}

// CoverageStatement is the analysis's coverage statement in the page's
// language: the service's notes, said from their keys.
func (p contractPage) CoverageStatement() record.Notes {
	if p.Analysis == nil {
		return nil
	}
	return p.Analysis.Coverage.StatementKeys
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

// Kept are this analysis's parameters other than name, in order, as the
// hidden fields of a form that sets name (the accepted agency labels'
// picker: one select, not a link per label, keeps the page light).
func (p contractPage) Kept(name string) [][2]string {
	var out [][2]string
	for _, k := range slices.Sorted(maps.Keys(p.query)) {
		if k == name {
			continue
		}
		for _, v := range p.query[k] {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

func (s *Server) writeContractPage(c *gin.Context, status int, p contractPage, observed time.Time) {
	p.Base, p.Rules, p.srv, p.lang = s.cfg.BaseURL, record.AbsenceRuleNotes, s, c.GetString(langKey)
	writeHTML(c, status, web.Page{Kind: web.Contract, Title: p.Title, TitleVerbatim: p.Verbatim, Home: p.Base + "/", Canonical: p.Permalink, JSON: p.JSON, Data: p}, observed)
}

// contractPage serves /contracts/<id>: one contract by exact ID or row id.
func (s *Server) contractPage(c *gin.Context) {
	id := c.Param("id")
	p := contractPage{Title: fmt.Sprintf(web.Word(c.GetString(langKey), "page.contract"), id), Permalink: s.cfg.BaseURL + "/contracts/" + url.PathEscape(id),
		JSON: s.cfg.BaseURL + "/api/contracts/" + url.PathEscape(id)}
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		p.Error, p.ErrorKey = record.ErrorMessage(err), errorNote(err)
		s.writeContractPage(c, http.StatusBadRequest, p, time.Time{})
		return
	}
	r, err := s.procure().Contract(c.Request.Context(), id)
	if err != nil {
		status := httpStatus(err)
		p.Error, p.ErrorKey = record.ErrorMessage(err), errorNote(err)
		if record.ErrorCode(err) == record.ENOTFOUND {
			p.Error += ". This service holds no such contract; that does not mean none was registered."
			if !p.ErrorKey.IsZero() && len(p.ErrorKey.Inner) == 0 {
				p.ErrorKey = record.Note{Key: "error.contract_unknown.page", Inner: []record.Part{record.PartOf(p.ErrorKey)}}
			} else {
				p.ErrorKey = record.Note{}
			}
		}
		s.writeContractPage(c, status, p, time.Time{})
		return
	}
	s.answerBanner(c, r.Sources)
	v := s.contractView(r)
	p.Contract = &v
	p.Trend = contractTimeline(c.GetString(langKey), s.cfg.BaseURL, r.Rows)
	if r.Contract.Purpose != "" {
		p.Title = r.Contract.ContractID + ": " + r.Contract.Purpose
		p.Heading, p.Verbatim = r.Contract.ContractID+": ", r.Contract.Purpose
	} else {
		p.Title = fmt.Sprintf(web.Word(c.GetString(langKey), "page.contract"), r.Contract.ContractID)
	}
	s.writeContractPage(c, http.StatusOK, p, r.Contract.ObservedAt)
}

// contractAnalysisPage serves /contracts/analysis?…: the page of
// GET /api/contracts/analysis with the same parameters.
func (s *Server) contractAnalysisPage(c *gin.Context) {
	p := contractPage{Title: web.Word(c.GetString(langKey), "page.analysis"), Permalink: s.cfg.BaseURL + "/contracts/analysis",
		JSON: s.cfg.BaseURL + "/api/contracts/analysis", query: c.Request.URL.Query()}
	if q := c.Request.URL.Query().Encode(); q != "" {
		p.Permalink += "?" + q
		p.JSON += "?" + q
	}
	v, status, err := s.analysis(c)
	if err != nil {
		status := httpStatus(err)
		p.Error, p.ErrorKey = record.ErrorMessage(err), errorNote(err)
		s.writeContractPage(c, status, p, time.Time{})
		return
	}
	p.Analysis = &v
	if v.Status != procure.AnalysisUnknownLabel {
		if err := s.analysisCharts(c, &p); err != nil {
			p.Error, p.ErrorKey = record.ErrorMessage(err), errorNote(err)
		}
	}
	if v.Status == procure.AnalysisUnknownLabel {
		p.Title = web.Word(c.GetString(langKey), "page.analysis.unknown")
		p.Error, p.ErrorKey = v.Message, v.MessageKey
	} else {
		p.Title = fmt.Sprintf(web.Word(c.GetString(langKey), "page.analysis.by"), web.Label(c.GetString(langKey), "grouping", v.GroupBy))
		if a := v.Filters["agency"]; a != "" {
			p.Heading, p.Verbatim = p.Title+" · ", a
			p.Title += " · " + a
		}
	}
	s.writeContractPage(c, status, p, v.Scope.CorpusObservedAt)
}

// analysisCharts draws the analysis: its groups as bars (the value ranked
// by: registered value, or rows), and the same population's registered
// value by fiscal year as a trend. The numbers are the JSON twin's (the
// trend's are GET /api/contracts/analysis?group_by=fiscal_year with the
// same filters).
func (s *Server) analysisCharts(c *gin.Context, p *contractPage) error {
	lang := c.GetString(langKey)
	a := p.Analysis
	byValue := a.RankBy == procure.RankValue
	ch := web.BarChart{ID: "analysis-groups", Title: web.Word(lang, "chart.groups.title"), Desc: web.Word(lang, "chart.groups.desc"), Verbatim: p.VerbatimGroups()}
	for _, g := range a.Groups {
		label := g.Label
		if g.LabelKey != nil {
			label = web.NoteIn(lang, *g.LabelKey)
		}
		b := web.Bar{Label: label, Value: float64(g.Rows), Display: itoaComma(g.Rows), Marked: g.ExcludedRows > 0, URL: g.Follow.URL}
		if byValue {
			b.Display = web.SumText(lang, g.RegisteredValue)
			b.Value = 0
			if g.RegisteredValue.Value != nil {
				b.Value = *g.RegisteredValue.Value
			}
		}
		if g.ExcludedRows > 0 {
			b.Note = web.Word(lang, "chart.excluded") + ": " + itoaComma(g.ExcludedRows)
		}
		ch.Bars = append(ch.Bars, b)
	}
	if len(ch.Bars) > 0 {
		p.Chart = &ch
	}
	req := procure.AnalysisRequest{GroupBy: procure.GroupFiscalYear, RankBy: procure.RankValue, AgencyLabel: a.Filters["agency"],
		AmountBand: a.Filters["amount_band"], Limit: procure.MaxAnalysisGroups}
	if fy := a.Filters["fiscal_year"]; fy != "" {
		return nil // one fiscal year: no trend to draw
	}
	fy, err := s.procure().AnalyzeContracts(c.Request.Context(), req)
	if err != nil {
		return err
	}
	fy.WithBase(s.cfg.BaseURL, "/api/contracts") // each column leads to its rows, as the groups' links do
	groups := append([]procure.ContractGroup(nil), fy.Groups...)
	sort.Slice(groups, func(i, j int) bool { return groups[i].Key < groups[j].Key })
	tr := web.Trend{ID: "analysis-fy", Title: web.Word(lang, "chart.fy.title"), Desc: web.Word(lang, "chart.fy.desc")}
	for _, g := range groups {
		v := 0.0
		if g.RegisteredValue.Value != nil {
			v = *g.RegisteredValue.Value
		}
		tr.Points = append(tr.Points, web.Bar{Label: groupLabel(lang, g), Value: v, Display: web.SumText(lang, g.RegisteredValue), URL: g.Follow.URL})
	}
	if len(tr.Points) > 0 {
		p.Trend = &tr
	}
	return nil
}

// contractTimeline draws the rows held under one contract ID by
// registration date, each a column as tall as its registered amount (a
// row with no valid amount is drawn as a hairline and says so; a row not
// registered has no date and is left to the table).
func contractTimeline(lang, base string, rows []record.Contract) *web.Trend {
	var dated []record.Contract
	for _, r := range rows {
		if !r.RegisteredOn.IsZero() {
			dated = append(dated, r)
		}
	}
	if len(dated) == 0 {
		return nil
	}
	sort.SliceStable(dated, func(i, j int) bool { return dated[i].RegisteredOn.Before(dated[j].RegisteredOn) })
	tr := &web.Trend{ID: "contract-timeline", Title: web.Word(lang, "chart.timeline.title"), Desc: web.Word(lang, "chart.timeline.desc")}
	for _, r := range dated {
		b := web.Bar{Label: r.RegisteredOn.In(record.NewYork).Format("2006-01-02"), Display: web.Word(lang, "w.not.valid.not.summed"),
			URL: base + "/contracts/" + url.PathEscape(r.ID)} // the row's own page
		if r.AmountValid {
			b.Value, b.Display = r.Amount, view.Money(r.Amount)
		}
		tr.Points = append(tr.Points, b)
	}
	return tr
}

// groupLabel is an analysis group's label in lang: the service's words
// from their key, or the name as the records print it.
func groupLabel(lang string, g procure.ContractGroup) string {
	if g.LabelKey != nil {
		return web.NoteIn(lang, *g.LabelKey)
	}
	return g.Label
}
