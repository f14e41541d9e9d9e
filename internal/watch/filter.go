// Package watch holds the standing-subscription model: a lens and a
// structured filter (alternatives, quoted phrases, exclusions, agency,
// vendor, minimum amount, borough), the plain-English parser that produces
// it, and Compile, the one code path from a filter to the search query that
// a feed, a preview, a watch and a digest all run.
package watch

import (
	"slices"
	"strconv"
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
	// solicitations (money lens); an amount bound implies it unless Bids.
	Awards bool `json:"awards,omitempty"`
	// Bids keeps a money watch on open solicitations even with an amount
	// bound (the amount then filters the solicitations' amounts): a
	// request for bids with an amount stays a bid watch.
	Bids bool `json:"bids,omitempty"`

	// Categories are City Record procurement categories (CategoryNames).
	Categories []string `json:"categories,omitempty"`
	// Requirements are special requirements named in a notice's text
	// (RequirementNames: M/WBE participation, small business).
	Requirements []string `json:"requirements,omitempty"`
	// Within is a window that moves with each run: "3 months" keeps
	// solicitations due (hearings held) from today to 3 months on.
	Within string `json:"within,omitempty"`
	// From and Until are New York days (YYYY-MM-DD) bounding the due date
	// of solicitations, the date of hearings, or the publication date of
	// other notices.
	From  string `json:"from,omitempty"`
	Until string `json:"until,omitempty"`

	// Land lens: the land projects' own filters (with at most one
	// borough), as the land service reads them (LandFilter).
	CommunityDistrict string `json:"community_district,omitempty"`
	Procedure         string `json:"procedure,omitempty"`
	Stage             string `json:"stage,omitempty"`
	Action            string `json:"action,omitempty"`
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
		return record.InvalidNote("lens", "watch.error.lens", strings.Join(Lenses, ", "))
	}
	if f.Lens == LensEntity && len(f.AgencyIDs)+len(f.Vendors) != 1 {
		return record.InvalidNote("name", "watch.error.entity_one")
	}
	for _, v := range f.Vendors {
		if !entity.StemLongEnough(v) {
			return record.InvalidNote("name", "watch.error.vendor_short", strconv.Quote(v), entity.MinStemChars)
		}
	}
	if f.MinAmount != nil && (*f.MinAmount < 0 || *f.MinAmount >= record.MaxValidAmount) {
		return record.InvalidNote("min", "watch.error.min")
	}
	if f.MaxAmount != nil && (*f.MaxAmount <= 0 || *f.MaxAmount >= record.MaxValidAmount) {
		return record.InvalidNote("max", "watch.error.max")
	}
	if f.MinAmount != nil && f.MaxAmount != nil && *f.MaxAmount < *f.MinAmount {
		return record.InvalidNote("max", "watch.error.max_below_min")
	}
	for _, b := range f.Boroughs {
		if BoroughName(b) == "" {
			return record.InvalidNote("borough", "watch.error.borough", strconv.Quote(b))
		}
	}
	for _, c := range f.Categories {
		if !slices.Contains(CategoryNames, c) {
			return record.InvalidNote("category", "watch.error.category", strconv.Quote(c), strings.Join(CategoryNames, ", "))
		}
	}
	for _, r := range f.Requirements {
		if !slices.Contains(RequirementNames, r) {
			return record.InvalidNote("requirement", "watch.error.requirement", strconv.Quote(r), strings.Join(RequirementNames, ", "))
		}
	}
	if f.Bids && f.Lens != record.LensMoney {
		return record.InvalidNote("bids", "watch.error.bids_money")
	}
	if f.Bids && f.Awards {
		return record.InvalidNote("bids", "watch.error.bids_awards")
	}
	if len(f.Categories) > 0 && f.Lens != record.LensMoney {
		return record.InvalidNote("category", "watch.error.category_money")
	}
	if len(f.Requirements) > 0 && f.Lens != record.LensMoney {
		return record.InvalidNote("requirement", "watch.error.requirement_money")
	}
	if f.Within != "" && !f.windowAhead() {
		return record.InvalidNote("within", "watch.error.within_ahead")
	}
	if f.Within != "" {
		end, ok := windowEnd(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), f.Within)
		if !ok || end.Sub(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)) > maxWindowDays*24*time.Hour {
			return record.InvalidNote("within", "watch.error.within")
		}
	}
	from, okFrom := parseDay(f.From)
	until, okUntil := parseDay(f.Until)
	if f.From != "" && !okFrom || f.Until != "" && !okUntil {
		return record.InvalidNote("from", "watch.error.days")
	}
	for _, d := range []struct {
		p string
		t time.Time
	}{{"from", from}, {"until", until}} {
		if err := record.CheckDay(d.p, d.t); err != nil {
			return err
		}
	}
	if okFrom && okUntil && until.Before(from) {
		return record.InvalidNote("until", "watch.error.until_before")
	}
	if err := f.checkLand(); err != nil {
		return err
	}
	if n := len(f.AnyOf) + len(f.Phrases) + len(f.Exclude); n > search.MaxClauses {
		return record.InvalidNote("q", "watch.error.clauses", search.MaxClauses)
	}
	for _, l := range [][]string{f.AnyOf, f.Phrases, f.Exclude} {
		for _, w := range l {
			if strings.TrimSpace(w) == "" || len(w) > 100 {
				return record.InvalidNote("q", "watch.error.keyword_len")
			}
		}
	}
	return nil
}

// Compile turns a filter into the query every delivery runs, as of now:
//   - money with a minimum (or a maximum, or Awards), unless Bids: award
//     and intent-to-award notices, with a valid amount within the bounds
//     when there are bounds, newest first (an award feed);
//   - money without one, or with Bids: open solicitations (due today or
//     later, rolling deadlines included), soonest due first, with a valid
//     amount within the bounds when there are bounds;
//   - property, rules, people: their sections, newest first;
//   - meetings: hearings and meetings with an event today or later, soonest
//     first;
//   - land: land-use notices, newest first;
//   - entity: everything naming the vendor (by stem) or agency, newest first.
//
// A window (Within, From, Until) bounds the due date of solicitations, the
// date of hearings, and the publication date of everything else.
// Boroughs, categories and special requirements are not part of the query
// (the engines have no such fields): Keep applies them to each hit, and
// Run does both.
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
	from, _ := parseDay(f.From)
	until, _ := parseDay(f.Until)
	var windowTo time.Time
	if end, ok := windowEnd(today, f.Within); ok {
		windowTo = end
	}
	// forward narrows a due or event range to the filter's window: it
	// starts no earlier than from and ends by until and the moving window.
	forward := func(start, end *time.Time) {
		if !from.IsZero() && from.After(*start) {
			*start = from
		}
		for _, e := range []time.Time{windowTo, until} {
			if !e.IsZero() && (end.IsZero() || e.Before(*end)) {
				*end = e
			}
		}
	}
	switch f.Lens {
	case record.LensMoney:
		q.Lenses = []string{record.LensMoney}
		if f.awardsFollowed() {
			q.NoticeTypes = []string{"Award", "Intent to Award"}
			q.ValidAmountOnly = f.MinAmount != nil || f.MaxAmount != nil
			q.From, q.To = from, until
		} else {
			_ = Open("lens", &q, now) // the one "open" rule; q has no due date or type yet
			q.ValidAmountOnly = f.MinAmount != nil || f.MaxAmount != nil
			forward(&q.DueFrom, &q.DueTo)
			q.Sort = search.SortDueSoonest
		}
	case record.LensMeetings:
		q.Lenses = []string{record.LensMeetings}
		q.EventFrom = today
		forward(&q.EventFrom, &q.EventTo)
		q.Sort = search.SortEvent
	case LensEntity:
		// every section
		q.From, q.To = from, until
	default:
		q.Lenses = []string{f.Lens}
		q.From, q.To = from, until
	}
	return q
}
