package land

import (
	"encoding/json"
	"time"

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
}

// How a lot's geometry is found, and why a lot asked of MapPLUTO has none.
const (
	LotMethodCentroid = "MapPLUTO lot centroid"
	LotMethodProject  = "ZAP portal outline of the project's lots together"
	LotNotInPLUTO     = "not in MapPLUTO"
	// LotNotFetched is why a lot has no geometry when the live MapPLUTO
	// loader has never run here (the bundled sample): its lot was never
	// asked for.
	LotNotFetched = "MapPLUTO not fetched"
)

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
	return search.Record{ID: l.ID, Source: l.Source, SourceLabel: l.SourceLabel, ObservedAt: l.ObservedAt, Keys: keys, Title: l.Title}
}

var _ = search.DescribeKind(LotKind.Name, search.KindDescription{
	RecordType:   "tax lot location",
	CountingRule: "one per tax lot (BBL) location held",
	EvidenceRule: "lot locations carry no date of their own; the source's observation time says how recent they are",
})
