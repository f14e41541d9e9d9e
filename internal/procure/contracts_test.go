package procure_test

import (
	"context"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search/searchtest"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A registered contract of the bundled contract rows, read by its exact
// contract ID: agency, vendor, PIN, registration date and the fiscal year
// derived from it, the registered amount.
func TestContractByExactID(t *testing.T) {
	r, err := svc.Contract(context.Background(), "CT100220268808241")
	if err != nil {
		t.Fatal(err)
	}
	c := r.Contract
	if c.ContractID != "CT100220268808241" || c.Source != "contracts" || c.PIN != "00226W0014001" || c.PINBase != "00226W0014" {
		t.Fatalf("contract %+v", c)
	}
	if c.AgencyLabel != "Office of the Mayor" || c.AgencyID == "" || c.VendorName != "Empire Electronics Inc" || c.VendorStem == "" {
		t.Errorf("agency or vendor: %+v", c)
	}
	if got := c.RegisteredOn.In(record.NewYork).Format("2006-01-02"); got != "2026-06-04" || c.FiscalYear != 2026 {
		t.Errorf("registered %s FY%d, want 2026-06-04 FY2026", got, c.FiscalYear)
	}
	if !c.AmountValid || c.Amount != 43844 {
		t.Errorf("amount %v valid %v", c.Amount, c.AmountValid)
	}
	if c.Method == "" || c.RequestID != "20260605041" || len(c.Links) == 0 {
		t.Errorf("method %q request %q links %v", c.Method, c.RequestID, c.Links)
	}
	if r.RowsTotal != 1 || len(r.Rows) != 1 {
		t.Errorf("rows %d %v", r.RowsTotal, r.Rows)
	}
	// the row id reads the same row
	r2, err := svc.Contract(context.Background(), c.ID)
	if err != nil || r2.Contract.ID != c.ID {
		t.Fatalf("by row id: %+v %v", r2.Contract, err)
	}
	// versions of one contract ID are rows of their own
	v, err := svc.Contract(context.Background(), "CTR85020131408259")
	if err != nil || v.RowsTotal != 2 || v.Rows[0].ID == v.Rows[1].ID {
		t.Fatalf("two versions: %+v %v", v, err)
	}
}

func TestContractUnknownAndUnavailable(t *testing.T) {
	_, err := svc.Contract(context.Background(), "CT0000000000000000")
	if record.ErrorCode(err) != record.ENOTFOUND {
		t.Fatalf("unknown id: %v", err)
	}
	bare := procure.New(searchtest.RecordsDown{Engine: be}, entity.DefaultCrosswalk(), nil)
	if _, err := bare.Contract(context.Background(), "CT100220268808241"); record.ErrorCode(err) != record.EUNAVAILABLE {
		t.Fatalf("no records: %v", err)
	}
	if _, err := bare.BrowseContracts(context.Background(), procure.ContractFilter{}, "", 10); record.ErrorCode(err) != record.EUNAVAILABLE {
		t.Fatalf("browse without records: %v", err)
	}
}

// Two registrations sharing one PIN stay two rows, each with its own
// contract ID.
func TestContractsSharingAPINStayTwoRows(t *testing.T) {
	p, err := svc.BrowseContracts(context.Background(), procure.ContractFilter{PIN: "84623P0002007R001"}, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, c := range p.Contracts {
		ids[c.ContractID] = true
	}
	if p.Total != 2 || len(p.Contracts) != 2 || !ids["CTA184620267206346"] || !ids["MMA184620268804992"] {
		t.Fatalf("PIN 84623P0002007R001: total %d %+v", p.Total, p.Contracts)
	}
	if p.Totals.Count != 2 || p.Totals.Measure != procure.ContractMeasure {
		t.Errorf("totals %+v", p.Totals)
	}
	if p.Scope.Searched.Kind != "contracts" || p.Scope.Matched != 2 || len(p.Scope.Sources) == 0 {
		t.Errorf("scope %+v", p.Scope)
	}
	// the base PIN finds them too, and perhaps more
	b, err := svc.BrowseContracts(context.Background(), procure.ContractFilter{PIN: "84623P0002"}, "", 10)
	if err != nil || b.Total < 2 {
		t.Fatalf("base PIN: %d %v", b.Total, err)
	}
}

// Walking the pages of a browse reads every match once: the same rows as
// one full read of the engine, in the same order.
func TestBrowseContractsPagesAreStable(t *testing.T) {
	ctx := context.Background()
	f := procure.ContractFilter{FiscalYear: 2026}
	full, err := search.Find(ctx, be, procure.ContractKind, search.RecordQuery{
		Keys: map[string][]string{search.KeyFiscalYear: {"2026"}}, Sort: search.RecordSortDate, Limit: search.MaxRecordLimit})
	if err != nil {
		t.Fatal(err)
	}
	if full.Total < 2*procure.MaxContractLimit || full.Total > search.MaxRecordLimit {
		t.Fatalf("FY2026 holds %d contracts; the test wants several pages", full.Total)
	}
	for _, c := range full.Items {
		if c.FiscalYear != 2026 {
			t.Fatalf("FY filter let %s FY%d through", c.ID, c.FiscalYear)
		}
	}
	var walked []string
	cursor := ""
	for range 100 {
		p, err := svc.BrowseContracts(ctx, f, cursor, 37)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Contracts) > 37 || p.Total != full.Total {
			t.Fatalf("page of %d, total %d", len(p.Contracts), p.Total)
		}
		for _, c := range p.Contracts {
			walked = append(walked, c.ID)
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if len(walked) != len(full.Items) {
		t.Fatalf("walked %d rows, full read %d", len(walked), len(full.Items))
	}
	for i, c := range full.Items {
		if walked[i] != c.ID {
			t.Fatalf("row %d: walked %s, full read %s", i, walked[i], c.ID)
		}
	}
	if _, err := svc.BrowseContracts(ctx, f, "", procure.MaxContractLimit+1); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("limit over the bound: %v", err)
	}
}
