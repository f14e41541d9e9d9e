package api

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
)

// meetingRoutes mounts the meetings lens (SPEC §2.8): the JSON twins of
// get_meeting and browse_meetings, the meeting page with its four facts,
// the calendar of upcoming meetings and its iCalendar feed.
func (s *Server) meetingRoutes(r *gin.Engine, api *gin.RouterGroup) {
	api.GET("/meetings", s.meetingsJSON)
	api.GET("/meetings/:id", s.meetingJSON)
	r.GET("/meetings", s.rateLimit(), s.meetingsPage)
	r.GET("/meetings/:id", s.rateLimit(), s.meetingPage)
	r.GET("/meetings.ics", s.rateLimit(), s.meetingsICS)
}

// meetingParams are the browse parameters shared by the JSON twin, the
// calendar page and the feed.
var meetingParams = []string{"from", "to", "month", "time", "attendance", "source", "body", "body_kind", "borough", "limit", "cursor"}

// MeetingView is one meeting by exact id.
type MeetingView struct {
	Status  record.Availability `json:"status"`
	Meeting meeting.Meeting     `json:"meeting"`
	Absence []string            `json:"absence_rules"`
	// Sources are the sources the answer is built from, each with its
	// coverage and freshness (meeting.Read).
	Sources []record.SourceCoverage `json:"sources"`
}

// meetings is the meeting service main.go built.
func (s *Server) meetings() *meeting.Service { return s.deps.Meetings }

func (s *Server) meetingNow() time.Time {
	if s.deps.Now != nil {
		return s.deps.Now()
	}
	return time.Now()
}

// meetingFilter reads a browse filter; defaultDays > 0 sets the window's
// end when none is given.
func meetingFilter(p *params) meeting.Filter {
	return meeting.Filter{From: p.str("from"), To: p.str("to"), Month: p.str("month"), Time: p.str("time"), Attendance: p.str("attendance"),
		Sources: p.list("source"), Body: p.str("body"), BodyKind: p.str("body_kind"), Borough: p.str("borough")}
}

// meetingJSON serves GET /api/meetings/:id.
func (s *Server) meetingJSON(c *gin.Context) {
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		writeError(c, err)
		return
	}
	r, err := s.meetings().Read(c.Request.Context(), c.Param("id"))
	if err != nil {
		writeError(c, err)
		return
	}
	renderJSON(c, http.StatusOK, MeetingView{Status: record.Found, Meeting: r.Meeting, Absence: record.AbsenceRules, Sources: r.Sources}, cacheShort, time.Time{})
}

// meetingsJSON serves GET /api/meetings: a bounded, stable page with the
// unknown-start exclusions, coverage and scope.
func (s *Server) meetingsJSON(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), append([]string{"format"}, meetingParams...)...)
	f := meetingFilter(p)
	limit := p.integer("limit", meeting.DefaultLimit, 1, meeting.MaxLimit)
	cursor := p.str("cursor")
	asCSV := csvFormat(p)
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	if asCSV {
		limit = meeting.MaxLimit
	}
	ctx := c.Request.Context()
	page, err := s.meetings().Browse(ctx, f, cursor, limit)
	if err != nil {
		writeError(c, err)
		return
	}
	if !asCSV {
		renderJSON(c, http.StatusOK, page, cacheShort, time.Time{})
		return
	}
	e := startCSV(c, "meetings")
	e.comment("Recordwatch meetings: %s", s.cfg.BaseURL+"/api/meetings?"+listQuery(c, "format", "limit").Encode())
	e.comment("filters: %s", listQuery(c, "format", "limit", "cursor").Encode())
	applied := make([]string, 0, len(page.Applied))
	for k, v := range page.Applied {
		applied = append(applied, k+"="+v)
	}
	slices.Sort(applied)
	e.comment("filters applied: %s", strings.Join(applied, "; "))
	e.comment("rows matched: %d; without a known start (not listed): %d. %s", page.Total, page.ExcludedUnknownStart.Count, page.ExcludedUnknownStart.Note)
	e.scope("", page.Scope)
	e.stream(meetingCSVHeader, meetingCSVPage(page), func(cur string) (csvPage, error) {
		next, err := s.meetings().Browse(ctx, f, cur, limit)
		return meetingCSVPage(next), err
	})
}

// meetingCSVHeader is the header row of the meetings CSV.
var meetingCSVHeader = []string{"id", "date", "start", "end", "start_known", "body", "body_kind", "agency_id", "agency_name", "title",
	"place", "attendance", "held", "minutes", "tentative", "source", "source_id", "source_url"}

// meetingCSVPage is a page of meetings as CSV rows.
func meetingCSVPage(p meeting.Page) csvPage {
	out := csvPage{next: p.NextCursor, total: p.Total}
	at := func(t *time.Time) string {
		if t == nil {
			return ""
		}
		return t.In(record.NewYork).Format(time.RFC3339)
	}
	for _, m := range p.Meetings {
		agencyID, agencyName := "", ""
		if m.Agency != nil {
			agencyID, agencyName = m.Agency.ID, m.Agency.Name
		}
		out.rows = append(out.rows, []string{m.ID, m.When.Date, at(m.When.Start), at(m.When.End), strconv.FormatBool(m.When.StartKnown), m.Body, m.BodyKind,
			agencyID, agencyName, m.Title, m.Place.Text, m.Place.Attendance, m.Held.State, m.Minutes.State, strconv.FormatBool(m.Tentative), m.Source, m.SourceID, m.SourceURL})
	}
	return out
}

// maxFeedMeetings bounds the events of the meetings feed.
const maxFeedMeetings = 1000

// meetingsICS serves GET /meetings.ics: one VEVENT per dated meeting of
// the window (default today to today + meeting.FeedWindowDays days), by
// meeting.FeedItem: timed when the start is known, all-day otherwise.
func (s *Server) meetingsICS(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), "from", "to", "month", "time", "attendance", "source", "body", "body_kind", "borough")
	f := meetingFilter(p)
	if p.err != nil {
		writeError(c, p.err)
		return
	}
	if f.Month != "" { // the month's window, written as from and to
		from, to, err := f.Window(s.meetingNow())
		if err != nil {
			writeError(c, err)
			return
		}
		f.From, f.To, f.Month = from.Format("2006-01-02"), to.Format("2006-01-02"), ""
	} else if f.To == "" {
		from, _, err := f.Window(s.meetingNow())
		if err != nil {
			writeError(c, err)
			return
		}
		f.From, f.To = from.Format("2006-01-02"), from.AddDate(0, 0, meeting.FeedWindowDays).Format("2006-01-02")
	}
	ctx := c.Request.Context()
	svc := s.meetings()
	var ms []meeting.Meeting
	var first meeting.Page
	cursor := ""
	for len(ms) < maxFeedMeetings {
		pg, err := svc.Browse(ctx, f, cursor, meeting.MaxLimit)
		if err != nil {
			writeError(c, err)
			return
		}
		if cursor == "" {
			first = pg
		}
		ms = append(ms, pg.Meetings...)
		if cursor = pg.NextCursor; cursor == "" {
			break
		}
	}
	q := c.Request.URL.Query()
	q.Del("month")
	q.Set("from", f.From)
	q.Set("to", f.To)
	fd := s.meetingsFeed(first, ms, q)
	fd = s.calendar(ctx, "meetings|"+q.Encode(), fd) // revised: SEQUENCE, LAST-MODIFIED, cancelled events
	render(c, http.StatusOK, feed.ContentTypeICS, feed.ICS(fd), cacheFeeds, fd.Updated)
}

// meetingsFeed is the meetings of a browse (its parameters q) as a feed.
func (s *Server) meetingsFeed(pg meeting.Page, ms []meeting.Meeting, q url.Values) feed.Feed {
	base := s.cfg.BaseURL
	f := feed.Feed{
		ID: base + "/meetings.ics?" + q.Encode(), Title: "Recordwatch meetings " + pg.Applied["from"] + " to " + pg.Applied["to"],
		Description: "Source meetings (Council Legistar events, community-board calendars, City Record hearing notices); " +
			"one event per dated meeting. Not the official calendar of any body.",
		HomeURL: base + "/meetings?" + q.Encode(), Self: feed.Links{ICS: base + "/meetings.ics?" + q.Encode()},
		Updated: pg.Scope.CorpusObservedAt, TTL: cacheFeeds.maxAge(),
		Scope: feed.Scope{Covers: "meetings", Filter: pg.Applied, Order: "start", Limit: maxFeedMeetings, Matched: pg.Total,
			Items: len(ms), AbsenceRules: record.AbsenceRules, DateBoundsNote: pg.Scope.DateBoundsNote},
	}
	if f.Updated.IsZero() {
		f.Updated = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	f.Scope.Sources = append(f.Scope.Sources, meetingFeedSources(pg)...)
	for _, m := range ms {
		if it, ok := meeting.FeedItem(base, m); ok {
			f.Items = append(f.Items, it)
			f.Scope.Events++
		}
	}
	feedAbsence(&f.Scope, pg.Scope) // sources.go: an empty feed says why
	return f
}

// meetingPage serves GET /meetings/:id: the meeting with its four facts
// shown separately.
func (s *Server) meetingPage(c *gin.Context) {
	id := c.Param("id")
	json := s.cfg.BaseURL + "/api/meetings/" + url.PathEscape(id)
	if err := newParams(c.Request.URL.Query()).err; err != nil {
		s.writeMeetingPage(c, http.StatusBadRequest, meetingPageData{Title: web.Word(c.GetString(langKey), "page.meeting"), JSON: json, Error: record.ErrorMessage(err), ErrorKey: errorNote(err)})
		return
	}
	r, err := s.meetings().Read(c.Request.Context(), id)
	if err != nil {
		status := httpStatus(err)
		s.writeMeetingPage(c, status, meetingPageData{Title: web.Word(c.GetString(langKey), "page.meeting"), JSON: json, Error: record.ErrorMessage(err), ErrorKey: errorNote(err)})
		return
	}
	s.answerBanner(c, r.Sources)
	s.writeMeetingPage(c, http.StatusOK, meetingPageData{Title: r.Meeting.Title, JSON: json, Meeting: &r.Meeting})
}

// meetingsPage serves GET /meetings: a calendar of upcoming meetings (the
// browse's window, default today to today + 30 days), grouped by day.
func (s *Server) meetingsPage(c *gin.Context) {
	p := newParams(c.Request.URL.Query(), meetingParams...)
	f := meetingFilter(p)
	limit := p.integer("limit", meeting.MaxLimit, 1, meeting.MaxLimit)
	cursor := p.str("cursor")
	q := c.Request.URL.Query()
	data := meetingPageData{Title: web.Word(c.GetString(langKey), "page.meetings"), JSON: s.cfg.BaseURL + "/api/meetings?" + q.Encode(), ICS: s.cfg.BaseURL + "/meetings.ics" + icsQuery(q),
		CSV: s.csvLink("/api/meetings", q), Filter: f, Sources: meeting.Sources, Attendances: meeting.AttendanceFilters, BodyKinds: meeting.BodyKinds, Boroughs: meeting.Boroughs}
	data.Borough, _ = meeting.BoroughKey(f.Borough)
	if len(f.Sources) > 0 {
		data.Source = f.Sources[0]
	}
	if p.err != nil {
		s.writeMeetingPage(c, http.StatusBadRequest, meetingPageData{Title: data.Title, JSON: data.JSON, Error: record.ErrorMessage(p.err), ErrorKey: errorNote(p.err)})
		return
	}
	pg, err := s.meetings().Browse(c.Request.Context(), f, cursor, limit)
	if err != nil {
		status := httpStatus(err)
		s.writeMeetingPage(c, status, meetingPageData{Title: data.Title, JSON: data.JSON, Error: record.ErrorMessage(err), ErrorKey: errorNote(err)})
		return
	}
	data.Page = &pg
	data.Widen = s.widenedURL("/meetings", q, pg.Widening)
	data.Months = s.meetingMonths(pg.Applied["from"], q)
	for _, m := range pg.Meetings {
		if len(data.Days) == 0 || data.Days[len(data.Days)-1].Date != m.When.Date {
			d := calendarDay{Date: m.When.Date}
			if t, err := time.ParseInLocation("2006-01-02", m.When.Date, record.NewYork); err == nil {
				d.Label = web.Label(c.GetString(langKey), "weekday", t.Weekday().String()) + " " + m.When.Date
			}
			data.Days = append(data.Days, d)
		}
		day := &data.Days[len(data.Days)-1]
		day.Meetings = append(day.Meetings, m)
	}
	if pg.NextCursor != "" {
		q.Set("cursor", pg.NextCursor)
		data.Next = s.cfg.BaseURL + "/meetings?" + q.Encode()
	}
	s.writeMeetingPage(c, http.StatusOK, data)
}

// calendarMonths are the month links of the calendar: the month its
// window starts in, the months before and after it and the current one,
// each keeping the page's other filters (body, kind of body, source,
// attendance, time).
type calendarMonths struct {
	Month, Prev, This, Next string
}

// meetingMonths builds the month links around the month of from
// (YYYY-MM-DD, the applied window start) from the page's query q.
func (s *Server) meetingMonths(from string, q url.Values) *calendarMonths {
	start, err := time.ParseInLocation("2006-01-02", from, record.NewYork)
	if err != nil {
		return nil
	}
	start = time.Date(start.Year(), start.Month(), 1, 0, 0, 0, 0, record.NewYork)
	link := func(month string) string {
		v := url.Values{}
		for k, vs := range q {
			if k != "from" && k != "to" && k != "month" && k != "cursor" {
				v[k] = vs
			}
		}
		if month != "" {
			v.Set("month", month)
		}
		if len(v) == 0 {
			return s.cfg.BaseURL + "/meetings"
		}
		return s.cfg.BaseURL + "/meetings?" + v.Encode()
	}
	return &calendarMonths{Month: start.Format("2006-01"), Prev: link(start.AddDate(0, -1, 0).Format("2006-01")),
		Next: link(start.AddDate(0, 1, 0).Format("2006-01")), This: link(s.meetingNow().In(record.NewYork).Format("2006-01"))}
}

// icsQuery is the calendar page's query q as the iCalendar feed's: the
// same filters and window, without paging or language.
func icsQuery(q url.Values) string {
	v := url.Values{}
	for k, vs := range q {
		if k != "cursor" && k != "limit" && k != "lang" {
			v[k] = vs
		}
	}
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}

type calendarDay struct {
	Date, Label string
	Meetings    []meeting.Meeting
}

type meetingPageData struct {
	Title, JSON, ICS, Base, Error, Next string
	// ErrorKey is Error as a note, when the service said it as one
	// (record.Error's MessageKey).
	ErrorKey record.Note
	// Widen is the page of an empty calendar's widening (widenedURL).
	Widen string
	// CSV is the CSV twin of the calendar's list (empty on a meeting page).
	CSV     string
	Meeting *meeting.Meeting
	Page    *meeting.Page
	Days    []calendarDay
	Rules   record.Notes
	// Months are the calendar's month links; Filter is the browse the
	// page shows (its form), with the sources and attendance values it may
	// name.
	Months      *calendarMonths
	Filter      meeting.Filter
	Sources     []string
	Attendances []string
	BodyKinds   []string
	Source      string // the source chosen in the form (the first named)
	// Boroughs are the borough keys the form offers; Borough the one
	// chosen (its key).
	Boroughs []string
	Borough  string
}

// writeMeetingPage renders a meeting or the calendar
// (web/templates/meetings.html in the one layout, the calendar linked from
// the header).
func (s *Server) writeMeetingPage(c *gin.Context, status int, p meetingPageData) {
	p.Base = s.cfg.BaseURL
	p.Rules = record.AbsenceRuleNotes
	writeHTML(c, status, web.Page{Kind: web.Meetings, Title: p.Title, Home: p.Base + "/", Section: &web.Link{Label: web.Word(c.GetString(langKey), "nav.meetings"), URL: p.Base + "/meetings" + langQuery(c)},
		JSON: p.JSON, ICS: p.ICS, Data: p}, time.Time{})
}

// SearchMeetings is the meetings block of /api/search when the lens is
// meetings (Form 1, meeting records held): the first page of meeting
// records dated in the search's event window, with its own scope,
// coverage and unknown-start statement (meeting.Page), and the
// /api/meetings address that pages on through the same records.
type SearchMeetings struct {
	meeting.Page
	// Browse is /api/meetings with the same window (its next page when
	// next_cursor is set).
	Browse string `json:"browse"`
	Note   string `json:"note"`
	// Error says why no meeting is listed when the window does not suit
	// the meeting records (longer than a year).
	Error string `json:"error,omitempty"`
}

// searchMeetings renders a search answer's meetings block (notices.Meetings)
// with its browse link: /api/meetings with the same window.
func (s *Server) searchMeetings(m *notices.Meetings) *SearchMeetings {
	if m == nil {
		return nil
	}
	out := &SearchMeetings{Page: m.Page, Browse: s.cfg.BaseURL + "/api/meetings", Note: notices.MeetingsNote, Error: m.Error}
	if m.Error == "" {
		v := url.Values{"from": {m.Applied["from"]}, "to": {m.Applied["to"]}}
		if m.NextCursor != "" {
			v.Set("cursor", m.NextCursor)
		}
		out.Browse += "?" + v.Encode()
	}
	return out
}
