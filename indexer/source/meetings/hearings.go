package meetings

import (
	"encoding/json"
	"fmt"
	"html"
	"regexp"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// City Record hearing source: notices of the Public Hearings and Meetings
// and Agency Rules sections that carry an event date (dg92-zbpx).
const (
	HearingSource = meeting.SourceHearings
	HearingLabel  = "City Record hearing notices with event dates (NYC Open Data dg92-zbpx)"
)

// hearingRow is one dg92-zbpx row: every value a string, except
// document_links and source_links, which cached files hold as lists.
type hearingRow map[string]any

// get is a field by its column name, or by the key the City Record
// reader writes (crol.Key: lower case, letters and digits only).
func (r hearingRow) get(k string) any {
	if v, ok := r[k]; ok {
		return v
	}
	return r[strings.ReplaceAll(k, "_", "")]
}

func (r hearingRow) str(k string) string {
	switch v := r.get(k).(type) {
	case string:
		return strings.TrimSpace(v)
	case nil:
		return ""
	default:
		return strings.TrimSpace(fmt.Sprint(v))
	}
}

// list is a field that is a JSON list, or a text field of
// whitespace- or comma-separated URLs (SODA documents document_links as
// text).
func (r hearingRow) list(k string) []string {
	switch v := r.get(k).(type) {
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok && strings.TrimSpace(s) != "" {
				out = append(out, strings.TrimSpace(s))
			}
		}
		return out
	case string:
		return urlRE.FindAllString(v, -1)
	}
	return nil
}

var (
	urlRE     = regexp.MustCompile(`https?://[^\s"'<>,]+`)
	zoomRE    = regexp.MustCompile(`(?i)\b(?:https?://)?(?:[a-z0-9-]+\.)?zoom\.us/[^\s"'<>,]+`)
	webexRE   = regexp.MustCompile(`(?i)\bhttps?://[a-z0-9.-]*webex\.com/[^\s"'<>,]+`)
	tagRE     = regexp.MustCompile(`<[^>]*>`)
	spaceRE   = regexp.MustCompile(`\s+`)
	floatTime = "2006-01-02T15:04:05.000"
)

// plain is HTML text as plain text.
func plain(s string) string {
	s = tagRE.ReplaceAllString(s, " ")
	s = html.UnescapeString(s)
	s = strings.ReplaceAll(s, "\u001a", "–")
	return strings.TrimSpace(spaceRE.ReplaceAllString(s, " "))
}

// parseHearingFile reads a JSON array of rows, or a wrapper object with
// the rows under "notices" or "rows".
func parseHearingFile(name string, data []byte) ([]hearingRow, error) {
	var rows []hearingRow
	if err := json.Unmarshal(data, &rows); err == nil {
		return rows, nil
	}
	var w map[string]json.RawMessage
	if err := json.Unmarshal(data, &w); err != nil {
		return nil, fmt.Errorf("%s: not a JSON array of City Record rows: %w", name, err)
	}
	for _, k := range []string{"notices", "rows", "data"} {
		if raw, ok := w[k]; ok {
			if err := json.Unmarshal(raw, &rows); err != nil {
				return nil, fmt.Errorf("%s: %s is not a list of rows: %w", name, k, err)
			}
			return rows, nil
		}
	}
	return nil, fmt.Errorf("%s: no rows (expected a JSON array, or notices/rows in a wrapper)", name)
}

// asOfRE reads the snapshot date a cached file's name records.
var asOfRE = regexp.MustCompile(`asof_(\d{4}-\d{2}-\d{2})`)

// hearingObservation is when rows of a file were observed: the as-of
// date its name records, else no earlier than its latest publication.
func hearingObservation(name string, rows []hearingRow) meeting.Observation {
	if m := asOfRE.FindStringSubmatch(name); m != nil {
		if t, err := time.ParseInLocation("2006-01-02", m[1], record.NewYork); err == nil {
			return meeting.NewObservation(t.UTC(), m[1], record.N("meet.hearings.observed.asof", m[1]))
		}
	}
	var latest time.Time
	for _, r := range rows {
		if t, err := time.ParseInLocation(floatTime, r.str("start_date"), record.NewYork); err == nil && t.After(latest) {
			latest = t
		}
	}
	if latest.IsZero() {
		return meeting.NewObservation(time.Time{}, "", record.N("meet.hearings.observed.none"))
	}
	return meeting.NewObservation(latest.UTC(), meeting.Day(latest), record.N("meet.hearings.observed.latest"))
}

// hearingMeeting builds the meeting a hearing notice announces. Its
// notice link is the notice itself (method source, high).
func hearingMeeting(r hearingRow, obs meeting.Observation) (meeting.Meeting, error) {
	id := r.str("request_id")
	if id == "" {
		return meeting.Meeting{}, fmt.Errorf("rejected: the row has no request_id")
	}
	ev := r.str("event_date")
	st, err := time.ParseInLocation(floatTime, ev, record.NewYork)
	if err != nil {
		if st, err = time.ParseInLocation("2006-01-02T15:04:05", ev, record.NewYork); err != nil {
			return meeting.Meeting{}, fmt.Errorf("notice %s rejected: event_date %q is not a date", id, ev)
		}
	}
	agency := r.str("agency_name")
	text := plain(r.str("additional_description_1"))
	m := meeting.Meeting{
		ID: HearingSource + ":" + id, Source: HearingSource, SourceLabel: HearingLabel, SourceID: id,
		SourceURL: record.OfficialURL(id),
		Body:      agency, BodyKind: meeting.BodyAgency, Agency: &meeting.AgencyRef{Raw: agency},
		Title:    plain(r.str("short_title")),
		Observed: obs,
		Raw: map[string]string{"section_name": r.str("section_name"), "type_of_notice_description": r.str("type_of_notice_description"),
			"start_date": r.str("start_date"), "event_date": ev},
	}
	if m.Title == "" {
		m.Title = agency + " hearing"
	}
	// the land-use applications and projects it names (its title, then
	// its text): the link stage joins it to those projects
	m.AddApplications(meeting.ApplicationsIn(meeting.WhereText, m.Title)...)
	m.AddApplications(meeting.ApplicationsIn(meeting.WhereText, text)...)
	m.When = meeting.When{Date: meeting.Day(st), TimeZone: meeting.TimeZone}
	if st.Hour() == 0 && st.Minute() == 0 {
		m.When.Say(record.N("meet.hearings.when.day_only"))
	} else {
		m.When.Start, m.When.StartKnown = &st, true
		m.When.Say(record.N("meet.hearings.when.known"))
	}
	// place: the address fields, when the row has them
	var parts []string
	for _, k := range []string{"building_name", "street_address_1", "street_address_2"} {
		if v := r.str(k); v != "" {
			parts = append(parts, v)
		}
	}
	if c := r.str("city"); c != "" {
		parts = append(parts, strings.TrimSpace(c+", "+r.str("state")+" "+r.str("zip_code")))
	}
	m.Place.Text = strings.Join(parts, ", ")
	var links []string
	links = append(links, zoomRE.FindAllString(text, -1)...)
	links = append(links, webexRE.FindAllString(text, -1)...)
	for _, l := range r.list("source_links") {
		if zoomRE.MatchString(l) || webexRE.MatchString(l) {
			links = append(links, l)
		}
	}
	seen := map[string]bool{}
	for _, l := range links {
		if !strings.HasPrefix(l, "http") {
			l = "https://" + l
		}
		if !seen[l] {
			seen[l] = true
			m.Place.RemoteLinks = append(m.Place.RemoteLinks, meeting.NewLink(record.N("meet.link.remote"), l))
		}
	}
	low := strings.ToLower(text)
	remote := len(m.Place.RemoteLinks) > 0 || strings.Contains(low, "remotely") || strings.Contains(low, "via zoom")
	inPerson := m.Place.Text != "" || strings.Contains(low, "in-person") || strings.Contains(low, "in person")
	switch {
	case remote && (strings.Contains(low, "in-person or remotely") || (inPerson && !strings.Contains(low, "held remotely"))):
		m.Place.Attendance = meeting.Hybrid
		m.Place.Say(record.N("meet.hearings.place.hybrid"))
	case remote:
		m.Place.Attendance = meeting.Remote
		m.Place.Say(record.N("meet.hearings.place.remote"))
	case inPerson:
		m.Place.Attendance = meeting.InPerson
		m.Place.Say(record.N("meet.hearings.place.in_person"))
	default:
		m.Place.Attendance = meeting.AttendanceUnknown
		m.Place.Say(record.N("meet.hearings.place.unknown"))
	}
	if m.Place.Text == "" && strings.Contains(low, "city hall") && strings.Contains(low, "3rd floor") {
		m.Place.Text = "City Hall, 3rd floor (from the notice text)"
	}
	for _, l := range r.list("document_links") {
		m.Docs = append(m.Docs, meeting.Document{Kind: meeting.DocAttachment, URL: l}.Labelled(record.N("meet.doc.notice_attachment")))
	}
	m.Docs = append(m.Docs, meeting.Document{Kind: meeting.DocNotice, URL: record.OfficialURL(id)}.Labelled(record.N("meet.doc.notice", id)))
	m.Minutes = meeting.NewFact(meeting.MinutesFact(m.Docs, "").State, record.N("meet.hearings.minutes.none"))
	if !obs.At.IsZero() && st.After(obs.At) {
		m.Held = meeting.NewFact(meeting.HeldUnknown, record.N("meet.hearings.held.scheduled", obs.Date))
	} else {
		m.Held = meeting.NewFact(meeting.HeldUnknown, record.N("meet.hearings.held.unknown"))
	}
	m.Notice = meeting.NoticeLink{State: meeting.NoticeLinked, RequestID: id, URL: record.OfficialURL(id), Method: "source", Confidence: meeting.High,
		Matched: []string{"request_id"}}
	m.Notice.Say(record.N("meet.hearings.notice.itself", id))
	return m, nil
}
