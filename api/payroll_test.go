package api

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The payroll JSON twin on the bundled sample (1,800 real rows, embedded
// engine): a row found by name in either order and by one name word, by
// agency label and fiscal year, by title; redacted names kept and flagged;
// totals over every match that say what they add; a cursor walk that reads
// every match once; 404 and 400 in the API's error shape.
func TestPayrollJSON(t *testing.T) {
	e := newEntityEnv(t, Config{})
	browse := func(q string) procure.PayrollPage {
		t.Helper()
		res, body := get(t, e, "/api/payroll?"+q)
		var p procure.PayrollPage
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &p) != nil {
			t.Fatalf("GET /api/payroll?%s: %d %s", q, res.StatusCode, body)
		}
		return p
	}
	for _, q := range []string{"name=" + url.QueryEscape("Margaret Abensur"), "name=" + url.QueryEscape("abensur, margaret"), "name=ABENSUR"} {
		p := browse(q)
		if p.Total != 1 || len(p.Rows) != 1 || p.Rows[0].LastName != "ABENSUR" || p.Rows[0].Title != "ADMINISTRATIVE ACCOUNTANT" ||
			p.Rows[0].RegularGross.Value != 119042.5 || p.Totals.GrossPaid == nil || *p.Totals.GrossPaid != 119042.5 ||
			p.Totals.Measure != procure.PayrollMeasure || p.Scope.Searched.Kind != "payroll" || p.Scope.Matched != 1 {
			t.Errorf("%s: %+v", q, p)
		}
	}
	one := browse("name=ABENSUR").Rows[0]
	res, body := get(t, e, "/api/payroll/"+url.PathEscape(one.ID))
	var v PayrollView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &v) != nil || v.Row.ID != one.ID || v.Row.AgencyPrinted != "DISTRICT ATTORNEY-MANHATTAN" ||
		v.Row.AgencyID == "" || v.Measure == "" {
		t.Errorf("row by id: %d %s", res.StatusCode, body)
	}
	// the printed agency's field is agency_as_printed; its first name,
	// agency_label, is kept beside it for older readers (deprecated, the
	// same value)
	if !strings.Contains(string(body), `"agency_as_printed":"DISTRICT ATTORNEY-MANHATTAN"`) ||
		!strings.Contains(string(body), `"agency_label":"DISTRICT ATTORNEY-MANHATTAN"`) {
		t.Errorf("printed agency field: %s", body)
	}

	// by agency as printed and fiscal year: the 22 Police Department rows
	police := browse("agency=" + url.QueryEscape("POLICE DEPARTMENT") + "&fiscal_year=2016&limit=100")
	if police.Total != 22 || police.Totals.Count != 22 || police.Scope.Searched.Filters["agency"] != "POLICE DEPARTMENT" {
		t.Errorf("police: total %d totals %+v", police.Total, police.Totals)
	}
	for _, r := range police.Rows {
		if r.AgencyPrinted != "POLICE DEPARTMENT" {
			t.Errorf("police row %+v", r)
		}
	}
	if p := browse("agency=" + url.QueryEscape("POLICE DEPARTMENT") + "&fiscal_year=2015"); p.Total != 0 || p.Totals.GrossPaid != nil ||
		p.Totals.Display != procure.NoPayroll {
		t.Errorf("no rows: %+v", p.Totals)
	}

	// every row: 105 redacted names kept and flagged, 2 negative OT hours;
	// the walk reads each row once
	all := browse("limit=100")
	if all.Total != 1800 || all.Totals.Flagged[record.FlagNameBlank] != 105 || all.Totals.Flagged[record.FlagNegative] != 2 ||
		all.Totals.ValidAmounts != 1800 || all.Totals.Excluded != 0 {
		t.Errorf("all: total %d totals %+v", all.Total, all.Totals)
	}
	seen := map[string]bool{}
	cursor := ""
	for range 30 {
		q := "limit=100"
		if cursor != "" {
			q += "&cursor=" + url.QueryEscape(cursor)
		}
		p := browse(q)
		for _, r := range p.Rows {
			if seen[r.ID] {
				t.Fatalf("row %s read twice", r.ID)
			}
			seen[r.ID] = true
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if len(seen) != 1800 {
		t.Errorf("walked %d of 1800 rows", len(seen))
	}
	// by title, letter case and padding aside
	if p := browse("title=" + url.QueryEscape("college aide") + "&limit=1"); p.Total != 148 { // grep -c ",COLLEGE AIDE  " on the sample file
		t.Errorf("college aides: %d", p.Total)
	}

	res, body = get(t, e, "/api/payroll/payroll:nope")
	var eb errorBody
	if res.StatusCode != http.StatusNotFound || json.Unmarshal(body, &eb) != nil || eb.Error.Code != record.ENOTFOUND {
		t.Errorf("unknown row: %d %s", res.StatusCode, body)
	}
	for _, q := range []string{"limit=101", "fiscal_year=16", "nope=1", "cursor=garbage", "name=" + url.QueryEscape("--")} {
		res, body = get(t, e, "/api/payroll?"+q)
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", q, res.StatusCode, body)
		}
	}
}
