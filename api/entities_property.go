package api

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
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
	// Unlocated lists BBLs no bundled lot file locates; UnlocatedWhy
	// says why for each.
	Unlocated    []string       `json:"unlocated_bbls"`
	UnlocatedWhy []UnlocatedLot `json:"unlocated_lots"`
	// LandProjects are the held land-use projects one of whose lots is a
	// BBL of the notice.
	LandProjects []LotProject      `json:"land_projects"`
	SetAside     []entity.SetAside `json:"set_aside"`
	Notes        []string          `json:"notes,omitempty"`
	Links        Links             `json:"links"`
}

// UnlocatedLot is a BBL without geometry and why it has none.
type UnlocatedLot struct {
	BBL    string `json:"bbl"`
	Reason string `json:"reason"`
}

// LotProject is a land project that holds one of a notice's lots.
type LotProject struct {
	BBL       string `json:"bbl"`
	ProjectID string `json:"project_id"`
	Name      string `json:"name"`
	URL       string `json:"url"`
	Evidence  string `json:"evidence"`
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
	res, err := s.deps.Search.Search(ctx, search.Query{Sections: []string{record.SectionPropertyDisp}, Sort: search.SortNewest, Limit: PropertyLocationsLimit, ExactCount: true})
	if err != nil {
		writeError(c, err)
		return
	}
	out := PropertyLocations{Records: []PropertyLocation{}, Notes: []string{
		"One record per Property Disposition notice, newest first (at most 100).",
		"Addresses, boroughs, tax lots and BBLs are extracted from the notice text. Addresses of hearing venues, offices and contacts are never taken for the site; they are listed under set_aside with the reason.",
		"A BBL comes from an explicit BBL in the text, or from a block and lot when exactly one borough is in scope.",
		"Geometry is given where a bundled lot file locates the BBL (MapPLUTO centroids of ZAP project lots, ZAP portal project lots); other BBLs are listed under unlocated_bbls, and unlocated_lots says why for each. No location does not mean the lot does not exist.",
		"land_projects lists the held land-use projects with a lot of the notice (same BBL); a shared lot is evidence of place, not of the same transaction.",
	}}
	var all []string
	for _, h := range res.Hits {
		n := h.Notice
		pl := entity.ExtractPlaces(n.Text)
		rec := PropertyLocation{RequestID: n.RequestID, Published: entityDay(n.StartDate), Title: n.Title, Agency: n.AgencyName, AgencyID: n.AgencyID,
			Addresses: pl.Addresses, Boroughs: pl.Boroughs, TaxLots: pl.TaxLots, BBLs: pl.BBLs, Geometry: []LotGeometry{}, Unlocated: []string{}, UnlocatedWhy: []UnlocatedLot{}, LandProjects: []LotProject{},
			SetAside: pl.SetAside, Notes: pl.Notes, Links: s.links(n)}
		all = append(all, pl.BBLs...)
		out.Records = append(out.Records, rec)
	}
	geo := map[string][]land.LotLocation{}
	if len(all) > 0 {
		lots, err := search.Find(ctx, er, land.LotKind, search.RecordQuery{Keys: map[string][]string{land.KeyBBL: uniqueNonEmpty(all)}, Limit: search.MaxRecordLimit})
		if err != nil {
			writeError(c, err)
			return
		}
		for _, l := range lots.Items {
			geo[l.BBL] = append(geo[l.BBL], l)
		}
	}
	centroidsHeld := false
	if held, err := search.Find(ctx, er, land.LotKind, search.RecordQuery{Sources: []string{"mappluto"}, Limit: 1}); err == nil && held.Total > 0 {
		centroidsHeld = true
	}
	projects := s.lotProjects(ctx, uniqueNonEmpty(all))
	for i := range out.Records {
		rec := &out.Records[i]
		for _, bbl := range rec.BBLs {
			if g, ok := lotGeometry(bbl, geo[bbl]); ok {
				rec.Geometry = append(rec.Geometry, g)
			} else {
				rec.Unlocated = append(rec.Unlocated, bbl)
				rec.UnlocatedWhy = append(rec.UnlocatedWhy, UnlocatedLot{BBL: bbl, Reason: land.NoCentroidReason(bbl, centroidsHeld)})
			}
			rec.LandProjects = append(rec.LandProjects, projects[bbl]...)
		}
	}
	out.Count = len(out.Records)
	scope, err := s.entityScope(ctx, "property_locations", map[string]string{"section": record.SectionPropertyDisp}, res.Total)
	if err != nil {
		writeError(c, err)
		return
	}
	out.Scope = scope
	renderJSON(c, http.StatusOK, out, cacheLocations, scope.CorpusObservedAt)
}

// lotProjects are the held land projects of each BBL (none when the
// engine holds no land projects).
func (s *Server) lotProjects(ctx context.Context, bbls []string) map[string][]LotProject {
	out := map[string][]LotProject{}
	if len(bbls) == 0 {
		return out
	}
	page, err := s.land().Browse(ctx, land.Filter{}, "", 1)
	if err != nil || page.Total == 0 {
		return out
	}
	for _, bbl := range bbls {
		p, err := s.land().Browse(ctx, land.Filter{BBL: bbl}, "", 10)
		if err != nil {
			continue
		}
		for _, pr := range p.Projects {
			out[bbl] = append(out[bbl], LotProject{BBL: bbl, ProjectID: pr.ID, Name: pr.Name, URL: "/land-projects/" + pr.ID,
				Evidence: "the project's lots include BBL " + bbl})
		}
	}
	return out
}

// lotGeometry picks the geometry of a BBL among its lot locations: the
// lot's own centroid first, then the lots of a ZAP project together.
func lotGeometry(bbl string, es []land.LotLocation) (LotGeometry, bool) {
	var best *land.LotLocation
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
