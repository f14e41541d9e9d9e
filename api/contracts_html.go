package api

import (
	"net/http"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
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
	writeHTML(c, status, web.Page{Kind: web.Contract, Title: p.Title, Home: p.Base + "/", Canonical: p.Permalink, JSON: p.JSON, Data: p}, observed)
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
		p.Title = "Registered contracts by " + web.Label(c.GetString(langKey), "grouping", v.GroupBy)
		if a := v.Filters["agency"]; a != "" {
			p.Title += " · " + a
		}
	}
	s.writeContractPage(c, status, p, v.Scope.CorpusObservedAt)
}
