package api

import (
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// rowsPage is the data of the site's row table (/rows?…): the page of
// GET /api/rows with the same parameters, sortable by date and amount,
// with its next page and its CSV download.
type rowsPage struct {
	List        *RowListView
	Error       string
	ErrorKey    record.Note // Error as a note, when the service wrote one
	Rules       record.Notes
	Sorts       []string
	Permalink   string
	JSON        string
	NextPage    string
	FirstPage   string
	CSV         string
	query       url.Values
	srv         *Server
	VendorStem  string
	AgencyID    string
	ContractID  string
	PIN         string
	Description string
}

// SortLink is this table sorted by sort, from its first page.
func (p rowsPage) SortLink(sort string) string {
	q := url.Values{}
	for k, v := range p.query {
		if k != "cursor" && k != "sort" && k != "format" {
			q[k] = v
		}
	}
	if sort != "date" {
		q.Set("sort", sort)
	}
	return p.srv.cfg.BaseURL + "/rows?" + q.Encode()
}

func (p rowsPage) VendorLink(stem string) string { return p.srv.permalinks().Vendor(stem, "") }
func (p rowsPage) AgencyLink(id string) string   { return p.srv.permalinks().Agency(id, "") }
func (p rowsPage) MatterLink(pin string) string  { return p.srv.permalinks().Matter(pin) }
func (p rowsPage) ContractLink(id string) string {
	return p.srv.cfg.BaseURL + "/contracts/" + url.PathEscape(id)
}
func (p rowsPage) CurrentSort(sort string) bool   { return p.List != nil && p.List.Sort == sort }
func (p rowsPage) RowsPage(apiLink string) string { return p.srv.RowsPage(apiLink) }

// RowsPage is the site page of a row list's JSON address (/api/rows?… →
// /rows?…).
func (s *Server) RowsPage(apiLink string) string {
	return strings.Replace(apiLink, s.cfg.BaseURL+"/api/rows", s.cfg.BaseURL+"/rows", 1)
}

// rowsHTML serves /rows?…: the table of GET /api/rows (format=csv is the
// download, served by the JSON route).
func (s *Server) rowsHTML(c *gin.Context) {
	q := c.Request.URL.Query()
	p := rowsPage{srv: s, query: q, Rules: record.AbsenceRuleNotes, Sorts: procure.RowListSortNames,
		Permalink: s.cfg.BaseURL + "/rows?" + q.Encode(), JSON: s.cfg.BaseURL + "/api/rows?" + q.Encode()}
	lang := c.GetString(langKey)
	title := web.Word(lang, "page.rows")
	req, format, err := rowListRequest(c)
	if err == nil && format == "csv" {
		err = record.InvalidNote("format", "param.csv", "/api/rows?…&format=csv")
	}
	var l procure.RowList
	if err == nil {
		l, err = s.procure().ListRows(c.Request.Context(), req)
	}
	if err != nil {
		p.Error, p.ErrorKey = record.ErrorMessage(err), errorNote(err)
		writeHTML(c, httpStatus(err), web.Page{Kind: web.Rows, Title: title, Home: s.cfg.BaseURL + "/", Canonical: p.Permalink, JSON: p.JSON, Data: p}, time.Time{})
		return
	}
	v := s.rowListView(l, req.Limit)
	p.List = &v
	p.VendorStem, p.AgencyID, p.ContractID = l.Filters["vendor_stem"], l.Filters["agency_id"], l.Filters["contract_id"]
	p.PIN = l.Filters["pin"] + l.Filters["pin_base"]
	p.CSV, p.FirstPage = v.Links["csv"], s.RowsPage(v.Links["first"])
	if n := v.Links["next"]; n != "" {
		p.NextPage = s.RowsPage(n)
	}
	writeHTML(c, http.StatusOK, web.Page{Kind: web.Rows, Title: title, Home: s.cfg.BaseURL + "/", Canonical: p.Permalink, JSON: p.JSON, Data: p},
		l.Scope.CorpusObservedAt)
}
