package checkbook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/recordwatch/recordwatch/internal/golden"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"

	"github.com/recordwatch/recordwatch/internal/entity"
)

func readRaw(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "raw", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The official documentation samples, with their quirks.
func TestParseRealResponses(t *testing.T) {
	cases := []struct {
		file         string
		typ          string
		recordCount  int
		transactions int
		repairs      int
	}{
		{"contracts_active_expense_citywide.response.xml", TypeContracts, 1, 1, 0},
		// record_count is the number of matches (56), not of transactions (5);
		// the page shows a bare & and an end tag written "</original_amount&gt"
		{"contracts_pending_expense_citywide.response.xml", TypeContracts, 56, 5, 2},
		{"spending_citywide.response.xml", TypeSpending, 1, 1, 0},
		{"payroll_citywide.response.xml", TypePayroll, 1, 1, 0},
	}
	for _, c := range cases {
		res, err := ParseResponse(readRaw(t, c.file))
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if res.Status != "success" || res.Request.TypeOfData != c.typ || res.RecordCount != c.recordCount ||
			len(res.Transactions) != c.transactions || len(res.Repairs) != c.repairs {
			t.Errorf("%s: status %q type %q count %d transactions %d repairs %v", c.file, res.Status, res.Request.TypeOfData,
				res.RecordCount, len(res.Transactions), res.Repairs)
		}
	}
	res, _ := ParseResponse(readRaw(t, "contracts_pending_expense_citywide.response.xml"))
	if got := res.Transactions[3].Fields["purpose"]; got != "STATEN ISLAND 1&3 GARAGE, PHASE 2" {
		t.Errorf("bare ampersand read as %q", got)
	}
	if got := res.Transactions[3].Fields["original_amount"]; got != "281497282.00" {
		t.Errorf("original_amount after the broken end tag: %q", got)
	}
	// the documentation bug <version>woman_owned_business</version>: the
	// first <version> is the version, every value is kept
	tx := res.Transactions[0]
	if tx.Fields["version"] != "52" || len(tx.Repeated["version"]) != 3 || tx.Repeated["version"][1] != "woman_owned_business" {
		t.Errorf("repeated version: %q %v", tx.Fields["version"], tx.Repeated["version"])
	}
	if tx.Value("parent_contract_id", "apt_pin") != "" {
		t.Error("empty elements must read as no value")
	}
	if res.Request.Criterion("status") != "pending" || res.Request.MaxRecords != 5 || len(res.Request.Columns) != 23 {
		t.Errorf("echoed request %+v", res.Request)
	}
	active, _ := ParseResponse(readRaw(t, "contracts_active_expense_citywide.response.xml"))
	if v := active.Transactions[0].Value("parent_contract_id"); v != "" {
		t.Errorf(`"-" must read as no value, got %q`, v)
	}
	if v := active.Transactions[0].Fields["prime_contract_expense_category"]; v != "CONSTRUCTION-BUILDINGS, POLLUTION REMEDIATION\nOBLIGATIONS" {
		t.Errorf("multi-line value %q", v)
	}
	if _, err := ParseResponse([]byte("<html><body>Service unavailable</body></html>")); err == nil {
		t.Error("an HTML page was read as an answer")
	}
	req, err := ParseRequest(readRaw(t, "contracts_pending_expense_citywide.request.xml"))
	if err != nil || req.TypeOfData != TypeContracts || req.Criterion("agency_code") != "850" {
		t.Errorf("request %+v %v", req, err)
	}
}

func TestNormalizeRealTransactions(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	c, errs := LoadDir(os.DirFS("testdata/raw"), ".", cw)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	byID := map[string]record.Contract{}
	for _, e := range c.Contracts {
		byID[e.ID] = e
	}
	pays := map[string]procure.Payment{}
	for _, p := range c.Payments {
		pays[p.ID] = p
	}
	active := byID["checkbook:contract:CT185020151429177:v1:sub:005"]
	// prime current amount 0 is not a valid amount; the sub-vendor's 14500
	// stays in the raw fields
	if active.ID == "" || active.AmountValid || active.AmountRaw != "0" || active.Raw["sub_contract_current_amount"] != "14500" ||
		active.PIN != "85015B0065001C021" || active.PINBase != "85015B0065" || active.AgencyID != "design-and-construction" ||
		active.RegisteredOn.IsZero() || active.FiscalYear != 2016 || active.Status != "active" || active.VendorStem != "CDE AIR CONDITIONING" {
		t.Errorf("active contract %+v", active)
	}
	pending := byID["checkbook:contract:CTR85020151424706:v52"]
	if !pending.AmountValid || pending.Amount != 481497282 || pending.ReceivedOn.IsZero() || !pending.RegisteredOn.IsZero() || pending.FiscalYear != 0 ||
		pending.Status != "pending" || pending.Raw["version"] != "52 | woman_owned_business | emerging_business" {
		t.Errorf("pending contract %+v", pending)
	}
	pay := pays["checkbook:payment:20180011164-1-DSB-AD"]
	if pay.Payroll || pay.Amount != 35775 || pay.AgencyID != "public-library-queens" || pay.FiscalYear != 2018 ||
		pay.ContractID != "CT103920171428053" || pay.VendorStem != "NEW CASTLE COMMUNICATIONS" {
		t.Errorf("payment %+v", pay)
	}
	var payroll procure.Payment
	for _, e := range c.Payments {
		if e.Payroll {
			payroll = e
		}
	}
	if payroll.AgencyID != "education" || payroll.Amount != 58654.89 || payroll.FiscalYear != 2011 || payroll.VendorName != "" {
		t.Errorf("payroll %+v", payroll)
	}
	// the same files give the same ids
	again, _ := LoadDir(os.DirFS("testdata/raw"), ".", cw)
	if again.Len() != c.Len() || again.Contracts[0].ID != c.Contracts[0].ID || again.Payments[0].ID != c.Payments[0].ID {
		t.Error("ids are not stable")
	}
}

func TestGolden(t *testing.T) {
	c, errs := LoadDir(os.DirFS("testdata/raw"), ".", entity.DefaultCrosswalk())
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	got, _ := json.MarshalIndent(c, "", "  ")
	got = append(got, '\n')
	golden.Assert(t, filepath.Join("testdata", "golden.json"), got)
}
