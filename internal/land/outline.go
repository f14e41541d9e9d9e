package land

import (
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Borough and community-district outlines, bundled (outlines/*.json):
// NYC Department of City Planning boundaries (Open Data gthc-hcne and
// 5crt-au7u) as simplified with mapshaper by joshgreenman1973/
// nyc-district-boundaries (2026); provenance in
// shared/data/real/geometry/PROVENANCE.md. Longitude first (RFC 7946).
//
//go:embed outlines/*.json
var outlineFiles embed.FS

// OutlineSourceLabel names the outlines where a location uses one.
const OutlineSourceLabel = "NYC Dept. of City Planning borough (gthc-hcne) and community district (5crt-au7u) boundaries, simplified (joshgreenman1973/nyc-district-boundaries, 2026)"

// Kinds of location, finest first: a property is placed at its lot (a
// held lot centroid or lot geometry), else at its community district's
// outline (only on evidence: a held land project holding the lot, or the
// notice naming one district), else at its borough's outline (the BBL's
// first digit, or the one borough the notice names); none says why.
const (
	LocationLot      = "lot"
	LocationDistrict = "district"
	LocationBorough  = "borough"
	LocationNone     = "none"
)

// Outline is one borough or community district boundary.
type Outline struct {
	// Name is the outline's own label ("Brooklyn", "Brooklyn CB 3").
	Name string
	// District is the community district ("K03") of a district outline.
	District string
	Borough  string
	Geometry json.RawMessage
}

var outlines = sync.OnceValues(loadOutlines)

type outlineSet struct {
	boroughs  map[string]Outline
	districts map[string]Outline
}

// loadOutlines reads the bundled outlines (a FeatureCollection per file,
// property "nm"); joint-interest areas (parks, airports) are not
// districts and are left out.
func loadOutlines() (outlineSet, error) {
	set := outlineSet{boroughs: map[string]Outline{}, districts: map[string]Outline{}}
	for _, f := range []string{"outlines/borough.json", "outlines/community_district.json"} {
		data, err := outlineFiles.ReadFile(f)
		if err != nil {
			return set, err
		}
		var fc struct {
			Type     string `json:"type"`
			Features []struct {
				Properties struct {
					Name string `json:"nm"`
				} `json:"properties"`
				Geometry json.RawMessage `json:"geometry"`
			} `json:"features"`
		}
		if err := json.Unmarshal(data, &fc); err != nil || fc.Type != "FeatureCollection" {
			return set, fmt.Errorf("land: outlines %s: not a FeatureCollection: %v", f, err)
		}
		for _, ft := range fc.Features {
			name := strings.TrimSpace(ft.Properties.Name)
			if strings.HasSuffix(f, "borough.json") {
				set.boroughs[name] = Outline{Name: name, Borough: name, Geometry: ft.Geometry}
				continue
			}
			boro, num, ok := strings.Cut(name, " CB ")
			n, err := strconv.Atoi(num)
			code := cdLetter[boro]
			if !ok || err != nil || code == "" {
				continue // a joint-interest area
			}
			cd := fmt.Sprintf("%s%02d", code, n)
			set.districts[cd] = Outline{Name: name, District: cd, Borough: boro, Geometry: ft.Geometry}
		}
	}
	return set, nil
}

var cdLetter = map[string]string{"Manhattan": "M", "Bronx": "X", "Brooklyn": "K", "Queens": "Q", "Staten Island": "R"}

// BoroughOutline is the outline of a borough by name.
func BoroughOutline(name string) (Outline, bool) {
	s, err := outlines()
	if err != nil {
		return Outline{}, false
	}
	o, ok := s.boroughs[name]
	return o, ok
}

// DistrictOutline is the outline of a community district ("K03", or any
// spelling CommunityDistrict reads).
func DistrictOutline(cd string) (Outline, bool) {
	s, err := outlines()
	if err != nil {
		return Outline{}, false
	}
	o, ok := s.districts[CommunityDistrict(cd)]
	return o, ok
}

// Location is where a property is placed and how finely.
type Location struct {
	// BBL is the lot placed ("" for a notice without one).
	BBL string `json:"bbl,omitempty"`
	// BBLFrom says who read the BBL: "text" (read here from the notice
	// text) or "cityscroll" (parsed by a third party and carried in the
	// row: shown as theirs).
	BBLFrom string `json:"bbl_from,omitempty"`
	// Kind is lot, district, borough or none.
	Kind string `json:"kind"`
	// Area names the outline (district or borough); empty for a lot.
	Area              string `json:"area,omitempty"`
	CommunityDistrict string `json:"community_district,omitempty"`
	Borough           string `json:"borough,omitempty"`
	// Source labels the geometry's source; Evidence says why the
	// property is placed there; Reason why it is not placed more finely
	// (or, for none, at all).
	Source   string `json:"source,omitempty"`
	Evidence string `json:"evidence,omitempty"`
	Reason   string `json:"reason,omitempty"`
	// Method and Confidence say how a lot is placed at its lot
	// (LotPlacement: "MapPLUTO lot centroid", high); Point is where its
	// mark is drawn (the centroid, or the middle of a project's outline).
	Method     string `json:"method,omitempty"`
	Confidence string `json:"confidence,omitempty"`
	Point      *Point `json:"point,omitempty"`
	// MethodKey is Method as a note (LotMethodNote).
	MethodKey *record.Note `json:"method_key,omitempty"`
	// Geometry is GeoJSON (longitude first); outlines are served only in
	// the GeoJSON answer.
	Geometry json.RawMessage `json:"-"`
}

// PlaceEvidence is what is held to place one property.
type PlaceEvidence struct {
	BBL, BBLFrom string
	// Lot geometry, when a held lot location gives one (LotOK), with its
	// source and a note; WhyNoLot says why none is held.
	LotOK              bool
	LotGeometry        json.RawMessage
	LotSource, LotNote string
	// LotMethod and LotConfidence say how (LotPlacement); LotPoint is
	// where the mark is drawn.
	LotMethod, LotConfidence string
	LotPoint                 *Point
	WhyNoLot                 string
	// District is a community district known for the property, with the
	// evidence for it; Borough (with its evidence) is used when the BBL
	// gives none.
	District, DistrictEvidence string
	Borough, BoroughEvidence   string
}

// Place places a property by the finest evidence held: lot geometry,
// else the community district (on evidence only), else the borough (of
// the BBL, or the one borough named), else none with the reason.
func (e PlaceEvidence) Place() Location {
	loc := Location{BBL: e.BBL, BBLFrom: e.BBLFrom}
	if e.LotOK {
		loc.Kind, loc.Geometry, loc.Source, loc.Evidence = LocationLot, e.LotGeometry, e.LotSource, e.LotNote
		loc.Method, loc.Confidence, loc.Point = e.LotMethod, e.LotConfidence, e.LotPoint
		loc.MethodKey = LotMethodNote(e.LotMethod)
		loc.Borough = BoroughOfBBL(e.BBL)
		return loc
	}
	borough, boroughEvidence := e.Borough, e.BoroughEvidence
	if b := BoroughOfBBL(e.BBL); b != "" {
		borough, boroughEvidence = b, "the borough digit of BBL "+e.BBL
	}
	if e.District != "" {
		if o, ok := DistrictOutline(e.District); ok && (borough == "" || o.Borough == borough) {
			loc.Kind, loc.Area, loc.CommunityDistrict, loc.Borough = LocationDistrict, o.Name, o.District, o.Borough
			loc.Geometry, loc.Source, loc.Evidence, loc.Reason = o.Geometry, OutlineSourceLabel, e.DistrictEvidence, e.WhyNoLot
			return loc
		}
	}
	if o, ok := BoroughOutline(borough); ok {
		why := "no community district is known for it (no held land project holds the lot, and the notice names no single district)"
		if e.WhyNoLot != "" {
			why = e.WhyNoLot + "; " + why
		}
		loc.Kind, loc.Area, loc.Borough = LocationBorough, o.Name, o.Borough
		loc.Geometry, loc.Source, loc.Evidence, loc.Reason = o.Geometry, OutlineSourceLabel, boroughEvidence, why
		return loc
	}
	loc.Kind = LocationNone
	if e.BBL != "" {
		loc.Reason = "BBL " + e.BBL + " names no borough (its first digit is not 1-5)"
	} else {
		loc.Reason = "the notice states no BBL and names no single borough"
	}
	return loc
}

var districtNamedRE = regexp.MustCompile(`(?i)\bcommunity\s+(?:board|district)\s*(?:no\.?|number|#)?\s*(\d{1,2})\b`)

// DistrictNamed is the one community district number a text names
// ("Community Board No. 3", "Community District 12"); 0 when it names
// none or more than one (unsure: no district).
func DistrictNamed(text string) int {
	n := 0
	for _, m := range districtNamedRE.FindAllStringSubmatch(text, -1) {
		v, _ := strconv.Atoi(m[1])
		if v == 0 || n != 0 && v != n {
			return 0
		}
		n = v
	}
	return n
}

// DistrictOf is the community district code of a borough and number
// ("Brooklyn", 3 → "K03"); empty when there is no such district.
func DistrictOf(borough string, n int) string {
	code := cdLetter[borough]
	if code == "" || n <= 0 {
		return ""
	}
	cd := fmt.Sprintf("%s%02d", code, n)
	if _, ok := DistrictOutline(cd); !ok {
		return ""
	}
	return cd
}
