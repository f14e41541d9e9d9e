package api

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
)

// mapEngines are the engines the map tests run on: the embedded one, and
// OpenSearch too when OPENSEARCH_URL is set.
func mapEngines(t *testing.T) []string {
	if os.Getenv("OPENSEARCH_URL") != "" {
		return []string{"embedded", "opensearch"}
	}
	t.Log("OPENSEARCH_URL is not set: the map tests run on the embedded engine only")
	return []string{"embedded"}
}

// mapEngine holds the full bundled sample (sampleEngine).
func mapEngine(t *testing.T, kind string) search.Engine {
	return sampleEngine(t, kind, sampletest.Full, "rwmap")
}

// mapServer is a server over an engine holding the full sample; with
// live, the MapPLUTO job has run first against a replay of the fixture
// (testdata/mappluto), as the indexer runs it.
func mapServer(t *testing.T, engine string, live bool) (*httptest.Server, search.Engine) {
	t.Helper()
	be := mapEngine(t, engine)
	if live {
		replay, err := sampletest.NewPLUTOReplay("../testdata/mappluto/64uk-42ks_replay_rows.json")
		if err != nil {
			t.Fatal(err)
		}
		pluto := httptest.NewServer(replay)
		t.Cleanup(pluto.Close)
		client := fetch.New()
		client.MaxRetries = -1
		ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }, Logger: quietLog}
		src, err := indexer.LookupSource("mappluto")
		if err != nil {
			t.Fatal(err)
		}
		if rep, err := ix.RunLive(context.Background(), src.(indexer.LiveSource), indexer.LiveConfig{Client: client, PLUTOEndpoint: pluto.URL}); err != nil || rep.Indexed == 0 {
			t.Fatalf("MapPLUTO job: %+v %v", rep, err)
		}
		if err := be.Refresh(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.OpenBolt(t.TempDir() + "/state.db")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var handler http.Handler
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	cfg := Config{Form: 1, BaseURL: ts.URL, RatePerSecond: 1e6, Burst: 1e6}
	handler = New(cfg, withServices(cfg, Deps{Search: be, Store: st, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }, Logger: quietLog}))
	return ts, be
}

func getOK(t *testing.T, url string, hdr ...string) string {
	t.Helper()
	res, body := httpDo(t, "GET", url, "", "", hdr...)
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d %s", url, res.StatusCode, body)
	}
	return body
}

// On the bundled sample (no live MapPLUTO run), no property notice is
// placed at its lot and each BBL says why: MapPLUTO not fetched. The land
// list still places its projects at their lots from the bundled real
// centroids and ZAP outline, each mark a link to the project.
func TestLotsOnTheMapWithoutMapPLUTO(t *testing.T) {
	for _, engine := range mapEngines(t) {
		t.Run(engine, func(t *testing.T) { lotsWithoutMapPLUTO(t, engine) })
	}
}

func lotsWithoutMapPLUTO(t *testing.T, engine string) {
	ts, _ := mapServer(t, engine, false)
	var out PropertyLocations
	if err := json.Unmarshal([]byte(getOK(t, ts.URL+"/property-locations?format=json")), &out); err != nil {
		t.Fatal(err)
	}
	unlocated := 0
	for _, r := range out.Records {
		for _, l := range r.Locations {
			if l.Kind == land.LocationLot {
				t.Errorf("%s placed at lot %s without MapPLUTO: %+v", r.RequestID, l.BBL, l)
			}
		}
		for _, u := range r.UnlocatedWhy {
			unlocated++
			if !strings.HasPrefix(u.Reason, land.LotNotFetched+"; ") || !u.AskedAt.IsZero() {
				t.Errorf("%s BBL %s: reason %q", r.RequestID, u.BBL, u.Reason)
			}
		}
	}
	if unlocated == 0 {
		t.Fatal("no BBL listed unlocated")
	}
	validateGeoJSON(t, []byte(getOK(t, ts.URL+"/property-locations?format=geojson")))
	checkLandListMap(t, ts)
}

// With the MapPLUTO fixture: the notices whose BBLs MapPLUTO answers are
// placed at their lot (method and confidence, the point), in the JSON,
// the GeoJSON (which validates) and on the page, where each mark links to
// its notice; the BBLs it does not answer are listed with "not in
// MapPLUTO" and when it was asked. The land list places its projects.
func TestLotsOnTheMapWithMapPLUTO(t *testing.T) {
	for _, engine := range mapEngines(t) {
		t.Run(engine, func(t *testing.T) { lotsWithMapPLUTO(t, engine) })
	}
}

func lotsWithMapPLUTO(t *testing.T, engine string) {
	ts, _ := mapServer(t, engine, true)
	var out PropertyLocations
	if err := json.Unmarshal([]byte(getOK(t, ts.URL+"/property-locations?format=json")), &out); err != nil {
		t.Fatal(err)
	}
	fixture := map[string]bool{"1006440001": true, "5006840261": true, "1000730008": true, "2029450065": true, "3070600001": true, "3009400016": true, "4158530040": true}
	placed := map[string]string{}
	notIn := 0
	for _, r := range out.Records {
		for _, l := range r.Locations {
			if l.Kind != land.LocationLot {
				continue
			}
			placed[l.BBL] = r.RequestID
			if !fixture[l.BBL] || l.Method != land.LotMethodCentroid || l.Confidence != "high" || l.Point == nil || l.Source != "mappluto" {
				t.Errorf("%s placed at lot %+v", r.RequestID, l)
			}
		}
		for _, u := range r.UnlocatedWhy {
			if fixture[u.BBL] {
				t.Errorf("%s: fixture BBL %s unlocated: %q", r.RequestID, u.BBL, u.Reason)
			}
			if u.Reason == land.LotNotInPLUTO && !u.AskedAt.IsZero() {
				notIn++
			} else {
				t.Errorf("%s BBL %s: reason %q asked %v, want %q", r.RequestID, u.BBL, u.Reason, u.AskedAt, land.LotNotInPLUTO)
			}
		}
	}
	if len(placed) != len(fixture) || notIn == 0 {
		t.Errorf("placed at lot level %v (want the fixture's %d BBLs); %d not in MapPLUTO", placed, len(fixture), notIn)
	}
	fc := validateGeoJSON(t, []byte(getOK(t, ts.URL+"/property-locations?format=geojson")))
	lots := 0
	for _, f := range fc.Features {
		if f.Properties["kind"] == land.LocationLot {
			lots++
			if f.Properties["method"] != land.LotMethodCentroid || f.Properties["confidence"] != "high" || !strings.Contains(fmt.Sprint(f.Properties["url"]), "#notice/") {
				t.Errorf("lot feature %s: %v", f.ID, f.Properties)
			}
		}
	}
	if lots < len(fixture) {
		t.Errorf("%d lot features, want at least %d", lots, len(fixture))
	}
	page := getOK(t, ts.URL+"/property-locations", "Accept", "text/html")
	for bbl, id := range placed {
		if !regexp.MustCompile(`<a href="[^"]*#notice/` + id + `" class="mark" data-mark="` + bbl + `"`).MatchString(page) {
			t.Errorf("no map mark of BBL %s linking to notice %s", bbl, id)
		}
	}
	if !strings.Contains(page, "data-unlocated") || !strings.Contains(page, land.LotNotInPLUTO) {
		t.Error("the page does not list the lots not placed with the reason")
	}
	es := getOK(t, ts.URL+"/property-locations?lang=es", "Accept", "text/html")
	if !regexp.MustCompile(`<a href="[^"#]*lang=es#notice/\d+" class="mark"`).MatchString(es) || !strings.Contains(es, "no está en MapPLUTO") {
		t.Error("the Spanish page's marks do not keep the language, or the reason is not in Spanish")
	}
	checkLandListMap(t, ts)
}

// checkLandListMap: the land list places its projects at their lots (the
// JSON twin's lot_places, the page's marks linking to each project).
func checkLandListMap(t *testing.T, ts *httptest.Server) {
	t.Helper()
	var page struct {
		Projects []struct {
			ID        string          `json:"id"`
			LotPlaces []land.LotPlace `json:"lot_places"`
		} `json:"projects"`
	}
	if err := json.Unmarshal([]byte(getOK(t, ts.URL+"/api/land-projects?limit=100")), &page); err != nil {
		t.Fatal(err)
	}
	placed := map[string]bool{}
	outline := false
	for _, p := range page.Projects {
		for _, l := range p.LotPlaces {
			switch {
			case l.Kind == land.LocationLot && l.Point != nil && l.Method != "" && l.Confidence != "":
				placed[p.ID] = true
				outline = outline || l.Shape == land.ShapeOutline
			case l.Kind == land.LocationNone && l.Reason != "":
			default:
				t.Errorf("%s lot %+v", p.ID, l)
			}
		}
	}
	if len(placed) == 0 || !placed["2024Q0292"] || !outline {
		t.Fatalf("land projects placed at lot level: %v (2024Q0292 by its outline: %v)", placed, outline)
	}
	html := getOK(t, ts.URL+"/land-projects?limit=100", "Accept", "text/html")
	for id := range placed {
		if !strings.Contains(html, `<a href="/land-projects/`+id+`" class="mark"`) {
			t.Errorf("the land list's map has no mark linking to %s", id)
		}
	}
	if !strings.Contains(html, `class="lotshape"`) {
		t.Error("the land list's map draws no lot outline")
	}
	// a project's own page and its JSON twin place its lots by the same
	// rule: the lots the list places are drawn on the project's map, and
	// one placed at its project's outline (no centroid of its own) is
	// listed with how it is placed
	lists := map[string][]land.LotPlace{}
	for _, p := range page.Projects {
		for _, l := range p.LotPlaces {
			if l.Kind == land.LocationLot {
				lists[p.ID] = append(lists[p.ID], l)
			}
		}
	}
	for id, list := range lists {
		var v LandProjectView
		if err := json.Unmarshal([]byte(getOK(t, ts.URL+"/api/land-projects/"+id)), &v); err != nil {
			t.Fatal(err)
		}
		got := map[string]land.LotPlace{}
		for _, l := range v.LotPlaces {
			got[l.BBL] = l
		}
		for _, l := range list {
			if g := got[l.BBL]; g.Kind != l.Kind || (g.Point == nil) != (l.Point == nil) || g.Method != l.Method {
				t.Errorf("%s lot %s: the project places it %+v, the list %+v", id, l.BBL, g, l)
			}
		}
		page := getOK(t, ts.URL+"/land-projects/"+id, "Accept", "text/html")
		if !strings.Contains(page, `data-chart="project-map"`) || !strings.Contains(page, `href="`+ts.URL+`/land-projects?bbl=`) {
			t.Errorf("%s: the project's map draws none of its placed lots", id)
		}
	}
	p := getOK(t, ts.URL+"/land-projects/2024Q0292", "Accept", "text/html")
	if !strings.Contains(p, `class="lotshape"`) || !strings.Contains(p, strings.ReplaceAll(land.LotMethodProject, "'", "&#39;")+": ") {
		t.Error("2024Q0292's page does not draw its lots' outline or list a lot placed by it")
	}
}

// geoFC is a FeatureCollection as validateGeoJSON reads it.
type geoFC struct {
	Features []struct {
		ID         string         `json:"id"`
		Properties map[string]any `json:"properties"`
	}
}

// validateGeoJSON checks an RFC 7946 FeatureCollection strictly: its
// members and types (§3.1-3.3), every geometry's type and coordinates
// (positions of two or three numbers, longitude first and in New York
// City; LinearRings closed with four positions or more, exterior rings
// counterclockwise and holes clockwise, §3.1.6), feature ids strings,
// unique.
func validateGeoJSON(t *testing.T, body []byte) geoFC {
	t.Helper()
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("not a JSON object: %v", err)
	}
	var typ string
	if json.Unmarshal(doc["type"], &typ) != nil || typ != "FeatureCollection" {
		t.Fatalf("type %s, want FeatureCollection", doc["type"])
	}
	var feats []map[string]json.RawMessage
	if err := json.Unmarshal(doc["features"], &feats); err != nil || feats == nil {
		t.Fatalf("features is not an array: %v", err)
	}
	if _, ok := doc["coordinates"]; ok {
		t.Error("a FeatureCollection has no coordinates member")
	}
	ids := map[string]bool{}
	for i, f := range feats {
		where := fmt.Sprintf("feature %d", i)
		var ft string
		if json.Unmarshal(f["type"], &ft) != nil || ft != "Feature" {
			t.Errorf("%s: type %s", where, f["type"])
		}
		var id string
		if err := json.Unmarshal(f["id"], &id); err != nil || id == "" || ids[id] {
			t.Errorf("%s: id %s is not a unique string", where, f["id"])
		}
		ids[id] = true
		g, ok := f["geometry"]
		if !ok {
			t.Errorf("%s (%s): no geometry member (null when unlocated)", where, id)
		}
		if p, ok := f["properties"]; !ok || !(string(p) == "null" || strings.HasPrefix(strings.TrimSpace(string(p)), "{")) {
			t.Errorf("%s (%s): properties must be an object or null", where, id)
		}
		if string(g) != "null" {
			if err := checkGeometry(g); err != nil {
				t.Errorf("%s (%s): %v", where, id, err)
			}
		}
	}
	var fc geoFC
	if err := json.Unmarshal(body, &fc); err != nil {
		t.Fatal(err)
	}
	return fc
}

func checkGeometry(raw json.RawMessage) error {
	var g struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	}
	if err := json.Unmarshal(raw, &g); err != nil {
		return err
	}
	switch g.Type {
	case "Point":
		var p []float64
		if err := json.Unmarshal(g.Coordinates, &p); err != nil {
			return err
		}
		return checkPosition(p)
	case "Polygon":
		var rings [][][]float64
		if err := json.Unmarshal(g.Coordinates, &rings); err != nil {
			return err
		}
		return checkPolygon(rings)
	case "MultiPolygon":
		var polys [][][][]float64
		if err := json.Unmarshal(g.Coordinates, &polys); err != nil {
			return err
		}
		if len(polys) == 0 {
			return fmt.Errorf("empty MultiPolygon")
		}
		for _, p := range polys {
			if err := checkPolygon(p); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("geometry type %q", g.Type)
}

func checkPosition(p []float64) error {
	if len(p) < 2 || len(p) > 3 {
		return fmt.Errorf("position %v has %d numbers", p, len(p))
	}
	if p[0] < -74.3 || p[0] > -73.6 || p[1] < 40.4 || p[1] > 41 {
		return fmt.Errorf("position %v is not longitude, latitude in New York City", p)
	}
	return nil
}

func checkPolygon(rings [][][]float64) error {
	if len(rings) == 0 {
		return fmt.Errorf("polygon without rings")
	}
	for i, r := range rings {
		if len(r) < 4 {
			return fmt.Errorf("ring %d has %d positions (at least 4)", i, len(r))
		}
		for _, p := range r {
			if err := checkPosition(p); err != nil {
				return err
			}
		}
		first, last := r[0], r[len(r)-1]
		if first[0] != last[0] || first[1] != last[1] {
			return fmt.Errorf("ring %d is not closed", i)
		}
		area := 0.0 // shoelace: positive is counterclockwise
		for j := 0; j+1 < len(r); j++ {
			area += r[j][0]*r[j+1][1] - r[j+1][0]*r[j][1]
		}
		if math.Abs(area) < 1e-14 {
			continue // degenerate: no winding to check
		}
		if (i == 0) != (area > 0) {
			return fmt.Errorf("ring %d winds the wrong way (right-hand rule: exterior counterclockwise, holes clockwise)", i)
		}
	}
	return nil
}
