package land

import (
	"context"
	"encoding/json"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// LotLocation is the map location of one tax lot (BBL: borough, block and lot), so
// the property-locations view can put a BBL on a map where a bundled file
// locates it: a MapPLUTO centroid (a Point, source "mappluto") or the
// geometry a ZAP portal project gives for all its lots (source "zap",
// labelled with the project). ID is stable ("mappluto:lot:<bbl>",
// "zap:lot:<project>:<bbl>").
type LotLocation struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	BBL    string `json:"bbl"`
	// Geometry is GeoJSON: a Point centroid or the lot's (project's)
	// polygons.
	Geometry json.RawMessage `json:"geometry,omitempty"`
	// Title says what the geometry is ("lot centroid", the project name);
	// Status names the project of a ZAP lot.
	Title       string            `json:"title,omitempty"`
	Status      string            `json:"status,omitempty"`
	URL         string            `json:"url,omitempty"`
	SourceLabel string            `json:"source_label,omitempty"`
	ObservedAt  time.Time         `json:"observed_at,omitzero"`
	Raw         map[string]string `json:"raw,omitempty"`
	// Method says how the geometry was found (LotMethodCentroid: the
	// lot's own MapPLUTO row, by its BBL; LotMethodProject: a ZAP
	// project's lots together) and Confidence how sure it is (LotPlacement
	// fills both for lots written before they were stored).
	Method     string `json:"method,omitempty"`
	Confidence string `json:"confidence,omitempty"`
	// Unresolved, on a lot held without geometry, says why MapPLUTO did
	// not locate it (LotNotInPLUTO, or the fetch's failure); AskedAt is
	// when it was asked.
	Unresolved string    `json:"unresolved,omitempty"`
	AskedAt    time.Time `json:"asked_at,omitzero"`
	// UnresolvedKey is Unresolved as a note (NLotNotInPLUTO,
	// LotNoAnswerNote), stored with the lot (none in a lot an older
	// index stored).
	UnresolvedKey *record.Note `json:"unresolved_key,omitempty"`
}

// How a lot's geometry is found, and why a lot asked of MapPLUTO has none,
// as notes (their English below: the method is stored as it).
var (
	NLotMethodCentroid = record.N("land.lot.method.centroid")
	NLotMethodProject  = record.N("land.lot.method.project")
	NLotNotInPLUTO     = record.N("land.lot.not_in_pluto")
	// NLotNotFetched is why a lot has no geometry when the live MapPLUTO
	// loader has never run here (the bundled sample): its lot was never
	// asked for.
	NLotNotFetched = record.N("land.lot.not_fetched")
	// NLotNotAsked: the live loader has run here, but not yet for this
	// lot; LotNoAnswerNote when its request failed.
	NLotNotAsked = record.N("land.lot.not_asked")
)

// The notes' English.
var (
	LotMethodCentroid = NLotMethodCentroid.String()
	LotMethodProject  = NLotMethodProject.String()
	LotNotInPLUTO     = NLotNotInPLUTO.String()
	LotNotFetched     = NLotNotFetched.String()
	LotNotAsked       = NLotNotAsked.String()
)

// LotNoAnswerNote is why a lot has no geometry when MapPLUTO's answer
// to the request for it failed (the failure: a status).
func LotNoAnswerNote(failure string) record.Note { return record.N("land.lot.no_answer", failure) }

// LotMethodNote is a lot's placement method (LotLocation.Method, stored
// as its English) as a note; none for a method no note says.
func LotMethodNote(method string) *record.Note {
	for _, n := range []record.Note{NLotMethodCentroid, NLotMethodProject} {
		if n.String() == method {
			return &n
		}
	}
	return nil
}

// LotPlacement is the method and confidence of a lot's geometry: a
// MapPLUTO centroid is the lot's own point, matched by its exact BBL
// (high); a ZAP project's outline covers all the project's lots together
// (medium: the lot is inside it, not where in it).
func LotPlacement(l LotLocation) (method, confidence string) {
	if l.Method != "" {
		return l.Method, l.Confidence
	}
	if l.Raw["geometry_scope"] != "" {
		return LotMethodProject, "medium"
	}
	return LotMethodCentroid, "high"
}

// LotKind is the typed kind of lot locations, keyed by bbl. Version 1:
// the first layout of lots as their own kind (they were "entry.lot"
// records before; a data directory holding those is reloaded).
var LotKind = search.Kind[LotLocation]{Name: "lot", Index: lotRecord, Version: 1}

func lotRecord(l LotLocation) search.Record {
	keys := map[string][]string{}
	if l.BBL != "" {
		keys[KeyBBL] = []string{l.BBL}
	}
	switch {
	case l.Unresolved != "":
		keys[KeyLotFetch] = []string{"unresolved"}
	case !l.AskedAt.IsZero():
		keys[KeyLotFetch] = []string{"located"}
	}
	return search.Record{ID: l.ID, Source: l.Source, SourceLabel: l.SourceLabel, ObservedAt: l.ObservedAt, Keys: keys, Title: l.Title}
}

var _ = search.DescribeKind(LotKind.Name, search.KindDescription{
	RecordType:   "tax lot location",
	CountingRule: "one per tax lot (BBL) location held",
	EvidenceRule: "lot locations carry no date of their own; the source's observation time says how recent they are",
})

// KeyLotFetch marks the lot locations the live MapPLUTO loader wrote:
// "located" (a row answered) or "unresolved" (asked and not located).
const KeyLotFetch = "lot_fetch"

// LotsLiveFetched is the filter of the lot locations a live MapPLUTO run
// wrote: one held says the loader has run here.
var LotsLiveFetched = map[string][]string{KeyLotFetch: {"located", "unresolved"}}

// Shapes of a placed lot.
const (
	ShapePoint   = "point"
	ShapeOutline = "outline"
)

// LotPlace is where one lot (BBL) is drawn, or why it is not: at its
// MapPLUTO centroid (a point) or inside a ZAP project's outline of its
// lots, with the method and confidence; or nowhere (kind none) with the
// reason.
type LotPlace struct {
	BBL  string `json:"bbl"`
	Kind string `json:"kind"` // lot or none
	// Shape is point or outline; Point the centroid, or the middle of
	// the outline (where a map draws its mark).
	Shape      string    `json:"shape,omitempty"`
	Point      *Point    `json:"point,omitempty"`
	Source     string    `json:"source,omitempty"`
	Method     string    `json:"method,omitempty"`
	Confidence string    `json:"confidence,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	AskedAt    time.Time `json:"asked_at,omitzero"`
	// MethodKey and ReasonKey are Method and Reason as notes (none for a
	// reason an older index stored without one).
	MethodKey *record.Note `json:"method_key,omitempty"`
	ReasonKey *record.Note `json:"reason_key,omitempty"`
	// Geometry is the GeoJSON drawn (served in GeoJSON answers only).
	Geometry json.RawMessage `json:"-"`
}

// PlaceLot places bbl by the lot locations held for it: the outline of a
// ZAP project's lots when outline is asked for and one is held, else the
// lot's own centroid, else either. A lot placed nowhere says why: the
// reason MapPLUTO gave when it was asked (LotNotInPLUTO, or its
// failure), else LotNotFetched when the live loader has not run here
// (fetched false), else that the next run asks for it.
func PlaceLot(bbl string, held []LotLocation, outline, fetched bool) LotPlace {
	var best, asked *LotLocation
	for i := range held {
		l := &held[i]
		if l.BBL != bbl {
			continue
		}
		if len(l.Geometry) == 0 {
			if l.Unresolved != "" {
				asked = l
			}
			continue
		}
		isOutline := l.Raw["geometry_scope"] != ""
		if best == nil || isOutline == outline && (best.Raw["geometry_scope"] != "") != outline {
			best = l
		}
	}
	if best == nil {
		p := LotPlace{BBL: bbl, Kind: LocationNone}
		switch {
		case asked != nil:
			p.Reason, p.AskedAt, p.Source, p.ReasonKey = asked.Unresolved, asked.AskedAt, asked.Source, asked.UnresolvedKey
		case !fetched:
			p.Reason, p.ReasonKey = LotNotFetched, ptr(NLotNotFetched)
		default:
			p.Reason, p.ReasonKey = LotNotAsked, ptr(NLotNotAsked)
		}
		return p
	}
	p := LotPlace{BBL: bbl, Kind: LocationLot, Shape: ShapePoint, Source: best.Source, Geometry: best.Geometry}
	if best.Raw["geometry_scope"] != "" {
		p.Shape = ShapeOutline
	}
	p.Method, p.Confidence = LotPlacement(*best)
	p.MethodKey = LotMethodNote(p.Method)
	if lat, lon, ok := GeometryMiddle(best.Geometry); ok {
		p.Point = &Point{Lat: lat, Lon: lon}
	}
	return p
}

// GeometryMiddle is where a map draws a geometry's mark: a Point's
// position, or the mean of a Polygon's or MultiPolygon's outer rings'
// positions (GeoJSON: longitude first).
func GeometryMiddle(g json.RawMessage) (lat, lon float64, ok bool) {
	var geo struct {
		Type        string          `json:"type"`
		Coordinates json.RawMessage `json:"coordinates"`
	}
	if json.Unmarshal(g, &geo) != nil {
		return 0, 0, false
	}
	var pts [][]float64
	switch geo.Type {
	case "Point":
		var p []float64
		if json.Unmarshal(geo.Coordinates, &p) == nil && len(p) >= 2 {
			pts = append(pts, p)
		}
	case "Polygon":
		var rings [][][]float64
		if json.Unmarshal(geo.Coordinates, &rings) == nil && len(rings) > 0 {
			pts = rings[0]
		}
	case "MultiPolygon":
		var polys [][][][]float64
		if json.Unmarshal(geo.Coordinates, &polys) == nil {
			for _, p := range polys {
				if len(p) > 0 {
					pts = append(pts, p[0]...)
				}
			}
		}
	}
	n := 0.0
	for _, p := range pts {
		if len(p) >= 2 {
			lon, lat, n = lon+p[0], lat+p[1], n+1
		}
	}
	if n == 0 {
		return 0, 0, false
	}
	return lat / n, lon / n, true
}

// LotsHeld reads the lot locations held for bbls (in chunks of the
// engine's key-value bound), by BBL, and whether the live MapPLUTO loader
// has run here (a lot it wrote is held).
func LotsHeld(ctx context.Context, rs search.RecordReader, bbls []string) (map[string][]LotLocation, bool, error) {
	out := map[string][]LotLocation{}
	for rest := bbls; len(rest) > 0; {
		n := min(len(rest), search.MaxKeyValues)
		q := search.RecordQuery{Keys: map[string][]string{KeyBBL: rest[:n]}, Limit: search.MaxRecordLimit}
		for {
			page, err := search.Find(ctx, rs, LotKind, q)
			if err != nil {
				return nil, false, err
			}
			for _, l := range page.Items {
				out[l.BBL] = append(out[l.BBL], l)
			}
			if page.NextCursor == "" || len(page.Items) == 0 {
				break
			}
			q.Cursor = page.NextCursor
		}
		rest = rest[n:]
	}
	live, err := search.Find(ctx, rs, LotKind, search.RecordQuery{Keys: LotsLiveFetched, Limit: 1})
	if err != nil {
		return nil, false, err
	}
	return out, live.Total > 0, nil
}
