package notices

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// FilterAnswer is what a watch's filter matches now with its lens's
// block: the one answer that a preview (site, JSON, MCP), a feed, a
// watch's baseline and its digests all render. Service.Filter builds it;
// no surface composes the lens blocks itself, so a preview promises
// exactly what the digest delivers.
type FilterAnswer struct {
	// Result is the notice result; with a lens block its Hits are the
	// notices the block does not show (a hearing held as a meeting record,
	// a notice shown with its land project, each shown once).
	FilterResult
	// Meetings (meetings lens, Form 1) are the meeting records followed.
	Meetings *MeetingLens
	// Land (land lens, Form 1) are the land projects' states followed.
	Land *LandLens
	// Widening is the nearest non-empty answer to an empty one (widen),
	// for a filter whose notices the query alone decides (no borough,
	// category or requirement read from the text) and without a lens block.
	Widening *Widening
}

// AnswerOptions are what a filter answer's blocks read.
type AnswerOptions struct {
	// Form is the watch's (or the deployment's) form: meeting records and
	// land projects are Form 1.
	Form int
	// Links make the land projects' permalinks (zero: the service's).
	Links view.Links
	// Meetings and LandProjects bound the records a block reads (zero:
	// WatchMeetings and WatchLandProjects, what a watch follows).
	Meetings     int
	LandProjects int
}

// Filter answers a watch's filter now: it runs the filter (run) and
// applies its lens's block, the meeting records of the meetings lens, the
// land projects of the land lens.
func (s *Service) Filter(ctx context.Context, f watch.Filter, o AnswerOptions) (FilterAnswer, error) {
	rd, now := s.readers, s.now()
	if o.Links == (view.Links{}) {
		o.Links = s.links
	}
	res, err := run(ctx, f, rd, now)
	if err != nil {
		return FilterAnswer{}, err
	}
	a := FilterAnswer{FilterResult: res}
	if len(f.Boroughs)+len(f.Categories)+len(f.Requirements) == 0 && len(res.Roster) == 0 {
		// (a lens block below replaces it when the lens has one)
		if a.Widening, err = widen(ctx, rd.Search, res.Query, res.Total); err != nil {
			return FilterAnswer{}, err
		}
	}
	if o.Form != 1 {
		return a, nil
	}
	if o.Meetings <= 0 {
		o.Meetings = WatchMeetings
	}
	if o.LandProjects <= 0 {
		o.LandProjects = WatchLandProjects
	}
	ml, ok, err := filterMeetings(ctx, f, rd, res, now, o.Meetings)
	if err != nil {
		return FilterAnswer{}, err
	}
	if ok {
		a.Meetings, a.Hits, a.Widening = &ml, ml.Hits, nil
	}
	ll, ok, err := filterLand(ctx, f, rd, res, o.Links, o.LandProjects)
	if err != nil {
		return FilterAnswer{}, err
	}
	if ok {
		a.Land, a.Hits, a.Widening = &ll, ll.Hits, nil
	}
	return a, nil
}

// Matched is what the answer counts: the meetings lens's matched records
// (meeting records and notices not held as one) when it applies, else the
// notice result's total.
func (a FilterAnswer) Matched() (n int, lowerBound bool) {
	if a.Meetings != nil {
		return a.Meetings.Matched, a.Meetings.MatchedIsLowerBound
	}
	return a.Total, a.TotalIsLowerBound
}

// IDs are the ids the answer delivers, in order: the notices' request ids,
// the meeting records', the land projects' states' and the people lens's
// leader changes' (a watch's baseline, a digest's matches).
func (a FilterAnswer) IDs() []string {
	var ids []string
	for _, h := range a.Hits {
		ids = append(ids, h.Notice.RequestID)
	}
	if a.Meetings != nil {
		for _, m := range a.Meetings.Meetings {
			ids = append(ids, m.ID)
		}
	}
	if a.Land != nil {
		for _, it := range a.Land.Items {
			ids = append(ids, it.ID)
		}
	}
	for _, c := range people.Changes(a.Roster) {
		ids = append(ids, c.ID)
	}
	return ids
}

// Baseline is what a new search watch matches now (its one answer, as its
// preview showed it and its digests will read it): the ids delivered and
// the award identities of its notices. It is the watch service's
// watch.Baseliner.
func (s *Service) Baseline(ctx context.Context, f watch.Filter, form int, links view.Links) (ids, facts []string, err error) {
	a, err := s.Filter(ctx, f, AnswerOptions{Form: form, Links: links})
	if err != nil {
		return nil, nil, err
	}
	for _, h := range a.Hits {
		if k := watch.AwardIdentity(h.Notice); k != "" {
			facts = append(facts, k)
		}
	}
	return a.IDs(), facts, nil
}
