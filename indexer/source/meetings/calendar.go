package meetings

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Community-board calendar source: text extracted (layout mode) from the
// boards' PDF calendars, schedules and agendas.
const (
	CalendarSource = "cb-calendar"
	CalendarLabel  = "Community board calendars (text of the boards' PDF calendars and agendas)"
)

var boroughs = map[string]string{"bx": "Bronx", "bk": "Brooklyn", "mn": "Manhattan", "qn": "Queens", "si": "Staten Island"}

// boroughCode is the two-letter code of a borough as a file name writes it
// ("bronx", "Staten_Island", "staten-island"); "" when none.
func boroughCode(name string) string {
	k := strings.NewReplacer("_", "", "-", "", " ", "").Replace(strings.ToLower(name))
	return map[string]string{"bronx": "bx", "brooklyn": "bk", "manhattan": "mn", "queens": "qn", "statenisland": "si"}[k]
}

var (
	cbEmailRE  = regexp.MustCompile(`(?i)\b(bx|bk|mn|qn|si)(\d{2})@cb\.nyc\.gov`)
	cbFileRE   = regexp.MustCompile(`(?i)^(bronx|brooklyn|manhattan|queens|staten-island)-cb-(\d{1,2})`)
	timeRE     = regexp.MustCompile(`(?i)\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?`)
	monthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	monthRE    = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{4})\b`)
	// a listed date: optional marks and weekday, then "June 9, 2026",
	// "January 7th" or "01/13", at the start of a fragment.
	listDateRE = regexp.MustCompile(`(?i)^\**\s*(?:(monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?(?:(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s*(\d{4}))?|(\d{2})/(\d{2}))\b\**`)
	// an abbreviated month heading ("NOV 2026", "Sept. 2026")
	monthAbbrRE = regexp.MustCompile(`(?i)\b(jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\.?\s+(20\d\d)\b`)
	yearOnlyRE  = regexp.MustCompile(`^(20\d\d)$`)
	headYearRE  = regexp.MustCompile(`(?i)^(20\d\d)\s+board meeting schedule`)
	memoDateRE  = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2}),\s*(\d{4})\b`)
	heldAtRE    = regexp.MustCompile(`(?i)(?:meetings are (?:generally |usually )?held at|are held at)\s+(?:the\s+)?([^.]*?\d{5})`)
	addressRE   = regexp.MustCompile(`(?i)^\d+[\w.\- ]*\b(st|street|ave|avenue|blvd|boulevard|road|rd|place|pl|expressway)\b\.?`)
	zipLineRE   = regexp.MustCompile(`,\s*NY\s+\d{5}`)
	youtubeRE   = regexp.MustCompile(`https?://(?:www\.)?youtu(?:be\.com|\.be)/\S+`)
)

// fragment is a run of text on one line, separated from the next by two
// spaces or more; Col is its first rune's column.
type fragment struct {
	Line, Col int
	Text      string
}

func (f fragment) center() int { return f.Col + utf8.RuneCountInString(f.Text)/2 }

func fragments(lines []string) [][]fragment {
	out := make([][]fragment, len(lines))
	for i, l := range lines {
		runes := []rune(strings.ReplaceAll(l, "\t", "    "))
		start, gap := -1, 0
		flush := func(end int) {
			if start >= 0 {
				if t := strings.TrimSpace(string(runes[start:end])); t != "" {
					out[i] = append(out[i], fragment{Line: i, Col: start, Text: t})
				}
			}
			start = -1
		}
		for j, r := range runes {
			if r == ' ' {
				gap++
				if gap >= 2 {
					flush(j - 1)
				}
				continue
			}
			if start < 0 {
				start = j
			}
			gap = 0
		}
		flush(len(runes))
	}
	return out
}

// calendarBoard names the board of a text: its cb.nyc.gov address (high,
// with the line it is on) or the file name (low).
func calendarBoard(name string, lines []string) (code, body string, f meeting.ParsedField, ok bool) {
	for i, l := range lines {
		if m := cbEmailRE.FindStringSubmatch(l); m != nil {
			b := strings.ToLower(m[1])
			n, _ := strconv.Atoi(m[2])
			body = fmt.Sprintf("%s Community Board %d", boroughs[b], n)
			ln, src := sourceLine(lines, i)
			return fmt.Sprintf("%s%02d", b, n), body, meeting.ParsedField{Field: "body", Value: body, Confidence: meeting.High, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.email", m[0])), true
		}
	}
	base := name[strings.LastIndex(name, "/")+1:]
	if m := cbFileRE.FindStringSubmatch(base); m != nil {
		b := strings.ToLower(m[1])
		short := boroughCode(b)
		n, _ := strconv.Atoi(m[2])
		body = fmt.Sprintf("%s Community Board %d", boroughs[short], n)
		return fmt.Sprintf("%s%02d", short, n), body, meeting.ParsedField{Field: "body", Value: body, Confidence: meeting.Low}.ReadBy(record.N("meet.calendar.how.file_name", strconv.Quote(base))), true
	}
	return "", "", meeting.ParsedField{}, false
}

// sourceLine is the 1-based number and the text (spaces collapsed,
// bounded) of line i: the evidence kept with a parsed field.
func sourceLine(lines []string, i int) (int, string) {
	if i < 0 || i >= len(lines) {
		return 0, ""
	}
	t := strings.Join(strings.Fields(lines[i]), " ")
	if r := []rune(t); len(r) > 200 {
		t = string(r[:200]) + "…"
	}
	return i + 1, t
}

// parsedMeeting is one meeting read from calendar text.
type parsedMeeting struct {
	Date      time.Time // the day, New York
	Start     *time.Time
	End       *time.Time
	Name      string
	Place     string
	Remote    bool
	Links     []meeting.Link
	Tentative bool
	Fields    []meeting.ParsedField
}

// field is the parsed field of that name, if any.
func (p parsedMeeting) field(name string) (meeting.ParsedField, bool) {
	for _, f := range p.Fields {
		if f.Field == name {
			return f, true
		}
	}
	return meeting.ParsedField{}, false
}

// Words that mark a day as no meeting: holidays, closures, cancellations.
var (
	closureRE = regexp.MustCompile(`(?i)\b(closed|closure|no (?:board |committee )?meetings?|cancell?ed|recess|holiday)\b`)
	holidayRE = regexp.MustCompile(`(?i)\b(new year'?s?(?: day| eve)?|martin luther king|mlk day|lincoln'?s birthday|presidents'? day|washington'?s birthday|memorial day|juneteenth|independence day|fourth of july|labor day|columbus day|indigenous peoples'? day|election day|primary day|veterans'? day|thanksgiving|christmas|hanukk?ah|chanukah|kwanzaa|rosh hashanah|yom kippur|passover|good friday|easter|eid al[- ]\w+|diwali|lunar new year)\b`)
	// a general statement of the meetings' time ("TIME: 7:30 PM", "are
	// usually held … at 6:00 PM")
	docTimeLineRE = regexp.MustCompile(`(?i)\btime:|\bheld\b`)
	// the text says its dates are meetings
	meetingListRE = regexp.MustCompile(`(?i)meeting (?:schedule|dates)|board meeting|meetings (?:will be|are) (?:held|scheduled)|zoom meeting|dates that meetings`)
	// markers allowed beside a listed date besides a time or a place
	listMarkRE = regexp.MustCompile(`(?i)^[(*\s]*(?:scheduled|if necessary)\b`)
	letterRE   = regexp.MustCompile(`[A-Za-z]{3,}`)
	noteRE     = regexp.MustCompile(`(?i)^\W*(?:note|nb|reminder|please)\b`)
)

// noMeeting reports a text naming a holiday, a closure or a cancellation.
func noMeeting(s string) bool { return closureRE.MatchString(s) || holidayRE.MatchString(s) }

// meetingName reports whether s can name a meeting: words of letters
// other than weekday and month names, no holiday, no note marker.
func meetingName(s string) bool {
	if noMeeting(s) || noteRE.MatchString(s) {
		return false
	}
	for _, w := range letterRE.FindAllString(s, -1) {
		lw := strings.ToLower(w)
		if weekdayIndex(lw) < 0 && monthIndex(lw) == 0 {
			return true
		}
	}
	return false
}

var weekdayNames = []string{"sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"}

// weekdayIndex is the weekday of a full or shortened name ("Mon",
// "Tues", "Thurs"), -1 if none.
func weekdayIndex(s string) int {
	s = strings.ToLower(strings.Trim(s, "*.: "))
	for i, w := range weekdayNames {
		if s == w || (len(s) >= 3 && strings.HasPrefix(w, s)) {
			return i
		}
	}
	return -1
}

// tokens are the words of a fragment, each at its own column.
func tokens(f fragment) []fragment {
	var out []fragment
	runes := []rune(f.Text)
	start := -1
	for j := 0; j <= len(runes); j++ {
		if j == len(runes) || runes[j] == ' ' {
			if start >= 0 {
				out = append(out, fragment{Line: f.Line, Col: f.Col + start, Text: string(runes[start:j])})
			}
			start = -1
			continue
		}
		if start < 0 {
			start = j
		}
	}
	return out
}

// parseCalendar reads the meetings of one calendar text: a month grid
// (day numbers in columns under a weekday header) or a list of dates
// (schedules, memos, agendas). Precision first: holidays and closures
// are never meetings, and a text the parser cannot read with confidence
// is rejected whole with its reason, never half-read. Every meeting has
// a body, a date and a start (a time or "not stated"), each with the line
// it was read from.
func parseCalendar(name, text string) (code, body string, bodyField meeting.ParsedField, out []parsedMeeting, notes []string, err error) {
	if strings.TrimSpace(text) == "" {
		return "", "", bodyField, nil, nil, fmt.Errorf("%s: rejected: no text (a scanned PDF yields none)", name)
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	code, body, bodyField, ok := calendarBoard(name, lines)
	if !ok {
		return "", "", bodyField, nil, nil, fmt.Errorf("%s: rejected: no community board is named (no cb.nyc.gov address, no board in the file name)", name)
	}
	frs := fragments(lines)
	tentative := strings.Contains(strings.ToUpper(text), "TENTATIVE")
	var reason string
	if rows := dayRows(frs); countFull(rows) >= 2 {
		out, notes, reason = parseGrid(lines, frs, rows, tentative, false)
		if strings.Contains(reason, "columns out of place") {
			// numbers printed at the right of their cells: read so only
			// when every day then falls on its column's weekday
			if o, n, r := parseGrid(lines, frs, rows, tentative, true); r == "" {
				out, notes, reason = o, append(n, "the day numbers are printed at the right of their cells: each is read under the last weekday label at or left of it, where every day falls on its weekday"), ""
			}
		}
	} else {
		out, notes, reason = parseList(text, lines, frs)
	}
	if reason == "" && len(out) == 0 {
		reason = "no meeting could be read from the text"
	}
	if reason == "" {
		reason = vetParsed(out)
	}
	if reason != "" {
		return code, body, bodyField, nil, notes, fmt.Errorf("%s: rejected whole: %s", name, reason)
	}
	return code, body, bodyField, out, notes, nil
}

// vetParsed is the last check before publishing: every meeting has a
// name, a date and a start (a time or "not stated"), each read from a
// line, and no two meetings share a day and a name.
func vetParsed(ps []parsedMeeting) string {
	seen := map[string]bool{}
	for _, p := range ps {
		for _, f := range []string{"date", "name", "start"} {
			pf, ok := p.field(f)
			if !ok || pf.Line == 0 {
				return fmt.Sprintf("the meeting of %s has no %s read from a line of the text", p.Date.Format("2006-01-02"), f)
			}
		}
		if !meetingName(p.Name) {
			return fmt.Sprintf("%q (%s) does not name a meeting", p.Name, p.Date.Format("2006-01-02"))
		}
		k := p.Date.Format("2006-01-02") + "/" + meeting.BodyKey(p.Name)
		if seen[k] {
			return fmt.Sprintf("%q is read twice on %s", p.Name, p.Date.Format("2006-01-02"))
		}
		seen[k] = true
	}
	return ""
}

// dayRow is a line that holds only day numbers (and the single letters
// of a vertical month label): its index and how many numbers it holds.
type dayRow struct{ line, n int }

// fullWeek is the fewest numbers of a week row inside a grid: a week
// printed whole has five at least (six where Sundays are left out); a
// short first or last week has one or more.
const fullWeek = 3

// countFull counts the rows of a full week.
func countFull(rows []dayRow) int {
	n := 0
	for _, r := range rows {
		if r.n >= fullWeek {
			n++
		}
	}
	return n
}

// dayRows are the lines that hold only day numbers (and the single
// letters of a vertical month label), one at least.
func dayRows(frs [][]fragment) []dayRow {
	var rows []dayRow
	for i, fs := range frs {
		n := 0
		ok := true
		for _, f := range fs {
			for _, tok := range strings.Fields(f.Text) {
				if len(tok) == 1 && tok[0] >= 'A' && tok[0] <= 'Z' {
					continue
				}
				v, err := strconv.Atoi(tok)
				if err != nil || v < 1 || v > 31 {
					ok = false
				}
				n++
			}
		}
		if ok && n >= 1 {
			rows = append(rows, dayRow{i, n})
		}
	}
	return rows
}

// weekRows are a grid's week rows: the rows of full weeks, the one short
// row between the weekday header and the first of them (a first week of
// one or two days) and the first short row after the last of them (a
// last week of one or two days). A short row between two full weeks is
// text of a cell (a lone number), not a week; two short rows above the
// first full week cannot be told apart and reject the grid.
func weekRows(rows []dayRow, headLine int) ([]int, string) {
	first, last := -1, -1
	for i, r := range rows {
		if r.n >= fullWeek {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	var out []int
	var above []int
	for _, r := range rows[:first] {
		if r.line > headLine {
			above = append(above, r.line)
		}
	}
	if len(above) > 1 {
		return nil, fmt.Sprintf("lines %d and %d both hold a few day numbers above the first full week: which one is the first week cannot be told", above[0]+1, above[1]+1)
	}
	out = append(out, above...)
	for _, r := range rows[first : last+1] {
		if r.n >= fullWeek {
			out = append(out, r.line)
		}
	}
	if last+1 < len(rows) {
		out = append(out, rows[last+1].line)
	}
	return out, ""
}

// gridMonth finds the month of a grid: a printed "SEPTEMBER 2026"
// heading (high) or a vertical label of single letters down the left
// margin with a year printed alone (medium).
func gridMonth(lines []string, frs [][]fragment) (time.Month, int, meeting.ParsedField, bool) {
	for i, l := range lines {
		if m := monthRE.FindStringSubmatch(l); m != nil {
			y, _ := strconv.Atoi(m[2])
			mo := monthIndex(m[1])
			ln, src := sourceLine(lines, i)
			return mo, y, meeting.ParsedField{Field: "month", Value: fmt.Sprintf("%d-%02d", y, mo), Confidence: meeting.High, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.printed_heading", strconv.Quote(m[0]))), true
		}
	}
	for i, l := range lines {
		if m := monthAbbrRE.FindStringSubmatch(l); m != nil {
			y, _ := strconv.Atoi(m[2])
			mo := monthIndex(m[1])
			ln, src := sourceLine(lines, i)
			return mo, y, meeting.ParsedField{Field: "month", Value: fmt.Sprintf("%d-%02d", y, mo), Confidence: meeting.High, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.printed_heading", strconv.Quote(m[0]))), true
		}
	}
	var label strings.Builder
	year, yearLine := 0, -1
	for _, fs := range frs {
		for _, f := range fs {
			if f.Col <= 3 && len(f.Text) >= 1 && f.Text[0] >= 'A' && f.Text[0] <= 'Z' && (len(f.Text) == 1 || f.Text[1] == ' ') {
				label.WriteByte(f.Text[0])
			}
			if yearOnlyRE.MatchString(f.Text) {
				year, _ = strconv.Atoi(f.Text)
				yearLine = f.Line
			}
		}
	}
	if mo := monthIndex(label.String()); mo != 0 && year != 0 {
		ln, src := sourceLine(lines, yearLine)
		return mo, year, meeting.ParsedField{Field: "month", Value: fmt.Sprintf("%d-%02d", year, mo), Confidence: meeting.Medium,
			Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.vertical", strconv.Quote(label.String()), year)), true
	}
	return 0, 0, meeting.ParsedField{}, false
}

func monthIndex(s string) time.Month {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, m := range monthNames {
		if s == m {
			return time.Month(i + 1)
		}
	}
	if s == "sept" {
		return time.September
	}
	for i, m := range monthNames {
		if len(s) == 3 && strings.HasPrefix(m, s) && monthAbbrRE.MatchString(s+" 2000") {
			return time.Month(i + 1)
		}
	}
	return 0
}

// gridHeader is one weekday label of a grid's header row.
type gridHeader struct {
	col, center int
	day         time.Weekday
}

// weekdayHeader finds the header row above the first day row: five
// weekday labels at least, in week order.
func weekdayHeader(frs [][]fragment, before int) ([]gridHeader, int) {
	for i := before - 1; i >= 0; i-- {
		var hs []gridHeader
		all := 0
		for _, f := range frs[i] {
			for _, t := range tokens(f) { // labels printed one space apart share a fragment
				all++
				if w := weekdayIndex(t.Text); w >= 0 {
					hs = append(hs, gridHeader{t.Col, t.center(), time.Weekday(w)})
				}
			}
		}
		if len(hs) >= 5 && len(hs) == all {
			return hs, i
		}
	}
	return nil, -1
}

// headerAt is the header of a day number printed at col: the first label
// starting at or right of it (numbers are printed at a cell's top left,
// labels left or centred in it), or with right the last label starting at
// or left of it (numbers printed at a cell's top right).
func headerAt(hs []gridHeader, col int, right bool) int {
	if right { // the last label starting at or left of it
		at := -1
		for i, h := range hs {
			if h.col <= col+1 {
				at = i
			}
		}
		return at
	}
	for i, h := range hs {
		if h.col >= col-1 {
			return i
		}
	}
	return -1
}

// spanAt is the header whose column holds a text centred at x: the
// nearest label centre.
func spanAt(hs []gridHeader, x int) int {
	best := 0
	for i, h := range hs {
		if abs(h.center-x) < abs(hs[best].center-x) {
			best = i
		}
	}
	return best
}

// parseGrid reads a month grid. Its day numbers must agree with the
// weekday header (each number's date falls on its column's weekday, the
// days run forward); text between two day rows belongs to the day whose
// number is the last one at or left of its centre, and that day must be
// in the header column nearest the text. A day's text, top to bottom, is
// its name, its time, then its place; a holiday or a closure is no
// meeting; any other text without a time, a text between two columns or
// a note inside the grid rejects the calendar.
func parseGrid(lines []string, frs [][]fragment, candidates []dayRow, tentative, right bool) ([]parsedMeeting, []string, string) {
	mo, year, monthField, ok := gridMonth(lines, frs)
	if !ok {
		return nil, nil, "a month grid with no readable month and year"
	}
	firstFull := 0
	for _, r := range candidates {
		if r.n >= fullWeek {
			firstFull = r.line
			break
		}
	}
	hs, headLine := weekdayHeader(frs, firstFull)
	if hs == nil {
		return nil, nil, "a month grid with no weekday header row above its day numbers: its columns cannot be checked"
	}
	rows, why := weekRows(candidates, headLine)
	if why != "" {
		return nil, nil, why
	}
	wide := 0 // a cell's width: the largest gap between two labels
	for i := 1; i < len(hs); i++ {
		wide = max(wide, hs[i].center-hs[i-1].center)
	}
	committeePlace := ""
	if m := heldAtRE.FindStringSubmatch(strings.Join(strings.Fields(strings.Join(lines, " ")), " ")); m != nil {
		committeePlace = strings.TrimSpace(m[1])
	}
	type cell struct {
		day  time.Time
		line int // the day number's line
		head int
		frs  []fragment
	}
	var cells []*cell
	var notes []string
	var prev time.Time
	first := true
	m := mo
	ended := false
	for ri, r := range rows {
		if ended {
			return nil, notes, fmt.Sprintf("day numbers (line %d) below a note line that ended the grid", r+1)
		}
		if ri > 0 && r <= headLine {
			return nil, notes, "day numbers above the weekday header"
		}
		end := len(lines)
		if ri+1 < len(rows) {
			end = rows[ri+1]
		}
		type col struct {
			x int
			c *cell
		}
		var cols []col
		for _, f := range frs[r] {
			off := 0
			for _, tok := range strings.Fields(f.Text) {
				at := f.Col + off + strings.Index(f.Text[off:], tok)
				off = at - f.Col + len(tok)
				v, err := strconv.Atoi(tok)
				if err != nil {
					continue
				}
				if first && v > 7 {
					m = mo - 1 // trailing days of the month before
				} else if !first && v < prev.Day() && prev.Month() == time.Month((int(m)+11)%12+1) {
					m++ // first days of the next month
				}
				d := time.Date(year, m, v, 0, 0, 0, 0, record.NewYork)
				if d.Day() != v {
					return nil, notes, fmt.Sprintf("line %d: day %d does not exist in %s", r+1, v, time.Date(year, m, 1, 0, 0, 0, 0, time.UTC).Format("January 2006"))
				}
				if !first && !d.After(prev) {
					return nil, notes, fmt.Sprintf("line %d: day %d does not follow day %d (a mini-calendar or numbers out of place)", r+1, v, prev.Day())
				}
				if !first && d.Sub(prev) > 8*24*time.Hour {
					return nil, notes, fmt.Sprintf("line %d: day %d skips days after day %d", r+1, v, prev.Day())
				}
				h := headerAt(hs, at, right)
				if h < 0 || hs[h].day != d.Weekday() {
					under := "no weekday label"
					if h >= 0 {
						under = hs[h].day.String()
					}
					return nil, notes, fmt.Sprintf("line %d: day %d is printed under %s but %s is a %s (columns out of place)", r+1, v, under, d.Format("2006-01-02"), d.Weekday())
				}
				first, prev = false, d
				c := &cell{day: d, line: r, head: h}
				cols = append(cols, col{at, c})
				cells = append(cells, c)
			}
		}
		for i := r + 1; i < end; i++ {
			if footer(lines[i]) {
				ended = true
				break
			}
			for _, f := range frs[i] {
				if f.Col <= 3 && len(f.Text) == 1 || yearOnlyRE.MatchString(f.Text) {
					continue
				}
				if utf8.RuneCountInString(f.Text) > wide+wide/2 {
					if noMeeting(f.Text) { // a closure across several days (a merged cell)
						notes = append(notes, fmt.Sprintf("line %d: %q spans several days: a holiday or a closure, not a meeting", i+1, f.Text))
						continue
					}
					if ri == len(rows)-1 {
						notes = append(notes, fmt.Sprintf("line %d: a note below the grid, not read as a meeting: %q", i+1, f.Text))
						ended = true
						break
					}
					return nil, notes, fmt.Sprintf("line %d: %q spans several day columns inside the grid (a note, not a cell)", i+1, f.Text)
				}
				var target *cell
				at := spanAt(hs, f.center())
				for _, c := range cols {
					if (!right && c.x <= f.center()+2) || (right && c.c.head == at) {
						target = c.c
					}
				}
				switch {
				case ri == 0 && len(cols) > 0 && (target == nil || at < cols[0].c.head):
					// the empty cells before the first day, often merged into one box
					notes = append(notes, fmt.Sprintf("line %d: %q is in the empty cells before the first day, not read as a meeting", i+1, f.Text))
					continue
				case ri == len(rows)-1 && len(cols) > 0 && at > cols[len(cols)-1].c.head:
					notes = append(notes, fmt.Sprintf("line %d: %q is in the empty cells after the last day, not read as a meeting", i+1, f.Text))
					continue
				case target == nil:
					return nil, notes, fmt.Sprintf("line %d: %q is under no day number", i+1, f.Text)
				case at != target.head && noMeeting(f.Text): // a closure centred across two days (a merged cell)
					notes = append(notes, fmt.Sprintf("line %d: %q spans several days: a holiday or a closure, not a meeting", i+1, f.Text))
					continue
				case at != target.head:
					return nil, notes, fmt.Sprintf("line %d: %q sits between two day columns", i+1, f.Text)
				}
				target.frs = append(target.frs, f)
			}
			if ended {
				break
			}
		}
	}
	var out []parsedMeeting
	for _, c := range cells {
		if len(c.frs) == 0 {
			continue
		}
		texts := make([]string, len(c.frs))
		for i, f := range c.frs {
			texts[i] = f.Text
		}
		joined := strings.Join(texts, " ")
		day := c.day.Format("2006-01-02")
		if noMeeting(joined) {
			notes = append(notes, fmt.Sprintf("%s: %q is a holiday or a closure, not a meeting", day, joined))
			continue
		}
		if strings.Contains(strings.ToLower(joined), "call the board office") {
			continue // the footer
		}
		if c.day.Month() != mo {
			return nil, notes, fmt.Sprintf("line %d: text under %s, a day of another month: %q", c.frs[0].Line+1, day, joined)
		}
		ti := -1
		for i, l := range texts {
			if timeRE.MatchString(l) {
				if ti >= 0 {
					return nil, notes, fmt.Sprintf("the cell of %s states two times (lines %d and %d): two meetings in one cell cannot be told apart", day, c.frs[ti].Line+1, c.frs[i].Line+1)
				}
				ti = i
			}
		}
		if ti < 0 {
			return nil, notes, fmt.Sprintf("the cell of %s holds %q (line %d) with no time: neither a meeting nor a known holiday", day, joined, c.frs[0].Line+1)
		}
		p := parsedMeeting{Date: c.day, Tentative: tentative}
		ln, src := sourceLine(lines, c.line)
		gridDay := record.N("meet.calendar.how.grid_day")
		if monthField.HowKey != nil {
			gridDay.Inner = []record.Part{record.PartOf(*monthField.HowKey)}
		}
		p.Fields = append(p.Fields, meeting.ParsedField{Field: "date", Value: day, Confidence: monthField.Confidence,
			Line: ln, SourceText: src}.ReadBy(gridDay))
		nameFrs, placeFrs := c.frs[:ti], slices.Clone(c.frs[ti+1:])
		tm := timeRE.FindStringSubmatch(texts[ti])
		st, ok := clock(c.day, tm)
		if !ok {
			return nil, notes, fmt.Sprintf("line %d: %q is not a time of day", c.frs[ti].Line+1, tm[0])
		}
		p.Start = &st
		ln, src = sourceLine(lines, c.frs[ti].Line)
		p.Fields = append(p.Fields, meeting.ParsedField{Field: "start", Value: st.Format("15:04"), Confidence: meeting.High, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.cell_time", strconv.Quote(tm[0]))))
		if rest := strings.TrimSpace(timeRE.ReplaceAllString(texts[ti], "")); rest != "" {
			placeFrs = append([]fragment{{Line: c.frs[ti].Line, Col: c.frs[ti].Col, Text: rest}}, placeFrs...)
		}
		for i, f := range nameFrs {
			if i > 0 && streetRE.MatchString(f.Text) { // an address above the time
				placeFrs = append(slices.Clone(nameFrs[i:]), placeFrs...)
				nameFrs = nameFrs[:i]
				break
			}
		}
		var nameLines []string
		for _, f := range nameFrs {
			nameLines = append(nameLines, f.Text)
		}
		p.Name = strings.Join(nameLines, " ")
		if !meetingName(p.Name) {
			return nil, notes, fmt.Sprintf("the cell of %s has a time but %q names no meeting", day, p.Name)
		}
		ln, src = sourceLine(lines, nameFrs[0].Line)
		p.Fields = append(p.Fields, meeting.ParsedField{Field: "name", Value: p.Name, Confidence: meeting.Medium, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.cell_name")))
		switch {
		case len(placeFrs) > 0:
			var pl []string
			for _, f := range placeFrs {
				pl = append(pl, f.Text)
			}
			p.Place = joinPlace(pl)
			ln, src = sourceLine(lines, placeFrs[0].Line)
			p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: p.Place, Confidence: meeting.Medium, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.cell_place")))
		case committeePlace != "" && !strings.Contains(strings.ToLower(p.Name), "board"): // a committee, not the full or executive board
			p.Place = committeePlace
			p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: p.Place, Confidence: meeting.Low, Line: lineOf(lines, "held at"), SourceText: "Committee meetings are held at " + committeePlace}.ReadBy(record.N("meet.calendar.how.committee_place")))
		}
		out = append(out, p)
	}
	return out, notes, ""
}

// lineOf is the 1-based number of the first line holding s (any case), 0
// if none.
func lineOf(lines []string, s string) int {
	for i, l := range lines {
		if strings.Contains(strings.ToLower(l), s) {
			return i + 1
		}
	}
	return 0
}

// clock is the start of a day at a printed time.
func clock(day time.Time, m []string) (time.Time, bool) {
	if m == nil {
		return time.Time{}, false
	}
	h, _ := strconv.Atoi(m[1])
	mi := 0
	if m[2] != "" {
		mi, _ = strconv.Atoi(m[2])
	}
	if h < 1 || h > 12 || mi > 59 {
		return time.Time{}, false
	}
	if strings.EqualFold(m[3], "p") && h != 12 {
		h += 12
	}
	if strings.EqualFold(m[3], "a") && h == 12 {
		h = 0
	}
	return time.Date(day.Year(), day.Month(), day.Day(), h, mi, 0, 0, record.NewYork), true
}

// parseList reads a list of dates: one meeting per date at the start of
// a fragment, in a text that says its dates are meetings; the year from
// the date, a year heading in the same column, a schedule heading or the
// memo's own date; the time from the same line, the line below (an
// agenda) or a general statement of the meetings' time; the place from
// the same line, an address block or a "meetings are held at" sentence.
// A date beside a holiday or a closure is no meeting; a date beside other
// words, a weekday that disagrees with its date, a date with no year or a
// time the parser cannot attach to a date rejects the text.
func parseList(text string, lines []string, frs [][]fragment) ([]parsedMeeting, []string, string) {
	type yh struct{ line, col, year int }
	var heads []yh
	docYear := 0
	var docYearHow record.Note
	for _, fs := range frs {
		for _, f := range fs {
			if yearOnlyRE.MatchString(f.Text) {
				y, _ := strconv.Atoi(f.Text)
				heads = append(heads, yh{f.Line, f.Col, y})
			}
			if m := headYearRE.FindStringSubmatch(f.Text); m != nil {
				docYear, _ = strconv.Atoi(m[1])
				docYearHow = record.N("meet.calendar.how.heading", strconv.Quote(f.Text))
			}
		}
	}
	lower := strings.ToLower(text)
	if docYear == 0 {
		for _, l := range lines {
			ll := strings.ToLower(l)
			if strings.Contains(ll, "memo") || strings.Contains(ll, "date:") {
				if m := memoDateRE.FindStringSubmatch(l); m != nil {
					docYear, _ = strconv.Atoi(m[3])
					docYearHow = record.N("meet.calendar.how.doc_date", strconv.Quote(m[0]))
				}
			}
		}
	}
	if !meetingListRE.MatchString(strings.Join(strings.Fields(text), " ")) {
		return nil, nil, "the text lists dates but never says they are meetings"
	}
	// the lines stating a time; each must be attached to a date or be the
	// general statement of the meetings' time
	timeLines := map[int]bool{}
	used := map[int]bool{}
	var docTime []string
	docTimeLine := -1
	docTimes := map[string]bool{}
	for i, l := range lines {
		if !timeRE.MatchString(l) {
			continue
		}
		timeLines[i] = true
		if docTimeLineRE.MatchString(l) {
			for _, m := range timeRE.FindAllStringSubmatch(l, -1) {
				docTimes[strings.ToLower(m[1]+":"+m[2]+m[3])] = true
				docTime, docTimeLine = m, i
			}
		}
	}
	if len(docTimes) != 1 {
		docTime, docTimeLine = nil, -1
	}
	docPlace, docPlaceHow, docPlaceLine := "", record.Note{}, 0
	if m := heldAtRE.FindStringSubmatch(strings.Join(strings.Fields(text), " ")); m != nil {
		docPlace, docPlaceHow = strings.TrimSpace(m[1]), record.N("meet.calendar.how.sentence", strconv.Quote(m[0]))
		docPlaceLine = lineOf(lines, "held at")
	}
	name, nameHow, nameLine := "Board meeting", record.N("meet.calendar.how.lists_dates"), 0
	for _, k := range []struct {
		phrase, name string
		how          record.Note
	}{
		{"monthly board meeting", "Monthly Board Meeting", record.N("meet.calendar.how.agenda_heading")},
		{"board meeting schedule", "Board meeting", record.N("meet.calendar.how.schedule_heading")},
		{"meeting dates", "Board meeting", record.N("meet.calendar.how.dates_heading")},
		{"meetings will be held", "Board meeting", record.N("meet.calendar.how.memo")},
		{"public hearings and", "Combined Public Hearing and Board Meeting", record.N("meet.calendar.how.combined", `"Combined Public Hearings and Board Meetings"`)},
	} {
		if i := lineOf(lines, k.phrase); i > 0 {
			name, nameHow, nameLine = k.name, k.how, i
			break
		}
	}
	if nameLine == 0 {
		nameLine = lineOf(lines, "meeting")
	}
	remoteDoc := youtubeRE.FindAllString(text, -1)
	ifNecessary := strings.Contains(lower, "if necessary")
	frs = mergeWeekdays(frs)
	seen := map[string]bool{}
	var out []parsedMeeting
	var notes []string
	for li, fs := range frs {
		lineLow := ""
		for _, f := range fs {
			lineLow += strings.ToLower(f.Text) + " "
		}
		if strings.Contains(lineLow, "memo") || strings.Contains(lineLow, "date:") || strings.Contains(lineLow, "press release") {
			continue
		}
		for fi, f := range fs {
			m := listDateRE.FindStringSubmatch(f.Text)
			if m == nil {
				continue
			}
			var mo time.Month
			var day, year int
			var yearHow record.Note
			if m[2] != "" {
				mo = monthIndex(m[2])
				day, _ = strconv.Atoi(m[3])
				if m[4] != "" {
					year, _ = strconv.Atoi(m[4])
					yearHow = record.N("meet.calendar.how.year_printed")
				}
			} else {
				mi, _ := strconv.Atoi(m[5])
				mo = time.Month(mi)
				day, _ = strconv.Atoi(m[6])
			}
			rest := strings.TrimSpace(f.Text[len(m[0]):])
			for _, g := range fs[fi+1:] {
				if !listDateRE.MatchString(g.Text) && !yearOnlyRE.MatchString(g.Text) && g.Col-f.Col < 60 {
					rest = strings.TrimSpace(rest + " " + g.Text)
				}
				break
			}
			if noMeeting(rest) || noMeeting(f.Text) {
				notes = append(notes, fmt.Sprintf("line %d: %q is a holiday or a closure, not a meeting", li+1, strings.TrimSpace(f.Text+" "+rest)))
				continue
			}
			if year == 0 {
				best := -1
				for i, h := range heads {
					if h.line <= li && abs(h.col-f.Col) <= 12 {
						best = i
					}
				}
				if best >= 0 {
					year, yearHow = heads[best].year, record.N("meet.calendar.how.year_heading")
				} else if docYear != 0 {
					year, yearHow = docYear, docYearHow
				}
			}
			if year == 0 || mo < 1 || mo > 12 || day < 1 || day > 31 {
				return nil, notes, fmt.Sprintf("line %d: %q has no readable year", li+1, f.Text)
			}
			d := time.Date(year, mo, day, 0, 0, 0, 0, record.NewYork)
			if d.Day() != day {
				return nil, notes, fmt.Sprintf("line %d: %q is not a date", li+1, f.Text)
			}
			key := d.Format("2006-01-02")
			if seen[key] {
				continue // a second column repeating the list
			}
			seen[key] = true
			conf := meeting.Medium
			how := record.N("meet.calendar.how.listed")
			how.Inner = []record.Part{record.PartOf(yearHow)}
			if m[4] != "" {
				conf = meeting.High
			}
			if wd := m[1]; wd != "" {
				if !strings.EqualFold(wd, d.Weekday().String()) {
					return nil, notes, fmt.Sprintf("line %d: %q says %s but %s is a %s", li+1, f.Text, wd, key, d.Weekday())
				}
				conf = meeting.High
				how = record.N("meet.calendar.how.listed.weekday", wd)
				how.Inner = []record.Part{record.PartOf(yearHow)}
			}
			low := strings.ToLower(rest)
			remote := strings.Contains(low, "zoom")
			tbd := strings.Contains(low, "tba") || strings.Contains(low, "to be determined") || strings.Contains(rest, "“") || strings.Contains(rest, "\"")
			if rest != "" && !remote && !tbd && !timeRE.MatchString(rest) && !addressLike(rest) && !listMarkRE.MatchString(rest) {
				return nil, notes, fmt.Sprintf("line %d: %q beside the date %s is not a time, a place or a marker (a note, not a meeting entry)", li+1, rest, key)
			}
			p := parsedMeeting{Date: d, Name: name, Tentative: strings.Contains(f.Text, "*") && ifNecessary}
			ln, src := sourceLine(lines, li)
			nl, ns := sourceLine(lines, nameLine-1)
			p.Fields = append(p.Fields, meeting.ParsedField{Field: "date", Value: key, Confidence: conf, Line: ln, SourceText: src}.ReadBy(how),
				meeting.ParsedField{Field: "name", Value: name, Confidence: meeting.Medium, Line: nl, SourceText: ns}.ReadBy(nameHow))
			// the time: on the line, the line below (an agenda), or the text's general statement
			tm := timeRE.FindStringSubmatch(rest)
			tHow, tLine := record.N("meet.calendar.how.time_line"), li
			tConf := meeting.High
			if tm == nil && li+1 < len(frs) {
				for _, g := range frs[li+1] {
					// a line of its own holding only a time or a range
					if x := timeRE.FindStringSubmatch(g.Text); x != nil && strings.Trim(timeRE.ReplaceAllString(g.Text, ""), " -–—to") == "" {
						tm, tHow, tLine = x, record.N("meet.calendar.how.time_below"), li+1
						break
					}
				}
			}
			if tm == nil && docTime != nil {
				tm, tHow, tConf, tLine = docTime, record.N("meet.calendar.how.time_doc", strings.TrimSpace(docTime[0])), meeting.Medium, docTimeLine
			}
			if tm != nil {
				st, ok := clock(d, tm)
				if !ok {
					return nil, notes, fmt.Sprintf("line %d: %q is not a time of day", tLine+1, tm[0])
				}
				used[tLine] = true
				p.Start = &st
				ln, src := sourceLine(lines, tLine)
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "start", Value: st.Format("15:04"), Confidence: tConf, Line: ln, SourceText: src}.ReadBy(tHow))
				if tLine == li+1 {
					for _, g := range frs[li+1] {
						if all := timeRE.FindAllStringSubmatch(g.Text, -1); len(all) == 2 {
							if en, ok := clock(d, all[1]); ok && en.After(st) {
								p.End = &en
							}
						}
					}
				}
			} else {
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "start", Value: meeting.TimeNotStated, Confidence: meeting.High, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.no_time")))
			}
			switch {
			case remote:
				p.Remote = true
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "attendance", Value: meeting.Remote, Confidence: meeting.Medium, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.zoom")))
			case tbd:
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: "", Confidence: meeting.High, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.tbd")))
			case rest != "" && !timeRE.MatchString(rest) && addressLike(rest):
				p.Place = rest
				if blk := addressBlock(frs, li); blk != "" {
					p.Place = blk
				}
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: p.Place, Confidence: meeting.Medium, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.address")))
			}
			if p.Place == "" && !p.Remote && !tbd {
				if blk := addressBlock(frs, li); blk != "" {
					p.Place = blk
					p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: blk, Confidence: meeting.Medium, Line: ln, SourceText: src}.ReadBy(record.N("meet.calendar.how.address_block")))
				} else if docPlace != "" {
					p.Place = docPlace
					pl, ps := sourceLine(lines, docPlaceLine-1)
					p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: docPlace, Confidence: meeting.Medium, Line: pl, SourceText: ps}.ReadBy(docPlaceHow))
				}
			}
			for _, l := range remoteDoc {
				p.Links = append(p.Links, meeting.NewLink(record.N("meet.link.live_stream"), l))
			}
			out = append(out, p)
		}
	}
	for i := range lines {
		if timeLines[i] && !used[i] {
			return nil, notes, fmt.Sprintf("line %d states a time (%q) the parser cannot attach to a date", i+1, strings.Join(strings.Fields(lines[i]), " "))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date.Before(out[j].Date) })
	return out, notes, ""
}

var (
	weekdayRE = regexp.MustCompile(`(?i)^\**(monday|tuesday|wednesday|thursday|friday|saturday|sunday)$`)
	streetRE  = regexp.MustCompile(`^\d+\s+\S`)
)

// mergeWeekdays joins a weekday fragment with the date fragment after it
// ("Tuesday          01/13"), at the weekday's column.
func mergeWeekdays(frs [][]fragment) [][]fragment {
	out := make([][]fragment, len(frs))
	for i, fs := range frs {
		for j := 0; j < len(fs); j++ {
			f := fs[j]
			if weekdayRE.MatchString(f.Text) && j+1 < len(fs) {
				f.Text += " " + fs[j+1].Text
				j++
			}
			out[i] = append(out[i], f)
		}
	}
	return out
}

// footer reports a calendar's closing paragraph.
func footer(line string) bool {
	l := strings.ToLower(line)
	return strings.Contains(l, "call the board office") || strings.Contains(l, "meetings are held at") || strings.Contains(l, "location is indicated")
}

// joinPlace joins the lines of a place: a one-word line continues the
// line above it ("2049 Bartow" "Avenue").
func joinPlace(ls []string) string {
	var parts []string
	for _, l := range ls {
		if len(parts) > 0 && !strings.Contains(l, " ") && !streetRE.MatchString(l) {
			parts[len(parts)-1] += " " + l
			continue
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, ", ")
}

func addressLike(s string) bool { return addressRE.MatchString(s) || zipLineRE.MatchString(s) }

// addressBlock is a venue beside a single dated line (an agenda's
// heading): the right-hand fragments of the lines around it, from a venue
// name to a ", NY 12345" line.
func addressBlock(frs [][]fragment, li int) string {
	var parts []string
	for i := max(0, li-1); i < min(len(frs), li+3); i++ {
		for _, f := range frs[i] {
			if f.Col >= 40 {
				parts = append(parts, f.Text)
			}
		}
	}
	for i, p := range parts {
		if addressRE.MatchString(p) {
			end := i + 1
			if end < len(parts) && zipLineRE.MatchString(parts[end]) {
				end++
			}
			return strings.Join(parts[max(0, i-1):end], ", ")
		}
	}
	return ""
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// calendarMeeting builds the meeting of a parsed calendar entry.
func calendarMeeting(file, code, body string, bodyField meeting.ParsedField, p parsedMeeting, obs meeting.Observation) meeting.Meeting {
	day := p.Date.Format("2006-01-02")
	sid := code + "-" + day + "-" + meeting.BodyKey(p.Name)
	m := meeting.Meeting{
		ID: CalendarSource + ":" + sid, Source: CalendarSource, SourceLabel: CalendarLabel, SourceID: sid,
		Body: body, BodyKind: meeting.BodyCommunityBoard, Agency: &meeting.AgencyRef{Raw: body},
		Title: body + ": " + p.Name, Observed: obs, Tentative: p.Tentative,
		Fields: append([]meeting.ParsedField{bodyField}, p.Fields...),
		Raw:    map[string]string{"file": file},
	}
	m.When = meeting.When{Date: day, TimeZone: meeting.TimeZone}
	if p.Start != nil {
		m.When.Start, m.When.StartKnown, m.When.End = p.Start, true, p.End
		m.When.Say(record.N("meet.calendar.when.read"))
	} else {
		m.When.Say(record.N("meet.calendar.when.no_time"))
	}
	m.Place = meeting.Place{Text: p.Place, RemoteLinks: p.Links}
	switch {
	case p.Remote:
		m.Place.Attendance = meeting.Remote
		m.Place.Say(record.N("meet.calendar.place.zoom"))
	case p.Place != "" && len(p.Links) > 0:
		m.Place.Attendance = meeting.Hybrid
		m.Place.Say(record.N("meet.calendar.place.stream"))
	case p.Place != "":
		m.Place.Attendance = meeting.InPerson
		m.Place.Say(record.N("meet.calendar.place.venue"))
	default:
		m.Place.Attendance = meeting.AttendanceUnknown
		m.Place.Say(record.N("meet.calendar.place.none"))
	}
	m.Minutes = meeting.NewFact(meeting.MinutesFact(nil, "").State, record.N("meet.calendar.minutes.none"))
	switch {
	case p.Tentative:
		m.Held = meeting.NewFact(meeting.HeldUnknown, record.N("meet.calendar.held.tentative"))
	default:
		m.Held = meeting.NewFact(meeting.HeldUnknown, record.N("meet.calendar.held.unknown"))
	}
	m.Notice = meeting.NewNotice(meeting.NoticeUnknown, meeting.NotLinkedYet)
	return m
}
