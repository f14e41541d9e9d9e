package land

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Hearings of a project (issue 48, item 1). Every hearing or meeting the
// link stage joined to a project — a City Record public hearing notice
// that names one of its application numbers (notice → land_project), a
// meeting record (Council, City Planning Commission, community board)
// whose agenda or text names them or the project id (meeting →
// land_project) — is a hearing of the project, read with its body, date,
// time, place, how to testify when the source prints it, its source and
// the link's method. The project read lists them next hearing first,
// then the later ones, then every past one newest first (orderHearings);
// follows, the project's calendar and the decision path read the same
// list.

// Hearing is one hearing of a project as its source records it.
type Hearing struct {
	// ID is stable for the hearing: "notice:<request id>" when a City
	// Record notice announces it (Notice: its request id, whether the
	// hearing was read from the notice or from a meeting record of it),
	// else "meeting:<meeting id>". Follows and the project's calendar
	// key the hearing by it.
	ID     string `json:"id"`
	Notice string `json:"notice,omitempty"`
	Body   string `json:"body"`
	Title  string `json:"title,omitempty"`
	// Date is the New York day (YYYY-MM-DD), empty when the source states
	// none; Time the start ("10:00 AM") only when the source states one;
	// Start the instant (midnight of Date when no time is stated).
	Date  string    `json:"date,omitempty"`
	Time  string    `json:"time,omitempty"`
	Start time.Time `json:"start,omitzero"`
	// Place is the place as printed, empty when none is stated.
	Place string `json:"place,omitempty"`
	// HowToTestify is the source's own sentence on taking part, when it
	// prints one.
	HowToTestify string `json:"how_to_testify,omitempty"`
	// Status: scheduled, cancelled, held (the source records it held) or
	// past (the day has passed; whether it was held is not recorded).
	Status string `json:"status"`
	// When is next (the first scheduled hearing from the read's day on),
	// upcoming, past, or undated.
	When string `json:"when"`
	// Source names the publisher; SourceKind and SourceID the record
	// (notice and request id, meeting and meeting id); URL its official
	// page when the source gives one.
	Source     string `json:"source"`
	SourceKind string `json:"source_kind"`
	SourceID   string `json:"source_id"`
	URL        string `json:"url,omitempty"`
	// LinkMethod, LinkConfidence and Evidence are the join's.
	LinkMethod     string   `json:"link_method"`
	LinkConfidence string   `json:"link_confidence"`
	Evidence       []string `json:"evidence"`
	// EvidenceKeys are Evidence as notes, one by one (none when the join
	// was stored before its notes: Evidence is then the record's text).
	EvidenceKeys record.Notes `json:"evidence_keys,omitempty"`
	// AlsoIn are other records of the same hearing (the meeting record
	// of a City Record notice).
	AlsoIn []string `json:"also_in,omitempty"`
}

// Hearing statuses and positions.
const (
	HearingScheduled = "scheduled"
	HearingCancelled = "cancelled"
	HearingHeld      = "held"
	HearingPast      = "past"

	HearingNext     = "next"
	HearingUpcoming = "upcoming"
	HearingPastWhen = "past"
	HearingUndated  = "undated"
)

// HearingsNote says how a project's hearings are found.
const HearingsNote = "City Record hearing notices and meetings that name the project's application numbers or id, and the hearings recorded in the history of a Council land-use item that names them, joined at index time: next first, then later, then past. Times and places as printed; one not listed may still be held."

// HearingReader reads the hearings of the meetings joined to a project
// (the meeting service implements it; nil: meetings are not read as
// hearings here).
type HearingReader interface {
	MeetingHearings(ctx context.Context, links []record.Link) ([]Hearing, error)
}

// CityRecordSource names City Record notices as a hearing's source.
const CityRecordSource = "The City Record (NYC Open Data dg92-zbpx)"

var (
	cancelledRE = regexp.MustCompile(`(?i)\b(cancel+ed|cancel+ation|postponed)\b`)
	testifyRE   = regexp.MustCompile(`(?i)[^.!?]*\b(testify|testimony|sign up to speak|register to speak)\b[^.!?]*[.!?]?`)
)

// maxTestify bounds the printed sentence on taking part a hearing keeps.
const maxTestify = 500

// HowToTestify is the first sentence of text on taking part (testify,
// testimony, sign up or register to speak), as printed; "" when none.
func HowToTestify(text string) string {
	s := strings.Join(strings.Fields(testifyRE.FindString(text)), " ")
	if len(s) > maxTestify {
		s = strings.ToValidUTF8(s[:maxTestify], "") + "…"
	}
	return s
}

// HistoryNote is the evidence of a hearing read from a Council item's
// history: the action, its body and its instant, as printed.
func HistoryNote(action, body string, at time.Time) record.Note {
	return record.N("land.hearing.history", action, body, at.In(record.NewYork).Format("2006-01-02 3:04 PM"))
}

// NoticeHearing is the hearing a City Record notice linked to the project
// records: its event date, time and place; ok is false when the notice
// states no event date (it is then listed as a notice, not a hearing).
func NoticeHearing(n record.Notice, l NoticeLink) (Hearing, bool) {
	if n.EventDate.IsZero() {
		return Hearing{}, false
	}
	h := Hearing{ID: "notice:" + n.RequestID, Notice: n.RequestID, Body: n.AgencyName, Title: n.Title, Place: n.EventPlace,
		HowToTestify: HowToTestify(n.Text), Status: HearingScheduled, Source: CityRecordSource,
		SourceKind: record.RefNotice, SourceID: n.RequestID, URL: n.OfficialURL,
		LinkMethod: l.Method, LinkConfidence: l.Confidence, Evidence: l.Evidence, EvidenceKeys: l.EvidenceKeys.Clone()}
	if h.Body == "" {
		h.Body = n.AgencyRaw
	}
	h.setStart(n.EventDate, true)
	if cancelledRE.MatchString(n.Title) {
		h.Status = HearingCancelled
	}
	return h, true
}

// setStart sets the date, time and instant of t (New York); a time of
// midnight, or one the source does not state, is no time.
func (h *Hearing) setStart(t time.Time, timeStated bool) {
	ny := t.In(record.NewYork)
	h.Start, h.Date = ny, ny.Format("2006-01-02")
	if timeStated && (ny.Hour() != 0 || ny.Minute() != 0) {
		h.Time = ny.Format("3:04 PM")
	}
}

// SetStart is setStart for a hearing read from another record kind.
func (h *Hearing) SetStart(t time.Time, timeStated bool) { h.setStart(t, timeStated) }

// WhenText is the hearing's day and time in words ("2026-12-16 10:00
// AM"; the day alone when no time is stated).
func (h Hearing) WhenText() string {
	return strings.TrimSpace(h.Date + " " + h.Time)
}

// orderHearings marks each hearing past, next, upcoming or undated at now
// and orders them: the next first, then the later ones, then the past
// ones newest first, then the undated. A scheduled hearing whose day has
// passed reads past.
func orderHearings(hs []Hearing, now time.Time) []Hearing {
	today := now.In(record.NewYork).Format("2006-01-02")
	for i := range hs {
		switch {
		case hs[i].Date == "":
			hs[i].When = HearingUndated
		case hs[i].Date < today:
			hs[i].When = HearingPastWhen
			if hs[i].Status == HearingScheduled {
				hs[i].Status = HearingPast
			}
		default:
			hs[i].When = HearingUpcoming
		}
	}
	rank := map[string]int{HearingUpcoming: 0, HearingPastWhen: 1, HearingUndated: 2}
	slices.SortStableFunc(hs, func(a, b Hearing) int {
		if ra, rb := rank[a.When], rank[b.When]; ra != rb {
			return ra - rb
		}
		c := a.Start.Compare(b.Start)
		if a.When == HearingPastWhen {
			c = -c
		}
		if c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	for i := range hs {
		if hs[i].When == HearingUpcoming && hs[i].Status != HearingCancelled {
			hs[i].When = HearingNext
			break
		}
	}
	return hs
}

// NextHearing is the project's next hearing (nil when none is scheduled
// from the read's day on).
func (r ProjectRead) nextHearing() *Hearing {
	for i := range r.Hearings {
		if r.Hearings[i].When == HearingNext {
			h := r.Hearings[i]
			return &h
		}
	}
	return nil
}

// hearings builds the project's hearings from the notices linked to it
// and the meetings joined to it (s.Meetings). A hearing announced by a
// City Record notice is listed once: read from the notice when the notice
// is linked (a meeting record of it is named in AlsoIn and says whether
// it was held or not), else from the meeting.
//
// The hearings an event's own history records (events, eventHearings: a
// Council land-use item's hearing at a Legistar event) are added last: one
// of a meeting already listed (the same Legistar event) is named in that
// hearing's AlsoIn and makes it held.
func (s *Service) hearings(ctx context.Context, notices map[string]record.Notice, links []NoticeLink, meetings []record.Link, events []Hearing, now time.Time) ([]Hearing, error) {
	out := []Hearing{}
	at := map[string]int{}
	for _, l := range links {
		n, ok := notices[l.RequestID]
		if !ok {
			continue
		}
		if h, ok := NoticeHearing(n, l); ok {
			at[h.ID] = len(out)
			out = append(out, h)
		}
	}
	// add lists a hearing read from another record, or names that record
	// in the hearing already listed with its id; a record that says the
	// hearing was held or cancelled says it for the hearing
	add := func(m Hearing) {
		i, ok := at[m.ID]
		if !ok {
			at[m.ID] = len(out)
			out = append(out, m)
			return
		}
		h := &out[i]
		h.AlsoIn = append(h.AlsoIn, m.SourceKind+":"+m.SourceID)
		if (h.Status == HearingScheduled || h.Status == HearingPast) && m.Status != HearingScheduled {
			h.Status = m.Status
		}
	}
	if s.Meetings != nil && len(meetings) > 0 {
		ms, err := s.Meetings.MeetingHearings(ctx, meetings)
		if err != nil {
			return out, err
		}
		for _, m := range ms {
			add(m)
		}
	}
	for _, e := range events {
		add(e)
	}
	return orderHearings(out, now), nil
}

var (
	// hearingActionRE is a Council action that is a hearing ("Hearing
	// Held by Committee", "Hearing on P-C Item by Comm").
	hearingActionRE = regexp.MustCompile(`(?i)\bhearings?\b`)
	// notHeldActionRE is a hearing action that says it did not take place.
	notHeldActionRE = regexp.MustCompile(`(?i)\b(defer+ed|cancel+ed|postponed|withdrawn)\b`)
)

// eventHearings are the hearings the events' own histories record: each
// step of a Council land-use item whose action is a hearing is a hearing
// of the project, held at the step's date and time before the step's body
// (cancelled when the action says it was deferred, cancelled or
// postponed), one per session: "meeting:<id>" when the step names its
// Legistar event (so the meeting record of that session, when held,
// is the same hearing), else keyed by the event and the step's instant.
// The join is the event's (links: its link record, by event id).
func eventHearings(es []Event, links map[string]record.Link) []Hearing {
	var out []Hearing
	seen := map[string]bool{}
	for _, e := range es {
		l, ok := links[e.ID]
		if !ok {
			continue
		}
		for _, st := range e.Steps {
			if !hearingActionRE.MatchString(st.Action) || st.Date.IsZero() {
				continue
			}
			id := "meeting:" + st.Meeting
			if st.Meeting == "" {
				id = "event:" + e.ID + "@" + st.Date.Format(time.RFC3339)
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			body := st.Body
			if body == "" {
				body = e.Body
			}
			h := Hearing{ID: id, Body: body, Title: e.Name, Status: HearingHeld, Source: e.SourceLabel,
				SourceKind: record.RefLandEvent, SourceID: e.ID, URL: e.URL,
				LinkMethod: l.Method, LinkConfidence: l.Confidence,
				Evidence: []string{l.Evidence}}
			history := HistoryNote(st.Action, body, st.Date)
			h.Evidence = append(h.Evidence, history.String())
			if l.EvidenceKey != nil {
				h.EvidenceKeys = record.Notes{l.EvidenceKey.Clone(), history}
			}
			if notHeldActionRE.MatchString(st.Action) {
				h.Status = HearingCancelled
			}
			h.setStart(st.Date, true)
			out = append(out, h)
		}
	}
	return out
}
