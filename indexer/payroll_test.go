package indexer

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/payroll"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// The live payroll run writes every page through the one pipeline and
// reports rows read, records indexed and rows rejected with reasons: a
// replay of the first real rows, shaped as SODA answers them, plus one row
// without a fiscal year.
func TestPayrollLiveReports(t *testing.T) {
	data, err := os.ReadFile("../testdata/sample/payroll/citywide_payroll_fy2016_DA_NYPD_rows0001-1800.csv")
	if err != nil {
		t.Fatal(err)
	}
	rows, _, errs := payroll.ReadCSV(data, "x.csv", time.Time{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var answer []map[string]string
	for i, r := range rows[:5] {
		answer = append(answer, map[string]string{":id": "row-" + strconv.Itoa(i), "fiscal_year": strconv.Itoa(r.FiscalYear),
			"agency_name": r.AgencyPrinted, "last_name": r.LastName, "first_name": r.FirstName, "title_description": r.Title,
			"regular_gross_paid": r.RegularGross.Raw, "base_salary": r.BaseSalary.Raw, "pay_basis": r.PayBasis})
	}
	answer[3]["fiscal_year"] = ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		off, _ := strconv.Atoi(r.URL.Query().Get("$offset"))
		lim, _ := strconv.Atoi(r.URL.Query().Get("$limit"))
		json.NewEncoder(w).Encode(answer[min(off, len(answer)):min(off+lim, len(answer))])
	}))
	defer srv.Close()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	rep, err := ix.RunLive(context.Background(), payrollSource{}, LiveConfig{Client: replayClient(srv), PageSize: 2})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 5 || rep.Indexed != 4 || len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "row 4 of the live answer (row-3) rejected: no fiscal year") {
		t.Fatalf("rows %d indexed %d errors %v", rep.Rows, rep.Indexed, rep.Errors)
	}
	got, err := search.Get(context.Background(), b, procure.PayrollKind, "payroll:row-1")
	if err != nil || got.LastName != "ABENSUR" || got.AgencyID == "" {
		t.Errorf("row-1: %+v %v", got, err)
	}
}
