package meetings

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Legistar source.
const (
	LegistarSource = "legistar"
	LegistarLabel  = "NYC Council events (Legistar)"
)

// CouncilAgency is the agency every Council body belongs to, resolved
// through the crosswalk by the link stage.
const CouncilAgency = "City Council"

// legistarEvent is one Council event as jehiah/legislator writes it (the
// Legistar Web API event with the "Event" prefix dropped and EventDate
// and EventTime merged into one Date with the New York offset). Live
// events are converted to this form (live.go).
type legistarEvent struct {
	ID                   int            `json:"ID"`
	GUID                 string         `json:"GUID"`
	BodyID               int            `json:"BodyID"`
	BodyName             string         `json:"BodyName"`
	Date                 time.Time      `json:"Date"`
	Location             string         `json:"Location"`
	VideoStatus          string         `json:"VideoStatus"`
	AgendaStatusName     string         `json:"AgendaStatusName"`
	MinutesStatusName    string         `json:"MinutesStatusName"`
	AgendaFile           string         `json:"AgendaFile"`
	MinutesFile          string         `json:"MinutesFile"`
	Comment              string         `json:"Comment"`
	VideoPath            string         `json:"VideoPath"`
	Media                string         `json:"Media"`
	InSiteURL            string         `json:"InSiteURL"`
	Items                []legistarItem `json:"Items"`
	AgendaLastPublished  time.Time      `json:"AgendaLastPublished"`
	MinutesLastPublished time.Time      `json:"MinutesLastPublished"`
	LastModified         time.Time      `json:"LastModified"`
	timeKnown            bool           // false when a live event's EventTime is empty
}

type legistarItem struct {
	ID         int               `json:"ID"`
	Title      string            `json:"Title"`
	MatterName string            `json:"MatterName"`
	RollCall   []json.RawMessage `json:"RollCall"`
}

// parseLegistarFile reads one event file.
func parseLegistarFile(name string, data []byte) (legistarEvent, error) {
	var ev legistarEvent
	if err := json.Unmarshal(data, &ev); err != nil {
		return ev, fmt.Errorf("%s: not a Legistar event: %w", name, err)
	}
	if ev.ID == 0 {
		return ev, fmt.Errorf("%s: rejected: the event has no ID", name)
	}
	if ev.BodyName == "" {
		return ev, fmt.Errorf("%s: rejected: event %d names no body", name, ev.ID)
	}
	// a midnight start is how a merged date without EventTime reads
	ny := ev.Date.In(record.NewYork)
	ev.timeKnown = !zeroTime(ev.Date) && (ny.Hour() != 0 || ny.Minute() != 0)
	return ev, nil
}

// zeroTime reports Go's zero time, which the files write for an unset
// timestamp ("0001-01-01T00:00:00Z").
func zeroTime(t time.Time) bool { return t.IsZero() || t.Year() <= 1 }

// legistarMeeting builds the meeting of an event observed at obs (with
// the evidence of that observation).
func legistarMeeting(ev legistarEvent, obs meeting.Observation) meeting.Meeting {
	m := meeting.Meeting{
		ID: LegistarSource + ":" + strconv.Itoa(ev.ID), Source: LegistarSource, SourceLabel: LegistarLabel,
		SourceID: strconv.Itoa(ev.ID), SourceURL: ev.InSiteURL,
		Body: strings.TrimSpace(ev.BodyName), BodyKind: meeting.BodyCouncil,
		Agency:   &meeting.AgencyRef{Raw: CouncilAgency},
		Comment:  strings.TrimSpace(ev.Comment),
		Observed: obs,
		Raw: map[string]string{
			"agenda_status": ev.AgendaStatusName, "minutes_status": ev.MinutesStatusName,
			"video_status": ev.VideoStatus, "body_id": strconv.Itoa(ev.BodyID), "guid": ev.GUID,
		},
	}
	m.Title = m.Body
	if m.Comment != "" {
		m.Title += " (" + m.Comment + ")"
	}
	m.When = meeting.When{TimeZone: meeting.TimeZone}
	if !zeroTime(ev.Date) {
		st := ev.Date.In(record.NewYork)
		m.When.Date = meeting.Day(st)
		if ev.timeKnown {
			m.When.Start, m.When.StartKnown = &st, true
			m.When.Say(record.N("meet.legistar.when.known"))
		} else {
			m.When.Say(record.N("meet.legistar.when.no_time"))
		}
	} else {
		m.When.Say(record.N("meet.legistar.when.no_date"))
	}
	if loc := strings.TrimSpace(ev.Location); loc != "" {
		m.Place = meeting.Place{Text: loc, Attendance: meeting.InPerson}
		m.Place.Say(record.N("meet.legistar.place.physical"))
	} else {
		m.Place = meeting.Place{Attendance: meeting.AttendanceUnknown}
		m.Place.Say(record.N("meet.legistar.place.none"))
	}
	pub := func(t time.Time) string {
		if zeroTime(t) {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	if ev.AgendaFile != "" {
		m.Docs = append(m.Docs, meeting.Document{Kind: meeting.DocAgenda, URL: ev.AgendaFile, Status: ev.AgendaStatusName, PublishedAt: pub(ev.AgendaLastPublished)}.Labelled(record.N("meet.doc.agenda")))
	}
	if ev.MinutesFile != "" {
		m.Docs = append(m.Docs, meeting.Document{Kind: meeting.DocMinutes, URL: ev.MinutesFile, Status: ev.MinutesStatusName, PublishedAt: pub(ev.MinutesLastPublished)}.Labelled(record.N("meet.doc.minutes")))
	}
	if ev.VideoPath != "" {
		m.Docs = append(m.Docs, meeting.Document{Kind: meeting.DocVideo, URL: ev.VideoPath, Status: ev.VideoStatus}.Labelled(record.N("meet.doc.video")))
	}
	if ev.Media != "" && ev.Media != ev.VideoPath {
		m.Docs = append(m.Docs, meeting.Document{Kind: meeting.DocVideo, URL: ev.Media}.Labelled(record.N("meet.doc.media")))
	}
	if ev.InSiteURL != "" {
		m.Docs = append(m.Docs, meeting.Document{Kind: meeting.DocAttachment, URL: ev.InSiteURL}.Labelled(record.N("meet.doc.legistar_detail")))
	}
	// the land-use applications the agenda names (the link stage joins
	// the meeting to their land projects)
	m.AddApplications(meeting.ApplicationsIn(meeting.WhereText, m.Title)...)
	for _, it := range ev.Items {
		text := strings.TrimSpace(it.MatterName)
		if t := strings.TrimSpace(it.Title); t != "" && t != text {
			text = strings.TrimPrefix(text+" — "+t, " — ")
		}
		m.AddApplications(meeting.ApplicationsIn(meeting.WhereAgendaItem, text)...)
	}
	m.Minutes = meeting.MinutesFact(m.Docs, ev.MinutesStatusName)
	m.Held = legistarHeld(ev, m, obs)
	m.Notice = meeting.NewNotice(meeting.NoticeUnknown, meeting.NotLinkedYet)
	return m
}

// legistarHeld is the held fact of an event, as recorded: deferred or
// cancelled is not held (even when minutes show Draft); minutes or a roll
// call recorded is held; otherwise unknown (still to come, or past with
// nothing recorded).
func legistarHeld(ev legistarEvent, m meeting.Meeting, obs meeting.Observation) meeting.Fact {
	agenda := strings.ToLower(ev.AgendaStatusName)
	comment := strings.ToLower(ev.Comment)
	switch {
	case strings.Contains(agenda, "defer"):
		return meeting.NewFact(meeting.NotHeld, record.N("meet.legistar.held.deferred", ev.AgendaStatusName, ev.MinutesStatusName))
	case strings.Contains(agenda, "cancel") || strings.Contains(comment, "cancel") || strings.Contains(comment, "postpone"):
		return meeting.NewFact(meeting.NotHeld, record.N("meet.legistar.held.cancelled", ev.AgendaStatusName, strconv.Quote(ev.Comment)))
	}
	rolls := 0
	for _, it := range ev.Items {
		if len(it.RollCall) > 0 {
			rolls++
		}
	}
	if ev.MinutesFile != "" || rolls > 0 {
		held := record.N("meet.legistar.held")
		if ev.MinutesFile != "" {
			held.Inner = append(held.Inner, record.PartOf(record.N("meet.legistar.held.minutes", ev.MinutesStatusName)))
		}
		if rolls > 0 {
			held.Inner = append(held.Inner, record.PartOf(record.N("meet.legistar.held.roll_calls", rolls)))
		}
		return meeting.NewFact(meeting.Held, held)
	}
	if m.When.Start != nil && !obs.At.IsZero() && m.When.Start.After(obs.At) {
		return meeting.NewFact(meeting.HeldUnknown, record.N("meet.legistar.held.scheduled", obs.Date, ev.AgendaStatusName))
	}
	return meeting.NewFact(meeting.HeldUnknown, record.N("meet.legistar.held.passed", ev.AgendaStatusName, ev.MinutesStatusName))
}

// legistarObservation is the observation of event files, which carry no
// fetch time: no earlier than the latest source change they hold.
func legistarObservation(evs []legistarEvent) meeting.Observation {
	var latest time.Time
	for _, ev := range evs {
		for _, t := range []time.Time{ev.LastModified, ev.AgendaLastPublished, ev.MinutesLastPublished} {
			if !zeroTime(t) && t.After(latest) {
				latest = t
			}
		}
	}
	if latest.IsZero() {
		return meeting.NewObservation(time.Time{}, "", record.N("meet.legistar.observed.none"))
	}
	return meeting.NewObservation(latest.UTC(), meeting.Day(latest), record.N("meet.legistar.observed.latest", latest.UTC().Format(time.RFC3339)))
}

// liveObservation is the observation of a live fetch.
func liveObservation(at time.Time) meeting.Observation {
	return meeting.NewObservation(at.UTC(), meeting.Day(at), record.N("meet.legistar.observed.live", at.UTC().Format(time.RFC3339)))
}
