package api

import (
	"encoding/json"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// GeoJSONType is the media type of GeoJSON (RFC 7946 §12).
const GeoJSONType = "application/geo+json"

// FeatureCollection is an RFC 7946 FeatureCollection. Foreign members
// (§6.1) carry what the JSON answer's envelope carries: the notes and the
// scope.
type FeatureCollection struct {
	Type     string       `json:"type"`
	Features []Feature    `json:"features"`
	Notes    []string     `json:"notes"`
	Scope    record.Scope `json:"scope"`
}

// Feature is an RFC 7946 Feature; a nil Geometry is written as null (a
// feature placed nowhere).
type Feature struct {
	Type       string          `json:"type"`
	ID         string          `json:"id"`
	Geometry   json.RawMessage `json:"geometry"`
	Properties map[string]any  `json:"properties"`
}

// placedNotice is a notice as listed in an outline feature's properties.
type placedNotice struct {
	RequestID string   `json:"request_id"`
	Title     string   `json:"title"`
	Published string   `json:"published,omitempty"`
	BBLs      []string `json:"bbls"`
	Evidence  []string `json:"evidence"`
	Reason    string   `json:"reason,omitempty"`
	URL       string   `json:"url"`
}

// propertyGeoJSON turns the placed locations into a FeatureCollection:
// one feature per located lot (its point or polygons), one per district
// or borough outline with every notice placed in it (an outline is drawn
// once, not once per notice), and one with null geometry per notice
// placed nowhere, with the reason.
func propertyGeoJSON(out PropertyLocations) FeatureCollection {
	fc := FeatureCollection{Type: "FeatureCollection", Features: []Feature{}, Notes: out.Notes, Scope: out.Scope}
	type area struct {
		loc     land.Location
		notices []placedNotice
		index   map[string]int
	}
	areas := map[string]*area{}
	var order []string
	for _, r := range out.Records {
		url := r.Links.Permalink
		for _, l := range r.Locations {
			switch l.Kind {
			case land.LocationLot:
				fc.Features = append(fc.Features, Feature{Type: "Feature", ID: "lot:" + r.RequestID + ":" + l.BBL, Geometry: l.Geometry,
					Properties: map[string]any{"kind": l.Kind, "request_id": r.RequestID, "title": r.Title, "published": r.Published,
						"bbl": l.BBL, "bbl_from": l.BBLFrom, "borough": l.Borough, "source": l.Source, "evidence": l.Evidence, "url": url,
						"method": l.Method, "confidence": l.Confidence}})
			case land.LocationDistrict, land.LocationBorough:
				key := l.Kind + ":" + l.Area
				a := areas[key]
				if a == nil {
					a = &area{loc: l, index: map[string]int{}}
					areas[key] = a
					order = append(order, key)
				}
				i, ok := a.index[r.RequestID]
				if !ok {
					i = len(a.notices)
					a.index[r.RequestID] = i
					a.notices = append(a.notices, placedNotice{RequestID: r.RequestID, Title: r.Title, Published: r.Published, BBLs: []string{}, Evidence: []string{}, Reason: l.Reason, URL: url})
				}
				n := &a.notices[i]
				if l.BBL != "" {
					n.BBLs = append(n.BBLs, l.BBL)
				}
				n.Evidence = append(n.Evidence, l.Evidence)
			default:
				fc.Features = append(fc.Features, Feature{Type: "Feature", ID: "none:" + r.RequestID + ":" + l.BBL, Geometry: nil,
					Properties: map[string]any{"kind": l.Kind, "request_id": r.RequestID, "title": r.Title, "published": r.Published,
						"bbl": l.BBL, "bbl_from": l.BBLFrom, "reason": l.Reason, "url": url}})
			}
		}
	}
	for _, key := range order {
		a := areas[key]
		props := map[string]any{"kind": a.loc.Kind, "area": a.loc.Area, "borough": a.loc.Borough, "source": a.loc.Source,
			"notices": a.notices, "count": len(a.notices)}
		if a.loc.CommunityDistrict != "" {
			props["community_district"] = a.loc.CommunityDistrict
		}
		fc.Features = append(fc.Features, Feature{Type: "Feature", ID: key, Geometry: a.loc.Geometry, Properties: props})
	}
	return fc
}
