// Package meetings reads source meetings (SPEC §2.8) from files and live:
// NYC Council events (Legistar), community-board calendars (text of their
// PDF calendars and agendas) and City Record hearing notices with event
// dates. Each becomes a meeting.Meeting with its four facts; the link
// stage (indexer/link) decides the City Record notice link.
//
// Files under a directory:
//
//	legistar/*.json   one Legistar event per file (jehiah/legislator form)
//	hearings/*.json   dg92-zbpx rows with event_date (array or wrapper)
//	calendars/*.txt   community-board calendar text; calendars/OBSERVED
//	                  holds the date the texts were observed (YYYY-MM-DD)
//	minutes/*.csv     community-board minutes text, one file per board
//	                  (Borough_CBn_….csv: Date, URL, Content)
package meetings

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Name is the source name (-source meetings, testdata/sample/meetings).
const (
	Name  = "meetings"
	Label = LegistarLabel + "; " + CalendarLabel + "; " + HearingLabel + "; " + MinutesLabel
)

// Result is what a read saw: the meetings, rows read per source, and
// notes (skipped text, repairs).
type Result struct {
	Meetings []meeting.Meeting
	// LandEvents are the application (ULURP) numbers named in board
	// minutes, linked by method "text" with the line naming them.
	LandEvents []land.Event
	Rows       map[string]int
	Notes      []string
}

// Total is the number of rows read.
func (r Result) Total() int {
	n := 0
	for _, v := range r.Rows {
		n += v
	}
	return n
}

// ReadDir reads every meeting file under dir. A bad file or row is an
// error with its reason; the rest is read.
func ReadDir(fsys fs.FS, dir string) (Result, []error) {
	res := Result{Rows: map[string]int{}}
	var errs []error
	var files []string
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return res, []error{fmt.Errorf("meetings: %w", err)}
	}
	sort.Strings(files)
	var events []legistarEvent
	var minutes []meeting.Meeting
	var cbObs meeting.Observation
	if b, err := fs.ReadFile(fsys, path.Join(dir, "calendars", "OBSERVED")); err == nil {
		s := strings.TrimSpace(strings.SplitN(string(b), "\n", 2)[0])
		if t, err := time.ParseInLocation("2006-01-02", s, record.NewYork); err == nil {
			cbObs = meeting.NewObservation(t.UTC(), s, record.N("meet.calendar.observed"))
		}
	}
	if cbObs.Evidence == "" {
		cbObs = meeting.NewObservation(cbObs.At, cbObs.Date, record.N("meet.calendar.observed.none"))
	}
	for _, p := range files {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		switch {
		case strings.HasPrefix(rel, "legistar/") && strings.HasSuffix(p, ".json"):
			res.Rows[LegistarSource]++
			ev, err := parseLegistarFile(rel, data)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			events = append(events, ev)
		case strings.HasPrefix(rel, "hearings/") && strings.HasSuffix(p, ".json"):
			rows, err := parseHearingFile(rel, data)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			obs := hearingObservation(rel, rows)
			for i, r := range rows {
				res.Rows[HearingSource]++
				m, err := hearingMeeting(r, obs)
				if err != nil {
					errs = append(errs, fmt.Errorf("%s row %d: %w", rel, i+1, err))
					continue
				}
				res.Meetings = append(res.Meetings, m)
			}
		case strings.HasPrefix(rel, "minutes/") && strings.HasSuffix(p, ".csv"):
			docs, rows, rerrs := ReadMinutesCSV(rel, data)
			res.Rows[MinutesSource] += rows
			errs = append(errs, rerrs...)
			for _, d := range docs {
				minutes = append(minutes, d.Meeting)
				res.LandEvents = append(res.LandEvents, d.Events...)
			}
		case strings.HasPrefix(rel, "calendars/") && strings.HasSuffix(p, ".txt"):
			res.Rows[CalendarSource]++
			ms, notes, err := CalendarMeetings(rel, string(data), cbObs)
			res.Notes = append(res.Notes, notes...)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			res.Meetings = append(res.Meetings, ms...)
		}
	}
	obs := legistarObservation(events)
	for _, ev := range events {
		res.Meetings = append(res.Meetings, legistarMeeting(ev, obs))
	}
	res.Meetings = append(res.Meetings, attachMinutes(res.Meetings, minutes, &res.Notes)...)
	res.Meetings = dedupe(res.Meetings, &res.Notes)
	res.LandEvents = dedupeEvents(res.LandEvents)
	return res, errs
}

// CalendarMeetings parses one community-board calendar text. A calendar
// that cannot be read is an *UnreadCalendar error: its document, the
// board and month it is of when those can be read, and why.
func CalendarMeetings(name, text string, obs meeting.Observation) ([]meeting.Meeting, []string, error) {
	code, body, bf, ps, notes, err := parseCalendar(name, text)
	if err != nil {
		if body == "" { // no text, or no board in it: the board its file name names
			_, body, _, _ = calendarBoard(name, nil)
		}
		return nil, notes, &UnreadCalendar{Document: name, Body: body, Month: calendarMonth(name, text), Err: err}
	}
	out := make([]meeting.Meeting, 0, len(ps))
	for _, p := range ps {
		out = append(out, calendarMeeting(name, code, body, bf, p, obs))
	}
	return out, notes, nil
}

// UnreadCalendar is a board's calendar that could not be read: the
// document (its file or address), the board and the month it is of (""
// when they could not be read either) and why (Err).
type UnreadCalendar struct {
	Document, Body, Month string
	Err                   error
}

// Error names the document, then why.
func (u *UnreadCalendar) Error() string {
	if strings.HasPrefix(u.Err.Error(), u.Document) {
		return u.Err.Error()
	}
	return u.Document + ": " + u.Err.Error()
}

// Reason is why, without the address.
func (u *UnreadCalendar) Reason() string { return u.Err.Error() }
func (u *UnreadCalendar) Unwrap() error  { return u.Err }

// calendarMonth is the month (YYYY-MM) a calendar is of: its grid's
// printed month, else the month and year its file name spells
// ("bronx-cb-10-september-2026.pdf"); "" when neither says.
func calendarMonth(name, text string) string {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	frs := fragments(lines)
	if countFull(dayRows(frs)) >= 2 {
		if mo, y, _, ok := gridMonth(lines, frs); ok {
			return fmt.Sprintf("%d-%02d", y, mo)
		}
	}
	base := strings.NewReplacer("-", " ", "_", " ", ".", " ").Replace(name[strings.LastIndex(name, "/")+1:])
	if m := monthRE.FindStringSubmatch(base); m != nil {
		y, _ := strconv.Atoi(m[2])
		return fmt.Sprintf("%d-%02d", y, monthIndex(m[1]))
	}
	return ""
}

// dedupe keeps one meeting per id (the last read), noting the others.
func dedupe(ms []meeting.Meeting, notes *[]string) []meeting.Meeting {
	at := map[string]int{}
	var out []meeting.Meeting
	for _, m := range ms {
		if i, ok := at[m.ID]; ok {
			*notes = append(*notes, "meeting "+m.ID+" read twice; the later read is kept")
			out[i] = m
			continue
		}
		at[m.ID] = len(out)
		out = append(out, m)
	}
	return out
}

// BySource splits meetings into one list per source, in the order hearing
// notices, Council events, board calendars (each list keeps its order):
// the records of one source are written, and counted, together.
func BySource(ms []meeting.Meeting) [][]meeting.Meeting {
	var out [][]meeting.Meeting
	for _, src := range []string{HearingSource, LegistarSource, CalendarSource, MinutesSource} {
		var part []meeting.Meeting
		for _, m := range ms {
			if m.Source == src {
				part = append(part, m)
			}
		}
		if len(part) > 0 {
			out = append(out, part)
		}
	}
	return out
}
