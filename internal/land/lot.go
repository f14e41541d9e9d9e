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
