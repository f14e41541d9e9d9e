package indexer

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/checkbook"
	"github.com/recordwatch/recordwatch/indexer/source/payroll"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// corruptPending is the real pending-contracts answer with the end tag of
// its second transaction's purpose mistyped.
func corruptPending(t *testing.T) []byte {
	t.Helper()
	raw, err := os.ReadFile("../testdata/sample/checkbook/contracts_pending_expense_citywide.response.xml")
	if err != nil {
		t.Fatal(err)
	}
	s := string(raw)
	first := strings.Index(s, "</purpose>")
	second := first + len("</purpose>") + strings.Index(s[first+len("</purpose>"):], "</purpose>")
	return []byte(s[:second] + "</purpse>" + s[second+len("</purpose>"):])
}

// A Checkbook load, from files and live, counts the transactions read,
// the records indexed and each transaction rejected with its reason: a
// corrupted transaction is rejected alone, never its file or page.
func TestCheckbookLoadCountsReadIndexedRejected(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	fsys := fstest.MapFS{"cb/pending.response.xml": {Data: corruptPending(t)}}
	rep, err := ix.Load(ctx, checkbookSource{}, fsys, "cb")
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 5 || rep.Notices != 4 || rep.Indexed != 4 || len(rep.Errors) != 1 ||
		!strings.Contains(rep.Errors[0].Error(), "transaction 2") || !strings.Contains(rep.Errors[0].Error(), "CTR85020131408259") {
		t.Fatalf("file load: rows %d read %d indexed %d errors %v", rep.Rows, rep.Notices, rep.Indexed, rep.Errors)
	}

	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		w.Write(corruptPending(t))
	}))
	defer srv.Close()
	live, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	ix = sampleIndexer(live)
	day := time.Date(2026, 8, 10, 0, 0, 0, 0, time.UTC)
	rep, err = ix.RunLive(ctx, checkbookSource{}, LiveConfig{Client: fetch.New(), CheckbookEndpoint: srv.URL,
		CheckbookType: checkbook.TypeContracts, CheckbookFrom: day, CheckbookTo: day})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 5 || rep.Indexed != 4 || len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "transaction 2") {
		t.Fatalf("live: rows %d indexed %d errors %v", rep.Rows, rep.Indexed, rep.Errors)
	}
	res, err := search.Find(ctx, live, procure.ContractKind, search.RecordQuery{Sources: []string{checkbook.Source}})
	if err != nil || res.Total != 4 {
		t.Errorf("live contracts held: %d %v", res.Total, err)
	}
}

// The payroll sample loads through the pipeline: every real row kept and
// indexed, the agency linked by the crosswalk, none rejected.
func TestPayrollSampleLoads(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := sampleIndexer(b)
	rep, err := ix.Load(ctx, payrollSource{}, os.DirFS("../testdata/sample"), payroll.Source)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Rows != 1800 || rep.Indexed != 1800 || len(rep.Errors) != 0 {
		t.Fatalf("rows %d indexed %d errors %v", rep.Rows, rep.Indexed, rep.Errors)
	}
	p, err := search.Find(ctx, b, procure.PayrollKind, search.RecordQuery{Keys: map[string][]string{procure.KeyPayrollFlag: {record.FlagNameBlank}}, Limit: 1})
	if err != nil || p.Total != 105 || p.Items[0].LastName != "" && p.Items[0].FirstName != "" {
		t.Fatalf("flagged rows: %d %v", p.Total, err)
	}
	if p.Items[0].AgencyID == "" || p.Items[0].AgencyMethod == "" {
		t.Errorf("agency not linked: %+v", p.Items[0])
	}
}
