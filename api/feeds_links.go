package api

import (
	"net/url"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// searchPresentation are /api/search parameters that change how results are
// shown, not which records a feed of the search follows.
var searchPresentation = []string{"sort", "limit", "cursor", "facets"}

// searchFeedLinks maps an /api/search query to the feed that follows the
// same filter, or returns nil when it has no feed. A search maps when its
// only filters are one feed lens (money, land, property, rules, meetings),
// q (at most 4 keywords), one agency, and min with the money lens (open and
// rolling are what the money feed without min already delivers); with no
// lens, one vendor, or one agency, maps to the entity lens. Each feed keeps
// its lens's own order and bound (see feedCovers).
func (s *Server) searchFeedLinks(v url.Values) *feed.Links {
	fv := url.Values{}
	one := func(name string) (string, bool) {
		vs := v[name]
		if len(vs) > 1 || len(vs) == 1 && strings.Contains(vs[0], ",") && name != "q" {
			return "", false
		}
		if len(vs) == 0 {
			return "", true
		}
		return strings.TrimSpace(vs[0]), true
	}
	for name := range v {
		switch {
		case slices.Contains(searchPresentation, name):
		case slices.Contains([]string{"q", "lens", "agency", "vendor", "min", "open", "rolling"}, name):
		default:
			return nil // a filter feeds do not take
		}
	}
	lens, ok1 := one("lens")
	q, ok2 := one("q")
	agency, ok3 := one("agency")
	vendor, ok4 := one("vendor")
	minAmount, ok5 := one("min")
	open, ok6 := one("open")
	rolling, ok7 := one("rolling")
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7) {
		return nil
	}
	if (open != "" || rolling != "") && (lens != record.LensMoney || minAmount != "") {
		return nil
	}
	if q != "" {
		fv.Set("q", q)
	}
	switch {
	case lens == "" && vendor != "" && agency == "":
		fv.Set("lens", watch.LensEntity)
		fv.Set("kind", entityVendor)
		fv.Set("name", vendor)
	case lens == "" && agency != "" && vendor == "":
		fv.Set("lens", watch.LensEntity)
		fv.Set("kind", entityAgency)
		fv.Set("name", agency)
	case lens != "" && lens != watch.LensEntity && vendor == "":
		fv.Set("lens", lens)
		if agency != "" {
			fv.Set("agency", agency)
		}
		if minAmount != "" {
			fv.Set("min", minAmount)
		}
	default:
		return nil
	}
	fr, err := s.parseFeed(fv)
	if err != nil {
		return nil
	}
	links := s.feedURLs(fr.canon)
	return &links
}
