package watch

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Boroughs are the five boroughs by their usual names.
var Boroughs = []string{"Manhattan", "Brooklyn", "Queens", "Bronx", "Staten Island"}

// boroughWords are the words a record may use for each borough: its name,
// and its county (New York County, Kings, Queens, Bronx, Richmond).
var boroughWords = map[string]*regexp.Regexp{
	"Manhattan":     regexp.MustCompile(`(?i)\b(manhattan|new york county)\b`),
	"Brooklyn":      regexp.MustCompile(`(?i)\b(brooklyn|kings county)\b`),
	"Queens":        regexp.MustCompile(`(?i)\bqueens\b`),
	"Bronx":         regexp.MustCompile(`(?i)\bbronx\b`),
	"Staten Island": regexp.MustCompile(`(?i)\b(staten island|richmond county)\b`),
}

// BoroughName returns the usual name of a borough spelled any common way
// ("the bronx", "BK", "staten-island"), or "" when s is not a borough.
func BoroughName(s string) string {
	k := strings.Join(strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}), " ")
	k = strings.TrimPrefix(k, "the ")
	switch k {
	case "manhattan", "new york county":
		return "Manhattan"
	case "brooklyn", "kings county", "bklyn":
		return "Brooklyn"
	case "queens", "queens county":
		return "Queens"
	case "bronx", "bronx county":
		return "Bronx"
	case "staten island", "richmond county":
		return "Staten Island"
	}
	return ""
}

// Keep reports whether a notice returned by the compiled query also meets
// the parts of the filter the query cannot carry: when categories are
// named, the notice is filed under one of them (or under none and its words
// say one); when special requirements are named, its text mentions one;
// when boroughs are named, the notice's title, text, event place or vendor
// address names one of them.
func (f Filter) Keep(n record.Notice) bool {
	if !keepCategory(f.Categories, n) || !keepRequirement(f.Requirements, n) {
		return false
	}
	if len(f.Boroughs) == 0 {
		return true
	}
	text := strings.Join([]string{n.Title, n.Text, n.EventPlace, n.VendorAddress, n.AgencyName}, "\n")
	for _, b := range f.Boroughs {
		if re := boroughWords[BoroughName(b)]; re != nil && re.MatchString(text) {
			return true
		}
	}
	return false
}

// Result is what a watch delivers now.
type Result struct {
	Hits []search.Hit
	// Total counts the matches: the engine's count when the filter names no
	// borough, category or requirement (a lower bound beyond
	// record.CountLimit); otherwise the matches among the first pages read
	// (TotalIsLowerBound tells when more pages were left unread or the
	// engine stopped counting).
	Total             int
	TotalIsLowerBound bool
	Scope             record.Scope
	Query             search.Query
	// Roster is the roster half of a people-lens filter with agencies
	// (Filter.Roster): each agency's roster releases and leader changes.
	Roster []people.RosterAppearance
}

// Readers are what a filter reads: the engine's notices and records, and
// the people and meeting services main.go builds.
type Readers struct {
	Search   search.NoticesAndRecords
	People   *people.Service
	Meetings *meeting.Service
	// Procure and Land read the matters, contracts and land projects a
	// follow watch follows (nil: those follows answer unavailable).
	Procure *procure.Service
	Land    *land.Service
}

// maxBoroughPages bounds how many pages Run reads to apply a borough, a
// category or a requirement.
const maxBoroughPages = 4

// Run is the one code path from a filter to what a preview, a watch or a
// digest delivers: Compile(now), the search, then Keep on each hit; for
// the people lens with agencies, also the roster half (Roster).
func (f Filter) Run(ctx context.Context, rd Readers, now time.Time) (Result, error) {
	roster, err := f.Roster(ctx, rd)
	if err != nil {
		return Result{}, err
	}
	q := f.Compile(now)
	if len(f.Boroughs)+len(f.Categories)+len(f.Requirements) == 0 {
		res, err := rd.Search.Search(ctx, q)
		if err != nil {
			return Result{}, err
		}
		return Result{Hits: res.Hits, Total: res.Total, TotalIsLowerBound: res.TotalRelation == record.CountAtLeast,
			Scope: res.Scope, Query: q, Roster: roster}, nil
	}
	out := Result{Query: q, Roster: roster}
	limit := q.Limit
	q.Limit = search.MaxLimit
	for page := 0; page < maxBoroughPages; page++ {
		res, err := rd.Search.Search(ctx, q)
		if err != nil {
			return Result{}, err
		}
		out.Scope = res.Scope
		for _, h := range res.Hits {
			if f.Keep(h.Notice) {
				out.Total++
				if len(out.Hits) < limit {
					out.Hits = append(out.Hits, h)
				}
			}
		}
		if res.NextCursor == "" {
			break
		}
		if page == maxBoroughPages-1 {
			out.TotalIsLowerBound = true
			break
		}
		q.Cursor = res.NextCursor
	}
	out.Scope.Matched, out.Scope.MatchedRelation = out.Total, ""
	if out.TotalIsLowerBound {
		out.Scope.MatchedRelation = record.CountAtLeast
	}
	out.Scope.TypeAbsence() // the count changed: the empty answer's type follows
	if out.Scope.Searched.Filters == nil {
		out.Scope.Searched.Filters = map[string]string{}
	}
	set := func(k string, v []string) {
		if len(v) > 0 {
			out.Scope.Searched.Filters[k] = strings.Join(v, ",")
		}
	}
	set("borough", f.Boroughs)
	set("category", f.Categories)
	set("requirement", f.Requirements)
	return out, nil
}
