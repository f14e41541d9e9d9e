package web

import (
	"html/template"
	"math"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// PlaceMap is the map of the property dispositions (/property-locations
// for a browser): each borough and community district with the number of
// notices placed in it (shaded, the number written on it), each located
// lot a point linking out to a real map. What is not on the map (notices
// placed nowhere, and why) is said beside it by the page.
type PlaceMap struct {
	ID, Title, Desc string
	// Placed are the outlines notices are placed in, by name as the
	// outlines spell them ("Brooklyn", "Brooklyn CB 3").
	Placed []PlacedArea
	// Points are the located lots.
	Points []MapPoint
}

// PlacedArea is one outline and the notices placed in it.
type PlacedArea struct {
	Name, Kind string // kind: district or borough
	Notices    int
}

type placedLabel struct {
	PlacedArea
	X, Y float64
}

type placeOutline struct {
	Name   string
	D      template.URL
	Shaded bool
	Note   record.Note // the name as a note (outline.Note)
}

// Word is the outline's name as a site word key: a borough's
// ("meet.borough.staten_island"), said in the page's language.
func (o placeOutline) Word() string {
	return "meet.borough." + strings.ReplaceAll(strings.ToLower(o.Name), " ", "_")
}

func (m PlaceMap) placed(name string) bool {
	for _, a := range m.Placed {
		if a.Name == name {
			return true
		}
	}
	return false
}

// Width and Height are the map box's size.
func (m PlaceMap) Width() float64  { return outlines.Box.Width }
func (m PlaceMap) Height() float64 { return outlines.Box.Height }

// Boroughs and Districts are the outlines, those holding notices shaded.
func (m PlaceMap) Boroughs() []placeOutline { return m.shade(outlines.Boroughs) }
func (m PlaceMap) Districts() []placeOutline {
	return m.shade(outlines.Districts)
}

func (m PlaceMap) shade(os []outline) []placeOutline {
	out := make([]placeOutline, 0, len(os))
	for _, o := range os {
		out = append(out, placeOutline{Name: o.Name, D: o.D, Shaded: m.placed(o.Name), Note: o.Note})
	}
	return out
}

// Labels are the placed areas with where their number is written (the
// middle of their outline's points); an area no outline draws is left
// out (the table beside the map lists every area).
func (m PlaceMap) Labels() []placedLabel {
	var out []placedLabel
	for _, a := range m.Placed {
		set := outlines.Districts
		if a.Kind == "borough" {
			set = outlines.Boroughs
		}
		for _, o := range set {
			if o.Name != a.Name {
				continue
			}
			if x, y, ok := middle(string(o.D)); ok {
				out = append(out, placedLabel{PlacedArea: a, X: x, Y: y})
			}
		}
	}
	return out
}

// Linked says some lot is a link to its notice (NYCMap.Linked).
func (m PlaceMap) Linked() bool { return NYCMap{Points: m.Points}.Linked() }

// Marks are the located lots in the box.
func (m PlaceMap) Marks() []mapPoint { return NYCMap{Points: m.Points}.Marks() }

// middle is the mean of a path's points (path data of numbers, M/L/Z).
func middle(d string) (x, y float64, ok bool) {
	f := strings.FieldsFunc(d, func(r rune) bool { return !(r >= '0' && r <= '9' || r == '.' || r == '-') })
	n := 0.0
	for i := 0; i+1 < len(f); i += 2 {
		a, err1 := strconv.ParseFloat(f[i], 64)
		b, err2 := strconv.ParseFloat(f[i+1], 64)
		if err1 != nil || err2 != nil {
			continue
		}
		x, y, n = x+a, y+b, n+1
	}
	if n == 0 {
		return 0, 0, false
	}
	return math.Round(x/n*10) / 10, math.Round(y/n*10) / 10, true
}
