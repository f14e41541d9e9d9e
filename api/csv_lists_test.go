package api

import (
	"encoding/json"
	stdhtml "html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

// listRouteIDs walks a JSON list route from path through every next_cursor
// and returns the ids of its rows in order, with the total it states.
func listRouteIDs(t *testing.T, e *env, path, rowsField string) (ids []string, total int) {
	idField := "id"
	if f, rest, ok := strings.Cut(rowsField, "."); ok {
		rowsField, idField = f, rest
	}
	t.Helper()
	cursor := ""
	for range 200 {
		p := path
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		res, body := get(t, e, p)
		var page map[string]json.RawMessage
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil {
			t.Fatalf("GET %s: %d %s", p, res.StatusCode, body[:min(400, len(body))])
		}
		var rows []map[string]any
		if err := json.Unmarshal(page[rowsField], &rows); err != nil {
			t.Fatalf("GET %s: %s: %v", p, rowsField, err)
		}
		_ = json.Unmarshal(page["total"], &total)
		for _, r := range rows {
			id, _ := r[idField].(string)
			ids = append(ids, id)
		}
		cursor = ""
		_ = json.Unmarshal(page["next_cursor"], &cursor)
		if cursor == "" {
			return ids, total
		}
	}
	t.Fatalf("%s did not end", path)
	return nil, 0
}

// checkListCSV (rowsField "hits.request_id": the rows and their id field)
// asks the CSV twin of a JSON list (path + "&format=csv") and
// checks it holds the JSON's rows, in order, every one (ids in the id
// column), with its address, filters and sources first and its end last.
func checkListCSV(t *testing.T, e *env, path, rowsField string, filters ...string) {
	t.Helper()
	want, total := listRouteIDs(t, e, path, rowsField)
	if len(want) == 0 || len(want) != total {
		t.Fatalf("%s: %d rows walked of %d: the test needs rows", path, len(want), total)
	}
	res, body := get(t, e, path+"&format=csv")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") ||
		!strings.Contains(res.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("%s CSV: %d %v", path, res.StatusCode, res.Header)
	}
	head, header, rows, tail := readRowsCSV(t, body)
	if _, idField, ok := strings.Cut(rowsField, "."); (ok && header[0] != idField) || (!ok && header[0] != "id") {
		t.Fatalf("%s CSV header %v", path, header)
	}
	if len(rows) != len(want) {
		t.Fatalf("%s CSV: %d rows, JSON %d", path, len(rows), len(want))
	}
	for i, r := range rows {
		if len(r) != len(header) || r[0] != want[i] {
			t.Errorf("%s CSV row %d: %v, JSON id %s", path, i, r, want[i])
			break
		}
	}
	h := strings.Join(head, "\n")
	for _, f := range filters {
		if !strings.Contains(h, "# filters: ") || !strings.Contains(h, f) {
			t.Errorf("%s CSV head does not name the filter %s:\n%s", path, f, h)
		}
	}
	if !strings.Contains(h, "# source: ") || !strings.Contains(h, "# rows matched: ") || !strings.Contains(h, "# rows: every row from the request's cursor") {
		t.Errorf("%s CSV head without scope:\n%s", path, h)
	}
	if len(tail) != 1 || tail[0] != "# end: "+itoa(len(want))+" rows of "+itoa(total) {
		t.Errorf("%s CSV tail %q", path, tail)
	}

	// from a cursor: the rest of the list, as the JSON continues it
	res, body = get(t, e, strings.Replace(path, "limit=100", "limit=1", 1))
	var first map[string]json.RawMessage
	var cursor string
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &first) != nil || json.Unmarshal(first["next_cursor"], &cursor) != nil || cursor == "" {
		if len(want) > 1 {
			t.Fatalf("%s limit=1: no cursor: %d %s", path, res.StatusCode, body[:min(300, len(body))])
		}
		return
	}
	res, body = get(t, e, path+"&format=csv&cursor="+url.QueryEscape(cursor))
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s CSV from a cursor: %d %s", path, res.StatusCode, body)
	}
	_, _, rest, _ := readRowsCSV(t, body)
	if len(rest) != len(want)-1 || (len(rest) > 0 && rest[0][0] != want[1]) {
		t.Errorf("%s CSV from a cursor: %d rows (want %d)", path, len(rest), len(want)-1)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A format other than json or csv is a 400 on every list route with a CSV
// twin.
func TestListCSVBadFormat(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, p := range []string{"/api/contracts?format=xlsx", "/api/payroll?format=pdf", "/api/meetings?format=ics", "/api/land-projects?format=xml", "/api/civil-service?format=html", "/api/search?q=parks&format=rss", "/api/rows?vendor_stem=X&format=tsv"} {
		res, body := get(t, e, p)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), "format") {
			t.Errorf("%s: %d %s", p, res.StatusCode, body)
		}
	}
}

// The contracts and payroll CSV twins hold the JSON's rows, every one,
// with the filters, scope and end stated.
func TestContractsCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	checkListCSV(t, e, "/api/contracts?limit=100", "contracts")
	checkListCSV(t, e, "/api/contracts?agency="+url.QueryEscape("parks")+"&limit=100", "contracts", "agency=parks")
}

func TestPayrollCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	checkListCSV(t, e, "/api/payroll?agency="+url.QueryEscape("POLICE DEPARTMENT")+"&limit=100", "rows", "agency=POLICE+DEPARTMENT")
	checkListCSV(t, e, "/api/payroll?limit=100", "rows")
}

// The one CSV writer keeps a cell that would start a formula as text and a
// negative number as a number.
func TestCSVFormulaCellEscaped(t *testing.T) {
	rec := httptest.NewRecorder()
	c, _ := gin.CreateTestContext(rec)
	c.Request = httptest.NewRequest(http.MethodGet, "/api/x?format=csv", nil)
	e := startCSV(c, "x")
	e.stream([]string{"id", "name", "amount"}, csvPage{rows: [][]string{{"1", "=HYPERLINK(\"http://x\")", "-12.50"}, {"2", "@SUM(A1)", "3"}}, total: 2}, nil)
	_, _, rows, tail := readRowsCSV(t, rec.Body.Bytes())
	if len(rows) != 2 || rows[0][1] != "'=HYPERLINK(\"http://x\")" || rows[0][2] != "-12.50" || rows[1][1] != "'@SUM(A1)" || len(tail) != 1 {
		t.Errorf("rows %q tail %q", rows, tail)
	}
}

func TestMeetingsCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	checkListCSV(t, e, "/api/meetings?from=2026-08-01&to=2026-12-31&limit=100", "meetings", "from=2026-08-01", "to=2026-12-31")
}

func TestLandProjectsCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	checkListCSV(t, e, "/api/land-projects?limit=100", "projects")
	checkListCSV(t, e, "/api/land-projects?borough=Manhattan&status=completed&limit=100", "projects", "borough=Manhattan", "status=completed")
}

func TestCivilServiceCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	checkListCSV(t, e, "/api/civil-service?agency=police-department&kind=list&limit=100", "records", "agency=police-department", "kind=list")
	checkListCSV(t, e, "/api/civil-service?limit=100", "records")
}

func TestNoticeSearchCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	checkListCSV(t, e, "/api/search?q=parks&exact_count=true&limit=100", "hits.request_id", "q=parks")
	checkListCSV(t, e, "/api/search?agency=dpr&from=2025-01-01&exact_count=true&limit=100", "hits.request_id", "agency=dpr", "from=2025-01-01")
}

// The land-use projects and meetings pages link the CSV of the list they
// show, and the link answers that CSV.
func TestListPagesLinkTheirCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, c := range []struct{ page, want string }{
		{"/land-projects?status=completed&borough=Manhattan", "/api/land-projects?borough=Manhattan&format=csv&status=completed"},
		{"/meetings?from=2026-08-01&to=2026-12-31", "/api/meetings?format=csv&from=2026-08-01&to=2026-12-31"},
	} {
		res, body := get(t, e, c.page)
		html := string(body)
		_, after, ok := strings.Cut(html, `data-download="csv"`)
		i := strings.LastIndex(html[:len(html)-len(after)], `href="`)
		if res.StatusCode != http.StatusOK || !ok || i < 0 {
			t.Fatalf("%s: %d, no CSV link", c.page, res.StatusCode)
		}
		href := stdhtml.UnescapeString(strings.SplitN(html[i+len(`href="`):], `"`, 2)[0])
		if href != "http://rw.test"+c.want {
			t.Errorf("%s: CSV link %s, want %s", c.page, href, c.want)
		}
		res, body = get(t, e, strings.TrimPrefix(href, "http://rw.test"))
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
			t.Errorf("%s: %d %.200s", href, res.StatusCode, body)
			continue
		}
		if _, _, rows, tail := readRowsCSV(t, body); len(rows) == 0 || len(tail) != 1 {
			t.Errorf("%s: %d rows, tail %q", href, len(rows), tail)
		}
	}
}

// A matter's timeline as CSV: every step of its JSON, in order, with how
// each was linked; a bad format is 400, an unknown PIN 404.
func TestMatterCSV(t *testing.T) {
	e := newEntityEnv(t, Config{})
	const pin = "12522P0001001R004"
	res, body := get(t, e, "/api/matters/"+pin)
	var m struct {
		Timeline []struct {
			ID   string `json:"id"`
			Link struct {
				Method string `json:"method"`
			} `json:"link"`
		} `json:"timeline"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &m) != nil || len(m.Timeline) == 0 {
		t.Fatalf("matter: %d %.300s", res.StatusCode, body)
	}
	res, body = get(t, e, "/api/matters/"+pin+"?format=csv")
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("matter CSV: %d %.300s", res.StatusCode, body)
	}
	head, header, rows, tail := readRowsCSV(t, body)
	if len(rows) != len(m.Timeline) || header[0] != "id" || header[12] != "link_method" {
		t.Fatalf("matter CSV: %d rows (JSON %d), header %v", len(rows), len(m.Timeline), header)
	}
	for i, r := range rows {
		if r[0] != m.Timeline[i].ID || r[12] != m.Timeline[i].Link.Method {
			t.Errorf("step %d: CSV %v, JSON %+v", i, r, m.Timeline[i])
		}
	}
	h := strings.Join(head, "\n")
	if !strings.Contains(h, "# filters: pin="+pin) || !strings.Contains(h, "# source: ") || len(tail) != 1 || tail[0] != "# end: "+strconv.Itoa(len(rows))+" rows of "+strconv.Itoa(len(rows)) {
		t.Errorf("matter CSV comments:\n%s\n%q", h, tail)
	}
	if res, _ := get(t, e, "/api/matters/"+pin+"?format=xls"); res.StatusCode != http.StatusBadRequest {
		t.Errorf("bad format: %d", res.StatusCode)
	}
	if res, _ := get(t, e, "/api/matters/ZZZZZZZZZZ?format=csv"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown PIN as CSV: %d", res.StatusCode)
	}
}
