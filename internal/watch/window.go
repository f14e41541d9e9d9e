package watch

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A time window in a request ("due in the next 3 months", "this year",
// "next month", "by the end of the year", "in 2026", "this fiscal year")
// is a date filter, never keywords: windowIn takes its words out of the
// request before it is read, as cadenceIn does for the cadence.

const numWords = `(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)`

var (
	// "in the last 6 months": a watch delivers what is published from now
	// on, so a window in the past is read and set aside.
	pastWindowRE = regexp.MustCompile(`(?i)\b(?:(?:in|over|during|from|for)\s+)?(?:the\s+)?(?:last|past|previous)\s+(?:` + numWords + `\s+)?(days?|weeks?|months?|years?|fiscal\s+years?)\b`)
	// "due in the next 3 months", "closing within 30 days", "in the
	// coming two weeks"
	nextWindowRE = regexp.MustCompile(`(?i)\b(?:(?:due|closing|deadlines?|held|scheduled)\s+)?(?:(?:in|within|over|during|for)\s+)?(?:the\s+)?(?:next|coming)\s+` + numWords + `\s+(days?|weeks?|months?|years?)\b`)
	// "in the next month", "within the coming week": one unit
	nextOneRE = regexp.MustCompile(`(?i)\b(?:(?:due|closing|deadlines?|held|scheduled)\s+)?(?:in|within|over|during)\s+the\s+(?:next|coming)\s+(day|week|month|year)\b`)
	withinRE  = regexp.MustCompile(`(?i)\b(?:(?:due|closing|deadlines?|held|scheduled)\s+(?:in|within)|within)\s+(?:the\s+)?` + numWords + `\s+(days?|weeks?|months?|years?)\b`)
	// "this year", "due next month", "by the end of the year", "this
	// fiscal year"
	calendarRE = regexp.MustCompile(`(?i)\b(?:(?:due|closing|deadlines?|held|scheduled)\s+)?(?:(by|before)\s+(?:the\s+)?end\s+of\s+(?:the\s+)?(this\s+|current\s+|next\s+)?|(?:in\s+|during\s+|for\s+)?(this|the\s+current|current|next)\s+)(fiscal\s+year|week|month|year)\b`)
	// "in 2026", "during FY2027", "FY 2026"
	yearRE = regexp.MustCompile(`(?i)\b(?:(?:due|closing|held|scheduled)\s+)?(?:(?:in|during|for)\s+(?:(fiscal\s+year|fy)\s*)?(20\d\d)|(fy)\s*'?(20\d\d))\b`)
)

// windowCues are words one of which each window pattern needs: a request
// without any is not searched with the pattern (mayMatch).
var windowCues = map[*regexp.Regexp][]string{
	pastWindowRE: {"last", "past", "previous"},
	nextWindowRE: {"next", "coming"},
	nextOneRE:    {"next", "coming"},
	withinRE:     {"within", "due", "closing", "deadline", "held", "scheduled"},
	calendarRE:   {"end", "this", "current", "next"},
	yearRE:       {"20"},
}

// mayMatch reports whether text holds one of the cues, compared as a
// case-insensitive pattern (?i) compares: the Kelvin sign and the long s
// fold to k and s.
func mayMatch(text string, cues []string) bool {
	folded := caseFold.Replace(strings.ToLower(text))
	for _, c := range cues {
		if strings.Contains(folded, c) {
			return true
		}
	}
	return false
}

// caseFold maps the two non-ASCII letters that (?i) matches with an ASCII
// letter, after strings.ToLower (which maps the Kelvin sign already).
var caseFold = strings.NewReplacer("ſ", "s", "\u212a", "k")

// window is the time window a request named.
type window struct {
	raw         string // the words, for the note
	within      string // "3 months": moves with each run
	from, until string // YYYY-MM-DD
	untilOnly   bool   // "by the end of": no start
	past        bool
	fiscal      bool
}

func windowCount(s string) int {
	switch strings.ToLower(s) {
	case "a", "an", "one", "":
		return 1
	case "two":
		return 2
	case "three":
		return 3
	case "four":
		return 4
	case "five":
		return 5
	case "six":
		return 6
	case "seven":
		return 7
	case "eight":
		return 8
	case "nine":
		return 9
	case "ten":
		return 10
	case "eleven":
		return 11
	case "twelve":
		return 12
	}
	n, _ := strconv.Atoi(s)
	return n
}

func unitOf(s string) string {
	s = strings.ToLower(strings.TrimSuffix(strings.ToLower(s), "s"))
	if strings.HasPrefix(s, "fiscal") {
		return "fiscal year"
	}
	return s
}

// fiscalYear is the New York City fiscal year holding day d: July 1 to
// June 30, named for the year it ends.
func fiscalYear(d time.Time) int {
	if d.Month() >= time.July {
		return d.Year() + 1
	}
	return d.Year()
}

const dayFormat = "2006-01-02"

// windowIn takes the first time window out of a request: the text left
// and the window (nil when none was named). Later windows are taken out
// too, and noted as set aside.
func windowIn(text string, now time.Time) (string, *window, record.Notes) {
	today := search.DayStart(now)
	var w *window
	var extra record.Notes
	take := func(re *regexp.Regexp, read func(m []string) *window) {
		if !mayMatch(text, windowCues[re]) {
			return
		}
		text = re.ReplaceAllStringFunc(text, func(s string) string {
			got := read(re.FindStringSubmatch(s))
			if got == nil {
				return s
			}
			got.raw = strings.Join(strings.Fields(s), " ")
			if w == nil {
				w = got
			} else {
				extra = append(extra, record.N("watch.read.window_aside", q(got.raw), q(w.raw)))
			}
			return " . "
		})
	}
	take(pastWindowRE, func(m []string) *window { return &window{past: true} })
	relative := func(m []string) *window {
		n, unit := windowCount(m[1]), unitOf(m[2])
		if n < 1 {
			return nil
		}
		return &window{within: withinValue(n, unit)}
	}
	take(nextWindowRE, relative)
	take(withinRE, relative)
	take(nextOneRE, func(m []string) *window { return &window{within: withinValue(1, unitOf(m[1]))} })
	take(calendarRE, func(m []string) *window {
		by := m[1] != ""
		which := strings.ToLower(strings.Join(strings.Fields(m[2]+m[3]), " "))
		unit := unitOf(m[4])
		next := which == "next"
		var start, end time.Time
		switch unit {
		case "week": // Monday to Sunday
			off := (int(today.Weekday()) + 6) % 7
			start = today.AddDate(0, 0, -off)
			if next {
				start = start.AddDate(0, 0, 7)
			}
			end = start.AddDate(0, 0, 6)
		case "month":
			start = time.Date(today.Year(), today.Month(), 1, 0, 0, 0, 0, today.Location())
			if next {
				start = start.AddDate(0, 1, 0)
			}
			end = start.AddDate(0, 1, -1)
		case "year":
			start = time.Date(today.Year(), 1, 1, 0, 0, 0, 0, today.Location())
			if next {
				start = start.AddDate(1, 0, 0)
			}
			end = start.AddDate(1, 0, -1)
		case "fiscal year":
			fy := fiscalYear(today)
			if next {
				fy++
			}
			start = time.Date(fy-1, 7, 1, 0, 0, 0, 0, today.Location())
			end = time.Date(fy, 6, 30, 0, 0, 0, 0, today.Location())
		}
		return &window{from: start.Format(dayFormat), until: end.Format(dayFormat), untilOnly: by, fiscal: unit == "fiscal year"}
	})
	take(yearRE, func(m []string) *window {
		fiscal := m[1] != "" || m[3] != ""
		y, _ := strconv.Atoi(m[2] + m[4])
		if y < 2000 || y > 2100 {
			return nil
		}
		if fiscal {
			return &window{from: fmt.Sprintf("%d-07-01", y-1), until: fmt.Sprintf("%d-06-30", y), fiscal: true}
		}
		return &window{from: fmt.Sprintf("%d-01-01", y), until: fmt.Sprintf("%d-12-31", y)}
	})
	return text, w, extra
}

// applyWindow sets the filter's window once the lens is known, with a note
// saying how it was read.
func (p *parser) applyWindow(today time.Time) {
	w := p.win
	if w == nil {
		return
	}
	f := &p.f
	field := f.dateField()
	switch {
	case w.past:
		p.note("watch.read.window_past", []any{q(w.raw)})
	case w.within != "":
		if !f.windowAhead() {
			p.note("watch.read.window_ahead_unused", []any{q(w.raw)}, lensPart(f.Lens))
			return
		}
		f.Within = w.within
		p.note("watch.read.within", []any{q(w.raw)}, fieldPart(field), spanPart(w.within))
	default:
		from, until := w.from, w.until
		if w.untilOnly {
			from = ""
		}
		from = forwardFrom(field, from, today)
		if field == "published" && until < today.Format(dayFormat) && !w.untilOnly {
			p.note("watch.read.window_over", []any{q(w.raw)}, fieldPart(field), dayPart(w.from), dayPart(w.until))
		}
		f.From, f.Until = from, until
		switch {
		case from != "":
			p.note("watch.read.window", []any{q(w.raw)}, fieldPart(field), dayPart(from), dayPart(until))
		default:
			p.note("watch.read.window_by", []any{q(w.raw)}, fieldPart(field), dayPart(until))
		}
		if w.fiscal {
			p.note("watch.read.fiscal_year", nil)
		}
	}
}

// withinValue writes a moving window as a filter holds it: "1 month",
// "3 months".
func withinValue(n int, unit string) string {
	if n > 1 {
		return fmt.Sprintf("%d %ss", n, unit)
	}
	return fmt.Sprintf("1 %s", unit)
}

// WithinValue reads a moving window a client gives ("3 months", "1 Week",
// "30 day") and writes it as the parser does; a value of another shape
// comes back as given, for Filter.Validate to refuse.
func WithinValue(s string) string {
	m := windowRE.FindStringSubmatch(strings.Join(strings.Fields(strings.ToLower(s)), " "))
	if m == nil {
		return s
	}
	n, _ := strconv.Atoi(m[1])
	return withinValue(n, m[2])
}

// windowAhead: a moving window (Within) bounds dates ahead, the due dates
// of open solicitations and the dates of hearings; other notices are
// delivered as they are published.
func (f Filter) windowAhead() bool { return f.dateField() != "published" }

// forwardFrom drops a window's start on or before today from a window over
// due or event dates: those are read from today on already.
func forwardFrom(field, from string, today time.Time) string {
	if _, ok := parseDay(from); ok && field != "published" && from <= today.Format(dayFormat) {
		return ""
	}
	return from
}
