package mcp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/view"
)

// An agency short form typed as a keyword ("DCAS") is offered as the agency
// filter by the one rule (entity.AgencyShortForms through
// view.AgencySuggestions), the same on the JSON search and search_notices;
// the offered search finds the agency's notices; a search that already
// filters by agency is offered nothing.
func TestAgencyShortFormOfferedAsFilterOnEverySurface(t *testing.T) {
	getJSON := func(url string, v any) {
		t.Helper()
		res, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", url, res.StatusCode, b)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	type searchJSON struct {
		Total int `json:"total"`
		Hits  []struct {
			AgencyID string `json:"agency_id"`
		} `json:"hits"`
		SuggestedFilters []view.FilterSuggestion `json:"suggested_filters"`
	}
	var api searchJSON
	getJSON(fx.urls[1]+"/api/search?q=DCAS+vehicles", &api)
	if len(api.SuggestedFilters) != 1 || !slices.Equal(api.SuggestedFilters[0].Values, []string{"citywide-administrative-services"}) || api.SuggestedFilters[0].Param != "agency" {
		t.Fatalf("API suggested_filters = %+v", api.SuggestedFilters)
	}
	// the short form alone as a keyword finds the notices that print it;
	// the offered search (the filter, the keyword taken out) finds more
	var alone searchJSON
	getJSON(fx.urls[1]+"/api/search?q=DCAS", &alone)
	if len(alone.SuggestedFilters) != 1 || strings.Contains(alone.SuggestedFilters[0].Search, "q=") {
		t.Fatalf("q=DCAS: suggested_filters = %+v, want the filter without the keyword", alone.SuggestedFilters)
	}
	var followed searchJSON
	getJSON(strings.Replace(alone.SuggestedFilters[0].Search, "http://rw.test", fx.urls[1], 1), &followed)
	if followed.Total <= alone.Total {
		t.Errorf("the agency filter finds %d notices, the keyword %d: the filter should find more", followed.Total, alone.Total)
	}
	for _, h := range followed.Hits {
		if h.AgencyID != "citywide-administrative-services" {
			t.Errorf("followed search holds a notice of %q", h.AgencyID)
		}
	}

	s := connect(t, 1)
	out := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "DCAS vehicles"}))
	if len(out.SuggestedFilters) != 1 || !slices.Equal(out.SuggestedFilters[0].Values, api.SuggestedFilters[0].Values) {
		t.Errorf("search_notices suggested_filters = %+v, want the API's %+v", out.SuggestedFilters, api.SuggestedFilters)
	}

	var filtered searchJSON
	getJSON(fx.urls[1]+"/api/search?q=DCAS&agency=citywide-administrative-services", &filtered)
	withAgency := structured[mcp.SearchOut](t, call(t, s, "search_notices", map[string]any{"q": "DCAS", "agency": "citywide-administrative-services"}))
	if len(filtered.SuggestedFilters) != 0 || len(withAgency.SuggestedFilters) != 0 {
		t.Errorf("a search filtered by agency is offered %+v / %+v", filtered.SuggestedFilters, withAgency.SuggestedFilters)
	}
}
