// Package notices answers a notice question with its lens blocks, once,
// for every surface: a search (Search: the JSON API's /api/search, the
// site that renders it and MCP's search_notices render its Answer) and a
// watch's filter (Filter: previews on the site, the API and MCP, feeds,
// a new watch's baseline and its digests render its FilterAnswer). No
// surface composes a lens block itself; package watch keeps only the
// subscription model.
package notices

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Service answers notice searches over the semantic service (every mode),
// with the people lens's roster (People) and the meetings lens's meeting
// records (Meetings) on Form 1.
type Service struct {
	semantic *semantic.Service
	readers  watch.Readers
	links    view.Links
	form     int
	now      func() time.Time
}

// New builds the service for a deployment whose links (and form) are
// given (now nil: time.Now).
func New(sem *semantic.Service, rd watch.Readers, links view.Links, now func() time.Time) *Service {
	form := links.Form
	if form == 0 {
		form = 1
	}
	if now == nil {
		now = time.Now
	}
	return &Service{semantic: sem, readers: rd, links: links, form: form, now: now}
}

// Answer is a notice search's answer: the notices as the engine returned
// them (with their scope), the query as run, and the lens's block.
type Answer struct {
	search.Result
	// Query is the query as run (the people lens's compiled one).
	Query search.Query
	// Roster is the roster half of the people lens (Form 1, lens people
	// with agencies): per agency its roster releases and leader changes,
	// read by the rule feeds and watches follow (notices.Service.Roster).
	Roster []people.RosterAppearance
	// Meetings is the meeting records' block of a meetings-lens search
	// (Form 1); nil when the search is not the meetings lens alone or no
	// meeting record is held.
	Meetings *Meetings
	// Widening is the nearest non-empty answer to an empty one (widen).
	Widening *Widening
}

// Meetings is a meetings-lens search's block: the meeting records dated
// in the search's event window (the meetings service's first page).
type Meetings struct {
	meeting.Page
	// Error says why no meeting is listed when the window does not suit
	// the meeting records (longer than a year).
	Error string `json:"error,omitempty"`
}

// MeetingsNote says what the meetings block of a search holds.
const MeetingsNote = "Meeting records (Council Legistar events, community-board calendars, City Record hearing notices) dated in the " +
	"search's event window (event_from to event_to; without them, today and the next 30 days, as /api/meetings). Only the window applies: " +
	"q, agency and the other notice filters are not applied to meeting records (they hold no notice text). A hearing notice in hits may " +
	"appear here too, as the meeting read from it (source cityrecord-hearings)."

// peopleLens is the people-lens filter a search follows (the feed's and
// the watch's: watch.PeopleFilter), when the search is the people lens
// alone with agencies on a Form 1 deployment.
func (s *Service) peopleLens(q search.Query) (watch.Filter, bool) {
	if s.form != 1 || len(q.Lenses) != 1 || q.Lenses[0] != record.LensPeople || len(q.AgencyIDs) == 0 {
		return watch.Filter{}, false
	}
	return watch.PeopleFilter(q.AgencyIDs), true
}

// Search answers q in mode (semantic.Modes): a result list (brief
// notices: no full text), the people lens's roster and the meetings
// lens's block.
func (s *Service) Search(ctx context.Context, q search.Query, mode string) (Answer, error) {
	f, people := s.peopleLens(q)
	if people {
		// the notice half as the feed and the watch compile it
		cq := f.Compile(s.now())
		q.Lenses, q.AgencyIDs = cq.Lenses, cq.AgencyIDs
	}
	q.Brief = true // a result list reads no full text (search.BriefNotice)
	res, err := s.semantic.Search(ctx, q, mode)
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Result: res, Query: q}
	if people {
		if a.Roster, err = roster(ctx, f, s.readers); err != nil {
			return Answer{}, err
		}
	}
	if a.Meetings, err = s.meetings(ctx, q); err != nil {
		return Answer{}, err
	}
	if a.Meetings == nil && len(a.Roster) == 0 {
		if a.Widening, err = widen(ctx, s.readers.Search, q, a.Total); err != nil {
			return Answer{}, err
		}
	}
	return a, nil
}

// meetings is the meetings lens's block of a search: the meeting records
// in its event window.
func (s *Service) meetings(ctx context.Context, q search.Query) (*Meetings, error) {
	if s.form != 1 || len(q.Lenses) != 1 || q.Lenses[0] != record.LensMeetings || s.readers.Meetings == nil {
		return nil, nil
	}
	day := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.In(record.NewYork).Format("2006-01-02")
	}
	f := meeting.Filter{From: day(q.EventFrom), To: day(q.EventTo)}
	if f.From == "" && f.To != "" {
		// a window that only ends: the meetings service's window ending there
		f.From = day(search.DayStart(q.EventTo).AddDate(0, 0, -(meeting.DefaultWindowDays - 1)))
	}
	pg, err := s.readers.Meetings.Browse(ctx, f, "", meeting.DefaultLimit)
	switch {
	case err == nil:
	case record.ErrorCode(err) == record.EUNAVAILABLE:
		return nil, nil
	case record.ErrorCode(err) == record.EINVALID:
		// the notices' window is valid; the meeting records' is not: the
		// search answers, and the block says why it lists nothing
		return &Meetings{Page: meeting.Page{Meetings: []meeting.Meeting{}, Coverage: []meeting.Coverage{}},
			Error: "no meeting records listed for this window: " + record.ErrorMessage(err)}, nil
	default:
		return nil, err
	}
	if len(pg.Coverage) == 0 {
		return nil, nil // no meeting record held
	}
	return &Meetings{Page: pg}, nil
}
