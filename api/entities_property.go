package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// PropertyLocationsLimit is how many of the latest Property Disposition
// notices /property-locations reads (the bundled sample holds 239).
const PropertyLocationsLimit = 300

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
	// BBLsFromThirdParty are BBLs a third party parsed from the notice
	// (cityscroll's property_location, carried in the row), not read
	// here; they are located like the others and marked bbl_from.
	BBLsFromThirdParty []string      `json:"bbls_third_party"`
	Geometry           []LotGeometry `json:"geometry"`
	// Locations place every BBL (and a notice without one) at its lot,
	// community district, borough or nowhere, each saying which and why
	// (land.Location); outline geometry is in ?format=geojson.
	Locations []land.Location `json:"locations"`
	// boroughsThirdParty are the boroughs of a third party's parse, used
	// only to place a notice without a BBL (named in the evidence).
	boroughsThirdParty []string
	// Unlocated lists BBLs no bundled lot file locates; UnlocatedWhy
	// says why for each.
	Unlocated    []string       `json:"unlocated_bbls"`
	UnlocatedWhy []UnlocatedLot `json:"unlocated_lots"`
	// LandProjects are the held land-use projects one of whose lots is a
	// BBL of the notice.
	LandProjects []LotProject      `json:"land_projects"`
	SetAside     []entity.SetAside `json:"set_aside"`
	Notes        []string          `json:"notes,omitempty"`
	Links        view.NoticeLinks  `json:"links"`
}

// UnlocatedLot is a BBL without geometry and why it has none.
type UnlocatedLot struct {
	BBL    string `json:"bbl"`
	Reason string `json:"reason"`
	// ReasonKeys are Reason as notes, said as the clauses of one
	// sentence (none for a reason an older index stored without one).
	ReasonKeys record.Notes `json:"reason_keys,omitempty"`
	// AskedAt is when MapPLUTO was asked for the lot (absent: never).
	AskedAt time.Time `json:"asked_at,omitzero"`
}

// LotProject is a land project that holds one of a notice's lots.
type LotProject struct {
	BBL       string `json:"bbl"`
	ProjectID string `json:"project_id"`
	Name      string `json:"name"`
	URL       string `json:"url"`
	Evidence  string `json:"evidence"`
	// CommunityDistricts are the project's districts (they place the lot
	// at its district when they are one).
	CommunityDistricts []string `json:"community_districts,omitempty"`
}

// LotGeometry is the map geometry of one BBL (GeoJSON, longitude first).
type LotGeometry struct {
	BBL      string          `json:"bbl"`
	Geometry json.RawMessage `json:"geometry"`
	Source   string          `json:"source"`
	Note     string          `json:"note"`
}

// propertyLocations is GET /property-locations: JSON, or with
// format=geojson an RFC 7946 FeatureCollection (propertyGeoJSON).
func (s *Server) propertyLocations(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "format")
	format := strings.ToLower(p.str("format"))
	if format != "" && format != "json" && format != "geojson" {
		p.fail(record.InvalidNote("format", "param.format.geojson"))
	}
	if err := p.err; err != nil {
		writeError(c, err)
		return
	}
	er, err := s.entityReader()
	if err != nil {
		writeError(c, err)
		return
	}
	ctx := c.Request.Context()
	// pages of the engine's page size, up to PropertyLocationsLimit
	q := search.Query{Sections: []string{record.SectionPropertyDisp}, Sort: search.SortNewest, Limit: 100, ExactCount: true}
	res, err := s.deps.Search.Search(ctx, q)
	for err == nil && res.NextCursor != "" && len(res.Hits) < PropertyLocationsLimit {
		q.Cursor = res.NextCursor
		var more search.Result
		if more, err = s.deps.Search.Search(ctx, q); err == nil {
			res.Hits, res.NextCursor = append(res.Hits, more.Hits...), more.NextCursor
		}
	}
	if err != nil {
		writeError(c, err)
		return
	}
	res.Hits = res.Hits[:min(len(res.Hits), PropertyLocationsLimit)]
	out := PropertyLocations{Records: []PropertyLocation{}, Notes: []string{
		"One record per Property Disposition notice, newest first (at most 300).",
		"Addresses, boroughs, tax lots and BBLs are extracted from the notice text. Addresses of hearing venues, offices and contacts are never taken for the site; they are listed under set_aside with the reason.",
		"A BBL comes from an explicit BBL in the text, or from a block and lot when exactly one borough is in scope. bbls_third_party are BBLs a third party (cityscroll) parsed from the notice, carried in the row; they are placed like the others and marked bbl_from cityscroll.",
		"Each BBL is placed at its lot where a lot location held locates it (its MapPLUTO centroid, from the bundled centroid file of ZAP project lots or fetched live from MapPLUTO for the BBLs held, method \"MapPLUTO lot centroid\", confidence high; else the ZAP portal outline of a project's lots together), else at its community district's outline where a held land project holding the lot, or the notice naming one district, says which, else at its borough's outline (the BBL's first digit); locations says which (lot, district, borough, none) with the evidence and why it is not placed more finely. A notice without a BBL is placed at the one borough it names, or nowhere with the reason. No location does not mean the lot does not exist.",
		"unlocated_lots lists each BBL not placed at its lot with the reason: not in MapPLUTO (asked at asked_at), MapPLUTO did not answer, or MapPLUTO not fetched (the live MapPLUTO loader has not run here; the bundled sample holds only the centroids of ZAP project lots).",
		"Outline geometry is served with format=geojson (an RFC 7946 FeatureCollection, application/geo+json): one feature per located lot, one per district or borough outline listing the notices placed in it, and one without geometry per notice placed nowhere.",
		"land_projects lists the held land-use projects with a lot of the notice (same BBL); a shared lot is evidence of place, not of the same transaction.",
	}}
	var all []string
	for _, h := range res.Hits {
		n := h.Notice
		pl := entity.ExtractPlaces(n.Text)
		rec := PropertyLocation{RequestID: n.RequestID, Published: entityDay(n.StartDate), Title: n.Title, Agency: n.AgencyName, AgencyID: n.AgencyID,
			Addresses: pl.Addresses, Boroughs: pl.Boroughs, TaxLots: pl.TaxLots, BBLs: pl.BBLs, BBLsFromThirdParty: []string{},
			Geometry: []LotGeometry{}, Locations: []land.Location{}, Unlocated: []string{}, UnlocatedWhy: []UnlocatedLot{}, LandProjects: []LotProject{},
			SetAside: pl.SetAside, Notes: pl.Notes, Links: s.links(n)}
		raw := n.Raw
		if raw == nil && n.Text == "" {
			// searches leave out the source fields; a notice without a
			// body may carry a third party's parse of its site there
			if full, err := s.deps.Search.Get(ctx, n.RequestID); err == nil {
				raw = full.Raw
			}
		}
		tp := land.ThirdPartyPlace(raw)
		rec.boroughsThirdParty = tp.Boroughs
		for _, b := range tp.BBLs {
			if !slices.Contains(rec.BBLs, b) {
				rec.BBLsFromThirdParty = append(rec.BBLsFromThirdParty, b)
			}
		}
		all = append(append(all, rec.BBLs...), rec.BBLsFromThirdParty...)
		out.Records = append(out.Records, rec)
	}
	bbls := procure.UniqueNonEmpty(all)
	geo, fetched, err := land.LotsHeld(ctx, er, bbls)
	if err != nil {
		writeError(c, err)
		return
	}
	centroidsHeld := false
	if held, err := search.Find(ctx, er, land.LotKind, search.RecordQuery{Sources: []string{"mappluto"}, Limit: 1}); err == nil && held.Total > 0 {
		centroidsHeld = true
	}
	projects := s.lotProjects(ctx, bbls)
	for i := range out.Records {
		rec := &out.Records[i]
		text := res.Hits[i].Notice.Text
		place := func(bbl, from string) {
			ev := land.PlaceEvidence{BBL: bbl, BBLFrom: from}
			lp := land.PlaceLot(bbl, geo[bbl], false, fetched)
			if g, ok := lotGeometry(bbl, geo[bbl]); ok && lp.Kind == land.LocationLot {
				rec.Geometry = append(rec.Geometry, g)
				ev.LotOK, ev.LotGeometry, ev.LotSource, ev.LotNote = true, g.Geometry, g.Source, g.Note
				ev.LotMethod, ev.LotConfidence, ev.LotPoint = lp.Method, lp.Confidence, lp.Point
			} else {
				why, keys := lp.Reason, record.Notes(nil)
				if lp.ReasonKey != nil {
					keys = record.Notes{*lp.ReasonKey}
				}
				if !fetched { // the live loader never ran here: why the bundled files do not place it
					keys = record.Notes{land.NLotNotFetched, land.NoCentroidNote(bbl, centroidsHeld)}
					why = keys.Clauses("en")
				}
				rec.Unlocated = append(rec.Unlocated, bbl)
				rec.UnlocatedWhy = append(rec.UnlocatedWhy, UnlocatedLot{BBL: bbl, Reason: why, ReasonKeys: keys, AskedAt: lp.AskedAt})
				ev.WhyNoLot = "no lot geometry: " + why
			}
			rec.LandProjects = append(rec.LandProjects, projects[bbl]...)
			ev.District, ev.DistrictEvidence = lotDistrict(bbl, projects[bbl], text)
			rec.Locations = append(rec.Locations, ev.Place())
		}
		for _, bbl := range rec.BBLs {
			place(bbl, "text")
		}
		for _, bbl := range rec.BBLsFromThirdParty {
			place(bbl, "cityscroll")
		}
		if len(rec.Locations) == 0 {
			ev := land.PlaceEvidence{}
			if len(rec.Boroughs) == 0 && len(rec.boroughsThirdParty) == 1 {
				b := rec.boroughsThirdParty[0]
				ev.Borough, ev.BoroughEvidence = b, "a third party's parse of the notice (cityscroll's property_location) names "+b+" and no other borough; no BBL"
			}
			if len(rec.Boroughs) == 1 {
				ev.Borough, ev.BoroughEvidence = rec.Boroughs[0], "the notice names "+rec.Boroughs[0]+" and no other borough, and states no BBL"
				if n := land.DistrictNamed(text); n > 0 {
					if cd := land.DistrictOf(rec.Boroughs[0], n); cd != "" {
						ev.District, ev.DistrictEvidence = cd, fmt.Sprintf("the notice names community district %d and only %s", n, rec.Boroughs[0])
					}
				}
			}
			rec.Locations = append(rec.Locations, ev.Place())
		}
	}
	out.Count = len(out.Records)
	scope, err := s.entityScope(ctx, "property_locations", map[string]string{"section": record.SectionPropertyDisp}, res.Total)
	if err != nil {
		writeError(c, err)
		return
	}
	out.Scope = scope
	addVary(c.Writer.Header(), "Accept")
	if format == "" && wantsHTML(c.Request) {
		s.propertyPage(c, out) // a browser: the page with the map (property_html.go)
		return
	}
	if format == "geojson" {
		body, err := marshalJSON(propertyGeoJSON(out))
		if err != nil {
			writeError(c, err)
			return
		}
		render(c, http.StatusOK, GeoJSONType, body, cacheLocations, scope.CorpusObservedAt)
		return
	}
	renderJSON(c, http.StatusOK, out, cacheLocations, scope.CorpusObservedAt)
}

// lotDistrict is the community district of a lot when the evidence
// names exactly one: the held land projects holding the lot (their
// districts, when they agree on one in the lot's borough), else the
// notice text naming one district (land.DistrictNamed) in the lot's
// borough. Unsure means none.
func lotDistrict(bbl string, projects []LotProject, text string) (string, string) {
	borough := land.BoroughOfBBL(bbl)
	var cds []string
	var names []string
	for _, p := range projects {
		for _, cd := range p.CommunityDistricts {
			if cd = land.CommunityDistrict(cd); cd != "" && !slices.Contains(cds, cd) {
				cds = append(cds, cd)
			}
		}
		names = append(names, p.ProjectID)
	}
	if len(cds) == 1 {
		if o, ok := land.DistrictOutline(cds[0]); ok && o.Borough == borough {
			return cds[0], "held land project " + strings.Join(names, ", ") + " holds BBL " + bbl + " and is in community district " + cds[0]
		}
	}
	if len(cds) > 1 {
		return "", ""
	}
	if n := land.DistrictNamed(text); n > 0 {
		if cd := land.DistrictOf(borough, n); cd != "" {
			return cd, fmt.Sprintf("the notice names community district %d (one district only) and the BBL is in %s", n, borough)
		}
	}
	return "", ""
}

// findByBBL finds the records of kind k keyed by any of bbls, in chunks
// of the engine's key-value bound.
func findByBBL[T any](ctx context.Context, er search.RecordReader, k search.Kind[T], bbls []string) ([]T, error) {
	var out []T
	for len(bbls) > 0 {
		n := min(len(bbls), search.MaxKeyValues)
		page, err := search.Find(ctx, er, k, search.RecordQuery{Keys: map[string][]string{land.KeyBBL: bbls[:n]}, Limit: search.MaxRecordLimit})
		if err != nil {
			return nil, err
		}
		out = append(out, page.Items...)
		bbls = bbls[n:]
	}
	return out, nil
}

// lotProjects are the held land projects of each BBL, found in one
// query by their lots (none when the engine holds no land projects).
func (s *Server) lotProjects(ctx context.Context, bbls []string) map[string][]LotProject {
	out := map[string][]LotProject{}
	er, err := s.entityReader()
	if err != nil || len(bbls) == 0 {
		return out
	}
	projects, err := findByBBL(ctx, er, land.ProjectKind, bbls)
	if err != nil {
		return out
	}
	sort.Slice(projects, func(i, j int) bool { return projects[i].ID < projects[j].ID })
	for _, bbl := range bbls {
		for _, pr := range projects {
			if !slices.Contains(pr.BBLs(), bbl) || len(out[bbl]) >= 10 {
				continue
			}
			out[bbl] = append(out[bbl], LotProject{BBL: bbl, ProjectID: pr.ID, Name: pr.Name, URL: "/land-projects/" + pr.ID,
				Evidence: "the project's lots include BBL " + bbl, CommunityDistricts: pr.CommunityDistricts})
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
