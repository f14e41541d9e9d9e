package meetings

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// LegistarEndpoint is the Legistar Web API of the NYC Council.
const LegistarEndpoint = "https://webapi.legistar.com/v1/nyc"

// LegistarPageSize is the page size ($top); the API answers at most 1,000.
const LegistarPageSize = 1000

// LegistarFetcher reads Council events live from the Legistar Web API,
// page by page ($top/$skip, ordered by date then id so paging is stable).
// Event items (roll calls) are not fetched: a live event is held when its
// minutes are linked; otherwise its held state says so.
type LegistarFetcher struct {
	Client   *fetch.Client // nil: fetch.New()
	BaseURL  string        // LegistarEndpoint when empty (tests: httptest)
	Token    string        // the API token, sent as ?token=
	PageSize int           // LegistarPageSize when 0
	// Progress, when set, is called after each page with the events read.
	Progress func(done int)
	Now      func() time.Time
}

// rawEvent is a Legistar Web API event.
type rawEvent struct {
	EventID                      int    `json:"EventId"`
	EventGUID                    string `json:"EventGuid"`
	EventBodyID                  int    `json:"EventBodyId"`
	EventBodyName                string `json:"EventBodyName"`
	EventDate                    string `json:"EventDate"`
	EventTime                    string `json:"EventTime"`
	EventLocation                string `json:"EventLocation"`
	EventVideoStatus             string `json:"EventVideoStatus"`
	EventAgendaStatusName        string `json:"EventAgendaStatusName"`
	EventMinutesStatusName       string `json:"EventMinutesStatusName"`
	EventAgendaFile              string `json:"EventAgendaFile"`
	EventMinutesFile             string `json:"EventMinutesFile"`
	EventComment                 string `json:"EventComment"`
	EventVideoPath               string `json:"EventVideoPath"`
	EventMedia                   string `json:"EventMedia"`
	EventInSiteURL               string `json:"EventInSiteURL"`
	EventAgendaLastPublishedUTC  string `json:"EventAgendaLastPublishedUTC"`
	EventMinutesLastPublishedUTC string `json:"EventMinutesLastPublishedUTC"`
	EventLastModifiedUtc         string `json:"EventLastModifiedUtc"`
}

// utcStamp reads a Legistar UTC timestamp (no zone written).
func utcStamp(s string) time.Time {
	for _, f := range []string{"2006-01-02T15:04:05.999999999", time.RFC3339Nano} {
		if t, err := time.ParseInLocation(f, s, time.UTC); err == nil {
			return t
		}
	}
	return time.Time{}
}

// event converts a raw event to the file form: EventDate (a day) and
// EventTime ("10:00 AM") merged in New York time.
func (r rawEvent) event() (legistarEvent, error) {
	ev := legistarEvent{ID: r.EventID, GUID: r.EventGUID, BodyID: r.EventBodyID, BodyName: r.EventBodyName, Location: r.EventLocation,
		VideoStatus: r.EventVideoStatus, AgendaStatusName: r.EventAgendaStatusName, MinutesStatusName: r.EventMinutesStatusName,
		AgendaFile: r.EventAgendaFile, MinutesFile: r.EventMinutesFile, Comment: r.EventComment, VideoPath: r.EventVideoPath,
		Media: r.EventMedia, InSiteURL: r.EventInSiteURL, AgendaLastPublished: utcStamp(r.EventAgendaLastPublishedUTC),
		MinutesLastPublished: utcStamp(r.EventMinutesLastPublishedUTC), LastModified: utcStamp(r.EventLastModifiedUtc)}
	if ev.ID == 0 || strings.TrimSpace(ev.BodyName) == "" {
		return ev, fmt.Errorf("legistar: rejected: event %d has no id or no body", r.EventID)
	}
	day, err := time.ParseInLocation("2006-01-02T15:04:05", r.EventDate, record.NewYork)
	if err != nil {
		return ev, fmt.Errorf("legistar: event %d rejected: EventDate %q is not a date", r.EventID, r.EventDate)
	}
	ev.Date = day
	if t := strings.TrimSpace(r.EventTime); t != "" {
		if m := timeRE.FindStringSubmatch(t); m != nil {
			if st, ok := clock(day, m); ok {
				ev.Date, ev.timeKnown = st, true
			}
		}
	}
	return ev, nil
}

// Fetch reads the events dated from from to to (New York days,
// inclusive) and returns their meetings, observed at the fetch time;
// events the API gives without an id, body or date are rejected with
// their reason.
func (f *LegistarFetcher) Fetch(ctx context.Context, from, to time.Time) ([]meeting.Meeting, int, []error, error) {
	client := f.Client
	if client == nil {
		client = fetch.New()
	}
	base := strings.TrimSuffix(f.BaseURL, "/")
	if base == "" {
		base = LegistarEndpoint
	}
	size := f.PageSize
	if size <= 0 || size > LegistarPageSize {
		size = LegistarPageSize
	}
	now := f.Now
	if now == nil {
		now = time.Now
	}
	q := url.Values{}
	q.Set("$filter", fmt.Sprintf("EventDate ge datetime'%s' and EventDate lt datetime'%s'", from.Format("2006-01-02"), to.AddDate(0, 0, 1).Format("2006-01-02")))
	q.Set("$orderby", "EventDate,EventId")
	q.Set("$top", strconv.Itoa(size))
	if f.Token != "" {
		q.Set("token", f.Token)
	}
	var out []meeting.Meeting
	var rejected []error
	read := 0
	for skip := 0; ; skip += size {
		q.Set("$skip", strconv.Itoa(skip))
		resp, err := client.Get(ctx, base+"/events?"+q.Encode(), nil)
		if err != nil {
			return out, read, rejected, fmt.Errorf("legistar: events %d-%d: %w", skip, skip+size-1, err)
		}
		var page []rawEvent
		if err := json.Unmarshal(resp.Body, &page); err != nil {
			return out, read, rejected, fmt.Errorf("legistar: events page at %d is not a list of events: %w", skip, err)
		}
		obs := liveObservation(now())
		for _, r := range page {
			read++
			ev, err := r.event()
			if err != nil {
				rejected = append(rejected, err)
				continue
			}
			m := legistarMeeting(ev, obs)
			if m.Held.State == meeting.HeldUnknown {
				live := record.N("meet.legistar.held.live")
				if m.Held.EvidenceKey != nil {
					live.Inner = []record.Part{record.PartOf(*m.Held.EvidenceKey)}
				}
				m.Held = meeting.NewFact(m.Held.State, live)
			}
			out = append(out, m)
		}
		if f.Progress != nil {
			f.Progress(read)
		}
		if len(page) < size {
			return out, read, rejected, nil
		}
	}
}

// HearingWhere selects the City Record rows that announce a hearing with
// an event date.
const HearingWhere = "event_date IS NOT NULL AND section_name in('Public Hearings and Meetings', 'Agency Rules')"

// FetchHearings reads City Record hearing notices with event dates live
// from SODA (dg92-zbpx) through the City Record fetcher f (its Where and
// SinceField are set here: event dates at or after since), and returns
// their meetings, observed at the fetch time.
func FetchHearings(ctx context.Context, f crol.Fetcher, since time.Time) ([]meeting.Meeting, int, []error, error) {
	f.Where, f.SinceField = HearingWhere, "event_date"
	var out []meeting.Meeting
	var rejected []error
	n, err := f.Fetch(ctx, since, func(rows []crol.Row) error {
		for _, r := range rows {
			hr := hearingRow{}
			for k, v := range r.Fields {
				hr[k] = v
			}
			m, err := hearingMeeting(hr, liveObservation(r.ObservedAt))
			if err != nil {
				rejected = append(rejected, fmt.Errorf("%s: %w", r.File, err))
				continue
			}
			out = append(out, m)
		}
		return nil
	})
	return out, n, rejected, err
}

// CalendarFetcher reads community-board calendars live from a list of
// addresses. Boards publish PDFs; this service has no PDF text extractor,
// so an address must answer the calendar's text (layout-mode text, as
// pdftotext -layout writes it). A PDF or an empty answer is rejected with
// its reason, never parsed as nothing.
type CalendarFetcher struct {
	Client   *fetch.Client // nil: fetch.New()
	URLs     []string
	Progress func(done int)
	Now      func() time.Time
}

// Fetch reads every address and returns the meetings parsed from them,
// the documents read and the rejected ones with reasons.
func (f *CalendarFetcher) Fetch(ctx context.Context) ([]meeting.Meeting, int, []error) {
	client := f.Client
	if client == nil {
		client = fetch.New()
	}
	now := f.Now
	if now == nil {
		now = time.Now
	}
	var out []meeting.Meeting
	var rejected []error
	read := 0
	for _, u := range f.URLs {
		read++
		resp, err := client.Get(ctx, u, nil)
		name := u[strings.LastIndex(u, "/")+1:]
		unread := func(err error) *UnreadCalendar { // the board and month as the address names them
			_, body, _, _ := calendarBoard(name, nil)
			return &UnreadCalendar{Document: u, Body: body, Month: calendarMonth(name, ""), Err: err}
		}
		switch {
		case err != nil:
			rejected = append(rejected, unread(err))
		case strings.Contains(resp.Header.Get("Content-Type"), "pdf") || strings.HasPrefix(string(resp.Body), "%PDF"):
			rejected = append(rejected, unread(errors.New("rejected: a PDF; this service extracts no PDF text (give the calendar's layout-mode text)")))
		default:
			ms, _, err := CalendarMeetings(name, string(resp.Body), liveObservation(now()))
			var uc *UnreadCalendar
			if errors.As(err, &uc) {
				uc.Document = u
				rejected = append(rejected, uc)
			} else if err != nil {
				rejected = append(rejected, fmt.Errorf("%s: %w", u, err))
			}
			out = append(out, ms...)
		}
		if f.Progress != nil {
			f.Progress(read)
		}
	}
	return out, read, rejected
}
