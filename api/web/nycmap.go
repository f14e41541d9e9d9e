package web

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"math"
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
}

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
	return o
}()

// MapPoint is one place on the map: a lot's centroid; URL (when set)
// leads to the records about it.
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
		a := mapArea{Name: d.Name, D: d.D}
		for _, s := range m.Districts {
			a.Shaded = a.Shaded || s == d.Name
		}
		out = append(out, a)
	}
	return out
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
