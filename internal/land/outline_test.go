package land

import (
	"encoding/json"
	"strings"
	"testing"
)

// The bundled outlines: 5 boroughs and 59 community districts (the 12
// joint-interest areas are not districts), each a polygon that holds a
// point known to lie in it.
func TestOutlinesBundled(t *testing.T) {
	s, err := outlines()
	if err != nil {
		t.Fatal(err)
	}
	if len(s.boroughs) != 5 || len(s.districts) != 59 {
		t.Fatalf("%d boroughs, %d districts; want 5 and 59", len(s.boroughs), len(s.districts))
	}
	// 1000380001 (MapPLUTO centroid 40.7052441, -74.0067554) is in the
	// Financial District: Manhattan CB 1; Prospect Park's east side is in
	// Brooklyn CB 9 and not in CB 1.
	for _, c := range []struct {
		cd       string
		lon, lat float64
		in       bool
	}{
		{"M01", -74.0067554, 40.7052441, true},
		{"M02", -74.0067554, 40.7052441, false},
		{"K09", -73.9530, 40.6630, true},
		{"K01", -73.9530, 40.6630, false},
	} {
		o, ok := DistrictOutline(c.cd)
		if !ok {
			t.Fatalf("no outline for %s", c.cd)
		}
		if got := polygonHolds(t, o.Geometry, c.lon, c.lat); got != c.in {
			t.Errorf("%s (%s) holds (%v, %v): %v, want %v", c.cd, o.Name, c.lon, c.lat, got, c.in)
		}
	}
	if o, ok := BoroughOutline("Staten Island"); !ok || !polygonHolds(t, o.Geometry, -74.15, 40.58) {
		t.Error("Staten Island's outline does not hold a point of the island")
	}
}

// polygonHolds is an even-odd point-in-polygon test over a Polygon or
// MultiPolygon (test only).
func polygonHolds(t *testing.T, geom json.RawMessage, x, y float64) bool {
	var g struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	}
	if err := json.Unmarshal(geom, &g); err != nil {
		t.Fatal(err)
	}
	var polys [][][][2]float64
	switch g.Type {
	case "Polygon":
		var p [][][2]float64
		if err := json.Unmarshal(g.Coordinates, &p); err != nil {
			t.Fatal(err)
		}
		polys = append(polys, p)
	case "MultiPolygon":
		if err := json.Unmarshal(g.Coordinates, &polys); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("geometry type %s", g.Type)
	}
	in := false
	for _, p := range polys {
		for _, ring := range p {
			for i, j := 0, len(ring)-1; i < len(ring); j, i = i, i+1 {
				a, b := ring[i], ring[j]
				if (a[1] > y) != (b[1] > y) && x < (b[0]-a[0])*(y-a[1])/(b[1]-a[1])+a[0] {
					in = !in
				}
			}
		}
	}
	return in
}

func TestPlaceFinestEvidence(t *testing.T) {
	lot := PlaceEvidence{BBL: "1000380001", LotOK: true, LotGeometry: json.RawMessage(`{"type":"Point","coordinates":[-74.0067554,40.7052441]}`), LotSource: "mappluto", LotNote: "the lot's centroid"}.Place()
	if lot.Kind != LocationLot || lot.Borough != "Manhattan" || lot.Area != "" {
		t.Fatalf("lot = %+v", lot)
	}
	d := PlaceEvidence{BBL: "3021070015", WhyNoLot: "no centroid", District: "K02", DistrictEvidence: "land project X holds the lot"}.Place()
	if d.Kind != LocationDistrict || d.Area != "Brooklyn CB 2" || d.CommunityDistrict != "K02" || d.Evidence != "land project X holds the lot" || len(d.Geometry) == 0 {
		t.Fatalf("district = %+v", d)
	}
	// a district in another borough than the BBL's is not believed
	b := PlaceEvidence{BBL: "3021070015", WhyNoLot: "no centroid", District: "M02", DistrictEvidence: "?"}.Place()
	if b.Kind != LocationBorough || b.Area != "Brooklyn" || !strings.Contains(b.Evidence, "borough digit") || !strings.Contains(b.Reason, "no centroid; no community district") {
		t.Fatalf("borough = %+v", b)
	}
	if n := (PlaceEvidence{Borough: "Queens", BoroughEvidence: "the notice names Queens only"}).Place(); n.Kind != LocationBorough || n.Area != "Queens" {
		t.Fatalf("named borough = %+v", n)
	}
	if n := (PlaceEvidence{BBL: "9000010001"}).Place(); n.Kind != LocationNone || !strings.Contains(n.Reason, "first digit") || n.Geometry != nil {
		t.Fatalf("bad BBL = %+v", n)
	}
	if n := (PlaceEvidence{}).Place(); n.Kind != LocationNone || n.Reason == "" {
		t.Fatalf("nothing = %+v", n)
	}
}

func TestDistrictNamed(t *testing.T) {
	for text, want := range map[string]int{
		"within Manhattan Community Board No. 3 and the site":                3,
		"Community District 12, Borough of Brooklyn":                         12,
		"Community Board 3 ... community board no. 3":                        3,
		"Community Board 3 and Community Board 4":                            0,
		"the Board of Standards and Appeals":                                 0,
		"Community Board #11":                                                11,
		"Community Board Office, 3 Court Square, Community Board No. 2 area": 2,
	} {
		if got := DistrictNamed(text); got != want {
			t.Errorf("DistrictNamed(%q) = %d, want %d", text, got, want)
		}
	}
	if DistrictOf("Brooklyn", 18) != "K18" || DistrictOf("Brooklyn", 19) != "" || DistrictOf("Gotham", 1) != "" {
		t.Error("DistrictOf")
	}
}
