package api

import (
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// PropertyLocationsLimit is how many of the latest Property Disposition
// notices /property-locations reads.
const PropertyLocationsLimit = 100

// PropertyLocations answers GET /property-locations.
type PropertyLocations struct {
	Count   int                `json:"count"`
	Records []PropertyLocation `json:"records"`
	Notes   []string           `json:"notes"`
	Scope   record.Scope       `json:"scope"`
}

// PropertyLocation is one record per latest Property Disposition notice
// (SPEC §2.2): its extracted site addresses, boroughs, tax lots, BBLs and,
// where a bundled lot file locates a BBL, its map geometry.
type PropertyLocation struct {
	RequestID string               `json:"request_id"`
	Published string               `json:"published,omitempty"`
	Title     string               `json:"title"`
	Agency    string               `json:"agency"`
	AgencyID  string               `json:"agency_id"`
	Addresses []entity.SiteAddress `json:"addresses"`
	Boroughs  []string             `json:"boroughs"`
	TaxLots   []entity.TaxLot      `json:"tax_lots"`
	BBLs      []string             `json:"bbls"`
	Geometry  []LotGeometry        `json:"geometry"`
	// Unlocated lists BBLs no bundled lot file locates.
	Unlocated []string          `json:"unlocated_bbls"`
	SetAside  []entity.SetAside `json:"set_aside"`
	Notes     []string          `json:"notes,omitempty"`
	Links     Links             `json:"links"`
}

// LotGeometry is the map geometry of one BBL (GeoJSON, longitude first).
type LotGeometry struct {
	BBL      string          `json:"bbl"`
	Geometry json.RawMessage `json:"geometry"`
	Source   string          `json:"source"`
	Note     string          `json:"note"`
}

// propertyLocations is GET /property-locations.
func (s *Server) propertyLocations(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	er, err := s.entityReader()
	if err != nil {
		writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	res, err := s.deps.Search.Search(ctx, search.Query{Sections: []string{record.SectionPropertyDisp}, Sort: search.SortNewest, Limit: PropertyLocationsLimit})
	if err != nil {
		writeError(c, err)
		return
	}
	out := PropertyLocations{Records: []PropertyLocation{}, Notes: []string{
		"One record per Property Disposition notice, newest first (at most 100).",
		"Addresses, boroughs, tax lots and BBLs are extracted from the notice text. Addresses of hearing venues, offices and contacts are never taken for the site; they are listed under set_aside with the reason.",
		"A BBL comes from an explicit BBL in the text, or from a block and lot when exactly one borough is in scope.",
		"Geometry is given where a bundled lot file locates the BBL (MapPLUTO centroids of ZAP project lots, ZAP portal project lots); other BBLs are listed under unlocated_bbls. No location does not mean the lot does not exist.",
	}}
	var all []string
	for _, h := range res.Hits {
		n := h.Notice
		pl := entity.ExtractPlaces(n.Text)
		rec := PropertyLocation{RequestID: n.RequestID, Published: entityDay(n.StartDate), Title: n.Title, Agency: n.AgencyName, AgencyID: n.AgencyID,
			Addresses: pl.Addresses, Boroughs: pl.Boroughs, TaxLots: pl.TaxLots, BBLs: pl.BBLs, Geometry: []LotGeometry{}, Unlocated: []string{},
			SetAside: pl.SetAside, Notes: pl.Notes, Links: s.links(n)}
		all = append(all, pl.BBLs...)
		out.Records = append(out.Records, rec)
	}
	geo := map[string][]search.Entry{}
	if len(all) > 0 {
		lots, err := er.Entries(ctx, search.EntryQuery{Kinds: []string{search.EntryLot}, BBLs: uniqueNonEmpty(all), Limit: search.MaxEntryLimit})
		if err != nil {
			writeError(c, err)
			return
		}
		for _, e := range lots.Entries {
			geo[e.BBL] = append(geo[e.BBL], e)
		}
	}
	for i := range out.Records {
		rec := &out.Records[i]
		for _, bbl := range rec.BBLs {
			if g, ok := lotGeometry(bbl, geo[bbl]); ok {
				rec.Geometry = append(rec.Geometry, g)
			} else {
				rec.Unlocated = append(rec.Unlocated, bbl)
			}
		}
	}
	out.Count = len(out.Records)
	scope, err := s.entityScope(ctx, "property_locations", map[string]string{"section": record.SectionPropertyDisp}, res.Total)
	if err != nil {
		writeError(c, err)
		return
	}
	out.Scope = scope
	renderJSON(c, http.StatusOK, out, CachePropertyLocations, scope.CorpusObservedAt)
}

// lotGeometry picks the geometry of a BBL among its lot entries: the lot's
// own centroid first, then the lots of a ZAP project together.
func lotGeometry(bbl string, es []search.Entry) (LotGeometry, bool) {
	var best *search.Entry
	for i := range es {
		e := &es[i]
		if e.BBL != bbl || len(e.Geometry) == 0 {
			continue
		}
		if best == nil || e.Raw["geometry_scope"] == "" && best.Raw["geometry_scope"] != "" {
			best = e
		}
	}
	if best == nil {
		return LotGeometry{}, false
	}
	note := "the lot's centroid"
	if best.Raw["geometry_scope"] != "" {
		note = "the lots of " + best.Title + " (" + best.Status + ") together: the portal gives geometry per project, not per lot"
	}
	return LotGeometry{BBL: bbl, Geometry: best.Geometry, Source: best.Source, Note: note}, true
}
