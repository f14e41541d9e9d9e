package api

import (
	"net/http"
	"sort"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// /property-locations for a browser: the same placed notices as the JSON
// (the default for every client that does not ask for HTML first, and
// always with format=json) as a page — a map of the city with the notices
// placed in each borough and district and the located lots, the same
// areas as a table beside it, and the notices placed nowhere with why
// (web/templates/property.html).

type propertyPageData struct {
	JSON, GeoJSON string
	Map           web.PlaceMap
	// Notices read; Placed of them on the map (at a lot, district or
	// borough); Nowhere placed nowhere.
	Notices, Placed, Nowhere int
	Areas                    []propertyArea
	Lots                     []propertyLot
	// Unlocated are the BBLs not placed at their lot, with the reason
	// (the first propertyUnlocatedShown; UnlocatedCount says how many).
	Unlocated      []propertyLot
	UnlocatedCount int
	None           []propertyNone
	Rules          record.Notes
}

type propertyArea struct {
	Name, Kind string
	Notices    int
	BBLs       int
}

type propertyLot struct {
	BBL, RequestID, Title, URL, Map string
	// Method and Confidence say how a lot is placed; Reason why a lot is
	// not placed at its lot.
	Method, Confidence, Reason string
	// MethodKey and ReasonKeys are Method and Reason as notes (the
	// services'); a reason without keys is an older index's words.
	MethodKey  *record.Note
	ReasonKeys record.Notes
}

// propertyNone is one reason notices are placed nowhere, with the
// notices (the first propertyNoneShown; Count says how many).
type propertyNone struct {
	Why     string // prop.why.nobbl or prop.why.badbbl
	Count   int
	Notices []propertyLot
}

const (
	propertyNoneShown      = 25
	propertyUnlocatedShown = 50
)

// propertyPage renders /property-locations as a page.
func (s *Server) propertyPage(c *gin.Context, out PropertyLocations) {
	lang := c.GetString(langKey)
	d := propertyPageData{JSON: s.cfg.BaseURL + "/property-locations?format=json", GeoJSON: s.cfg.BaseURL + "/property-locations?format=geojson",
		Notices: len(out.Records), Rules: record.AbsenceRuleNotes}
	d.Map = web.PlaceMap{ID: "property-map", Title: web.Word(lang, "prop.map.title"), Desc: web.Word(lang, "prop.map.desc")}
	areas := map[string]*propertyArea{}
	none := map[string]*propertyNone{}
	for _, r := range out.Records {
		link := propertyLot{RequestID: r.RequestID, Title: r.Title, URL: r.Links.Permalink}
		placed, seen := false, map[string]bool{}
		for _, u := range r.UnlocatedWhy {
			d.UnlocatedCount++
			if len(d.Unlocated) < propertyUnlocatedShown {
				lot := link
				lot.BBL, lot.Reason, lot.ReasonKeys = u.BBL, u.Reason, u.ReasonKeys
				d.Unlocated = append(d.Unlocated, lot)
			}
		}
		for _, l := range r.Locations {
			switch l.Kind {
			case land.LocationLot:
				placed = true
				lot := link
				lot.BBL = l.BBL
				lot.Method, lot.Confidence, lot.MethodKey = l.Method, l.Confidence, l.MethodKey
				if p := l.Point; p != nil {
					d.Map.Points = append(d.Map.Points, web.MapPoint{Label: l.BBL, Note: r.Title, Lat: p.Lat, Lon: p.Lon, URL: r.Links.Permalink})
					lot.Map = web.NYCMap{Points: []web.MapPoint{{Lat: p.Lat, Lon: p.Lon}}}.Marks()[0].Out
				}
				d.Lots = append(d.Lots, lot)
			case land.LocationDistrict, land.LocationBorough:
				placed = true
				a := areas[l.Area]
				if a == nil {
					a = &propertyArea{Name: l.Area, Kind: l.Kind}
					areas[l.Area] = a
				}
				if !seen[l.Area] {
					a.Notices++
					seen[l.Area] = true
				}
				if l.BBL != "" {
					a.BBLs++
				}
			default:
				why := "prop.why.nobbl"
				if l.BBL != "" {
					why = "prop.why.badbbl"
				}
				n := none[why]
				if n == nil {
					n = &propertyNone{Why: why}
					none[why] = n
				}
				if !seen[why] {
					n.Count++
					seen[why] = true
					if len(n.Notices) < propertyNoneShown {
						n.Notices = append(n.Notices, link)
					}
				}
			}
		}
		if placed {
			d.Placed++
		} else {
			d.Nowhere++
		}
	}
	for _, a := range areas {
		d.Areas = append(d.Areas, *a)
	}
	sort.Slice(d.Areas, func(i, j int) bool {
		if d.Areas[i].Notices != d.Areas[j].Notices {
			return d.Areas[i].Notices > d.Areas[j].Notices
		}
		return d.Areas[i].Name < d.Areas[j].Name
	})
	for _, a := range d.Areas {
		d.Map.Placed = append(d.Map.Placed, web.PlacedArea{Name: a.Name, Kind: a.Kind, Notices: a.Notices})
	}
	for _, why := range []string{"prop.why.nobbl", "prop.why.badbbl"} {
		if n := none[why]; n != nil {
			d.None = append(d.None, *n)
		}
	}
	addVary(c.Writer.Header(), "Accept")
	writeHTML(c, http.StatusOK, web.Page{Kind: web.Property, Title: web.Word(lang, "prop.title"), Home: s.cfg.BaseURL + "/", JSON: d.JSON,
		Crumbs: crumbs(c, web.Link{Label: web.Word(lang, "prop.title")}), Data: d}, out.Scope.CorpusObservedAt)
}
