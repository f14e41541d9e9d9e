package watch

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Answer is what a filter matches now with its lens's block: the one
// answer that a preview (site, JSON, MCP), a feed, a watch's baseline and
// its digests all render. Filter.Answer builds it; no surface composes
// the lens blocks itself, so a preview promises exactly what the digest
// delivers.
type Answer struct {
	// Result is the notice result; with a lens block its Hits are the
	// notices the block does not show (a hearing held as a meeting record,
	// a notice shown with its land project, each shown once).
	Result
	// Meetings (meetings lens, Form 1) are the meeting records followed.
	Meetings *MeetingLens
	// Land (land lens, Form 1) are the land projects' states followed.
	Land *LandLens
}

// AnswerOptions are what an answer's blocks read.
type AnswerOptions struct {
	// Form is the watch's (or the deployment's) form: meeting records and
	// land projects are Form 1.
	Form int
	// Links make the land projects' permalinks.
	Links view.Links
	// Meetings and LandProjects bound the records a block reads (zero:
	// WatchMeetings and WatchLandProjects, what a watch follows).
	Meetings     int
	LandProjects int
}

// Answer runs the filter (Run) and applies its lens's block: the meeting
// records of the meetings lens, the land projects of the land lens.
func (f Filter) Answer(ctx context.Context, rd Readers, now time.Time, o AnswerOptions) (Answer, error) {
	res, err := f.Run(ctx, rd, now)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Result: res}
	if o.Form != 1 {
		return a, nil
	}
	if o.Meetings <= 0 {
		o.Meetings = WatchMeetings
	}
	if o.LandProjects <= 0 {
		o.LandProjects = WatchLandProjects
	}
	ml, ok, err := f.Meetings(ctx, rd, res, now, o.Meetings)
	if err != nil {
		return Answer{}, err
	}
	if ok {
		a.Meetings, a.Hits = &ml, ml.Hits
	}
	ll, ok, err := f.Land(ctx, rd, res, o.Links, o.LandProjects)
	if err != nil {
		return Answer{}, err
	}
	if ok {
		a.Land, a.Hits = &ll, ll.Hits
	}
	return a, nil
}

// Matched is what the answer counts: the meetings lens's matched records
// (meeting records and notices not held as one) when it applies, else the
// notice result's total.
func (a Answer) Matched() (n int, lowerBound bool) {
	if a.Meetings != nil {
		return a.Meetings.Matched, a.Meetings.MatchedIsLowerBound
	}
	return a.Total, a.TotalIsLowerBound
}

// IDs are the ids the answer delivers, in order: the notices' request ids,
// the meeting records', the land projects' states' and the people lens's
// leader changes' (a watch's baseline, a digest's matches).
func (a Answer) IDs() []string {
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
