package api

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestLandFeedCarriesProjectMilestones: the land lens feed carries the
// land projects' states (stage, milestone, decisions) beside land-use
// notices, and a notice linked to a listed project is not listed again.
func TestLandFeedCarriesProjectMilestones(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, body := get(t, e, "/feed.json?lens=land")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	var doc struct {
		Items []struct {
			ID    string          `json:"id"`
			Title string          `json:"title"`
			Ext   json.RawMessage `json:"_recordwatch"`
		} `json:"items"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	projects, linked := 0, map[string]bool{}
	for _, it := range doc.Items {
		if !strings.HasPrefix(it.Title, "Land project ") {
			continue
		}
		projects++
		var li struct {
			Stage   string   `json:"stage"`
			Notices []string `json:"notices"`
		}
		if json.Unmarshal(it.Ext, &li) == nil {
			for _, rid := range li.Notices {
				linked[rid] = true
			}
		}
	}
	if projects == 0 {
		t.Fatalf("the land feed carries no land project:\n%.2000s", body)
	}
	for _, it := range doc.Items {
		for rid := range linked {
			if strings.HasSuffix(it.ID, "notice/"+rid) {
				t.Errorf("notice %s is listed beside its project", rid)
			}
		}
	}
	if res, body := get(t, e, "/feed.ics?lens=land"); res.StatusCode != 200 || !strings.Contains(string(body), "BEGIN:VCALENDAR") {
		t.Errorf("land calendar: %d", res.StatusCode)
	}
	for path, param := range map[string]string{"/feed.json?lens=land&stage=lottery": "stage", "/feed.json?lens=money&procedure=ulurp": "procedure",
		"/feed.json?lens=land&community_district=Z99": "community_district", "/feed.json?lens=land&borough=Atlantis": "borough"} {
		if res, body := get(t, e, path); res.StatusCode != 400 || !strings.Contains(string(body), `"param":"`+param+`"`) {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
	res, body = get(t, e, "/feed.json?lens=land&borough=bronx&procedure=ULURP")
	if res.StatusCode != 200 {
		t.Fatalf("filtered land feed: %d %s", res.StatusCode, body)
	}
	doc.Items = nil
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for _, it := range doc.Items {
		if !strings.HasPrefix(it.Title, "Land project ") {
			continue
		}
		var li struct {
			Boroughs []string `json:"boroughs"`
		}
		if json.Unmarshal(it.Ext, &li) != nil || !slices.ContainsFunc(li.Boroughs, func(b string) bool { return strings.EqualFold(b, "bronx") }) {
			t.Errorf("a project outside the Bronx in the Bronx land feed: %s %v", it.Title, li.Boroughs)
		}
	}
}
