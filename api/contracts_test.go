package api

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The JSON twins of get_contract and browse_contracts on the bundled
// sample: an exact contract ID, an unknown one in the API's error shape,
// two registrations sharing a PIN as two rows, and a cursor walk that
// reads every match once.
func TestContractsJSON(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/api/contracts/CT100220268808241")
	var one ContractView
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &one) != nil {
		t.Fatalf("GET contract: %d %s", res.StatusCode, body)
	}
	if one.Status != "found" || one.Contract.ContractID != "CT100220268808241" || one.Contract.FiscalYear != 2026 || !one.Contract.AmountValid || one.Measure == "" {
		t.Errorf("contract %s", body)
	}

	res, body = get(t, e, "/api/contracts/CT0000000000000000")
	var eb errorBody
	if res.StatusCode != http.StatusNotFound || json.Unmarshal(body, &eb) != nil || eb.Error.Code != record.ENOTFOUND {
		t.Errorf("unknown contract: %d %s", res.StatusCode, body)
	}

	res, body = get(t, e, "/api/contracts?pin=84623P0002007R001")
	var page struct {
		Contracts []struct {
			ID         string `json:"id"`
			ContractID string `json:"contract_id"`
		} `json:"contracts"`
		Total      int    `json:"total"`
		NextCursor string `json:"next_cursor"`
		Totals     struct {
			Count   int    `json:"count"`
			Measure string `json:"measure"`
		} `json:"totals"`
		Scope struct {
			Matched int `json:"matched"`
		} `json:"scope"`
	}
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil || page.Total != 2 || len(page.Contracts) != 2 ||
		page.Contracts[0].ContractID == page.Contracts[1].ContractID || page.Totals.Count != 2 || page.Scope.Matched != 2 {
		t.Errorf("shared PIN: %d %s", res.StatusCode, body)
	}

	seen := map[string]bool{}
	total, cursor := -1, ""
	for range 100 {
		path := "/api/contracts?fiscal_year=2026&limit=100"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		res, body = get(t, e, path)
		page.NextCursor = ""
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &page) != nil {
			t.Fatalf("walk: %d %s", res.StatusCode, body)
		}
		total = page.Total
		for _, c := range page.Contracts {
			if seen[c.ID] {
				t.Fatalf("row %s read twice", c.ID)
			}
			seen[c.ID] = true
		}
		if cursor = page.NextCursor; cursor == "" {
			break
		}
	}
	if total <= 100 || len(seen) != total {
		t.Errorf("walked %d rows of %d", len(seen), total)
	}

	for _, path := range []string{"/api/contracts?limit=101", "/api/contracts?fiscal_year=26", "/api/contracts?nope=1", "/api/contracts?cursor=garbage"} {
		if res, body := get(t, e, path); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
}
