package link

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Meeting ↔ City Record hearing notice links. A candidate notice is a
// hearing notice (held, or a hearing row of the same batch) whose event
// is on the meeting's New York day. Three things are compared:
//
//   - body: the notice's agency resolves (crosswalk) to the meeting's
//     agency, or the meeting's body name appears in the notice's title or
//     text;
//   - time: the notice's event time equals the meeting's start;
//   - place: the street number and street word of the meeting's place
//     appear in the notice's place or text.
//
// Linked when the body matches and the time or place does (method
// event_date_body_time or event_date_body_place; confidence high when all
// three match, medium otherwise). Not linked when hearing notices are held
// for that day, none matches the body, and notices of the body's agency
// are held on some day (the day is covered and the body is one whose
// notices the retained set holds, so its notice would have been seen).
// Unknown otherwise: no notice held for the day, no notice of the agency
// held at all (evidence too thin), or a body match whose time and place
// both differ or are not stated.

// MeetingNoticeMethod names of a link.
const (
	MethodMeetingBodyTime  = "event_date_body_time"
	MethodMeetingBodyPlace = "event_date_body_place"
)

// maxDayNotices bounds the notices read for one day.
const maxDayNotices = 100

// hearingSections are the City Record sections that announce hearings.
var hearingSections = []string{"Public Hearings and Meetings", "Agency Rules"}

// candidate is a notice a meeting may link to.
type candidate struct {
	RequestID string
	AgencyID  string
	Title     string
	Text      string
	Place     string
	Event     time.Time
}

// Meetings runs the link stage of meetings in place: each body that is an
// agency gets its crosswalk id (when the crosswalk knows it), and each
// meeting not read from a notice gets its notice link decided against
// the hearing notices held (env.Notices) and the hearing rows of the same
// batch (among ms and others, the batch's meetings of other sources, which
// are read and not changed). Errors are reads that failed (the meetings
// keep state unknown).
func Meetings(ctx context.Context, env Env, ms []meeting.Meeting, others ...meeting.Meeting) []error {
	var errs []error
	resolve := func(ref *meeting.AgencyRef) {
		if ref == nil {
			return
		}
		a := env.Linker.Crosswalk.Resolve(ref.Raw)
		if a.Method == entity.MethodOwn {
			ref.ID, ref.Name, ref.Method = "", "", a.Method
		} else {
			ref.ID, ref.Name, ref.Method = a.ID, a.Name, a.Method
		}
	}
	for i := range ms {
		resolve(ms[i].Agency)
	}
	batch := map[string][]candidate{}
	batchAgencies := map[string]bool{}
	for _, m := range append(slices.Clone(ms), others...) {
		if m.Notice.Method == "source" && m.When.StartKnown && m.When.Start != nil {
			c := candidate{RequestID: m.Notice.RequestID, Title: m.Title, Place: m.Place.Text, Event: *m.When.Start}
			if m.Agency != nil {
				ref := *m.Agency
				resolve(&ref)
				c.AgencyID = ref.ID
				batchAgencies[c.AgencyID] = true
			}
			batch[m.When.Date] = append(batch[m.When.Date], c)
		}
	}
	// publishes reports whether any notice of the meeting's agency is held
	// (any day): only then can notices of other bodies on its day show that
	// it was not noticed.
	published := map[string]bool{}
	publishes := func(m meeting.Meeting) (bool, error) {
		if m.Agency == nil || m.Agency.ID == "" {
			return false, nil
		}
		id := m.Agency.ID
		if v, ok := published[id]; ok {
			return v, nil
		}
		v := batchAgencies[id]
		if !v && env.Notices != nil {
			res, err := env.Notices.Search(ctx, search.Query{AgencyIDs: []string{id}, Limit: 1})
			if err != nil {
				return false, err
			}
			v = res.Total > 0
		}
		published[id] = v
		return v, nil
	}
	cache := map[string][]candidate{}
	for i := range ms {
		m := &ms[i]
		if m.Notice.Method == "source" {
			continue
		}
		if m.When.Date == "" {
			m.Notice = meeting.NewNotice(meeting.NoticeUnknown, record.N("meet.notice.no_date"))
			continue
		}
		held, ok := cache[m.When.Date]
		if !ok && env.Notices != nil {
			var err error
			held, err = dayNotices(ctx, env.Notices, m.When.Date)
			if err != nil {
				errs = append(errs, fmt.Errorf("meeting %s: reading notices of %s: %w", m.ID, m.When.Date, err))
				m.Notice = meeting.NewNotice(meeting.NoticeUnknown, record.N("meet.notice.unreadable", err.Error()))
				continue
			}
			cache[m.When.Date] = held
		}
		cands := append(slices.Clone(held), batch[m.When.Date]...)
		m.Notice = decideNotice(*m, uniq(cands), env.Notices != nil)
		if m.Notice.State == meeting.NoticeNotLinked {
			pub, err := publishes(*m)
			if err != nil {
				errs = append(errs, fmt.Errorf("meeting %s: reading the notices of its agency: %w", m.ID, err))
			}
			if !pub {
				m.Notice.State = meeting.NoticeUnknown
				m.Notice.AddClause(record.N("meet.notice.agency_none"))
			} else {
				m.Notice.AddClause(record.N("meet.notice.agency_other_days"))
			}
		}
	}
	if env.Links != nil {
		meetingLinks(env, ms)
	}
	if err := meetingLandLinks(ctx, env, ms); err != nil {
		errs = append(errs, fmt.Errorf("meetings: joins to the land projects held not found: %w", err))
	}
	return errs
}

func uniq(cs []candidate) []candidate {
	seen := map[string]bool{}
	var out []candidate
	for _, c := range cs {
		if !seen[c.RequestID] {
			seen[c.RequestID] = true
			out = append(out, c)
		}
	}
	return out
}

// dayNotices reads the hearing notices held whose event is on day.
func dayNotices(ctx context.Context, r search.Reader, day string) ([]candidate, error) {
	from, err := time.ParseInLocation("2006-01-02", day, record.NewYork)
	if err != nil {
		return nil, err
	}
	res, err := r.Search(ctx, search.Query{Sections: hearingSections, EventFrom: from, EventTo: from, Sort: search.SortEvent, Limit: maxDayNotices})
	if err != nil {
		return nil, err
	}
	out := make([]candidate, 0, len(res.Hits))
	for _, h := range res.Hits {
		n := h.Notice
		if n.EventDate.IsZero() || meeting.Day(n.EventDate) != day {
			continue
		}
		out = append(out, candidate{RequestID: n.RequestID, AgencyID: n.AgencyID, Title: n.Title, Text: n.Text, Place: n.EventPlace, Event: n.EventDate})
	}
	return out, nil
}

var (
	streetNumRE = regexp.MustCompile(`\b(\d{1,5})\s+([A-Za-z]+)`)
	cbNameRE    = regexp.MustCompile(`^(Bronx|Brooklyn|Manhattan|Queens|Staten Island) Community Board (\d+)$`)
)

// decideNotice is the notice link of one meeting among the candidates of
// its day.
func decideNotice(m meeting.Meeting, cands []candidate, heldRead bool) meeting.NoticeLink {
	ids := make([]string, 0, len(cands))
	for _, c := range cands {
		ids = append(ids, c.RequestID)
	}
	if len(cands) == 0 {
		why := record.N("meet.notice.none_held", m.When.Date)
		if !heldRead {
			why = record.N("meet.notice.none_readable")
		}
		return meeting.NewNotice(meeting.NoticeUnknown, why, record.N("meet.notice.too_thin"))
	}
	var best *meeting.NoticeLink
	bodyOnly := []string{}
	for _, c := range cands {
		var matched []string
		if bodyMatches(m, c) {
			matched = append(matched, "body")
		} else {
			continue
		}
		matched = append(matched, "date")
		if m.When.StartKnown && m.When.Start != nil && !c.Event.IsZero() && c.Event.Equal(*m.When.Start) {
			matched = append(matched, "time")
		}
		if placeMatches(m.Place.Text, c.Place+" "+c.Text) {
			matched = append(matched, "place")
		}
		if len(matched) == 2 {
			bodyOnly = append(bodyOnly, c.RequestID)
			continue
		}
		l := meeting.NoticeLink{State: meeting.NoticeLinked, RequestID: c.RequestID, URL: record.OfficialURL(c.RequestID), Matched: matched, Candidates: ids, NoticesSeen: len(cands)}
		l.Method, l.Confidence = MethodMeetingBodyPlace, meeting.Medium
		if slices.Contains(matched, "time") {
			l.Method = MethodMeetingBodyTime
		}
		if len(matched) == 4 {
			l.Confidence = meeting.High
		}
		l.Say(record.N(sameKeys[strings.Join(matched, ", ")], c.RequestID))
		if best == nil || len(l.Matched) > len(best.Matched) {
			best = &l
		}
	}
	if best != nil {
		return *best
	}
	if len(bodyOnly) > 0 {
		l := meeting.NoticeLink{State: meeting.NoticeUnknown, Candidates: ids, NoticesSeen: len(cands)}
		l.Say(record.N("meet.notice.body_only", strings.Join(bodyOnly, ", ")))
		return l
	}
	l := meeting.NoticeLink{State: meeting.NoticeNotLinked, Candidates: ids, NoticesSeen: len(cands)}
	l.Say(record.N("meet.notice.none_names", len(cands), m.When.Date))
	return l
}

// sameKeys are the notes of a link by the fields it matched, in order
// (body and date always; then time, place or both).
var sameKeys = map[string]string{
	"body, date":              "meet.notice.same.body_date",
	"body, date, time":        "meet.notice.same.body_date_time",
	"body, date, place":       "meet.notice.same.body_date_place",
	"body, date, time, place": "meet.notice.same.body_date_time_place",
}

// bodyMatches: the same agency (crosswalk id), or the body's name in the
// notice's title or text.
func bodyMatches(m meeting.Meeting, c candidate) bool {
	if m.Agency != nil && m.Agency.ID != "" && c.AgencyID != "" && m.Agency.ID == c.AgencyID && m.BodyKind == meeting.BodyAgency {
		return true
	}
	body := strings.ToLower(strings.TrimSpace(m.Body))
	if body == "" {
		return false
	}
	hay := strings.ToLower(c.Title + " " + c.Text)
	if len(body) >= 8 && strings.Contains(hay, body) { // a short name ("Finance") alone is too common
		return true
	}
	// "Bronx Community Board 9" is also written "Community Board No. 9" or
	// "CB #9", with the borough named
	if m.BodyKind == meeting.BodyCommunityBoard {
		if sm := cbNameRE.FindStringSubmatch(m.Body); sm != nil && strings.Contains(hay, strings.ToLower(sm[1])) {
			re := regexp.MustCompile(`(?i)\b(?:community board|cb)\s*(?:no\.?|#|number)?\s*0?` + sm[2] + `\b`)
			if re.MatchString(hay) {
				return true
			}
		}
	}
	// "Committee on Finance" is written "Finance" in Legistar's body name
	if m.BodyKind == meeting.BodyCouncil && strings.Contains(hay, "council") && strings.Contains(hay, "committee on "+body) {
		return true
	}
	return false
}

// placeMatches: a street number and the word after it, from the
// meeting's place, appear in the notice.
func placeMatches(place, hay string) bool {
	sm := streetNumRE.FindStringSubmatch(place)
	if sm == nil {
		return false
	}
	return strings.Contains(strings.ToLower(hay), strings.ToLower(sm[1]+" "+sm[2]))
}
