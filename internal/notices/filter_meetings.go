package notices

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// MeetingLens is what a meetings-lens filter follows in the meeting
// records (SPEC §2.8, Form 1), beside the City Record notices its
// compiled query matches (Result). It is the one rule the meetings lens
// of feeds, watch previews, watch baselines and digests share:
//
//   - meeting records: the dated meetings from today to today +
//     meeting.FeedWindowDays, soonest first (Council Legistar events,
//     community-board calendars, City Record hearing notices), through
//     the meeting service's browse; the filter's agency narrows them to
//     meetings whose body resolves to that agency. A filter with keywords,
//     exclusions, vendors or boroughs cannot be applied to Council and
//     community-board meetings (they hold no searchable text): the meeting
//     records are then only those read from the notices the keywords
//     matched;
//   - a matched notice held as a meeting record (a hearing notice read as
//     a cityrecord-hearings meeting) is listed once, as that meeting; the
//     notices not held as meetings stay notices (nothing a notice feed
//     delivered disappears because the meetings source lags or was not
//     loaded).
type MeetingLens struct {
	// Meetings are the dated meeting records, soonest first (ties by id).
	Meetings []meeting.Meeting
	// Hits are the matched notices not held as meeting records.
	Hits []search.Hit
	// Replaced counts the matched notices listed as their meeting record.
	Replaced int
	// Matched counts the meeting records in the window (the browse's
	// total) plus the matched notices (the engine's count) less those
	// listed as their meeting; with keywords, the matched notices.
	Matched int
	// MatchedIsLowerBound is set when the notice count is (the engine
	// stopped counting, FilterResult.TotalIsLowerBound).
	MatchedIsLowerBound bool
	// Page is the browse's first page: applied filters, coverage, scope
	// (zero when keywords apply and no browse ran).
	Page meeting.Page
	// KeywordsOnly is set when the meeting records are limited to those
	// read from notices the keywords matched.
	KeywordsOnly bool
	// Rule says in plain words what was done.
	Rule string
}

// Rules of MeetingLens, stated in scopes, feeds and digests.
const (
	MeetingRule = "Meetings lens: meeting records (Council Legistar events, community-board calendars, City Record hearing notices) " +
		"dated from today to %d days ahead, one per source meeting, soonest first; a hearing notice held as a meeting record is " +
		"listed once, as that meeting; notices of the lens not held as meetings are listed as notices."
	MeetingKeywordRule = "Meetings lens with keywords: only City Record notices hold searchable text, so the meeting records are those " +
		"read from the notices the keywords matched; Council and community-board meetings are not keyword-matched."
)

// WatchMeetings bounds the meeting records a watch reads each run: the
// soonest upcoming ones (one browse page); a meeting further out is
// delivered when it comes within them.
const WatchMeetings = meeting.MaxLimit

// filterMeetings applies the meetings lens to res, the filter's notice result,
// within the filter's window. ok is false (and res is used as is) when the
// filter is not on the meetings lens or no meeting record is held. limit
// bounds the meeting records read.
func filterMeetings(ctx context.Context, f watch.Filter, rd watch.Readers, res FilterResult, now time.Time, limit int) (MeetingLens, bool, error) {
	rs := rd.Search
	if f.Lens != record.LensMeetings {
		return MeetingLens{}, false, nil
	}
	if held, err := search.Find(ctx, rs, meeting.Kind, search.RecordQuery{Limit: 1}); err != nil || held.Total == 0 {
		return MeetingLens{}, false, err // no meeting records held: the notices as they are
	}
	out := MeetingLens{}
	byID := map[string]meeting.Meeting{}
	// the window the filter states (and its confirmation says): meeting
	// records outside it are not the watch's
	q := f.Compile(now)
	winFrom, winTo := q.EventFrom, q.EventTo
	// the meetings read from the matched notices themselves
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, meeting.HearingID(h.Notice.RequestID))
	}
	if len(ids) > 0 {
		p, err := search.Find(ctx, rs, meeting.Kind, search.RecordQuery{IDs: ids, Limit: len(ids)})
		if err != nil {
			return out, false, err
		}
		for _, m := range p.Items {
			byID[m.ID] = m
		}
	}
	for _, h := range res.Hits {
		if _, held := byID[meeting.HearingID(h.Notice.RequestID)]; held {
			out.Replaced++
		} else {
			out.Hits = append(out.Hits, h)
		}
	}
	out.MatchedIsLowerBound = res.TotalIsLowerBound
	out.KeywordsOnly = len(f.AnyOf)+len(f.Phrases)+len(f.Exclude)+len(f.Vendors)+len(f.Boroughs) > 0
	if out.KeywordsOnly {
		out.Rule = MeetingKeywordRule
		out.Matched = res.Total
	} else {
		out.Rule = fmt.Sprintf(MeetingRule, meeting.FeedWindowDays)
		// the filter's own window (from, until, within) as its notices
		// get it (Compile), within the feed's window from today
		from, to := winFrom, winFrom.AddDate(0, 0, meeting.FeedWindowDays)
		if !winTo.IsZero() && winTo.Before(to) {
			to = winTo
		}
		if to.Before(from) {
			to = from // an empty window: nothing from the browse is kept below
		}
		flt := meeting.Filter{From: from.Format("2006-01-02"), To: to.Format("2006-01-02"), AgencyIDs: f.AgencyIDs}
		svc := rd.Meetings // the window is explicit: the service's clock is not read
		cursor := ""
		for read := 0; read < limit; {
			pg, err := svc.Browse(ctx, flt, cursor, min(meeting.MaxLimit, limit-read))
			if err != nil {
				return out, false, err
			}
			if cursor == "" {
				out.Page = pg
			}
			for _, m := range pg.Meetings {
				byID[m.ID] = m
			}
			read += len(pg.Meetings)
			if cursor = pg.NextCursor; cursor == "" {
				break
			}
		}
		out.Matched = out.Page.Total + res.Total - out.Replaced
	}
	for _, m := range byID {
		start, _, dated := m.DatedStart()
		if !dated || start.Before(winFrom) || (!winTo.IsZero() && !start.Before(winTo.AddDate(0, 0, 1))) {
			continue
		}
		out.Meetings = append(out.Meetings, m)
	}
	slices.SortFunc(out.Meetings, func(a, b meeting.Meeting) int {
		sa, _, _ := a.DatedStart()
		sb, _, _ := b.DatedStart()
		if c := sa.Compare(sb); c != 0 {
			return c
		}
		if a.ID < b.ID {
			return -1
		}
		if a.ID > b.ID {
			return 1
		}
		return 0
	})
	if len(out.Meetings) > limit {
		out.Meetings = out.Meetings[:limit]
	}
	return out, true, nil
}

// MeetingPreview is the meetings block of a watch preview: the meeting
// records a meetings-lens watch follows now, as its digests would show
// them.
type MeetingPreview struct {
	// Total counts the meeting records followed now (in the window, or
	// read from the matched notices when keywords apply).
	Total int `json:"total"`
	// Meetings are the soonest, at most the preview's bound.
	Meetings []MeetingItem `json:"meetings"`
	Rule     string        `json:"rule"`
}

// MeetingItem is one meeting as a preview or digest shows it: its dated
// start, its four facts (states; the permalink has their evidence) and
// its permalink.
type MeetingItem struct {
	ID         string `json:"id"`
	Title      string `json:"title"`
	Body       string `json:"body"`
	Date       string `json:"date"`
	Start      string `json:"start,omitempty"` // RFC 3339, New York time; empty when the start is unknown
	StartKnown bool   `json:"start_known"`
	When       string `json:"when"`
	Held       string `json:"held"`
	Observed   string `json:"observed"`
	Minutes    string `json:"minutes"`
	Notice     string `json:"notice_link"`
	Attendance string `json:"attendance"`
	Permalink  string `json:"permalink"`
	Route      string `json:"route"`
}

// Preview is the lens's meetings block: the first n meetings, linked
// under base.
func (ml MeetingLens) Preview(base string, n int) *MeetingPreview {
	total := len(ml.Meetings)
	if !ml.KeywordsOnly {
		total = max(ml.Page.Total, total)
	}
	p := &MeetingPreview{Total: total, Meetings: []MeetingItem{}, Rule: ml.Rule}
	for i, m := range ml.Meetings {
		if i == n {
			break
		}
		it := MeetingItem{ID: m.ID, Title: m.Title, Body: m.Body, Date: m.When.Date, StartKnown: m.When.StartKnown, When: m.StartLabel(),
			Held: m.Held.State, Observed: m.Observed.Date, Minutes: m.Minutes.State, Notice: m.Notice.State, Attendance: m.Place.Attendance,
			Permalink: meeting.Permalink(base, m.ID), Route: "/api/meetings/" + m.ID}
		if st, allDay, ok := m.DatedStart(); ok && !allDay {
			it.Start = st.Format(time.RFC3339)
		}
		p.Meetings = append(p.Meetings, it)
	}
	return p
}
