package meeting

import (
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/record"
)

// FeedWindowDays is the window of the meeting feeds and of meetings-lens
// watches when no end is given: today to today + FeedWindowDays.
const FeedWindowDays = 180

// SourceHearings is the source of the meetings read from City Record
// hearing notices; such a meeting's id is HearingID(request id).
const SourceHearings = "cityrecord-hearings"

// HearingID is the id of the meeting read from City Record notice
// requestID.
func HearingID(requestID string) string { return SourceHearings + ":" + requestID }

// IsID reports whether id has the shape of a meeting id (one of IDSources,
// a colon, the source id), which no City Record request id has.
func IsID(id string) bool {
	src, rest, ok := strings.Cut(id, ":")
	return ok && rest != "" && slices.Contains(IDSources, src)
}

// Permalink is the meeting's page under base.
func Permalink(base, id string) string { return base + "/meetings/" + url.PathEscape(id) }

// FactLines are the four facts, each on its own line with its evidence,
// then the attendance: what a calendar event's description and a digest
// item show.
func (m Meeting) FactLines() []string {
	obs := m.Observed.Date
	if obs == "" {
		obs = "unknown"
	}
	notice := "City Record notice: " + m.Notice.State + " (" + m.Notice.Evidence + ")"
	if m.Notice.URL != "" && m.Notice.State == NoticeLinked {
		notice += " " + m.Notice.URL
	}
	return []string{
		"Held: " + m.Held.State + " (" + m.Held.Evidence + ")",
		"Observed: " + obs + " (" + m.Observed.Evidence + ")",
		"Minutes: " + m.Minutes.State + " (" + m.Minutes.Evidence + ")",
		notice,
		"Attendance: " + m.Place.Attendance,
	}
}

// DatedStart is the meeting's dated start: the New York instant when the
// start is known, else the New York day (allDay). ok is false for a
// meeting with no date, which is never a calendar event.
func (m Meeting) DatedStart() (start time.Time, allDay, ok bool) {
	if m.When.StartKnown && m.When.Start != nil {
		return m.When.Start.In(record.NewYork), false, true
	}
	if m.When.Date == "" {
		return time.Time{}, false, false
	}
	d, err := time.ParseInLocation("2006-01-02", m.When.Date, record.NewYork)
	if err != nil {
		return time.Time{}, false, false
	}
	return d, true, true
}

// StartLabel is the dated start in words ("Tue Aug 18, 2026 1:00 PM New
// York time", or the day with "start time unknown").
func (m Meeting) StartLabel() string {
	st, allDay, ok := m.DatedStart()
	switch {
	case !ok:
		return "date unknown"
	case allDay:
		return st.Format("Mon Jan 2, 2006") + ", start time unknown"
	}
	return st.Format("Mon Jan 2, 2006 3:04 PM") + " New York time"
}

// FeedItem is the one meeting → feed item rule of every feed that carries
// meetings (/meetings.ics and the meetings lens of /feed.*): the item
// links the meeting's permalink under base, and its calendar event is
// timed in America/New_York when the start is known, all-day otherwise;
// the description holds the four facts and the permalink. ok is false
// for a meeting with no date (never an event).
func FeedItem(base string, m Meeting) (it feed.Item, ok bool) {
	st, allDay, ok := m.DatedStart()
	if !ok {
		return feed.Item{}, false
	}
	link := Permalink(base, m.ID)
	lines := m.FactLines()
	if allDay {
		lines = append(lines, "Start time unknown: "+m.When.Note)
	}
	if m.Place.Text != "" {
		lines = append(lines, "Place: "+m.Place.Text)
	}
	lines = append(lines, "", "On Recordwatch: "+link)
	if m.SourceURL != "" {
		lines = append(lines, "Source: "+m.SourceURL)
	}
	desc := strings.Join(lines, "\n")
	title := m.Title
	if m.Held.State == NotHeld {
		title = "Not held (as recorded): " + m.Title
	}
	it = feed.Item{ID: link, Title: title, URL: link, SourceURL: m.SourceURL,
		Summary: m.Body + " · " + m.StartLabel(), Content: desc,
		Categories: []string{"Meeting", m.BodyKind, m.SourceLabel}, Extension: m}
	if !m.Observed.At.IsZero() {
		it.Published, it.Updated = m.Observed.At, m.Observed.At
	}
	it.Event = &feed.Event{UID: m.ID + "@recordwatch", Summary: title, Location: m.Place.Text,
		Categories: []string{"Meeting", m.BodyKind}, Start: st, AllDay: allDay, Description: desc,
		Cancelled: m.Held.State == NotHeld} // recorded as not held: STATUS:CANCELLED
	return it, true
}
