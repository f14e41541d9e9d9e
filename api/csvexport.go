package api

import (
	"encoding/csv"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The one CSV writer of every list route (?format=csv): leading "# " lines
// say what was asked (the JSON address, the filters), the totals of every
// match, their extent and the sources; then the header and the rows,
// streamed page by page from the same service read the JSON page makes,
// starting at the request's cursor and continuing through every next page
// up to procure.MaxRowExport rows; a last "# " line says where it ended
// ("end: N rows of M") or the cursor that continues it.

// csvFormat reads the format parameter of a list route: "" or "json" is
// the JSON page, "csv" its CSV twin; anything else is EINVALID (400).
func csvFormat(p *params) bool {
	switch strings.ToLower(p.str("format")) {
	case "", "json":
		return false
	case "csv":
		return true
	}
	p.fail(record.InvalidNote("format", "param.format.csv"))
	return false
}

// csvExport is one CSV download being written.
type csvExport struct {
	c       *gin.Context
	w       *csv.Writer
	written int
	// rows says which rows follow, when not the pages of a cursor.
	rows string
}

// csvPage is one page of a list as CSV rows, with the cursor of the next
// page ("" at the end).
type csvPage struct {
	rows  [][]string
	next  string
	total int
}

// startCSV opens a CSV download named name (recordwatch-<name>.csv).
func startCSV(c *gin.Context, name string) *csvExport {
	h := c.Writer.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="recordwatch-`+name+`.csv"`)
	h.Set("Cache-Control", "no-store")
	c.Status(http.StatusOK)
	return &csvExport{c: c, w: csv.NewWriter(c.Writer)}
}

// comment writes one leading or trailing "# " line.
func (e *csvExport) comment(format string, a ...any) {
	e.w.Flush()
	fmt.Fprintf(e.c.Writer, "# "+strings.ReplaceAll(format, "\n", " ")+"\n", a...)
}

// scope writes the extent and the sources of a list's answer.
func (e *csvExport) scope(extentWords string, sc record.Scope) {
	if extentWords != "" {
		e.comment("extent: %s", extentWords)
	}
	if sc.FirstSourceDate != "" || sc.LastSourceDate != "" {
		e.comment("source dates held: %s to %s", sc.FirstSourceDate, sc.LastSourceDate)
	}
	for _, src := range sc.Sources {
		e.comment("source: %s (%s) %d %s records, %s to %s, observed %s", src.Source, src.Label, src.Records, src.RecordType,
			src.FirstSourceDate, src.LastSourceDate, src.ObservedAt.Format(time.DateOnly))
	}
}

// stream writes the header and every row from first on, reading next for
// each following page, up to procure.MaxRowExport rows; every text cell
// goes through cell (no formula reaches a spreadsheet).
func (e *csvExport) stream(header []string, first csvPage, next func(cursor string) (csvPage, error)) {
	if e.rows == "" {
		e.rows = fmt.Sprintf("every row from the request's cursor (or the first) to the end, page by page as the JSON's next_cursor continues, at most %d", procure.MaxRowExport)
	}
	e.comment("rows: %s", e.rows)
	_ = e.w.Write(header)
	page := first
	for {
		for _, r := range page.rows {
			out := make([]string, len(r))
			for i, v := range r {
				out[i] = cell(v)
			}
			_ = e.w.Write(out)
			e.written++
		}
		e.w.Flush()
		e.c.Writer.Flush()
		if page.next == "" {
			e.comment("end: %d rows of %d", e.written, first.total)
			return
		}
		if e.written >= procure.MaxRowExport {
			e.comment("cut at %d rows of %d; continue with cursor=%s", e.written, first.total, page.next)
			return
		}
		cur := page.next
		var err error
		if page, err = next(cur); err != nil {
			e.comment("cut at %d rows of %d: %s", e.written, first.total, err.Error())
			return
		}
	}
}

// listQuery is the request's query without the named parameters (the
// address and filters a CSV's leading lines state).
func listQuery(c *gin.Context, drop ...string) url.Values {
	q := c.Request.URL.Query()
	for _, k := range drop {
		q.Del(k)
	}
	return q
}

// dayCell is a New York day's cell: empty when none is known.
func dayCell(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(record.NewYork).Format(time.DateOnly)
}

// searchCSV streams a notice search's hits as CSV (GET /api/search's
// twin), from the first answer on through its next cursors.
func (s *Server) searchCSV(c *gin.Context, v url.Values, q search.Query, mode string, first notices.Answer) {
	ctx := c.Request.Context()
	links := s.permalinks()
	page := func(a notices.Answer) csvPage {
		out := csvPage{next: a.NextCursor, total: a.Total}
		for _, h := range a.Hits {
			n := h.Notice
			amount := ""
			if n.AmountValid {
				amount = strconv.FormatFloat(n.Amount, 'f', 2, 64)
			}
			out.rows = append(out.rows, []string{n.RequestID, dayCell(n.StartDate), n.Section, n.NoticeType, n.AgencyName, n.AgencyID, n.AgencyRaw,
				n.Title, n.PIN, dayCell(n.DueDate), amount, strconv.FormatBool(n.AmountValid), n.AmountRaw, n.VendorName, links.Notice(n.RequestID)})
		}
		return out
	}
	self := cloneValues(v)
	self.Del("cursor")
	self.Del("limit")
	e := startCSV(c, "notices")
	e.comment("Recordwatch City Record notices: %s", s.cfg.BaseURL+"/api/search?"+self.Encode())
	e.comment("filters: %s", self.Encode())
	rel := ""
	if first.Scope.MatchedRelation != "" {
		rel = " (at least; ask exact_count=true for the exact count)"
	}
	e.comment("rows matched: %d%s", first.Total, rel)
	e.scope("", first.Scope)
	e.stream(noticeCSVHeader, page(first), func(cur string) (csvPage, error) {
		q.Cursor = cur
		a, err := s.deps.Notices.Search(ctx, q, mode)
		return page(a), err
	})
}

// noticeCSVHeader is the header row of the notices CSV.
var noticeCSVHeader = []string{"request_id", "published", "section", "notice_type", "agency_name", "agency_id", "agency_raw", "title", "pin",
	"due_date", "amount", "amount_valid", "amount_raw", "vendor_name", "permalink"}

// csvLink is the CSV twin of the list a page shows: the JSON list route
// (path) with the page's filters and cursor, format=csv, no page size.
func (s *Server) csvLink(path string, q url.Values) string {
	q = cloneValues(q)
	q.Del("limit")
	q.Del("lang")
	q.Set("format", "csv")
	return s.cfg.BaseURL + path + "?" + q.Encode()
}
