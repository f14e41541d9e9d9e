package api

import (
	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// contractRoutes mounts the JSON reads of registered contracts (SPEC
// §2.6), twins of the get_contract and browse_contracts tools.
func (s *Server) contractRoutes(api *gin.RouterGroup) {
	api.GET("/contracts", s.contracts)
	api.GET("/contracts/:id", s.contract)
}

// ContractView is one contract by exact ID, with every row held under the
// same contract ID.
type ContractView struct {
	Status    record.Availability `json:"status"`
	Contract  record.Contract     `json:"contract"`
	Rows      []record.Contract   `json:"rows"`
	RowsTotal int                 `json:"rows_total"`
	Measure   string              `json:"measure"`
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
	c.Header("Cache-Control", "public, max-age=300")
	c.JSON(200, ContractView{Status: record.Found, Contract: r.Contract, Rows: r.Rows, RowsTotal: r.RowsTotal, Measure: procure.ContractMeasure})
}

// contracts serves GET /api/contracts?agency=&vendor=&pin=&fiscal_year=&limit=&cursor=:
// a bounded, stable page with registered-value totals and scope.
func (s *Server) contracts(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "agency", "vendor", "pin", "fiscal_year", "limit", "cursor")
	f := procure.ContractFilter{Agency: p.str("agency"), Vendor: p.str("vendor"), PIN: p.str("pin"), FiscalYear: p.integer("fiscal_year", 0, 1990, 2100)}
	limit := p.integer("limit", procure.DefaultContractLimit, 1, procure.MaxContractLimit)
	cursor := p.str("cursor")
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	page, err := s.procure().BrowseContracts(c.Request.Context(), f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	c.Header("Cache-Control", "public, max-age=300")
	c.JSON(200, page)
}
