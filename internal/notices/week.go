package notices

import (
	"context"
	"net/url"
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// WeekLimit is how many entries each of the week's lists shows (the home
// page's lists stay short; the full search has the rest).
const WeekLimit = 5

// WeekDays is the length of the week's forward windows (today and the next
// days: due dates and meetings).
const WeekDays = 7

// The week's lists, by key.
const (
	WeekPublished = "published"
	WeekDue       = "due"
	WeekMeetings  = "meetings"
)

// Week is "this week": what was published since the last working day,
// notices due in the next WeekDays days and meetings in the next WeekDays
// days, each a short list with its scope, built once for the home page and
// /api/week.
type Week struct {
	// Today is the New York day the answer was built for; Since is the
	// previous working day (Monday's is the Friday before).
	Today string     `json:"today"`
	Since string     `json:"since"`
	Lists []WeekList `json:"lists"`
}

// WeekList is one list of the week: its window, its first entries, its
// total and its scope (Scope.Empty says why it is empty).
type WeekList struct {
	Key  string `json:"key"`
	From string `json:"from"`
	To   string `json:"to"`
	// Query is the full search as query parameters (of /api/search for
	// notices, of /api/meetings for meetings): its total is Total.
	Query    string            `json:"query"`
	Notices  []record.Notice   `json:"notices,omitempty"`
	Meetings []meeting.Meeting `json:"meetings,omitempty"`
	Total    int               `json:"total"`
	Scope    record.Scope      `json:"scope"`
	// NewestHeld is the newest source date held by the sources behind the
	// list, offered as the nearest widening when the list is empty.
	NewestHeld string `json:"newest_held,omitempty"`
	// Unavailable says why the list is not served on this deployment
	// (meeting records are Form 1's).
	Unavailable string `json:"unavailable,omitempty"`
}

// PreviousWorkingDay is the weekday before day in the New York calendar
// (Monday's is the Friday before; a weekend day's is the Friday before).
func PreviousWorkingDay(day time.Time) time.Time {
	d := search.DayStart(day).AddDate(0, 0, -1)
	for d.Weekday() == time.Saturday || d.Weekday() == time.Sunday {
		d = d.AddDate(0, 0, -1)
	}
	return d
}

// Week answers "this week" at the service's clock.
func (s *Service) Week(ctx context.Context) (Week, error) {
	today := search.DayStart(s.now())
	ymd := func(t time.Time) string { return t.Format("2006-01-02") }
	since, end := PreviousWorkingDay(today), today.AddDate(0, 0, WeekDays-1)
	w := Week{Today: ymd(today), Since: ymd(since), Lists: []WeekList{}}

	notices := func(key string, v url.Values, from, to time.Time) error {
		p := Params{ExactCount: true, Limit: WeekLimit}
		switch key {
		case WeekPublished:
			p.From, p.To, p.Sort = from, to, "newest"
		case WeekDue:
			p.DueFrom, p.DueTo, p.Sort = from, to, "due" // soonest due first
		}
		v.Set("sort", p.Sort)
		v.Set("exact_count", "true")
		q, mode, err := p.Query(nil, s.now())
		if err != nil {
			return err
		}
		a, err := s.Search(ctx, q, mode)
		if err != nil {
			return err
		}
		l := WeekList{Key: key, From: ymd(from), To: ymd(to), Query: v.Encode(), Notices: []record.Notice{}, Total: a.Total,
			Scope: a.Scope, NewestHeld: a.Scope.LastSourceDate}
		for _, h := range a.Hits {
			l.Notices = append(l.Notices, h.Notice)
		}
		w.Lists = append(w.Lists, l)
		return nil
	}
	if err := notices(WeekPublished, url.Values{"from": {ymd(since)}, "to": {ymd(today)}}, since, today); err != nil {
		return Week{}, err
	}
	if err := notices(WeekDue, url.Values{"due_from": {ymd(today)}, "due_to": {ymd(end)}}, today, end); err != nil {
		return Week{}, err
	}

	ml := WeekList{Key: WeekMeetings, From: ymd(today), To: ymd(end),
		Query: url.Values{"from": {ymd(today)}, "to": {ymd(end)}}.Encode(), Meetings: []meeting.Meeting{}}
	if s.form != 1 || s.readers.Meetings == nil {
		ml.Unavailable = "meeting records are not served by this deployment"
		w.Lists = append(w.Lists, ml)
		return w, nil
	}
	pg, err := s.readers.Meetings.Browse(ctx, meeting.Filter{From: ml.From, To: ml.To}, "", WeekLimit)
	switch {
	case err == nil:
	case record.ErrorCode(err) == record.EUNAVAILABLE:
		ml.Unavailable = record.ErrorMessage(err)
		w.Lists = append(w.Lists, ml)
		return w, nil
	default:
		return Week{}, err
	}
	ml.Meetings, ml.Total, ml.Scope = append(ml.Meetings, pg.Meetings...), pg.Total, pg.Scope
	for _, c := range pg.Coverage {
		if c.LastSourceDate > ml.NewestHeld {
			ml.NewestHeld = c.LastSourceDate
		}
	}
	w.Lists = append(w.Lists, ml)
	return w, nil
}
