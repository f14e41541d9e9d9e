package notices

import (
	"context"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// FilterResult is what a watch delivers now.
type FilterResult struct {
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
	// (roster): each agency's roster releases and leader changes.
	Roster []people.RosterAppearance
}

// maxBoroughPages bounds how many pages Run reads to apply a borough, a
// category or a requirement.
const maxBoroughPages = 4

// run is the one code path from a filter to what a preview, a watch or a
// digest delivers: Compile(now), the search, then Keep on each hit; for
// the people lens with agencies, also the roster half (Roster).
func run(ctx context.Context, f watch.Filter, rd watch.Readers, now time.Time) (FilterResult, error) {
	roster, err := roster(ctx, f, rd)
	if err != nil {
		return FilterResult{}, err
	}
	q := f.Compile(now)
	if len(f.Boroughs)+len(f.Categories)+len(f.Requirements) == 0 {
		res, err := rd.Search.Search(ctx, q)
		if err != nil {
			return FilterResult{}, err
		}
		return FilterResult{Hits: res.Hits, Total: res.Total, TotalIsLowerBound: res.TotalRelation == record.CountAtLeast,
			Scope: res.Scope, Query: q, Roster: roster}, nil
	}
	out := FilterResult{Query: q, Roster: roster}
	limit := q.Limit
	q.Limit = search.MaxLimit
	for page := 0; page < maxBoroughPages; page++ {
		res, err := rd.Search.Search(ctx, q)
		if err != nil {
			return FilterResult{}, err
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

// roster reads the roster half of the filter: nil when it follows no
// roster (FollowsRoster).
func roster(ctx context.Context, f watch.Filter, rd watch.Readers) ([]people.RosterAppearance, error) {
	if !f.FollowsRoster() {
		return nil, nil
	}
	return rd.People.Roster(ctx, f.AgencyIDs)
}

// Roster reads the roster half of a filter (nil when it follows no
// roster): what a digest of a people-lens watch delivers.
func (s *Service) Roster(ctx context.Context, f watch.Filter) ([]people.RosterAppearance, error) {
	return roster(ctx, f, s.readers)
}
