package payroll

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/record"
)

const sampleFile = "citywide_payroll_fy2016_DA_NYPD_rows0001-1800.csv"

func readSample(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "testdata", "sample", "payroll", sampleFile))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The real rows: every one of the 1,800 is kept; the 105 redacted names
// and the 2 negative OT-hour rows are kept and flagged, and the notes list
// them by line.
func TestReadRealRows(t *testing.T) {
	c, errs := ReadDir(fstest.MapFS{"payroll/" + sampleFile: {Data: readSample(t)}}, "payroll")
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	if len(c.Rows) != 1800 || c.Files[0].Rows != 1800 || c.Files[0].Kept != 1800 || c.Files[0].Rejected != 0 {
		t.Fatalf("rows %d, report %+v", len(c.Rows), c.Files)
	}
	counts := map[string]int{}
	ids := map[string]bool{}
	for _, r := range c.Rows {
		for _, f := range r.Flags {
			counts[f.Code]++
		}
		ids[r.ID] = true
	}
	if counts[record.FlagNameBlank] != 105 || counts[record.FlagNegative] != 2 || counts[record.FlagStartAfterFY] != 0 {
		t.Errorf("flags %v", counts)
	}
	if len(ids) != 1800 {
		t.Errorf("%d distinct ids for 1800 rows", len(ids))
	}
	first := c.Rows[0]
	if first.FiscalYear != 2016 || first.AgencyPrinted != "DISTRICT ATTORNEY-MANHATTAN" || first.LastName != "ABA'AHMID" ||
		first.FirstName != "RAHASHEEM" || first.MidInit != "E" || first.Title != "COMMUNITY ASSOCIATE" || first.WorkBorough != "MANHATTAN" ||
		first.PayBasis != "per Annum" || first.BaseSalary != (record.PayValue{Raw: "47678", Value: 47678, Valid: true}) ||
		first.RegularGross.Value != 47166.03 || first.OTPaid.Value != 57.28 || !first.OtherPay.Valid || first.OtherPay.Value != 0 ||
		first.AgencyStart.Format("2006-01-02") != "2003-07-14" || first.Line != 2 || len(first.Flags) != 0 {
		t.Errorf("first row %+v", first)
	}
	// the quoted "CUEVAS, JR." keeps its comma
	found := false
	for _, r := range c.Rows {
		if r.LastName == "CUEVAS, JR." && r.FirstName == "JULIO" {
			found = true
			if !strings.Contains(strings.Join(r.PayrollNameKeys(), "|"), "CUEVAS JR JULIO") {
				t.Errorf("name keys %v", r.PayrollNameKeys())
			}
		}
		if r.LastName == "KWON" && r.FirstName == "YENA" {
			if !r.HasFlag(record.FlagNegative) || r.OTHours.Valid || r.OTHours.Raw != "-2.5" || !r.RegularGross.Valid {
				t.Errorf("negative OT hours row %+v", r)
			}
		}
	}
	if !found {
		t.Error("CUEVAS, JR. not read")
	}
	notes := strings.Join(c.Notes, "\n")
	if !strings.Contains(notes, "105 rows kept and flagged name_blank") || !strings.Contains(notes, "2 rows kept and flagged negative_value") {
		t.Errorf("notes %s", notes)
	}
	// reading again gives the same ids
	again, _ := ReadDir(fstest.MapFS{"payroll/" + sampleFile: {Data: readSample(t)}}, "payroll")
	for i := range c.Rows {
		if again.Rows[i].ID != c.Rows[i].ID {
			t.Fatalf("row %d: id %s then %s", i, c.Rows[i].ID, again.Rows[i].ID)
		}
	}
}

// A corrupted copy of the real rows: a short row and a row without a
// fiscal year are rejected with file, line and reason; a start date after
// the fiscal year is kept and flagged; the rest are kept.
func TestReadCorruptedCopy(t *testing.T) {
	lines := strings.Split(string(readSample(t)), "\n")
	lines[3] = strings.Join(strings.Split(lines[3], ",")[:10], ",") // line 4: 10 fields
	lines[5] = strings.TrimPrefix(lines[5], "2016")                 // line 6: no fiscal year
	f := strings.Split(lines[7], ",")                               // line 8: started after FY2016 ended
	f[5] = "7/1/2016"
	lines[7] = strings.Join(f, ",")
	rows, n, errs := ReadCSV([]byte(strings.Join(lines, "\n")), "bad.csv", time.Time{})
	if n != 1800 || len(rows) != 1798 || len(errs) != 2 {
		t.Fatalf("read %d, kept %d, errors %v", n, len(rows), errs)
	}
	if !strings.Contains(errs[0].Error(), "bad.csv:4: row rejected: 10 fields where the header has 16") ||
		!strings.Contains(errs[1].Error(), "bad.csv:6: row rejected: no fiscal year") {
		t.Errorf("errors %v", errs)
	}
	var late record.PayrollRow
	for _, r := range rows {
		if r.Line == 8 {
			late = r
		}
	}
	if !late.HasFlag(record.FlagStartAfterFY) {
		t.Errorf("row at line 8 %+v not flagged", late)
	}
}

// sodaRows turns the real CSV rows into SODA-shaped JSON objects (field
// names of k397-673e, string values, a row id, padding as exported).
func sodaRows(t *testing.T, n int) []map[string]string {
	rows, _, errs := ReadCSV(readSample(t), "x.csv", time.Time{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var out []map[string]string
	for i, r := range rows[:n] {
		m := map[string]string{
			":id": "row-" + strconv.Itoa(1000+i), "fiscal_year": strconv.Itoa(r.FiscalYear), "agency_name": r.AgencyPrinted,
			"last_name": r.LastName, "first_name": r.FirstName, "agency_start_date": r.AgencyStart.Format("2006-01-02T00:00:00.000"),
			"work_location_borough": r.WorkBorough, "title_description": r.Title, "leave_status_as_of_june_30": r.LeaveStatus,
			"base_salary": r.BaseSalary.Raw, "pay_basis": r.PayBasis, "regular_hours": r.RegularHours.Raw,
			"regular_gross_paid": r.RegularGross.Raw, "ot_hours": r.OTHours.Raw, "total_ot_paid": r.OTPaid.Raw,
			"total_other_pay": r.OtherPay.Raw,
		}
		if r.MidInit != "" {
			m["mid_init"] = r.MidInit
		}
		out = append(out, m)
	}
	return out
}

// The live fetch pages by $offset over rows shaped like the real ones; a
// row that is not an object is rejected with its position, never its page.
func TestFetchPagesReplay(t *testing.T) {
	rows := sodaRows(t, 7)
	var mu sync.Mutex
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		mu.Unlock()
		q := r.URL.Query()
		if q.Get("$select") != ":id,*" || q.Get("$order") != ":id" || r.Header.Get("X-App-Token") != "tok" {
			http.Error(w, "bad query", 400)
			return
		}
		off, _ := strconv.Atoi(q.Get("$offset"))
		lim, _ := strconv.Atoi(q.Get("$limit"))
		var page []any
		for i := off; i < min(off+lim, len(rows)+1); i++ {
			if i == len(rows) {
				page = append(page, "not a row")
				continue
			}
			page = append(page, rows[i])
		}
		json.NewEncoder(w).Encode(page)
	}))
	defer srv.Close()
	f := &Fetcher{Client: fetch.New(), BaseURL: srv.URL, AppToken: "tok", PageSize: 3,
		Now: func() time.Time { return time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC) }}
	var got []record.PayrollRow
	var rejected []error
	var progress []int
	f.Progress = func(d int) { progress = append(progress, d) }
	n, err := f.Fetch(context.Background(), func(p Page) error {
		got = append(got, p.Rows...)
		rejected = append(rejected, p.Rejected...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 8 || len(got) != 7 || len(rejected) != 1 || !strings.Contains(rejected[0].Error(), "row 8 of the live answer rejected: not a JSON object") {
		t.Fatalf("read %d, kept %d, rejected %v", n, len(got), rejected)
	}
	if len(queries) != 3 || fmt.Sprint(progress) != "[3 6 8]" {
		t.Errorf("queries %v progress %v", queries, progress)
	}
	if got[0].ID != "payroll:row-1000" || got[0].LastName != "ABA'AHMID" || got[0].AgencyStart.Format("2006-01-02") != "2003-07-14" ||
		got[0].ObservedAt.IsZero() || got[0].LeaveStatus != "ACTIVE" {
		t.Errorf("first live row %+v", got[0])
	}
	// a server that answers with something else than an array fails the fetch
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{"error":true}`)) }))
	defer bad.Close()
	if _, err := (&Fetcher{BaseURL: bad.URL}).Fetch(context.Background(), func(Page) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), "not a JSON array") {
		t.Errorf("non-array answer: %v", err)
	}
}
