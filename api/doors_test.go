package api

import (
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
)

// samplePayments reads the bundled sample's Checkbook NYC spending rows
// straight from the file, independently of the index: the rows keep
// returns true for, their count and their check amounts' sum.
func samplePayments(t *testing.T, keep func(row map[string]any) bool) (int, float64) {
	t.Helper()
	b, err := os.ReadFile("../testdata/sample/checkbook/checkbook_spending_api_issue_date_2018-05-02_records_page.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]any
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	n, sum := 0, 0.0
	for _, r := range rows {
		if keep(r) {
			n++
			a, _ := r["check_amount"].(string)
			f, _ := strconv.ParseFloat(a, 64)
			sum += f
		}
	}
	return n, math.Round(sum*100) / 100
}

func fieldIs(name, v string) func(map[string]any) bool {
	return func(r map[string]any) bool { s, _ := r[name].(string); return s == v }
}

func payeeStemIs(stem string) func(map[string]any) bool {
	return func(r map[string]any) bool { s, _ := r["payee_name"].(string); return entity.VendorStem(s) == stem }
}

// A contract ID whose registration is not held but which payments name
// answers with those payments (registration not held, the payments, their
// payees and registered vs paid by fiscal year), on the API and the site,
// never a 404; its row list walks every payment.
func TestContractIDAnswersThePaymentsNamingIt(t *testing.T) {
	const id = "DO185720181820782"
	wantN, wantSum := samplePayments(t, fieldIs("contract_ID", id))
	if wantN == 0 {
		t.Fatalf("the sample holds no payment naming %s", id)
	}
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/contracts/"+id)
	var v ContractView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &v) != nil {
		t.Fatalf("GET contract: %d %s", res.StatusCode, body)
	}
	paid := v.Payments.Ledger.Paid.Value
	if v.Status != "found" || v.Registration != procure.RegistrationNotHeld || !strings.Contains(v.RegistrationNote, "registration not held; "+strconv.Itoa(wantN)+" ") ||
		v.Payments.Total != wantN || len(v.Payments.Payments) != wantN || paid == nil || *paid != wantSum || len(v.Rows) != 0 {
		t.Fatalf("contract %s: registration %q %q, payments %d listed %d paid %v; want %d payments, %.2f",
			id, v.Registration, v.RegistrationNote, v.Payments.Total, len(v.Payments.Payments), paid, wantN, wantSum)
	}
	if len(v.Payments.Ledger.ByYear) == 0 || v.Payments.Ledger.ByYear[0].Payments == 0 || len(v.Payees) == 0 || v.Payees[0].Stem == "" ||
		v.Payments.Payments[0].Link.Method != entity.JoinContractIDField || v.Payments.Payments[0].Payment.ContractID != id {
		t.Errorf("ledger %+v payees %+v first link %+v", v.Payments.Ledger.ByYear, v.Payees, v.Payments.Payments[0].Link)
	}
	// a registration held keeps answering as before, marked held
	res, body = get(t, e, "/api/contracts/CT100220268808241")
	var held ContractView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &held) != nil || held.Registration != procure.RegistrationHeld {
		t.Errorf("held contract: %d %s", res.StatusCode, body[:min(300, len(body))])
	}
	// an ID nothing names is still not found
	if res, body = get(t, e, "/api/contracts/DO0000000000000000"); res.StatusCode != http.StatusNotFound {
		t.Errorf("unknown contract: %d %s", res.StatusCode, body)
	}

	res, body = get(t, e, "/contracts/"+id)
	page := string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `data-registration="not_held"`) ||
		!strings.Contains(page, "registration not held; "+strconv.Itoa(wantN)) || strings.Count(page, "checkbook:payment:") < wantN ||
		!strings.Contains(page, `data-download="csv"`) {
		t.Errorf("contract page: %d, %d payment ids", res.StatusCode, strings.Count(page, "checkbook:payment:"))
	}

	ids := walkRows(t, e, v.PaymentRows, 7)
	if len(ids) != wantN {
		t.Errorf("row list of %s: %d payments, want %d", id, len(ids), wantN)
	}
}

// walkRows follows a row list's next links from its first address (page
// size limit) to the end and returns the row ids, each once.
func walkRows(t *testing.T, e *env, first string, limit int) []string {
	t.Helper()
	u, err := url.Parse(first)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("limit", strconv.Itoa(limit))
	path := u.Path + "?" + q.Encode()
	var ids []string
	seen := map[string]bool{}
	total := -1
	for range 200 {
		res, body := get(t, e, path)
		var l RowListView
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &l) != nil {
			t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
		}
		if total >= 0 && l.Total != total {
			t.Fatalf("total changed while paging: %d then %d", total, l.Total)
		}
		total = l.Total
		if len(l.Rows) > limit {
			t.Fatalf("page of %d rows, limit %d", len(l.Rows), limit)
		}
		for _, r := range l.Rows {
			if seen[r.ID] {
				t.Fatalf("row %s listed twice", r.ID)
			}
			seen[r.ID] = true
			ids = append(ids, r.ID)
		}
		next := l.Links["next"]
		if next == "" {
			if len(ids) != total {
				t.Errorf("walked %d rows, total %d", len(ids), total)
			}
			return ids
		}
		nu, _ := url.Parse(next)
		path = nu.Path + "?" + nu.RawQuery
	}
	t.Fatal("the row list did not end")
	return nil
}

// readRowsCSV reads a row list's CSV: its leading comment lines, its
// header and its rows, and the comment lines after them.
func readRowsCSV(t *testing.T, body []byte) (head []string, header []string, rows [][]string, tail []string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(string(body), "\n"), "\n")
	var data []string
	for _, l := range lines {
		switch {
		case strings.HasPrefix(l, "# ") && len(data) == 0:
			head = append(head, l)
		case strings.HasPrefix(l, "# "):
			tail = append(tail, l)
		default:
			data = append(data, l)
		}
	}
	r := csv.NewReader(strings.NewReader(strings.Join(data, "\n")))
	all, err := r.ReadAll()
	if err != nil && err != io.EOF {
		t.Fatalf("CSV: %v", err)
	}
	if len(all) == 0 {
		t.Fatal("CSV without a header")
	}
	return head, all[0], all[1:], tail
}

// A vendor's payments page to the end: the profile lists the first rows
// with more and a cursor, its next link continues them, the row list's
// cursor walks every one and the CSV twin holds every one, with its scope
// and extent first.
func TestVendorPaymentsPageToTheEndByCursorAndCSV(t *testing.T) {
	const stem = "CDW GOVERNMENT"
	wantN, wantSum := samplePayments(t, payeeStemIs(stem))
	if wantN <= 50 {
		t.Fatalf("the sample holds %d payments to %s: the test needs more than one page of the profile", wantN, stem)
	}
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/vendors/"+url.PathEscape(stem))
	var prof VendorProfile
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &prof) != nil {
		t.Fatalf("vendor: %d %s", res.StatusCode, body[:min(400, len(body))])
	}
	p := prof.Payments
	if p.Payments.Count != wantN || !p.More || p.NextCursor == "" || p.Next == "" || p.CSV == "" || len(p.Entries) >= wantN {
		t.Fatalf("vendor payments: count %d (want %d), more %v, cursor %q, next %q, csv %q, %d entries", p.Payments.Count, wantN, p.More, p.NextCursor, p.Next, p.CSV, len(p.Entries))
	}
	if strings.Contains(p.ExtentWords, "payroll") {
		t.Errorf("a vendor paid by checks states the extent of payroll: %s", p.ExtentWords)
	}
	nu, _ := url.Parse(p.Next)
	res, body = get(t, e, nu.Path+"?"+nu.RawQuery+"&limit=100")
	var rest RowListView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &rest) != nil {
		t.Fatalf("next: %d %s", res.StatusCode, body)
	}
	seen := map[string]bool{}
	for _, r := range append(p.Entries, rest.Rows...) {
		if seen[r.ID] {
			t.Errorf("row %s in the profile and its continuation", r.ID)
		}
		seen[r.ID] = true
	}
	if len(seen) != wantN || rest.NextCursor != "" {
		t.Errorf("profile + continuation: %d rows, want %d (next cursor %q)", len(seen), wantN, rest.NextCursor)
	}

	ids := walkRows(t, e, p.Rows, 8)
	if len(ids) != wantN {
		t.Errorf("row list walked %d rows, want %d", len(ids), wantN)
	}

	// sorted by amount, largest first, to the end
	res, body = get(t, e, "/api/rows?vendor_stem="+url.QueryEscape(stem)+"&sort=amount_desc&limit=500")
	var byAmount RowListView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &byAmount) != nil || len(byAmount.Rows) != wantN {
		t.Fatalf("by amount: %d %s", res.StatusCode, body[:min(300, len(body))])
	}
	for i := 1; i < len(byAmount.Rows); i++ {
		a, b := byAmount.Rows[i-1].Amount, byAmount.Rows[i].Amount
		if a != nil && b != nil && a.Value != nil && b.Value != nil && *a.Value < *b.Value {
			t.Errorf("amount_desc: %v before %v", *a.Value, *b.Value)
		}
	}
	if v := byAmount.Payments.Amount.Value; v == nil || *v != wantSum {
		t.Errorf("payments total %v, want %.2f", v, wantSum)
	}

	res, body = get(t, e, strings.TrimPrefix(p.CSV, "http://rw.test"))
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("CSV: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	head, header, rows, tail := readRowsCSV(t, body)
	if len(rows) != wantN || header[0] != "kind" || header[1] != "id" {
		t.Errorf("CSV: %d rows (want %d), header %v", len(rows), wantN, header)
	}
	csvIDs := map[string]bool{}
	for _, r := range rows {
		csvIDs[r[1]] = true
	}
	for id := range seen {
		if !csvIDs[id] {
			t.Errorf("row %s of the JSON list is not in the CSV", id)
		}
	}
	joined := strings.Join(head, "\n")
	if !strings.Contains(joined, "rows matched: "+strconv.Itoa(wantN)) || !strings.Contains(joined, "# extent: ") || !strings.Contains(joined, "# source: checkbook") ||
		len(tail) == 0 || !strings.HasPrefix(tail[len(tail)-1], "# end: "+strconv.Itoa(wantN)+" rows") {
		t.Errorf("CSV comments: head %q tail %q", head, tail)
	}

	// the site's table: its rows, sort links, next page and download
	res, body = get(t, e, "/rows?vendor_stem="+url.QueryEscape(stem))
	page := string(body)
	if res.StatusCode != http.StatusOK || !strings.Contains(page, `data-rows-total="`+strconv.Itoa(wantN)+`"`) || !strings.Contains(page, `data-next="1"`) ||
		!strings.Contains(page, `data-sort="amount_desc"`) || !strings.Contains(page, `data-download="csv"`) {
		t.Errorf("rows page: %d", res.StatusCode)
	}
}

// A row list asks for a door: no filter, an unknown sort or kind, a bad
// cursor are 400 naming the parameter, never a list of everything.
func TestRowListRefusesWhatItCannotAnswer(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for path, param := range map[string]string{
		"/api/rows":                                "vendor",
		"/api/rows?kind=payment":                   "vendor",
		"/api/rows?vendor_stem=CDW&sort=random":    "sort",
		"/api/rows?vendor_stem=CDW&kind=notice":    "kind",
		"/api/rows?vendor_stem=CDW&format=xml":     "format",
		"/api/rows?vendor_stem=CDW&limit=100000":   "limit",
		"/api/rows?vendor_stem=CDW&cursor=garbage": "cursor",
	} {
		res, body := get(t, e, path)
		var eb errorBody
		if res.StatusCode != http.StatusBadRequest || json.Unmarshal(body, &eb) != nil || eb.Error.Param != param {
			t.Errorf("%s: %d %s (want 400 naming %s)", path, res.StatusCode, body, param)
		}
	}
}

// A vendor held only through payments (no award notice, no registered
// contract) is a vendor for federated search and the batch look-up, its
// payments counted from the sample file itself.
func TestVendorHeldOnlyThroughPaymentsIsFound(t *testing.T) {
	const name = "STRIVRIGHT"
	wantN, wantSum := samplePayments(t, payeeStemIs(entity.VendorStem(name)))
	if wantN == 0 {
		t.Fatalf("the sample holds no payment to %s", name)
	}
	e := newEntityEnv(t, Config{})
	_, body := get(t, e, "/api/search/federated?q="+name)
	var page struct {
		Results []struct {
			Kind, Collection, ID, Route, Permalink string
			Match                                  struct{ Tier, Rule string }
		} `json:"results"`
		Coverage []struct {
			Collection string
			Matched    int
		} `json:"collection_coverage"`
	}
	if err := json.Unmarshal(body, &page); err != nil {
		t.Fatal(err)
	}
	vendor, payments := false, 0
	for _, r := range page.Results {
		if r.Kind == "vendor" && r.ID == "strivright" && r.Match.Tier == "exact" {
			vendor = true
			if res, _ := get(t, e, r.Route); res.StatusCode != http.StatusOK {
				t.Errorf("vendor route %s: %d", r.Route, res.StatusCode)
			}
		}
		if r.Kind == "payment" {
			payments++
		}
	}
	for _, c := range page.Coverage {
		if c.Collection == "payments" && c.Matched != wantN {
			t.Errorf("payments collection matched %d, want %d", c.Matched, wantN)
		}
	}
	if !vendor || payments == 0 {
		t.Errorf("federated %s: vendor found %v, %d payments in %s", name, vendor, payments, body[:min(600, len(body))])
	}

	res, body := post(t, e, "/batch", "application/json", []byte(`{"names":["`+name+`"]}`))
	var b BatchResponse
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &b) != nil || len(b.Results) != 1 {
		t.Fatalf("batch: %d %s", res.StatusCode, body)
	}
	r := b.Results[0]
	if r.Payments.Payments.Count != wantN || r.Payments.Payments.Amount.Value == nil || *r.Payments.Payments.Amount.Value != wantSum ||
		r.Entity == "" || r.Payments.Rows == "" {
		t.Errorf("batch %s: payments %+v entity %q rows %q; want %d payments, %.2f", name, r.Payments.Payments, r.Entity, r.Payments.Rows, wantN, wantSum)
	}
}
