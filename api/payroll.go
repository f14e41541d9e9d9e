package api

import (
	"net/http"
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
	p := newParams(c.Request.URL.Query(), "name", "agency", "fiscal_year", "title", "limit", "cursor")
	f := procure.PayrollFilter{Name: p.str("name"), Agency: p.str("agency"), Title: p.str("title"),
		FiscalYear: p.integer("fiscal_year", 0, 1990, 2100)}
	limit := p.integer("limit", procure.DefaultPayrollLimit, 1, procure.MaxPayrollLimit)
	cursor := p.str("cursor")
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	page, err := s.procure().BrowsePayroll(c.Request.Context(), f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
}
