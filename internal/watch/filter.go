// Package watch holds the standing-subscription model: a lens and a
// structured filter (alternatives, quoted phrases, exclusions, agency,
// vendor, minimum amount, borough), the plain-English parser that produces
// it, and Compile, the one code path from a filter to the search query that
// a feed, a preview, a watch and a digest all run.
package watch

import (
	"slices"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// LensEntity follows one vendor or agency across every section.
const LensEntity = "entity"

// Filter is a structured watch or feed filter. Values are already resolved:
// agencies to canonical ids (through the crosswalk), vendors to stems.
type Filter struct {
	Lens      string   `json:"lens"`
	AnyOf     []string `json:"any_of,omitempty"`  // words, any of which may match
	Phrases   []string `json:"phrases,omitempty"` // quoted phrases, alternatives to the words
	Exclude   []string `json:"exclude,omitempty"` // words or phrases that must not appear
	AgencyIDs []string `json:"agency_ids,omitempty"`
	Vendors   []string `json:"vendor_stems,omitempty"`
	MinAmount *float64 `json:"min_amount,omitempty"`
	Boroughs  []string `json:"boroughs,omitempty"`

	// Added for watches; feeds leave them unset.

	// MaxAmount bounds award amounts from above (money lens).
	MaxAmount *float64 `json:"max_amount,omitempty"`
	// Awards follows award and intent-to-award notices instead of open
	// solicitations (money lens); an amount bound implies it.
	Awards bool `json:"awards,omitempty"`
}

// Lenses a filter may name.
var Lenses = []string{record.LensMoney, record.LensLand, record.LensProperty, record.LensRules, record.LensMeetings, record.LensPeople, LensEntity}

// FeedLimit bounds what a feed, preview or digest delivers at once.
const FeedLimit = 50

// Text renders the keywords as a search string: words, "phrases", -exclusions.
func (f Filter) Text() string {
	var parts []string
	parts = append(parts, f.AnyOf...)
	for _, p := range f.Phrases {
		parts = append(parts, `"`+p+`"`)
	}
	for _, e := range f.Exclude {
		if strings.Contains(e, " ") {
			parts = append(parts, `-"`+e+`"`)
		} else {
			parts = append(parts, "-"+e)
		}
	}
	return strings.Join(parts, " ")
}

// Validate checks the filter's shape; errors name the field at fault.
func (f Filter) Validate() error {
	if !slices.Contains(Lenses, f.Lens) {
		return record.Invalid("lens", "lens must be one of %s", strings.Join(Lenses, ", "))
	}
	if f.Lens == LensEntity && len(f.AgencyIDs)+len(f.Vendors) != 1 {
		return record.Invalid("name", "the entity lens follows exactly one vendor or one agency")
	}
	for _, v := range f.Vendors {
		if !entity.StemLongEnough(v) {
			return record.Invalid("name", "vendor %q is too short to match by name stem (%d characters at least)", v, entity.MinStemChars)
		}
	}
	if f.MinAmount != nil && (*f.MinAmount < 0 || *f.MinAmount >= record.MaxValidAmount) {
		return record.Invalid("min", "min must be a dollar amount from 0 to 10 billion")
	}
	if f.MaxAmount != nil && (*f.MaxAmount <= 0 || *f.MaxAmount >= record.MaxValidAmount) {
		return record.Invalid("max", "max must be a dollar amount above 0 and below 10 billion")
	}
	if f.MinAmount != nil && f.MaxAmount != nil && *f.MaxAmount < *f.MinAmount {
		return record.Invalid("max", "max is below min")
	}
	for _, b := range f.Boroughs {
		if BoroughName(b) == "" {
			return record.Invalid("borough", "borough %q is not one of Manhattan, Brooklyn, Queens, Bronx, Staten Island", b)
		}
	}
	if n := len(f.AnyOf) + len(f.Phrases) + len(f.Exclude); n > search.MaxClauses {
		return record.Invalid("q", "at most %d keywords, phrases and exclusions", search.MaxClauses)
	}
	for _, l := range [][]string{f.AnyOf, f.Phrases, f.Exclude} {
		for _, w := range l {
			if strings.TrimSpace(w) == "" || len(w) > 100 {
				return record.Invalid("q", "keywords and phrases must be 1 to 100 characters")
			}
		}
	}
	return nil
}

// Compile turns a filter into the query every delivery runs, as of now:
//   - money with a minimum (or a maximum, or Awards): award and
//     intent-to-award notices, with a valid amount within the bounds when
//     there are bounds, newest first (an award feed);
//   - money without one: open solicitations (due today or later, rolling
//     deadlines included), soonest due first;
//   - property, rules, people: their sections, newest first;
//   - meetings: hearings and meetings with an event today or later, soonest
//     first;
//   - land: land-use notices, newest first;
//   - entity: everything naming the vendor (by stem) or agency, newest first.
//
// Boroughs are not part of the query (the engines have no borough field):
// Keep applies them to each hit, and Run does both.
func (f Filter) Compile(now time.Time) search.Query {
	q := search.Query{
		Text:        f.Text(),
		AgencyIDs:   f.AgencyIDs,
		VendorStems: f.Vendors,
		MinAmount:   f.MinAmount,
		MaxAmount:   f.MaxAmount,
		Sort:        search.SortNewest,
		Limit:       FeedLimit,
	}
	today := search.DayStart(now)
	switch f.Lens {
	case record.LensMoney:
		q.Lenses = []string{record.LensMoney}
		if f.MinAmount != nil || f.MaxAmount != nil || f.Awards {
			q.NoticeTypes = []string{"Award", "Intent to Award"}
			q.ValidAmountOnly = f.MinAmount != nil || f.MaxAmount != nil
		} else {
			_ = Open("lens", &q, now) // the one "open" rule; q has no due date or type yet
			q.Sort = search.SortDueSoonest
		}
	case record.LensMeetings:
		q.Lenses = []string{record.LensMeetings}
		q.EventFrom = today
		q.Sort = search.SortEvent
	case LensEntity:
		// every section
	default:
		q.Lenses = []string{f.Lens}
	}
	return q
}
