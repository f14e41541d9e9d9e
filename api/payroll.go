package api

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// payrollRoutes mounts the JSON reads of Citywide Payroll rows.
func (s *Server) payrollRoutes(api *gin.RouterGroup) {
	api.GET("/payroll", s.payrollRows)
	api.GET("/payroll/:id", s.payrollRow)
}

// PayrollView is one payroll row by id, with what its amounts measure.
type PayrollView struct {
	Status    record.Availability `json:"status"`
	Row       record.PayrollRow   `json:"row"`
	Measure   string              `json:"measure"`
	FlagsNote string              `json:"flags_note"`
	// Sources is the row's source with its coverage and freshness
	// (procure.PayrollRead).
	Sources []record.SourceCoverage `json:"sources"`
}

// payrollRow serves GET /api/payroll/:id: ENOTFOUND (404) and EUNAVAILABLE
// (503) in the API's error shape.
func (s *Server) payrollRow(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	r, err := s.procure().PayrollRow(c.Request.Context(), c.Param("id"))
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, PayrollView{Status: record.Found, Row: r.Row, Sources: r.Sources, Measure: procure.PayrollMeasure, FlagsNote: procure.PayrollFlagsNote}, cacheShort, time.Time{})
}

// payrollRows serves GET /api/payroll?name=&agency=&fiscal_year=&title=&limit=&cursor=:
// a bounded, stable page with gross-paid totals over every match and scope.
func (s *Server) payrollRows(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "name", "agency", "fiscal_year", "title", "limit", "cursor", "format")
	f := procure.PayrollFilter{Name: p.str("name"), Agency: p.str("agency"), Title: p.str("title"),
		FiscalYear: p.integer("fiscal_year", 0, 1990, 2100)}
	limit := p.integer("limit", procure.DefaultPayrollLimit, 1, procure.MaxPayrollLimit)
	cursor := p.str("cursor")
	asCSV := csvFormat(p)
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	if asCSV {
		limit = procure.MaxPayrollLimit
	}
	ctx := c.Request.Context()
	page, err := s.procure().BrowsePayroll(ctx, f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	if !asCSV {
		renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
		return
	}
	e := startCSV(c, "payroll")
	e.comment("Recordwatch payroll rows: %s", s.cfg.BaseURL+"/api/payroll?"+listQuery(c, "format", "limit").Encode())
	e.comment("filters: %s", listQuery(c, "format", "limit", "cursor").Encode())
	e.comment("rows matched: %d; %s: %d rows, %d with a valid amount, %d excluded, %s", page.Total, page.Totals.Measure, page.Totals.Count,
		page.Totals.ValidAmounts, page.Totals.Excluded, page.Totals.Display)
	e.comment("%s", page.FlagsNote)
	e.scope(page.ExtentWords, page.Scope)
	e.stream(payrollCSVHeader, payrollCSVPage(page), func(cur string) (csvPage, error) {
		next, err := s.procure().BrowsePayroll(ctx, f, cur, limit)
		return payrollCSVPage(next), err
	})
}

// payrollCSVHeader is the header row of the payroll CSV: each amount as
// printed and, when it counts, its number.
var payrollCSVHeader = []string{"id", "fiscal_year", "agency_as_printed", "agency_id", "agency_name", "last_name", "first_name", "mid_init",
	"title", "work_location_borough", "leave_status", "pay_basis", "agency_start_date", "base_salary", "base_salary_raw",
	"regular_hours", "regular_gross_paid", "regular_gross_paid_raw", "ot_hours", "total_ot_paid", "total_other_pay", "flags", "source"}

// payrollCSVPage is a page of payroll rows as CSV rows.
func payrollCSVPage(p procure.PayrollPage) csvPage {
	out := csvPage{next: p.NextCursor, total: p.Total}
	for _, r := range p.Rows {
		flags := make([]string, 0, len(r.Flags))
		for _, f := range r.Flags {
			flags = append(flags, f.Code)
		}
		out.rows = append(out.rows, []string{r.ID, yearCell(r.FiscalYear), r.AgencyPrinted, r.AgencyID, r.AgencyName, r.LastName, r.FirstName, r.MidInit,
			r.Title, r.WorkBorough, r.LeaveStatus, r.PayBasis, dayCell(r.AgencyStart), payCell(r.BaseSalary), r.BaseSalary.Raw,
			payCell(r.RegularHours), payCell(r.RegularGross), r.RegularGross.Raw, payCell(r.OTHours), payCell(r.OTPaid), payCell(r.OtherPay),
			strings.Join(flags, " | "), r.Source})
	}
	return out
}

// payCell is a payroll value's cell: its number when it counts, else empty
// (the value as printed has its own column where it matters).
func payCell(v record.PayValue) string {
	if !v.Valid {
		return ""
	}
	return strconv.FormatFloat(v.Value, 'f', 2, 64)
}
