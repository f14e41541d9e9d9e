package feed

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// TZID is the time zone of calendar events: every City Record date is New
// York time. The calendar carries its VTIMEZONE definition.
const TZID = "America/New_York"

// ProdID identifies the software that wrote a calendar.
const ProdID = "-//Recordwatch//Feeds 1.0//EN"

// vtimezone defines America/New_York with the US rules in force since 2007.
var vtimezone = []string{
	"BEGIN:VTIMEZONE",
	"TZID:" + TZID,
	"X-LIC-LOCATION:" + TZID,
	"BEGIN:DAYLIGHT",
	"TZOFFSETFROM:-0500",
	"TZOFFSETTO:-0400",
	"TZNAME:EDT",
	"DTSTART:20070311T020000",
	"RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU",
	"END:DAYLIGHT",
	"BEGIN:STANDARD",
	"TZOFFSETFROM:-0400",
	"TZOFFSETTO:-0500",
	"TZNAME:EST",
	"DTSTART:20071104T020000",
	"RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU",
	"END:STANDARD",
	"END:VTIMEZONE",
}

// ICS renders f as an iCalendar stream (RFC 5545): one VEVENT per item with
// an Event, nothing for undated items. Lines end in CRLF and are folded at
// 75 octets without splitting a character; TEXT values are escaped; every
// event has a UID and a DTSTAMP (the feed's Updated, in UTC). Timed events
// are written in TZID with its VTIMEZONE; all-day events as DATE values. The
// feed's scope is in NAME, DESCRIPTION and X-RECORDWATCH-* properties.
// Each event has its SEQUENCE (0 unless revised), its LAST-MODIFIED when
// the service observed one (Revise) and STATUS: CANCELLED for a withdrawn
// or cancelled event, CONFIRMED otherwise.
func ICS(f Feed) []byte {
	w := &icsWriter{}
	w.line("BEGIN:VCALENDAR")
	w.line("VERSION:2.0")
	w.line("PRODID:" + ProdID)
	w.line("CALSCALE:GREGORIAN")
	w.line("METHOD:PUBLISH")
	if f.ID != "" {
		w.prop("UID", "", text(f.ID))
	}
	w.prop("NAME", "", text(oneLine(f.Title)))
	w.prop("X-WR-CALNAME", "", text(oneLine(f.Title)))
	if f.Description != "" {
		w.prop("DESCRIPTION", "", text(f.Description))
		w.prop("X-WR-CALDESC", "", text(f.Description))
	}
	if f.HomeURL != "" {
		w.prop("URL", "", uriValue(f.HomeURL))
	}
	if f.Self.ICS != "" {
		w.prop("SOURCE", ";VALUE=URI", uriValue(f.Self.ICS))
	}
	if !f.Updated.IsZero() {
		w.prop("LAST-MODIFIED", "", utc(f.Updated))
	}
	if f.TTL > 0 {
		d := duration(f.TTL)
		w.prop("REFRESH-INTERVAL", ";VALUE=DURATION", d)
		w.prop("X-PUBLISHED-TTL", "", d)
	}
	w.prop("X-WR-TIMEZONE", "", TZID)
	icsScope(w, f)
	for _, l := range vtimezone {
		w.line(l)
	}
	for _, it := range f.Items {
		if it.Event == nil || it.Event.Start.IsZero() {
			continue
		}
		e := it.Event
		w.line("BEGIN:VEVENT")
		w.prop("UID", "", text(e.UID))
		w.prop("DTSTAMP", "", utc(f.Updated))
		if e.AllDay {
			y, m, d := e.Start.Date()
			day := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
			w.prop("DTSTART", ";VALUE=DATE", day.Format("20060102"))
			w.prop("DTEND", ";VALUE=DATE", day.AddDate(0, 0, 1).Format("20060102"))
		} else if e.Start.Location().String() == TZID {
			w.prop("DTSTART", ";TZID="+TZID, e.Start.Format("20060102T150405"))
		} else {
			w.prop("DTSTART", "", utc(e.Start))
		}
		w.prop("SUMMARY", "", text(oneLine(e.Summary)))
		if e.Description != "" {
			w.prop("DESCRIPTION", "", text(e.Description))
		}
		if e.Location != "" {
			w.prop("LOCATION", "", text(oneLine(e.Location)))
		}
		if it.URL != "" {
			w.prop("URL", "", uriValue(it.URL))
		}
		if len(e.Categories) > 0 {
			var cs []string
			for _, c := range e.Categories {
				if c = oneLine(c); c != "" {
					cs = append(cs, text(c))
				}
			}
			if len(cs) > 0 {
				w.prop("CATEGORIES", "", strings.Join(cs, ","))
			}
		}
		w.prop("SEQUENCE", "", strconv.Itoa(e.Sequence))
		if !e.LastModified.IsZero() {
			w.prop("LAST-MODIFIED", "", utc(e.LastModified))
		}
		if e.Cancelled {
			w.prop("STATUS", "", "CANCELLED")
		} else {
			w.prop("STATUS", "", "CONFIRMED")
		}
		w.prop("CLASS", "", "PUBLIC")
		w.prop("TRANSP", "", "TRANSPARENT")
		w.line("END:VEVENT")
	}
	w.line("END:VCALENDAR")
	return w.b.Bytes()
}

func icsScope(w *icsWriter, f Feed) {
	s := f.Scope
	if s.Covers != "" {
		w.prop("X-RECORDWATCH-SCOPE", "", text(s.Covers))
	}
	for _, k := range sortedKeys(s.Filter) {
		w.prop("X-RECORDWATCH-FILTER", ";X-NAME="+paramValue(k), text(s.Filter[k]))
	}
	if s.Order != "" {
		w.prop("X-RECORDWATCH-ORDER", "", text(s.Order))
	}
	w.prop("X-RECORDWATCH-LIMIT", "", strconv.Itoa(s.Limit))
	if s.MatchedRelation != "" {
		w.prop("X-RECORDWATCH-MATCHED", ";X-RELATION="+paramValue(s.MatchedRelation), strconv.Itoa(s.Matched)) // "gte": at least
	} else {
		w.prop("X-RECORDWATCH-MATCHED", "", strconv.Itoa(s.Matched))
	}
	w.prop("X-RECORDWATCH-ITEMS", "", strconv.Itoa(s.Items))
	w.prop("X-RECORDWATCH-EVENTS", "", strconv.Itoa(s.Events))
	if !s.CorpusObservedAt.IsZero() {
		w.prop("X-RECORDWATCH-CORPUS-OBSERVED-AT", "", utc(s.CorpusObservedAt))
	}
	if s.FirstSourceDate != "" {
		w.prop("X-RECORDWATCH-FIRST-SOURCE-DATE", "", text(s.FirstSourceDate))
	}
	if s.LastSourceDate != "" {
		w.prop("X-RECORDWATCH-LAST-SOURCE-DATE", "", text(s.LastSourceDate))
	}
	for _, src := range s.Sources {
		v := fmt.Sprintf("%s: %d records", src.Label, src.Records)
		if src.FirstSourceDate != "" || src.LastSourceDate != "" {
			v += fmt.Sprintf(", source dates %s to %s", src.FirstSourceDate, src.LastSourceDate)
		}
		if !src.ObservedAt.IsZero() {
			v += ", observed " + rfc3339(src.ObservedAt)
		}
		if src.State != "" {
			v += ", " + src.State
			if !src.StateSince.IsZero() {
				v += " since " + rfc3339(src.StateSince)
			}
			if src.FreshnessNote != "" {
				v += " (" + src.FreshnessNote + ")"
			}
		}
		w.prop("X-RECORDWATCH-SOURCE", ";X-ID="+paramValue(src.Source), text(v))
	}
	if s.AbsenceType != "" {
		w.prop("X-RECORDWATCH-ABSENCE", ";X-TYPE="+paramValue(s.AbsenceType), text(s.AbsenceNote))
	}
	if s.DateBoundsNote != "" {
		w.prop("X-RECORDWATCH-DATE-BOUNDS", "", text(s.DateBoundsNote))
	}
	for _, r := range s.AbsenceRules {
		w.prop("X-RECORDWATCH-ABSENCE-RULE", "", text(r))
	}
	if s.Official != "" {
		w.prop("X-RECORDWATCH-OFFICIAL", "", text(s.Official))
	}
	if s.SearchURL != "" {
		w.prop("X-RECORDWATCH-SEARCH", ";VALUE=URI", uriValue(s.SearchURL))
	}
}

// icsWriter writes content lines: CRLF ends, folded at 75 octets.
type icsWriter struct{ b bytes.Buffer }

// prop writes NAME + params + ":" + value, where value is already escaped.
func (w *icsWriter) prop(name, params, value string) {
	w.line(name + params + ":" + value)
}

// line folds one content line: no line is longer than 75 octets (CRLF not
// counted); a continuation starts with one space; a UTF-8 sequence is never
// split.
func (w *icsWriter) line(l string) {
	const max = 75
	first := true
	for len(l) > 0 {
		limit := max
		if !first {
			limit = max - 1
			w.b.WriteByte(' ')
		}
		n := len(l)
		if n > limit {
			n = limit
			for n > 0 && !utf8.RuneStart(l[n]) {
				n--
			}
		}
		w.b.WriteString(l[:n])
		w.b.WriteString("\r\n")
		l = l[n:]
		first = false
	}
}

// text escapes a TEXT value: backslash, semicolon, comma and line ends.
func text(s string) string {
	s = clean(s)
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\':
			b.WriteString(`\\`)
		case ';':
			b.WriteString(`\;`)
		case ',':
			b.WriteString(`\,`)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// uriValue is a URI value: not escaped, but without line breaks or controls.
func uriValue(s string) string { return oneLine(s) }

// paramValue quotes a parameter value when it holds ":", ";" or ",", and
// drops characters a parameter value may not hold.
func paramValue(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '"' || r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, oneLine(s))
	if strings.ContainsAny(s, ":;,") {
		return `"` + s + `"`
	}
	return s
}

// utc writes t as a UTC DATE-TIME.
func utc(t time.Time) string { return t.UTC().Format("20060102T150405Z") }

// duration writes d as an RFC 5545 DURATION of whole seconds.
func duration(d time.Duration) string {
	secs := int(d.Seconds())
	h, m, s := secs/3600, secs%3600/60, secs%60
	out := "PT"
	if h > 0 {
		out += strconv.Itoa(h) + "H"
	}
	if m > 0 {
		out += strconv.Itoa(m) + "M"
	}
	if s > 0 || out == "PT" {
		out += strconv.Itoa(s) + "S"
	}
	return out
}
