package api

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/paulmach/orb"
	"github.com/paulmach/orb/geojson"

	"github.com/recordwatch/recordwatch/internal/land"
)

// /property-locations places every bundled disposition (lot, district,
// borough or none, each with its evidence), and format=geojson is an RFC
// 7946 FeatureCollection that a third-party reader (paulmach/orb's
// geojson) reads whole.
func TestPropertyLocationsGeoJSON(t *testing.T) {
	e := newEntityEnv(t, Config{})
	res, b := get(t, e, "/property-locations")
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, b)
	}
	out := decode[PropertyLocations](t, b)
	kinds := map[string]int{}
	thirdParty := 0
	for _, r := range out.Records {
		if len(r.Locations) == 0 {
			t.Fatalf("%s: no location", r.RequestID)
		}
		thirdParty += len(r.BBLsFromThirdParty)
		for _, l := range r.Locations {
			kinds[l.Kind]++
			switch l.Kind {
			case land.LocationLot, land.LocationDistrict, land.LocationBorough:
				if l.Evidence == "" || l.Source == "" {
					t.Errorf("%s %s: placed at %s without evidence or source: %+v", r.RequestID, l.BBL, l.Kind, l)
				}
				if l.Kind != land.LocationLot && l.Reason == "" {
					t.Errorf("%s %s: an outline without the reason it is not a lot", r.RequestID, l.BBL)
				}
			case land.LocationNone:
				if l.Reason == "" {
					t.Errorf("%s: placed nowhere without a reason", r.RequestID)
				}
			default:
				t.Errorf("kind %q", l.Kind)
			}
			if l.BBL != "" && l.Kind != land.LocationLot && l.Kind != land.LocationNone && l.Borough != land.BoroughOfBBL(l.BBL) {
				t.Errorf("%s: BBL %s placed in %s", r.RequestID, l.BBL, l.Borough)
			}
		}
	}
	// 116 notices carry 343 BBLs parsed by cityscroll; none of them is a
	// lot of the held centroid files, so each is placed at its district
	// (on evidence) or its borough.
	if thirdParty < 300 || kinds[land.LocationBorough]+kinds[land.LocationDistrict] < thirdParty {
		t.Errorf("third-party BBLs %d, kinds %v", thirdParty, kinds)
	}
	if kinds[land.LocationNone] == 0 {
		t.Errorf("kinds %v: notices with neither a BBL nor one borough are placed nowhere, with the reason", kinds)
	}
	t.Logf("locations by kind: %v (third-party BBLs %d)", kinds, thirdParty)

	res, g := get(t, e, "/property-locations?format=geojson")
	if res.StatusCode != 200 || res.Header.Get("Content-Type") != GeoJSONType {
		t.Fatalf("%d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	fc, err := geojson.UnmarshalFeatureCollection(g)
	if err != nil {
		t.Fatalf("orb/geojson cannot read the answer: %v", err)
	}
	if len(fc.Features) == 0 || fc.ExtraMembers["scope"] == nil {
		t.Fatalf("%d features, foreign members %v", len(fc.Features), fc.ExtraMembers)
	}
	placed := map[string]int{}
	for _, f := range fc.Features {
		kind, _ := f.Properties["kind"].(string)
		placed[kind]++
		if kind == land.LocationNone {
			if f.Geometry != nil {
				t.Errorf("%v: placed nowhere with geometry", f.ID)
			}
			continue
		}
		if f.Geometry == nil {
			t.Fatalf("%v: %s without geometry", f.ID, kind)
		}
		// RFC 7946 §3.1.1: longitude first; New York is near (-74, 40.7)
		b := f.Geometry.Bound()
		if b.Min[0] < -74.3 || b.Max[0] > -73.6 || b.Min[1] < 40.4 || b.Max[1] > 41.0 {
			t.Errorf("%v: bounds %v are not New York's in lon/lat order", f.ID, b)
		}
		switch f.Geometry.(type) {
		case orb.Point, orb.Polygon, orb.MultiPolygon:
		default:
			t.Errorf("%v: geometry %s", f.ID, f.Geometry.GeoJSONType())
		}
		if kind == land.LocationDistrict || kind == land.LocationBorough {
			if n, _ := f.Properties["count"].(float64); n < 1 {
				t.Errorf("%v: an outline with no notice", f.ID)
			}
		}
	}
	if placed[land.LocationBorough] == 0 || placed[land.LocationBorough] > 5 || placed[land.LocationNone] != kinds[land.LocationNone] {
		t.Errorf("features by kind %v (locations %v): one feature per outline, one per notice placed nowhere", placed, kinds)
	}
	// every notice of the JSON answer is in the GeoJSON answer
	var raw struct {
		Features []struct {
			Properties json.RawMessage `json:"properties"`
		} `json:"features"`
	}
	if err := json.Unmarshal(g, &raw); err != nil {
		t.Fatal(err)
	}
	all := ""
	for _, f := range raw.Features {
		all += string(f.Properties)
	}
	for _, r := range out.Records {
		if !strings.Contains(all, `"request_id":"`+r.RequestID+`"`) {
			t.Errorf("%s is not in the GeoJSON answer", r.RequestID)
		}
	}
	if res, b := get(t, e, "/property-locations?format=kml"); res.StatusCode != 400 || !strings.Contains(string(b), "geojson") {
		t.Errorf("format=kml: %d %s", res.StatusCode, b)
	}
}
