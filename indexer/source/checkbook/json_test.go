package checkbook

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The 2018 spending page (testdata/sample/checkbook): 1,000 transactions
// saved by xml2json, read through ReadDir with the XML answers.
func TestReadSpendingJSONPage(t *testing.T) {
	c, errs := ReadDir(os.DirFS("../../../testdata/sample/checkbook"), ".")
	if len(errs) != 0 {
		t.Fatalf("errors: %v", errs)
	}
	var rep *FileReport
	for i := range c.Files {
		if strings.HasSuffix(c.Files[i].File, ".json") {
			rep = &c.Files[i]
		}
	}
	if rep == nil {
		t.Fatal("the spending JSON page was not read")
	}
	if rep.Transactions != 1000 || rep.Rejected != 0 || rep.Rows != 1000 || rep.TypeOfData != TypeSpending {
		t.Fatalf("report = %+v, want 1000 transactions read and written as spending, none rejected", *rep)
	}
	var fromPage, withContract, redacted, payrollCat int
	ids := map[string]bool{}
	for _, p := range c.Payments {
		if p.Date.Format("2006-01-02") != "2018-05-02" {
			continue
		}
		fromPage++
		if ids[p.ID] {
			t.Fatalf("payment id %s twice", p.ID)
		}
		ids[p.ID] = true
		if p.ContractID != "" {
			withContract++
		}
		if p.VendorName == "N/A (PRIVACY/SECURITY)" {
			redacted++
		}
		if p.Raw["spending_category"] == "Payroll" {
			payrollCat++
		}
		if strings.Contains(p.Raw["industry"], "{") {
			t.Fatalf("an empty element kept as %q", p.Raw["industry"])
		}
	}
	// PROVENANCE.md: 1,000 rows, 719 with a contract id (the tag was
	// contract_ID), 86 redacted payees, 15 payroll-category rows.
	if fromPage != 1000 || withContract != 719 || redacted != 86 || payrollCat != 15 {
		t.Fatalf("page rows = %d, with contract id %d, redacted %d, payroll %d; want 1000, 719, 86, 15", fromPage, withContract, redacted, payrollCat)
	}
	// a document with 41 lines: each line is its own payment
	for n := 1; n <= 41; n++ {
		if !ids["checkbook:payment:20180433887-1-DSB-EFT:"+strconv.Itoa(n)] {
			t.Fatalf("line %d of document 20180433887-1-DSB-EFT is missing", n)
		}
	}
	if ids["checkbook:payment:20180433887-1-DSB-EFT"] {
		t.Fatal("a repeated document kept its plain id")
	}
}

// Empty elements ({} and []), case-folded tags and a nested value that
// rejects its transaction alone.
func TestParseSpendingJSONShapes(t *testing.T) {
	data := []byte(`{"transaction":[
	 {"contract_ID":"CT185020181234567","check_amount":"10.50","issue_date":"2018-05-02","industry":{},"document_id":"D1","payee_name":"ACME INC","sub_vendor":[]},
	 {"contract_ID":{"x":"y"},"check_amount":"1","issue_date":"2018-05-02","document_id":"D2"},
	 {"contract_id":{},"check_amount":2,"issue_date":"2018-05-02","document_id":"D3"}]}`)
	res, err := ParseSpendingJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Transactions) != 2 || len(res.Rejected) != 1 || res.Rejected[0].Index != 2 {
		t.Fatalf("transactions %d, rejected %+v; want 2 read and the second rejected", len(res.Transactions), res.Rejected)
	}
	if !strings.Contains(res.Rejected[0].Error(), "contract_ID") {
		t.Fatalf("the reason does not name the element: %v", res.Rejected[0])
	}
	rows, errs := ReadResponse(res, "x.json", time.Time{})
	if len(errs) != 1 {
		t.Fatalf("errs = %v, want the one rejected transaction", errs)
	}
	p := rows.Payments[0]
	if p.ContractID != "CT185020181234567" || p.Raw["industry"] != "" || p.Raw["sub_vendor"] != "" || p.AmountRaw != "10.50" {
		t.Fatalf("payment = %+v", p)
	}
	if q := rows.Payments[1]; q.ContractID != "" || q.AmountRaw != "2" {
		t.Fatalf("an empty contract_id or a numeric amount misread: %+v", q)
	}
	if _, err := ParseSpendingJSON([]byte(`[{"prime_contract_id":"CT1"}]`)); err == nil {
		t.Fatal("a JSON answer without spending columns was read as spending")
	}
	if _, err := ParseSpendingJSON([]byte(`{"rows":[]}`)); err == nil {
		t.Fatal("a JSON object without a transaction array was read")
	}
}

// The raw XML answers in today's shape (testdata/api_raw_xml, fixtures
// only): full-column spending rows with the fiscal year's true
// record_count, and a Budget answer, which is rejected with its reason.
func TestReadTodaysRawXML(t *testing.T) {
	c, errs := ReadDir(os.DirFS("testdata/api_raw_xml"), ".")
	counts := map[string]FileReport{}
	for _, f := range c.Files {
		counts[f.File] = f
	}
	if f := counts["spending_fy2024_records_from_1_max_1.response.xml"]; f.RecordCount != 3227410 || f.Rows != 1 {
		t.Fatalf("FY2024 answer = %+v, want 1 row of 3,227,410 at the source", f)
	}
	if f := counts["budget_fy2026_agency_846_records_1_2.response.xml"]; f.Transactions != 2 || f.Rows != 0 || f.Errors != 2 {
		t.Fatalf("budget answer = %+v, want its 2 transactions read and rejected", f)
	}
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), `type of data "Budget" is not read`) {
		t.Fatalf("errs = %v, want the 2 budget rows rejected with the reason", errs)
	}
}
