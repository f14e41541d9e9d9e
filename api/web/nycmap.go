package web

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The map of New York City: borough and community-district outlines
// (nyc_outlines.json: NYC Department of City Planning outlines, Open Data
// gthc-hcne and 5crt-au7u, as simplified by
// joshgreenman1973/nyc-district-boundaries, projected equirectangular at
// cos 40.7° into a 400-unit box and simplified again; provenance in the
// file) with points drawn on them. No tile server: each point links out to
// a real map.

//go:embed nyc_outlines.json
var outlinesJSON []byte

type outline struct {
	Name string       `json:"name"`
	D    template.URL `json:"d"` // path data, numbers only
	// Note is the name as a note when the outlines' file writes it in
	// words of its own ("Queens — joint interest area": jointInterest),
	// for the map's tooltip in the reader's language.
	Note record.Note `json:"-"`
}

// jointInterest ends the name of a joint interest area in the outlines'
// file (its borough before).
const jointInterest = " — joint interest area"

var outlines = func() (o struct {
	Source string `json:"source"`
	Box    struct {
		Lon0, Lon1, Lat0, Lat1, Width, Height, K float64
	} `json:"box"`
	Boroughs  []outline `json:"boroughs"`
	Districts []outline `json:"districts"`
}) {
	if err := json.Unmarshal(outlinesJSON, &o); err != nil {
		panic(err)
	}
	for i, d := range o.Districts {
		if b, ok := strings.CutSuffix(d.Name, jointInterest); ok {
			o.Districts[i].Note = record.N("land.map.joint_interest", b)
		}
	}
	return o
}()

// MapPoint is one place on the map: a lot's centroid. A point with a URL
// is drawn as a link to its record (a notice or a project page).
type MapPoint struct {
	Label, Note string
	Lat, Lon    float64
	URL         string
}

// NYCMap is a map of the city with points.
type NYCMap struct {
	ID, Title, Desc string
	Points          []MapPoint
	// Districts are community-district names to shade ("Queens CB 6").
	Districts []string
	// Shapes are outlines drawn under the points (a project's lots).
	Shapes []MapShape
}

type mapPoint struct {
	MapPoint
	X, Y float64
	Out  string
}

type mapArea struct {
	Name   string
	D      template.URL
	Shaded bool
	Note   record.Note // the name as a note (outline.Note)
}

// Width and Height are the map box's size.
func (m NYCMap) Width() float64  { return outlines.Box.Width }
func (m NYCMap) Height() float64 { return outlines.Box.Height }

// Boroughs and Areas are the outlines to draw (Areas: the community
// districts, those of the map shaded).
func (m NYCMap) Boroughs() []outline { return outlines.Boroughs }
func (m NYCMap) Areas() []mapArea {
	out := make([]mapArea, 0, len(outlines.Districts))
	for _, d := range outlines.Districts {
		a := mapArea{Name: d.Name, D: d.D, Note: d.Note}
		for _, s := range m.Districts {
			a.Shaded = a.Shaded || s == d.Name
		}
		out = append(out, a)
	}
	return out
}

// Linked says some point is a link to its record: the map is then a
// group of links (an image's children cannot be links).
func (m NYCMap) Linked() bool {
	for _, p := range m.Points {
		if p.URL != "" {
			return true
		}
	}
	return false
}

// Source says where the outlines come from.
func (m NYCMap) Source() string { return outlines.Source }

// Marks are the points in the box, each with its link out to a real map.
func (m NYCMap) Marks() []mapPoint {
	b := outlines.Box
	scale := b.Width / ((b.Lon1 - b.Lon0) * b.K)
	out := make([]mapPoint, 0, len(m.Points))
	for _, p := range m.Points {
		x := (p.Lon - b.Lon0) * b.K * scale
		y := (b.Lat1 - p.Lat) * scale
		out = append(out, mapPoint{MapPoint: p, X: math.Round(x*10) / 10, Y: math.Round(y*10) / 10,
			Out: fmt.Sprintf("https://www.openstreetmap.org/?mlat=%.6f&mlon=%.6f#map=18/%.6f/%.6f", p.Lat, p.Lon, p.Lat, p.Lon)})
	}
	return out
}

// MapShape is an outline drawn on the map (a ZAP project's lots, GeoJSON
// Polygon or MultiPolygon, longitude first), titled with its label.
type MapShape struct {
	Label    string
	Geometry json.RawMessage
}

type mapPath struct {
	Label string
	D     template.URL
}

// Paths are the shapes projected into the box as path data (numbers and
// M/L/Z only); a shape that is not a polygon is left out.
func (m NYCMap) Paths() []mapPath {
	b := outlines.Box
	scale := b.Width / ((b.Lon1 - b.Lon0) * b.K)
	var out []mapPath
	for _, s := range m.Shapes {
		var g struct {
			Type        string          `json:"type"`
			Coordinates json.RawMessage `json:"coordinates"`
		}
		if json.Unmarshal(s.Geometry, &g) != nil {
			continue
		}
		var polys [][][][]float64
		switch g.Type {
		case "Polygon":
			var p [][][]float64
			if json.Unmarshal(g.Coordinates, &p) == nil {
				polys = [][][][]float64{p}
			}
		case "MultiPolygon":
			_ = json.Unmarshal(g.Coordinates, &polys)
		}
		var d []byte
		for _, poly := range polys {
			for _, ring := range poly {
				for i, pt := range ring {
					if len(pt) < 2 {
						continue
					}
					x := math.Round((pt[0]-b.Lon0)*b.K*scale*100) / 100
					y := math.Round((b.Lat1-pt[1])*scale*100) / 100
					op := "L"
					if i == 0 {
						op = "M"
					}
					d = fmt.Appendf(d, "%s%g %g", op, x, y)
				}
				d = append(d, 'Z')
			}
		}
		if len(d) > 0 {
			out = append(out, mapPath{Label: s.Label, D: template.URL(d)})
		}
	}
	return out
}
