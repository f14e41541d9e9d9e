package api

import (
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// contractRoutes mounts the JSON reads of registered contracts (SPEC
// §2.6), twins of the get_contract, browse_contracts and analyze_contracts
// tools, and their site pages (contracts_html.go).
func (s *Server) contractRoutes(r *gin.Engine, api *gin.RouterGroup) {
	api.GET("/contracts", s.contracts)
	api.GET("/contracts/analysis", s.contractAnalysis)
	api.GET("/contracts/:id", s.contract)
	r.GET("/contracts/analysis", s.rateLimit(), s.contractAnalysisPage)
	r.GET("/contracts/:id", s.rateLimit(), s.contractPage)
}

// ContractView is one contract read (procure.ContractRead: the contract,
// every row held under the same contract ID, the payments joined to them
// with registered vs paid) with what its amounts measure and the link to
// the procurement matter of its PIN, when it states one.
type ContractView struct {
	Status record.Availability `json:"status"`
	procure.ContractRead
	Measure string `json:"measure"`
	// MeasureKey is measure as a note (key and arguments).
	MeasureKey record.Note `json:"measure_key"`
	// Matter is the JSON address of the procurement matter of the
	// contract's PIN (its timeline: notices, registrations, payments).
	Matter string `json:"matter,omitempty"`
	// PaymentRows is the paged list of the payments naming the contract
	// ID (GET /api/rows, cursor to the end), PaymentsCSV its CSV twin.
	PaymentRows string `json:"payment_rows"`
	PaymentsCSV string `json:"payments_csv"`
}

// contractView is the view of a contract read, the API's and the page's.
func (s *Server) contractView(r procure.ContractRead) ContractView {
	v := ContractView{Status: record.Found, ContractRead: r, Measure: procure.ContractMeasure, MeasureKey: procure.ContractMeasureKey}
	if id := r.Contract.ContractID; id != "" {
		q := url.Values{"contract_id": {id}, "kind": {procure.RowPayment}}
		v.PaymentRows, v.PaymentsCSV = s.RowsLink(q, "", false), s.RowsLink(q, "", true)
	}
	if r.MatterPIN != "" {
		v.Matter = s.cfg.BaseURL + "/api/matters/" + url.PathEscape(r.MatterPIN)
	}
	return v
}

// contract serves GET /api/contracts/:id: ENOTFOUND (404) and
// EUNAVAILABLE (503) in the API's error shape.
func (s *Server) contract(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	r, err := s.procure().Contract(c.Request.Context(), c.Param("id"))
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, s.contractView(r), cacheShort, time.Time{})
}

// contractBrowseParams are the parameters of GET /api/contracts.
var contractBrowseParams = []string{"agency", "vendor", "pin", "fiscal_year", "agency_label", "agency_id", "vendor_stem", "amount_band", "undated", "limit", "cursor", "format"}

// contracts serves GET /api/contracts?agency=&vendor=&pin=&fiscal_year=&limit=&cursor=
// and the exact filters an analysis group follows with (agency_label,
// agency_id, vendor_stem, amount_band, undated): a bounded, stable page
// with registered-value totals and scope.
func (s *Server) contracts(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), contractBrowseParams...)
	f := procure.ContractFilter{Agency: p.str("agency"), Vendor: p.str("vendor"), PIN: p.str("pin"), FiscalYear: p.integer("fiscal_year", 0, 1990, 2100),
		AgencyLabel: p.str("agency_label"), AgencyID: p.str("agency_id"), VendorStem: p.str("vendor_stem"), AmountBand: p.str("amount_band"), Undated: p.boolean("undated")}
	limit := p.integer("limit", procure.DefaultContractLimit, 1, procure.MaxContractLimit)
	cursor := p.str("cursor")
	asCSV := csvFormat(p)
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	if asCSV {
		limit = procure.MaxContractLimit
	}
	ctx := c.Request.Context()
	page, err := s.procure().BrowseContracts(ctx, f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	if !asCSV {
		renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
		return
	}
	e := startCSV(c, "contracts")
	e.comment("Recordwatch registered contracts: %s", s.cfg.BaseURL+"/api/contracts?"+listQuery(c, "format", "limit").Encode())
	e.comment("filters: %s", listQuery(c, "format", "limit", "cursor").Encode())
	e.comment("rows matched: %d; %s: %d rows, %d with a valid amount, %s", page.Total, page.Totals.Measure, page.Totals.Count, page.Totals.ValidAmounts, page.Totals.Display)
	e.scope(page.ExtentWords, page.Scope)
	e.stream(contractCSVHeader, contractCSVPage(page), func(cur string) (csvPage, error) {
		next, err := s.procure().BrowseContracts(ctx, f, cur, limit)
		return contractCSVPage(next), err
	})
}

// contractCSVHeader is the header row of the contracts CSV.
var contractCSVHeader = []string{"id", "contract_id", "agency_as_printed", "agency_id", "agency_name", "vendor_name", "vendor_stem", "pin",
	"registered_on", "received_on", "fiscal_year", "amount", "amount_valid", "amount_raw", "purpose", "procurement_method", "status", "source"}

// contractCSVPage is a page of contracts as CSV rows.
func contractCSVPage(p procure.ContractPage) csvPage {
	out := csvPage{next: p.NextCursor, total: p.Total}
	for _, r := range p.Contracts {
		amount := ""
		if r.AmountValid {
			amount = strconv.FormatFloat(r.Amount, 'f', 2, 64)
		}
		out.rows = append(out.rows, []string{r.ID, r.ContractID, r.AgencyLabel, r.AgencyID, r.AgencyName, r.VendorName, r.VendorStem, r.PIN,
			dayCell(r.RegisteredOn), dayCell(r.ReceivedOn), yearCell(r.FiscalYear), amount, strconv.FormatBool(r.AmountValid), r.AmountRaw,
			r.Purpose, r.Method, r.Status, r.Source})
	}
	return out
}

// contractAnalysisParams are the parameters of GET /api/contracts/analysis.
var contractAnalysisParams = []string{"group_by", "rank_by", "agency", "fiscal_year", "amount_band", "limit"}

// ContractAnalysisView is the JSON twin of the analysis page and of
// analyze_contracts.
type ContractAnalysisView struct {
	procure.ContractAnalysis
	Permalink string   `json:"permalink"`
	Absence   []string `json:"absence_rules"`
}

// analysis reads the analysis a request asks for; status is 400 for an
// agency label that is not accepted (the body still carries the analysis
// state, its error and suggested labels, never an empty ranking).
func (s *Server) analysis(c *gin.Context) (ContractAnalysisView, int, error) {
	p := newParams(c.Request.URL.Query(), contractAnalysisParams...)
	req := procure.AnalysisRequest{GroupBy: p.str("group_by"), RankBy: p.str("rank_by"), AgencyLabel: p.str("agency"),
		FiscalYear: p.integer("fiscal_year", 0, 1990, 2100), AmountBand: p.str("amount_band"),
		Limit: p.integer("limit", procure.DefaultAnalysisGroups, 1, procure.MaxAnalysisGroups)}
	if p.err != nil {
		return ContractAnalysisView{}, 0, p.err
	}
	a, err := s.procure().AnalyzeContracts(c.Request.Context(), req)
	if err != nil {
		return ContractAnalysisView{}, 0, err
	}
	a.WithBase(s.cfg.BaseURL, "/api/contracts")
	v := ContractAnalysisView{ContractAnalysis: a, Absence: record.AbsenceRules, Permalink: s.cfg.BaseURL + "/contracts/analysis"}
	if q := c.Request.URL.RawQuery; q != "" {
		v.Permalink += "?" + c.Request.URL.Query().Encode()
	}
	status := http.StatusOK
	if a.Status == procure.AnalysisUnknownLabel {
		status = http.StatusBadRequest
	}
	return v, status, nil
}

// contractAnalysis serves GET /api/contracts/analysis?group_by=&rank_by=&agency=&fiscal_year=&amount_band=&limit=.
func (s *Server) contractAnalysis(c *gin.Context) {
	v, status, err := s.analysis(c)
	if err != nil {
		writeError(c, err)
		return
	}
	cache := cacheShort
	if status != http.StatusOK {
		cache = noStore
	}
	renderJSON(c, status, v, cache, v.Scope.CorpusObservedAt)
}
