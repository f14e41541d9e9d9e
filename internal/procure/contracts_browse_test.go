package procure_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// copyContracts opens a fresh embedded index holding the bundled
// registered contracts (the shared index stays as loaded), and a service
// over it.
func copyContracts(t *testing.T) (*embedded.Backend, *procure.Service, []record.Contract) {
	t.Helper()
	ctx := context.Background()
	all, err := search.Find(ctx, be, procure.ContractKind, search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
	if err != nil {
		t.Fatal(err)
	}
	if all.Total != len(all.Items) || all.Total < 500 {
		t.Fatalf("bundled contracts: %d of %d read", len(all.Items), all.Total)
	}
	b, err := embedded.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := search.Put(ctx, b, procure.ContractKind, all.Items); err != nil {
		t.Fatal(err)
	}
	return b, procure.New(b, entity.DefaultCrosswalk(), func() time.Time { return fixedNow }), all.Items
}

// Browse pages stay stable while contracts are indexed: a walk of the
// FY2026 registrations, while another goroutine writes every bundled row
// again and adds new FY2026 rows, reads every bundled FY2026 row exactly
// once and no row twice.
func TestBrowseContractsStableUnderConcurrentIndexing(t *testing.T) {
	ctx := context.Background()
	b, s, items := copyContracts(t)
	want := map[string]bool{}
	for _, c := range items {
		if c.FiscalYear == 2026 {
			want[c.ID] = true
		}
	}
	if len(want) < 2*procure.MaxContractLimit {
		t.Fatalf("%d FY2026 rows; the walk wants several pages", len(want))
	}

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writeErr error
	writes := 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		for round := 0; ; round++ {
			select {
			case <-stop:
				return
			default:
			}
			// rewrite a slice of the bundled rows as they are
			lo := (round * 50) % len(items)
			batch := append([]record.Contract(nil), items[lo:min(lo+50, len(items))]...)
			// and add new rows spread over FY2026
			for i := range 5 {
				c := items[(round*7+i)%len(items)]
				c.ID = fmt.Sprintf("concurrent:%d:%d", round, i)
				c.RegisteredOn = time.Date(2025, time.Month(7+(round+i)%12), 1+i, 0, 0, 0, 0, record.NewYork)
				c.FiscalYear = record.ContractFiscalYear(c.RegisteredOn)
				batch = append(batch, c)
			}
			if err := search.Put(ctx, b, procure.ContractKind, batch); err != nil {
				writeErr = err
				return
			}
			writes++
		}
	}()

	seen := map[string]int{}
	cursor := ""
	pages := 0
	for ; pages < 1000; pages++ {
		p, err := s.BrowseContracts(ctx, procure.ContractFilter{FiscalYear: 2026}, cursor, 23)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Contracts) > 23 {
			t.Fatalf("page of %d rows", len(p.Contracts))
		}
		for _, c := range p.Contracts {
			seen[c.ID]++
			if c.FiscalYear != 2026 {
				t.Errorf("%s FY%d passed the FY2026 filter", c.ID, c.FiscalYear)
			}
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	close(stop)
	wg.Wait()
	if writeErr != nil {
		t.Fatal(writeErr)
	}
	if writes == 0 {
		t.Fatal("no write ran during the walk")
	}
	for id, n := range seen {
		if n != 1 {
			t.Errorf("row %s read %d times", id, n)
		}
	}
	for id := range want {
		if seen[id] == 0 {
			t.Errorf("bundled row %s skipped", id)
		}
	}
	t.Logf("%d pages, %d rows read, %d write batches during the walk", pages+1, len(seen), writes)
}

// The fiscal year of a bundled row is its registration date's: a row
// registered on June 30, 2026 is FY2026; the same row registered on July
// 1, 2026 (written through the same contract rule,
// record.ContractFiscalYear) is FY2027 and a browse of each fiscal year finds it there only.
func TestContractFiscalYearBoundaryOnBundledRows(t *testing.T) {
	ctx := context.Background()
	b, s, _ := copyContracts(t)
	res, err := search.Find(ctx, svc.Records, procure.ContractKind, search.RecordQuery{Sources: []string{"contracts"}, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	var c record.Contract
	for _, x := range res.Items {
		if !x.RegisteredOn.IsZero() && x.RegisteredOn.In(record.NewYork).Format("2006-01-02") == "2026-06-30" && x.ContractID != "" {
			c = x
			break
		}
	}
	if c.ID == "" {
		t.Fatal("no bundled row registered on 2026-06-30")
	}
	if c.FiscalYear != 2026 || c.FiscalYear != record.ContractFiscalYear(c.RegisteredOn) {
		t.Fatalf("June 30 row %s: FY%d", c.ID, c.FiscalYear)
	}
	if got, err := s.Contract(ctx, c.ID); err != nil || got.Contract.FiscalYear != 2026 {
		t.Fatalf("June 30 row as held: %+v %v", got.Contract, err)
	}
	j := c
	j.ID += ":july1"
	j.RegisteredOn = time.Date(2026, 7, 1, 0, 0, 0, 0, record.NewYork)
	if j.FiscalYear = record.ContractFiscalYear(j.RegisteredOn); j.FiscalYear != 2027 {
		t.Fatalf("July 1 row: FY%d", j.FiscalYear)
	}
	if err := search.Put(ctx, b, procure.ContractKind, []record.Contract{j}); err != nil {
		t.Fatal(err)
	}
	in := func(fy int, id string) bool {
		p, err := s.BrowseContracts(ctx, procure.ContractFilter{FiscalYear: fy, VendorStem: c.VendorStem}, "", procure.MaxContractLimit)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range p.Contracts {
			if x.ID == id {
				return true
			}
		}
		return false
	}
	if !in(2026, c.ID) || in(2027, c.ID) || !in(2027, j.ID) || in(2026, j.ID) {
		t.Errorf("FY browse: June 30 in FY2026 %v, FY2027 %v; July 1 in FY2027 %v, FY2026 %v", in(2026, c.ID), in(2027, c.ID), in(2027, j.ID), in(2026, j.ID))
	}
}

// Contract records written before amount bands and registration states
// were kept (no amount_band, registration keys) are counted in no band and
// said to need a reload; their undated rows get no follow that would
// miss them.
func TestContractAnalysisOfRecordsWrittenBefore(t *testing.T) {
	ctx := context.Background()
	b, s, items := copyContracts(t)
	var old []search.Record
	undated := 0
	for _, c := range items[:40] {
		r, err := procure.ContractKind.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		delete(r.Keys, procure.KeyAmountBand)
		delete(r.Keys, procure.KeyRegistration)
		delete(r.Keys, procure.KeyAmountExcluded)
		old = append(old, r)
		if c.RegisteredOn.IsZero() {
			undated++
		}
	}
	if err := b.PutRecords(ctx, old); err != nil {
		t.Fatal(err)
	}
	a, err := s.AnalyzeContracts(ctx, procure.AnalysisRequest{GroupBy: procure.GroupAmountBand})
	if err != nil {
		t.Fatal(err)
	}
	if a.Ungrouped == nil || a.Ungrouped.Rows != 40 || a.Ungrouped.Follow != nil || a.Population.Rows != len(items) {
		t.Fatalf("bands over old records: ungrouped %+v, population %d", a.Ungrouped, a.Population.Rows)
	}
	fy, err := s.AnalyzeContracts(ctx, procure.AnalysisRequest{GroupBy: procure.GroupFiscalYear})
	if err != nil {
		t.Fatal(err)
	}
	if undated == 0 {
		t.Fatal("no undated row among the rewritten ones: the fixture must hold one for this check")
	}
	if fy.Ungrouped == nil || fy.Ungrouped.Follow != nil {
		t.Errorf("FY over old records: ungrouped %+v", fy.Ungrouped)
	}
}

// A registered row whose source states no contract ID is still a contract:
// read by its row id (alone under it), browsed and counted with its
// agency.
func TestContractWithoutContractID(t *testing.T) {
	ctx := context.Background()
	b, s, items := copyContracts(t)
	c := items[0]
	c.ID, c.ContractID = "contracts:no-contract-id", ""
	if err := search.Put(ctx, b, procure.ContractKind, []record.Contract{c}); err != nil {
		t.Fatal(err)
	}
	r, err := s.Contract(ctx, c.ID)
	if err != nil || r.Contract.ID != c.ID || r.RowsTotal != 1 || len(r.Rows) != 1 {
		t.Fatalf("by row id: %+v %v", r, err)
	}
	p, err := s.BrowseContracts(ctx, procure.ContractFilter{AgencyID: c.AgencyID, VendorStem: c.VendorStem}, "", procure.MaxContractLimit)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, x := range p.Contracts {
		found = found || x.ID == c.ID
	}
	if !found {
		t.Errorf("row without contract ID not browsed: %d rows", p.Total)
	}
}
