package api

import (
	"net/http"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// /property-locations for a browser is a page whose map draws exactly the
// placements of its JSON twin: each borough and district with the number
// of notices placed in it, each located lot, and how many notices are
// placed nowhere; a client not asking for HTML first, or asking
// format=json, still gets the JSON.
func TestPropertyMapMatchesItsJSONTwin(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, b := getPage(t, e, "/property-locations")
	page := string(b)
	if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(res.Header.Get("Vary"), "Accept") {
		t.Fatalf("%d %s vary %q", res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Vary"))
	}
	marks := figure(t, page, "property-map")
	var pl PropertyLocations
	getJSON(t, e, "/property-locations", &pl)
	want := map[string]int{}
	lots, nowhere := 0, 0
	for _, r := range pl.Records {
		seen := map[string]bool{}
		placed := false
		for _, l := range r.Locations {
			switch l.Kind {
			case "district", "borough":
				placed = true
				if !seen[l.Area] {
					want[l.Area]++
					seen[l.Area] = true
				}
			case "lot":
				placed = true
				lots++
			}
		}
		if !placed {
			nowhere++
		}
	}
	got := map[string]int{}
	drawnLots := 0
	for _, m := range marks {
		if m["area"] != "" {
			got[m["area"]], _ = strconv.Atoi(m["count"])
		} else if m["lat"] != "" {
			drawnLots++
		}
	}
	if len(want) == 0 || len(got) != len(want) {
		t.Errorf("areas drawn %v, twin %v", got, want)
	}
	for a, n := range want {
		if got[a] != n {
			t.Errorf("%s: %d drawn, %d in the twin", a, got[a], n)
		}
	}
	if drawnLots > lots {
		t.Errorf("%d lots drawn, %d located in the twin", drawnLots, lots)
	}
	counts := regexp.MustCompile(`data-notices="(\d+)" data-placed="(\d+)" data-nowhere="(\d+)"`).FindStringSubmatch(page)
	if counts == nil || counts[1] != strconv.Itoa(len(pl.Records)) || counts[3] != strconv.Itoa(nowhere) || nowhere == 0 {
		t.Errorf("the page states %v; the twin has %d notices, %d placed nowhere", counts, len(pl.Records), nowhere)
	}
	if !strings.Contains(page, `data-why="prop.why.nobbl" data-count="`+strconv.Itoa(nowhere)+`"`) {
		t.Error("the page does not say why the notices placed nowhere are")
	}
	var names []string
	for a := range want {
		names = append(names, a)
	}
	sort.Strings(names)
	for _, a := range names {
		if !strings.Contains(page, `<tr data-area="`+a+`">`) {
			t.Errorf("the table beside the map lacks %s", a)
		}
	}
	for _, accept := range []string{"", "application/json", "*/*"} {
		res, b := get(t, e, "/property-locations", "Accept", accept)
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || b[0] != '{' {
			t.Errorf("Accept %q: %d %s", accept, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
	if res, _ := getPage(t, e, "/property-locations?format=json"); !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Errorf("format=json asked by a browser: %s", res.Header.Get("Content-Type"))
	}
	if _, b := getPage(t, e, "/property-locations?lang=es"); !strings.Contains(string(b), "Disposiciones de propiedades en el mapa") {
		t.Error("the Spanish page")
	}
}
