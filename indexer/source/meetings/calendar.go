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

var (
	cbEmailRE  = regexp.MustCompile(`(?i)\b(bx|bk|mn|qn|si)(\d{2})@cb\.nyc\.gov`)
	cbFileRE   = regexp.MustCompile(`(?i)^(bronx|brooklyn|manhattan|queens|staten-island)-cb-(\d{1,2})`)
	timeRE     = regexp.MustCompile(`(?i)\b(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s*m\b\.?`)
	monthNames = []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"}
	monthRE    = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{4})\b`)
	// a listed date: optional marks and weekday, then "June 9, 2026",
	// "January 7th" or "01/13", at the start of a fragment.
	listDateRE = regexp.MustCompile(`(?i)^\**\s*(?:(monday|tuesday|wednesday|thursday|friday|saturday|sunday),?\s+)?(?:(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s*(\d{4}))?|(\d{2})/(\d{2}))\b\**`)
	yearOnlyRE = regexp.MustCompile(`^(20\d\d)$`)
	headYearRE = regexp.MustCompile(`(?i)^(20\d\d)\s+board meeting schedule`)
	memoDateRE = regexp.MustCompile(`(?i)\b(january|february|march|april|may|june|july|august|september|october|november|december)\s+(\d{1,2}),\s*(\d{4})\b`)
	heldAtRE   = regexp.MustCompile(`(?i)(?:meetings are (?:generally |usually )?held at|are held at)\s+(?:the\s+)?([^.]*?\d{5})`)
	addressRE  = regexp.MustCompile(`(?i)^\d+[\w.\- ]*\b(st|street|ave|avenue|blvd|boulevard|road|rd|place|pl|expressway)\b\.?`)
	zipLineRE  = regexp.MustCompile(`,\s*NY\s+\d{5}`)
	youtubeRE  = regexp.MustCompile(`https?://(?:www\.)?youtu(?:be\.com|\.be)/\S+`)
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

// calendarBoard names the board of a text: its cb.nyc.gov address (high)
// or the file name (low).
func calendarBoard(name, text string) (code, body string, f meeting.ParsedField, ok bool) {
	if m := cbEmailRE.FindStringSubmatch(text); m != nil {
		b := strings.ToLower(m[1])
		n, _ := strconv.Atoi(m[2])
		body = fmt.Sprintf("%s Community Board %d", boroughs[b], n)
		return fmt.Sprintf("%s%02d", b, n), body, meeting.ParsedField{Field: "body", Value: body, Confidence: meeting.High, How: "the board's e-mail address " + m[0]}, true
	}
	base := name[strings.LastIndex(name, "/")+1:]
	if m := cbFileRE.FindStringSubmatch(base); m != nil {
		b := strings.ToLower(m[1])
		short := map[string]string{"bronx": "bx", "brooklyn": "bk", "manhattan": "mn", "queens": "qn", "staten-island": "si"}[b]
		n, _ := strconv.Atoi(m[2])
		body = fmt.Sprintf("%s Community Board %d", boroughs[short], n)
		return fmt.Sprintf("%s%02d", short, n), body, meeting.ParsedField{Field: "body", Value: body, Confidence: meeting.Low, How: "the file name only; the text names no board address"}, true
	}
	return "", "", meeting.ParsedField{}, false
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

// parseCalendar reads the meetings of one calendar text: a month grid
// (day numbers in columns) or a list of dates (schedules, memos,
// agendas). Holidays and closures are skipped. Errors: no board, no text,
// no meeting.
func parseCalendar(name, text string) (code, body string, bodyField meeting.ParsedField, out []parsedMeeting, notes []string, err error) {
	if strings.TrimSpace(text) == "" {
		return "", "", bodyField, nil, nil, fmt.Errorf("%s: rejected: no text (a scanned PDF yields none)", name)
	}
	code, body, bodyField, ok := calendarBoard(name, text)
	if !ok {
		return "", "", bodyField, nil, nil, fmt.Errorf("%s: rejected: no community board is named (no cb.nyc.gov address, no board in the file name)", name)
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	frs := fragments(lines)
	tentative := strings.Contains(strings.ToUpper(text), "TENTATIVE")
	if rows := dayRows(frs); len(rows) >= 2 {
		out, notes = parseGrid(name, lines, frs, rows, tentative)
	} else {
		out, notes = parseList(text, frs)
	}
	if len(out) == 0 {
		return code, body, bodyField, nil, notes, fmt.Errorf("%s: rejected: no meeting could be read from the text", name)
	}
	return code, body, bodyField, out, notes, nil
}

// dayRows are the lines that hold only day numbers (and the single
// letters of a vertical month label), three at least.
func dayRows(frs [][]fragment) []int {
	var rows []int
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
		if ok && n >= 3 {
			rows = append(rows, i)
		}
	}
	return rows
}

// gridMonth finds the month of a grid: a printed "SEPTEMBER 2026"
// heading (high) or a vertical label of single letters down the left
// margin with a year printed alone (medium).
func gridMonth(lines []string, frs [][]fragment) (time.Month, int, meeting.ParsedField, bool) {
	for _, l := range lines {
		if m := monthRE.FindStringSubmatch(l); m != nil {
			y, _ := strconv.Atoi(m[2])
			mo := monthIndex(m[1])
			return mo, y, meeting.ParsedField{Field: "month", Value: fmt.Sprintf("%d-%02d", y, mo), Confidence: meeting.High, How: "the printed heading " + strconv.Quote(m[0])}, true
		}
	}
	var label strings.Builder
	year := 0
	for _, fs := range frs {
		for _, f := range fs {
			if f.Col <= 3 && len(f.Text) >= 1 && f.Text[0] >= 'A' && f.Text[0] <= 'Z' && (len(f.Text) == 1 || f.Text[1] == ' ') {
				label.WriteByte(f.Text[0])
			}
			if yearOnlyRE.MatchString(f.Text) {
				year, _ = strconv.Atoi(f.Text)
			}
		}
	}
	if mo := monthIndex(label.String()); mo != 0 && year != 0 {
		return mo, year, meeting.ParsedField{Field: "month", Value: fmt.Sprintf("%d-%02d", year, mo), Confidence: meeting.Medium,
			How: "the vertical letters " + strconv.Quote(label.String()) + " down the margin and the year " + strconv.Itoa(year) + " printed alone"}, true
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
	return 0
}

// parseGrid reads a month grid: every text fragment between two day rows
// belongs to the day whose number is the last one at or left of its
// center; a day's fragments, top to bottom, are its name, its time, then
// its place.
func parseGrid(name string, lines []string, frs [][]fragment, rows []int, tentative bool) ([]parsedMeeting, []string) {
	mo, year, monthField, ok := gridMonth(lines, frs)
	if !ok {
		return nil, []string{name + ": a month grid with no readable month and year"}
	}
	committeePlace := ""
	if m := heldAtRE.FindStringSubmatch(strings.Join(strings.Fields(strings.Join(lines, " ")), " ")); m != nil {
		committeePlace = strings.TrimSpace(m[1])
	}
	type cell struct {
		day   time.Time
		lines []string
	}
	var cells []*cell
	var notes []string
	for ri, r := range rows {
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
			for _, tok := range strings.Fields(f.Text) {
				v, err := strconv.Atoi(tok)
				if err != nil {
					continue
				}
				at := f.Col + strings.Index(f.Text, tok)
				m := mo
				switch {
				case ri == 0 && v > 20:
					m = mo - 1 // trailing days of the month before
				case ri == len(rows)-1 && v < 8:
					m = mo + 1
				}
				c := &cell{day: time.Date(year, m, v, 0, 0, 0, 0, record.NewYork)}
				cols = append(cols, col{at, c})
				cells = append(cells, c)
			}
		}
		for i := r + 1; i < end; i++ {
			if footer(lines[i]) {
				break
			}
			for _, f := range frs[i] {
				if f.Col <= 3 && len(f.Text) == 1 || yearOnlyRE.MatchString(f.Text) {
					continue
				}
				var target *cell
				for _, c := range cols {
					if c.x <= f.center()+2 {
						target = c.c
					}
				}
				if target == nil {
					continue
				}
				target.lines = append(target.lines, f.Text)
			}
		}
	}
	var out []parsedMeeting
	for _, c := range cells {
		if len(c.lines) == 0 {
			continue
		}
		if c.day.Month() != mo {
			notes = append(notes, fmt.Sprintf("%s: skipped text under %s, a day of another month", name, c.day.Format("2006-01-02")))
			continue
		}
		joined := strings.Join(c.lines, " ")
		if strings.Contains(strings.ToLower(joined), "closed") || strings.Contains(strings.ToLower(joined), "call the board office") {
			continue // a holiday or the footer
		}
		ti := -1
		for i, l := range c.lines {
			if timeRE.MatchString(l) {
				ti = i
				break
			}
		}
		p := parsedMeeting{Date: c.day, Tentative: tentative}
		p.Fields = append(p.Fields, meeting.ParsedField{Field: "date", Value: c.day.Format("2006-01-02"), Confidence: monthField.Confidence,
			How: "the day number's column in the grid; month from " + monthField.How})
		nameLines, placeLines := c.lines, []string(nil)
		if ti >= 0 {
			nameLines, placeLines = c.lines[:ti], c.lines[ti+1:]
			tm := timeRE.FindStringSubmatch(c.lines[ti])
			if st, ok := clock(c.day, tm); ok {
				p.Start = &st
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "start", Value: st.Format("15:04"), Confidence: meeting.High, How: "the time printed in the day's cell: " + strconv.Quote(tm[0])})
			}
			if rest := strings.TrimSpace(timeRE.ReplaceAllString(c.lines[ti], "")); rest != "" {
				placeLines = append([]string{rest}, placeLines...)
			}
		}
		for i, l := range nameLines {
			if i > 0 && streetRE.MatchString(l) { // an address above the time
				placeLines = append(slices.Clone(nameLines[i:]), placeLines...)
				nameLines = nameLines[:i]
				break
			}
		}
		p.Name = strings.Join(nameLines, " ")
		if p.Name == "" {
			continue
		}
		p.Fields = append(p.Fields, meeting.ParsedField{Field: "name", Value: p.Name, Confidence: meeting.Medium, How: "the cell's lines above its time, joined"})
		switch {
		case len(placeLines) > 0:
			p.Place = joinPlace(placeLines)
			p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: p.Place, Confidence: meeting.Medium, How: "the cell's address lines (below its time, or above it from a street number on), joined"})
		case committeePlace != "" && !strings.Contains(strings.ToLower(p.Name), "board"): // a committee, not the full or executive board
			p.Place = committeePlace
			p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: p.Place, Confidence: meeting.Low, How: "the calendar's note on where committee meetings are held"})
		}
		out = append(out, p)
	}
	return out, notes
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
// a fragment; the year from the date, a year heading in the same column,
// a schedule heading or the memo's own date; the time from the same line
// or, when the text states one time, from the text; the place from the
// same line, an address block or a "meetings are held at" sentence.
func parseList(text string, frs [][]fragment) ([]parsedMeeting, []string) {
	type yh struct{ line, col, year int }
	var heads []yh
	docYear := 0
	docYearHow := ""
	for _, fs := range frs {
		for _, f := range fs {
			if yearOnlyRE.MatchString(f.Text) {
				y, _ := strconv.Atoi(f.Text)
				heads = append(heads, yh{f.Line, f.Col, y})
			}
			if m := headYearRE.FindStringSubmatch(f.Text); m != nil {
				docYear, _ = strconv.Atoi(m[1])
				docYearHow = "the heading " + strconv.Quote(f.Text)
			}
		}
	}
	lower := strings.ToLower(text)
	if docYear == 0 {
		for _, l := range strings.Split(text, "\n") {
			ll := strings.ToLower(l)
			if strings.Contains(ll, "memo") || strings.Contains(ll, "date:") {
				if m := memoDateRE.FindStringSubmatch(l); m != nil {
					docYear, _ = strconv.Atoi(m[3])
					docYearHow = "the document's own date " + strconv.Quote(m[0])
				}
			}
		}
	}
	// one time for the whole text
	times := map[string]bool{}
	var docTime []string
	for _, m := range timeRE.FindAllStringSubmatch(text, -1) {
		k := strings.ToLower(m[1] + ":" + m[2] + m[3])
		if !times[k] {
			times[k] = true
			docTime = m
		}
	}
	if len(times) != 1 {
		docTime = nil
	}
	docPlace, docPlaceHow := "", ""
	if m := heldAtRE.FindStringSubmatch(strings.Join(strings.Fields(text), " ")); m != nil {
		docPlace, docPlaceHow = strings.TrimSpace(m[1]), "the sentence "+strconv.Quote(m[0])
	}
	name, nameHow := "Board meeting", "the document lists board meeting dates"
	if strings.Contains(lower, "monthly board meeting") {
		name, nameHow = "Monthly Board Meeting", "the agenda's heading"
	} else if strings.Contains(lower, "public hearings and board meetings") {
		name, nameHow = "Combined Public Hearing and Board Meeting", "the text: \"Combined Public Hearings and Board Meetings\""
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
			yearHow := ""
			if m[2] != "" {
				mo = monthIndex(m[2])
				day, _ = strconv.Atoi(m[3])
				if m[4] != "" {
					year, _ = strconv.Atoi(m[4])
					yearHow = "printed with the date"
				}
			} else {
				mi, _ := strconv.Atoi(m[5])
				mo = time.Month(mi)
				day, _ = strconv.Atoi(m[6])
			}
			if year == 0 {
				best := -1
				for i, h := range heads {
					if h.line <= li && abs(h.col-f.Col) <= 12 {
						best = i
					}
				}
				if best >= 0 {
					year, yearHow = heads[best].year, "the year heading above the date in the same column"
				} else if docYear != 0 {
					year, yearHow = docYear, docYearHow
				}
			}
			if year == 0 || mo < 1 || mo > 12 || day < 1 || day > 31 {
				notes = append(notes, fmt.Sprintf("line %d: %q has no readable year", li+1, f.Text))
				continue
			}
			d := time.Date(year, mo, day, 0, 0, 0, 0, record.NewYork)
			if d.Day() != day {
				continue
			}
			key := d.Format("2006-01-02")
			if seen[key] {
				continue // a second column repeating the list
			}
			seen[key] = true
			conf := meeting.Medium
			how := "a listed date; year from " + yearHow
			if m[4] != "" {
				conf = meeting.High
			}
			if wd := m[1]; wd != "" {
				if strings.EqualFold(wd, d.Weekday().String()) {
					conf = meeting.High
					how += "; its weekday (" + wd + ") agrees"
				} else {
					conf = meeting.Low
					how += "; its weekday (" + wd + ") does not agree with the date"
				}
			}
			p := parsedMeeting{Date: d, Name: name, Tentative: strings.Contains(f.Text, "*") && ifNecessary}
			p.Fields = append(p.Fields, meeting.ParsedField{Field: "date", Value: key, Confidence: conf, How: how},
				meeting.ParsedField{Field: "name", Value: name, Confidence: meeting.Medium, How: nameHow})
			rest := strings.TrimSpace(f.Text[len(m[0]):])
			for _, g := range fs[fi+1:] {
				if !listDateRE.MatchString(g.Text) && !yearOnlyRE.MatchString(g.Text) && g.Col-f.Col < 60 {
					rest = strings.TrimSpace(rest + " " + g.Text)
				}
				break
			}
			// the time: on the line, the next lines (an agenda), or the text's one time
			tm := timeRE.FindStringSubmatch(rest)
			tHow := "the time on the date's line"
			tConf := meeting.High
			if tm == nil && li+1 < len(frs) {
				for _, g := range frs[li+1] {
					if x := timeRE.FindStringSubmatch(g.Text); x != nil {
						tm, tHow = x, "the time on the line below the date"
						break
					}
				}
			}
			if tm == nil && docTime != nil {
				tm, tHow, tConf = docTime, "the one time the text states ("+strings.TrimSpace(docTime[0])+"), applied to every listed date", meeting.Medium
			}
			if st, ok := clock(d, tm); ok {
				p.Start = &st
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "start", Value: st.Format("15:04"), Confidence: tConf, How: tHow})
				if li+1 < len(frs) {
					for _, g := range frs[li+1] {
						if all := timeRE.FindAllStringSubmatch(g.Text, -1); len(all) == 2 {
							if en, ok := clock(d, all[1]); ok && en.After(st) {
								p.End = &en
							}
						}
					}
				}
			}
			low := strings.ToLower(rest)
			switch {
			case strings.Contains(low, "zoom"):
				p.Remote = true
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "attendance", Value: meeting.Remote, Confidence: meeting.Medium, How: "\"Zoom Meeting\" beside the date (no link given)"})
			case strings.Contains(low, "tba") || strings.Contains(low, "to be determined") || strings.Contains(rest, "“") || strings.Contains(rest, "\""):
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: "", Confidence: meeting.High, How: "the text says the location is to be determined"})
			case rest != "" && !timeRE.MatchString(rest) && addressLike(rest):
				p.Place = rest
				if blk := addressBlock(frs, li); blk != "" {
					p.Place = blk
				}
				p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: p.Place, Confidence: meeting.Medium, How: "the address beside the date"})
			}
			if p.Place == "" && !p.Remote {
				if blk := addressBlock(frs, li); blk != "" {
					p.Place = blk
					p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: blk, Confidence: meeting.Medium, How: "the address block beside the date"})
				} else if docPlace != "" {
					p.Place = docPlace
					p.Fields = append(p.Fields, meeting.ParsedField{Field: "place", Value: docPlace, Confidence: meeting.Medium, How: docPlaceHow})
				}
			}
			for _, l := range remoteDoc {
				p.Links = append(p.Links, meeting.Link{Label: "live stream", URL: l})
			}
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Date.Before(out[j].Date) })
	return out, notes
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
		m.When.Note = "read from the calendar text (see parsed_fields)"
	} else {
		m.When.Note = "the calendar gives the date but no start time"
	}
	m.Place = meeting.Place{Text: p.Place, RemoteLinks: p.Links}
	switch {
	case p.Remote:
		m.Place.Attendance, m.Place.Note = meeting.Remote, "listed as a Zoom meeting"
	case p.Place != "" && len(p.Links) > 0:
		m.Place.Attendance, m.Place.Note = meeting.Hybrid, "a venue and a live stream (watching only; the stream may not allow testimony)"
	case p.Place != "":
		m.Place.Attendance, m.Place.Note = meeting.InPerson, "a venue is given and no remote link"
	default:
		m.Place.Attendance, m.Place.Note = meeting.AttendanceUnknown, "the calendar gives no place"
	}
	m.Minutes = meeting.MinutesFact(nil, "")
	m.Minutes.Evidence = "a community-board calendar links no minutes, and no minutes are held for this meeting"
	switch {
	case p.Tentative:
		m.Held = meeting.Fact{State: meeting.HeldUnknown, Evidence: "the calendar marks it tentative or \"if necessary\"; calendars do not record whether meetings were held"}
	default:
		m.Held = meeting.Fact{State: meeting.HeldUnknown, Evidence: "a calendar lists planned meetings and does not record whether they were held"}
	}
	m.Notice = meeting.NoticeLink{State: meeting.NoticeUnknown, Evidence: "the link stage has not run"}
	return m
}
