package meetings

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Community-board minutes: the text of the boards' full-board minutes
// (PDFs), one CSV per board (Date, URL, Content), under minutes/.
const (
	MinutesSource = "cb-minutes"
	MinutesLabel  = "Community board minutes (text of the boards' full-board minutes PDFs)"
)

// maxMinutesText bounds the text of one minutes document read (the
// largest real one is about 230 KB).
const maxMinutesText = 1 << 20

var (
	minutesFileRE = regexp.MustCompile(`(?i)^(bronx|brooklyn|manhattan|queens|staten[_-]?island)_cb(\d{1,2})(?:_|\.|$)`)
	monthPat      = `(January|February|March|April|May|June|July|August|September|October|November|December)`
	// a date in the text: "January 28, 2025", "June 20", 2024" (a
	// superscript read as a quote), "OCTOBER 21, 2003"
	minutesDateRE = regexp.MustCompile(`(?i)\b` + monthPat + `\s*(\d{1,2})(?:st|nd|rd|th)?["”'’]?,?\s*(\d{4})\b`)
	// what labels a date as the meeting's: "DATE:", "Meeting Date", "HELD",
	// "met at 6:30 pm on [Location] [Wednesday,]", "Minutes"
	minutesLabelRE  = regexp.MustCompile(`(?i)(?:\bdate:|\bmeeting date|\bheld|\bmet at [0-9: ]+[ap]\.?\s?m\.? on|\bminutes)\s*(?:location\s+)?(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?(?:location\s+)?$`)
	linkDateRE      = regexp.MustCompile(`(?i)` + monthPat + `\s+(\d{1,2})?,?\s*(\d{4})|(\d{4})\s+` + monthPat + `(?:\s+(\d{1,2}))?\b`)
	weekdayBeforeRE = regexp.MustCompile(`(?i)(monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s*$`)
	minutesTimeRE   = regexp.MustCompile(`(?i)(?:\btime:\s*|\bmet at\s+)(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b`)
	boardNumRE      = regexp.MustCompile(`(?i)community\s+board\s*(?:no\.?|#|number)?\s*(\d{1,2})\b|\bboard\s+no\.?\s*(\d{1,2})\b`)
	// an application (ULURP) number as boards write it: the prefix letter,
	// six digits, an optional letter and "(A)", two action letters and the
	// borough letter
	minutesULURPRE = regexp.MustCompile(`\b([CNMGIL])\s?(\d{6})([A-Z])?\s?(\(A\)\s?)?([A-Z]{2}[MXKQRY])\b`)
)

// minutesDoc is one minutes document read: the meeting it records and the
// application numbers it names.
type minutesDoc struct {
	Meeting meeting.Meeting
	Events  []land.Event
}

// ReadMinutesCSV reads one board's minutes file. A document whose board
// or meeting date cannot be read with confidence is rejected with its
// reason; the rest are read.
func ReadMinutesCSV(name string, data []byte) ([]minutesDoc, int, []error) {
	base := name[strings.LastIndex(name, "/")+1:]
	m := minutesFileRE.FindStringSubmatch(base)
	if m == nil {
		return nil, 0, []error{fmt.Errorf("%s: rejected: the file name names no community board (Borough_CBn_…)", name)}
	}
	short := boroughCode(m[1])
	n, _ := strconv.Atoi(m[2])
	code, body := fmt.Sprintf("%s%02d", short, n), fmt.Sprintf("%s Community Board %d", boroughs[short], n)
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return nil, 0, []error{fmt.Errorf("%s: not a minutes CSV: %w", name, err)}
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.ToLower(strings.TrimSpace(strings.TrimPrefix(h, "\ufeff")))] = i
	}
	for _, c := range []string{"date", "url", "content"} {
		if _, ok := col[c]; !ok {
			return nil, 0, []error{fmt.Errorf("%s: not a minutes CSV: no %s column (Date, URL, Content)", name, c)}
		}
	}
	var out []minutesDoc
	var errs []error
	rows := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		rows++
		if err != nil {
			errs = append(errs, fmt.Errorf("%s row %d: %w", name, rows, err))
			continue
		}
		get := func(c string) string {
			if i := col[c]; i < len(rec) {
				return rec[i]
			}
			return ""
		}
		d, err := minutesRow(code, body, n, get("date"), get("url"), get("content"))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s row %d (%q): rejected: %w", name, rows, get("date"), err))
			continue
		}
		d.Meeting.Raw["file"] = name
		for i := range d.Events {
			d.Events[i].File = name
		}
		out = append(out, d)
	}
	return out, rows, errs
}

// minutesRow reads one document: the meeting date from the text (a date
// labelled as the meeting's near the top), checked against the link
// text's month and year; the board named by the text must be the file's.
func minutesRow(code, body string, boardNum int, linkText, url, content string) (minutesDoc, error) {
	var d minutesDoc
	if len(content) > maxMinutesText {
		content = content[:maxMinutesText]
	}
	text := strings.TrimSpace(content)
	if text == "" || strings.EqualFold(text, "Error extracting content") || strings.EqualFold(text, "Manual review required") {
		return d, fmt.Errorf("no text (the PDF's text could not be extracted)")
	}
	if !strings.HasPrefix(url, "http") {
		return d, fmt.Errorf("no link to the minutes document")
	}
	head := strings.Join(strings.Fields(firstRunes(text, 3000)), " ")
	for _, m := range boardNumRE.FindAllStringSubmatch(head, -1) {
		v := m[1] + m[2]
		if k, _ := strconv.Atoi(v); k != boardNum {
			return d, fmt.Errorf("the text names community board %s, the file board %d", v, boardNum)
		}
		break
	}
	day, how, err := minutesDate(head, linkText)
	if err != nil {
		return d, err
	}
	date := day.Format("2006-01-02")
	sid := code + "-" + date + "-full-board"
	mt := meeting.Meeting{
		ID: MinutesSource + ":" + sid, Source: MinutesSource, SourceLabel: MinutesLabel, SourceID: sid, SourceURL: url,
		Body: body, BodyKind: meeting.BodyCommunityBoard, Agency: &meeting.AgencyRef{Raw: body},
		Title: body + ": Full Board meeting", Raw: map[string]string{"link_text": linkText},
		Fields: []meeting.ParsedField{meeting.ParsedField{Field: "date", Value: date, Confidence: meeting.High}.ReadBy(how)},
	}
	mt.When = meeting.When{Date: date, TimeZone: meeting.TimeZone}
	mt.When.Say(record.N("meet.minutes.when.none"))
	if m := minutesTimeRE.FindStringSubmatch(head); m != nil {
		if st, ok := clock(day, []string{m[0], m[1], m[2], m[3]}); ok {
			mt.When.Start, mt.When.StartKnown = &st, true
			mt.When.Say(record.N("meet.minutes.when.stated", strconv.Quote(m[0])))
			mt.Fields = append(mt.Fields, meeting.ParsedField{Field: "start", Value: st.Format("15:04"), Confidence: meeting.High}.ReadBy(record.N("meet.minutes.how.heading", strconv.Quote(m[0]))))
		}
	}
	status := ""
	if regexp.MustCompile(`\bDRAFT\b`).MatchString(firstRunes(text, 1500)) {
		status = "Draft"
	}
	mt.Docs = []meeting.Document{meeting.Document{Kind: meeting.DocMinutes, URL: url, Status: status}.Labelled(record.N("meet.doc.minutes_of", linkText))}
	held := record.N("meet.minutes.held", body, date, url)
	held.Inner = []record.Part{record.PartOf(how)}
	mt.Minutes = meeting.NewFact(meeting.MinutesPublished, held)
	mt.Held = meeting.NewFact(meeting.Held, record.N("meet.minutes.record"))
	mt.Place = meeting.Place{Attendance: meeting.AttendanceUnknown}
	mt.Place.Say(record.N("meet.minutes.place.none"))
	mt.Notice = meeting.NewNotice(meeting.NoticeUnknown, meeting.NotLinkedYet)
	mt.Observed = meeting.NewObservation(time.Time{}, "", record.N("meet.minutes.observed", date))
	d.Meeting = mt
	d.Events = minutesEvents(code, body, day, url, text)
	return d, nil
}

func firstRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n])
	}
	return s
}

// minutesDate is the meeting date of a minutes text: the first date in
// its heading labelled as the meeting's (DATE:, Meeting Date, HELD, "met
// at … on", "Minutes"); else a date standing at the very top. Its month
// and year must be the link text's when the link text states them.
func minutesDate(head, linkText string) (time.Time, record.Note, error) {
	// (an unlabelled date must be confirmed by the link text's month and year)
	var day time.Time
	var how record.Note
	weekday := ""
	labelledDay := false
	for i, m := range minutesDateRE.FindAllStringSubmatchIndex(head, -1) {
		before := head[max(0, m[0]-60):m[0]]
		labelled := minutesLabelRE.MatchString(before)
		if !labelled && !(i == 0 && m[0] < 400) {
			continue
		}
		mo := monthIndex(head[m[2]:m[3]])
		dd, _ := strconv.Atoi(head[m[4]:m[5]])
		yy, _ := strconv.Atoi(head[m[6]:m[7]])
		t := time.Date(yy, mo, dd, 0, 0, 0, 0, record.NewYork)
		if t.Day() != dd || yy < 1975 {
			continue
		}
		day, weekday = t, ""
		if w := weekdayBeforeRE.FindStringSubmatch(head[max(0, m[0]-12):m[0]]); w != nil {
			weekday = w[1]
		}
		how = record.N("meet.minutes.how.given", strconv.Quote(head[m[0]:m[1]]))
		if !labelled {
			how = record.N("meet.minutes.how.top", strconv.Quote(head[m[0]:m[1]]))
		}
		if labelled {
			labelledDay = true
			break
		}
	}
	if day.IsZero() {
		return day, how, fmt.Errorf("no meeting date is read from the minutes' heading")
	}
	if weekday != "" && !strings.EqualFold(weekday, day.Weekday().String()) {
		return day, how, fmt.Errorf("the heading says %s but %s is a %s", weekday, day.Format("2006-01-02"), day.Weekday())
	}
	m := linkDateRE.FindStringSubmatch(linkText)
	if m == nil && !labelledDay {
		return day, how, fmt.Errorf("the only date (%s) stands unlabelled at the top of the text and the link text %q does not confirm it", day.Format("2006-01-02"), linkText)
	}
	if m != nil {
		mo, yy := m[1], m[3]
		if mo == "" {
			mo, yy = m[5], m[4]
		}
		if y, _ := strconv.Atoi(yy); monthIndex(mo) != day.Month() || y != day.Year() {
			return day, how, fmt.Errorf("the minutes date %s disagrees with the link text %q", day.Format("2006-01-02"), linkText)
		}
		agrees := map[string]string{"meet.minutes.how.given": "meet.minutes.how.given.agrees", "meet.minutes.how.top": "meet.minutes.how.top.agrees"}
		how = record.N(agrees[how.Key], how.Args[0], strconv.Quote(linkText))
	}
	return day, how, nil
}

// minutesEvents are the application numbers a minutes text names (a
// number broken across lines included), each a land event linked by
// method "text" with the words around it as evidence.
func minutesEvents(code, body string, day time.Time, url, text string) []land.Event {
	var out []land.Event
	seen := map[string]bool{}
	flat := strings.Join(strings.Fields(text), " ")
	for _, ix := range minutesULURPRE.FindAllStringSubmatchIndex(flat, -1) {
		g := func(i int) string {
			if ix[2*i] < 0 {
				return ""
			}
			return flat[ix[2*i]:ix[2*i+1]]
		}
		num := flat[ix[0]:ix[1]]
		k := g(2) + g(3) + g(5)
		if g(4) != "" {
			k += "(A)"
		}
		if land.ULURPKey(g(1)+" "+g(2)+g(3)+" "+g(5)) == "" || seen[k] {
			continue
		}
		seen[k] = true
		from, to := max(0, ix[0]-120), min(len(flat), ix[1]+120)
		for from > 0 && from < ix[0] && flat[from-1] != ' ' {
			from++
		}
		for to < len(flat) && to > ix[1] && flat[to] != ' ' {
			to--
		}
		ev := strings.TrimSpace(strings.ToValidUTF8(flat[from:to], ""))
		out = append(out, land.Event{
			ID: MinutesSource + ":" + code + "-" + day.Format("2006-01-02") + ":" + k, Type: "cb_minutes", Actor: "community_board", Body: body,
			Name: body + " minutes of " + day.Format("January 2, 2006") + " name " + num, ULURPNumbers: []string{num}, ULURPKeys: []string{k},
			Date: day, DateNote: land.NEventMinutesDate.String(), DateNoteKey: new(land.NEventMinutesDate), URL: url,
			Method: "text", Confidence: meeting.High, Evidence: strconv.Quote("…" + ev + "…"),
			Source: MinutesSource, SourceLabel: MinutesLabel,
		})
	}
	return out
}

// attachMinutes gives a held meeting of the same board and day its
// minutes: a calendar entry of the full board (its name says "board" and
// not "executive") takes the minutes document and the published fact, and
// the minutes' own meeting is not kept; when no such entry, or more than
// one, is held, the minutes' meeting is returned to be kept.
func attachMinutes(held []meeting.Meeting, minutes []meeting.Meeting, notes *[]string) []meeting.Meeting {
	var keep []meeting.Meeting
	for _, mm := range minutes {
		var at []int
		for i, m := range held {
			name := strings.ToLower(strings.TrimPrefix(m.Title, m.Body+": "))
			if m.Source == CalendarSource && m.Body == mm.Body && m.When.Date == mm.When.Date &&
				strings.Contains(name, "board") && !strings.Contains(name, "executive") {
				at = append(at, i)
			}
		}
		if len(at) != 1 {
			if len(at) > 1 {
				*notes = append(*notes, fmt.Sprintf("%s: %d full-board calendar entries that day; the minutes are kept as their own meeting", mm.ID, len(at)))
			}
			keep = append(keep, mm)
			continue
		}
		m := &held[at[0]]
		m.Docs = append(m.Docs, mm.Docs...)
		if mm.Minutes.EvidenceKey != nil {
			attached := mm.Minutes.EvidenceKey.Clone()
			attached.Key = "meet.minutes.held.attached"
			m.Minutes = meeting.NewFact(meeting.MinutesPublished, attached)
		} else { // a meeting read before the notes
			m.Minutes = meeting.Fact{State: meeting.MinutesPublished, Evidence: mm.Minutes.Evidence + "; attached to this calendar entry of the same board and day"}
		}
		m.Held = meeting.NewFact(meeting.Held, record.N("meet.minutes.record.day", mm.SourceURL))
		*notes = append(*notes, fmt.Sprintf("%s: minutes attached to %s", mm.ID, m.ID))
	}
	return keep
}

// dedupeEvents keeps one event per id (the first read).
func dedupeEvents(es []land.Event) []land.Event {
	seen := map[string]bool{}
	var out []land.Event
	for _, e := range es {
		if !seen[e.ID] {
			seen[e.ID] = true
			out = append(out, e)
		}
	}
	return out
}
