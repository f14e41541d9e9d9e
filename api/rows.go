package api

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/procure"
)

// Every row listed (procure.ListRows): GET /api/rows pages the payments,
// registered contract rows and payroll rows behind a vendor, an agency, a
// PIN or a contract ID, sortable by date or amount, with a cursor to the
// end; ?format=csv is its CSV twin, streamed page by page up to
// procure.MaxRowExport rows, its scope and extent as leading # comment
// lines. The vendor, agency, contract and matter answers link it.

// rowListParams are the parameters of GET /api/rows.
var rowListParams = []string{"kind", "vendor", "vendor_stem", "agency", "agency_id", "pin", "contract_id", "sort", "limit", "cursor", "format"}

// RowListView is the JSON twin of a row list: the service's page with its
// links (next: the same list from next_cursor; csv: every row as CSV).
type RowListView struct {
	procure.RowList
	Links map[string]string `json:"links"`
}

// rowListRequest reads a row list request; format is json or csv.
func rowListRequest(c *gin.Context) (procure.RowListRequest, string, error) {
	p := newParams(c.Request.URL.Query(), rowListParams...)
	req := procure.RowListRequest{Kind: p.str("kind"), Vendor: p.str("vendor"), VendorStem: p.str("vendor_stem"),
		Agency: p.str("agency"), AgencyID: p.str("agency_id"), PIN: p.str("pin"), ContractID: p.str("contract_id"),
		Sort: p.str("sort"), Cursor: p.str("cursor"), Limit: p.integer("limit", procure.DefaultRowListLimit, 1, procure.MaxRowListLimit)}
	format := "json"
	if csvFormat(p) {
		format = "csv"
	}
	return req, format, p.err
}

// rowListQuery is the query of a list's filters and sort (no cursor, no
// limit, no format).
func rowListQuery(l procure.RowList) url.Values {
	q := url.Values{}
	for k, v := range l.Filters {
		q.Set(k, v)
	}
	if l.Sort != "" && l.Sort != "date" {
		q.Set("sort", l.Sort)
	}
	return q
}

// RowsLink is the JSON address of the rows of a filter ("vendor_stem",
// "agency_id", "pin", "contract_id" … as GET /api/rows reads them), with a
// cursor when it continues a page; csv asks for its CSV twin.
func (s *Server) RowsLink(q url.Values, cursor string, csv bool) string {
	q2 := url.Values{}
	for k, v := range q {
		q2[k] = v
	}
	if cursor != "" {
		q2.Set("cursor", cursor)
	}
	if csv {
		q2.Set("format", "csv")
	}
	return s.cfg.BaseURL + "/api/rows?" + q2.Encode()
}

// rows serves GET /api/rows and its CSV twin.
func (s *Server) rows(c *gin.Context) {
	req, format, err := rowListRequest(c)
	if err != nil {
		writeError(c, err)
		return
	}
	if format == "csv" {
		s.rowsCSV(c, req)
		return
	}
	l, err := s.procure().ListRows(c.Request.Context(), req)
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, s.rowListView(l, req.Limit), cacheShort, l.Scope.CorpusObservedAt)
}

// rowListView adds a list's links.
func (s *Server) rowListView(l procure.RowList, limit int) RowListView {
	q := rowListQuery(l)
	v := RowListView{RowList: l, Links: map[string]string{"csv": s.RowsLink(q, "", true), "first": s.RowsLink(q, "", false)}}
	if l.NextCursor != "" {
		nq := url.Values{}
		for k, vs := range q {
			nq[k] = vs
		}
		if limit != 0 && limit != procure.DefaultRowListLimit {
			nq.Set("limit", strconv.Itoa(limit))
		}
		v.Links["next"] = s.RowsLink(nq, l.NextCursor, false)
	}
	return v
}

// rowCSVHeader is the header row of a row list's CSV.
var rowCSVHeader = []string{"kind", "id", "date", "date_label", "fiscal_year", "agency", "agency_id", "vendor", "contract_id", "pin",
	"title", "status", "amount", "amount_valid", "amount_as_printed", "source", "source_url"}

// rowsCSV streams every row of a list as CSV (csvExport): leading # lines
// say what was asked, the totals of every match, their extent and the
// sources; at most procure.MaxRowExport rows, then a last # line with the
// cursor that continues.
func (s *Server) rowsCSV(c *gin.Context, req procure.RowListRequest) {
	ctx := c.Request.Context()
	req.Limit = procure.MaxRowListLimit
	first, err := s.procure().ListRows(ctx, req)
	if err != nil {
		writeError(c, err)
		return
	}
	e := startCSV(c, "rows")
	e.comment("Recordwatch rows: %s", s.RowsLink(rowListQuery(first), "", false))
	e.comment("filters: %s", rowListQuery(first).Encode())
	e.comment("sort: %s; rows matched: %d", first.Sort, first.Total)
	e.comment("payments: %d, %s; registered contract rows: %d, %s registered value", first.Payments.Count, first.Payments.Amount.Display,
		first.Contracts.Count, first.Contracts.Amount.Display)
	if u := first.Unregistered; u != nil {
		e.comment("contract rows not registered (apart, not in registered value): %d, %s", u.Count, u.Amount.Display)
	}
	e.scope(first.ExtentWords, first.Scope)
	e.comment("%s", procure.RowListNote)
	e.stream(rowCSVHeader, rowCSVPage(first), func(cursor string) (csvPage, error) {
		req.Cursor = cursor
		l, err := s.procure().ListRows(ctx, req)
		return rowCSVPage(l), err
	})
}

// rowCSVPage is a row list page as CSV rows.
func rowCSVPage(l procure.RowList) csvPage {
	p := csvPage{next: l.NextCursor, total: l.Total}
	for _, r := range l.Rows {
		amount, valid, raw := "", "false", ""
		if a := r.Amount; a != nil {
			raw = a.SourceText
			if a.Valid && a.Value != nil {
				amount, valid = strconv.FormatFloat(*a.Value, 'f', 2, 64), "true"
			}
		}
		p.rows = append(p.rows, []string{r.Kind, r.ID, r.Date, r.DateLabel, yearCell(r.FiscalYear), r.Agency, r.AgencyID, r.Vendor, r.ContractID, r.PIN,
			r.Title, r.Status, amount, valid, raw, r.Source, r.URL})
	}
	return p
}

// yearCell is a fiscal year's cell: empty when none is known.
func yearCell(fy int) string {
	if fy == 0 {
		return ""
	}
	return strconv.Itoa(fy)
}

// cell is a text cell as a spreadsheet must read it: text that would start
// a formula (=, +, -, @, tab, carriage return) is kept as text behind a
// leading apostrophe; a plain number (a negative amount) stays a number.
func cell(v string) string {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		return v
	}
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}

// rowRoutes mounts the row list and its CSV twin.
func (s *Server) rowRoutes(r *gin.Engine, api *gin.RouterGroup) {
	api.GET("/rows", s.rows)
	r.GET("/rows", s.rateLimit(), s.rowsHTML)
}
