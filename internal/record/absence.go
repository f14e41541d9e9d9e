package record

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Absence types: why an answer is empty (Scope.Empty), decided by one rule
// (TypeAbsence) for the answer and for each source behind it.
const (
	// NoneFound: the source is fresh and covers the dates asked; nothing
	// it holds matched.
	NoneFound = "none_found"
	// OutsideCoverage: the dates asked are outside what the source holds
	// (the note says what it holds).
	OutsideCoverage = "outside_coverage"
	// NotIngested: the service does not load that source or kind.
	NotIngested = "not_ingested"
	// AbsentStale: the source is past its maximum age; the empty answer
	// may be out of date.
	AbsentStale = "stale"
	// UpstreamFailing: the source's live fetch fails; the empty answer is
	// from the last good data.
	UpstreamFailing = "upstream_failing"
)

// EmptyAnswer says why an answer is empty: its type, a note, and the
// type of each source behind it.
type EmptyAnswer struct {
	Type    string          `json:"type"`
	Note    string          `json:"note"`
	Sources []SourceAbsence `json:"sources"`
	// NoteKey is note as a note (key and arguments).
	NoteKey Note `json:"note_key"`
}

// SourceAbsence is one source's reason.
type SourceAbsence struct {
	Source string `json:"source"`
	Type   string `json:"type"`
	Note   string `json:"note,omitempty"`
}

// absencePrecedence orders the types an answer takes from its sources:
// the first a source has wins (a failing or stale source may hide rows; a
// fresh covering source's "none found" beats sources that could not
// hold them).
var absencePrecedence = []string{UpstreamFailing, AbsentStale, NoneFound, OutsideCoverage, NotIngested}

// relevant are the sources of a scope behind what was searched: notice
// sources for notice and passage searches; for record reads, the sources
// of the kinds (and sources) asked for; else every source.
func (s Scope) relevant() []SourceCoverage {
	var kinds, sources []string
	if k := s.Searched.Filters["kind"]; k != "" {
		for _, kind := range strings.Split(k, ",") {
			if _, name, ok := strings.Cut(kind, "."); ok {
				kind = name
			}
			kinds = append(kinds, kind)
		}
	}
	if src := s.Searched.Filters["source"]; src != "" {
		sources = strings.Split(src, ",")
	}
	if s.Searched.Kind == "notices" || s.Searched.Kind == "passages" {
		kinds = []string{"notice"}
	}
	var out []SourceCoverage
	for _, c := range s.Sources {
		if (kinds == nil || slices.Contains(kinds, c.RecordType)) && (sources == nil || slices.Contains(sources, c.Source)) {
			out = append(out, c)
		}
	}
	return out
}

// TypeAbsence is the one absence rule: it sets NotFresh (the sources
// behind the answer that are stale or failing: a non-empty answer says
// so too) and, when nothing matched, Empty: each relevant source's type,
// the most useful true one (its live fetch failing: upstream_failing,
// with since when and why, unless the dates asked all precede what it
// holds; nothing held: not_ingested; the dates asked outside its first
// and last source dates: outside_coverage, even when it is also stale or
// failing, which its note says too; past its maximum age: stale; else
// none_found) and the answer's (the first in absencePrecedence a source
// has; not_ingested when no source is behind it).
func (s *Scope) TypeAbsence() {
	rel := s.relevant()
	s.NotFresh = nil
	for _, c := range rel {
		if (c.State == Stale || c.State == Failing) && !slices.Contains(s.NotFresh, c.Source) {
			s.NotFresh = append(s.NotFresh, c.Source)
		}
	}
	s.Empty = nil
	if s.Matched > 0 {
		return
	}
	from, to := day10(s.Searched.Filters["from"]), day10(s.Searched.Filters["to"])
	e := &EmptyAnswer{Sources: []SourceAbsence{}}
	for _, c := range rel {
		a := SourceAbsence{Source: c.Source}
		before := to != "" && c.FirstSourceDate != "" && to < c.FirstSourceDate
		outside := before || (from != "" && c.LastSourceDate != "" && from > c.LastSourceDate)
		held := fmt.Sprintf("holds source dates %s to %s", c.FirstSourceDate, c.LastSourceDate)
		unread := unreadNote(c, s.Searched.Filters[unreadBodyFilter], nyDay(s.Searched.Filters["from"]), nyDay(s.Searched.Filters["to"]))
		switch {
		case unread != "":
			a.Type, a.Note = UpstreamFailing, unread
		case c.State == Failing && !before:
			a.Type, a.Note = UpstreamFailing, failingNote(c)+"; the answer is from the last good data"
			if outside {
				a.Note = held + "; " + a.Note
			}
		case c.Records == 0 && c.Passages == 0 && c.State != Failing:
			a.Type, a.Note = NotIngested, "nothing of this source is held"
		case outside:
			a.Type, a.Note = OutsideCoverage, held
			switch c.State {
			case Failing:
				a.Note += "; also " + failingNote(c)
			case Stale:
				a.Note += "; also past its maximum age: " + c.FreshnessNote
			}
		case c.State == Stale:
			a.Type, a.Note = AbsentStale, "past its maximum age; the empty answer may be out of date"
		case c.State == "":
			a.Type, a.Note = NoneFound, "its freshness is not stated here (no schedule known)"
		default:
			a.Type = NoneFound
		}
		if i := slices.IndexFunc(e.Sources, func(x SourceAbsence) bool { return x.Source == a.Source }); i >= 0 {
			if slices.Index(absencePrecedence, a.Type) < slices.Index(absencePrecedence, e.Sources[i].Type) {
				e.Sources[i] = a
			}
			continue
		}
		e.Sources = append(e.Sources, a)
	}
	e.Type = NotIngested
	for _, t := range absencePrecedence {
		if slices.ContainsFunc(e.Sources, func(a SourceAbsence) bool { return a.Type == t }) {
			e.Type = t
			break
		}
	}
	e.NoteKey = absenceNotes[e.Type]
	if e.Type == NoneFound && slices.ContainsFunc(e.Sources, func(a SourceAbsence) bool { return a.Note != "" }) {
		e.NoteKey = N("absence.empty.unstated")
	}
	e.Note = e.NoteKey.String()
	s.Empty = e
}

// unreadBodyFilter is the scope filter of the body keys asked (meetings'
// body_key): an unread document of another body does not empty the
// answer.
const unreadBodyFilter = "body_key"

// MaxUnreadNamed bounds the unread documents an empty answer names.
const MaxUnreadNamed = 3

// unreadNote names the documents of c its last fetch could not read that
// may hold what was asked (the bodies asked, the days from..to), with
// why; "" when none may.
func unreadNote(c SourceCoverage, bodies, from, to string) string {
	var keys []string
	if bodies != "" {
		keys = strings.Split(bodies, ",")
	}
	var named []string
	n := 0
	for _, u := range c.Unread {
		if !u.covers(keys, from, to) {
			continue
		}
		n++
		if len(named) < MaxUnreadNamed {
			of := u.Body
			if u.Month != "" {
				of = strings.TrimSpace(of + " " + u.Month)
			}
			if of != "" {
				of = " (" + of + ")"
			}
			named = append(named, u.Document+of+": "+u.Reason)
		}
	}
	if n == 0 {
		return ""
	}
	note := "a document that may hold what was asked could not be read, so its records are missing: " + strings.Join(named, "; ")
	if n > len(named) {
		note += fmt.Sprintf("; and %d more", n-len(named))
	}
	return note
}

// nyDay is the New York day (YYYY-MM-DD) of a filter value: a day as
// given, an RFC 3339 time on its New York day; "" when none.
func nyDay(v string) string {
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t.In(NewYork).Format("2006-01-02")
	}
	return day10(v)
}

// failingNote says since when a source's live fetch fails and why (the
// error names the document it rejected, when it rejected one).
func failingNote(c SourceCoverage) string {
	n := "its live fetch fails"
	if !c.StateSince.IsZero() {
		n += " since " + c.StateSince.UTC().Format(time.RFC3339)
	}
	if c.LastError != "" {
		n += ": " + c.LastError
	}
	return n
}

var absenceNotes = map[string]Note{
	NoneFound:       N("absence.empty.none_found"),
	OutsideCoverage: N("absence.empty.outside_coverage"),
	NotIngested:     N("absence.empty.not_ingested"),
	AbsentStale:     N("absence.empty.stale"),
	UpstreamFailing: N("absence.empty.upstream_failing"),
}

// day10 is the YYYY-MM-DD day of a filter value (a day or an RFC 3339
// time), "" when it has none.
func day10(v string) string {
	if len(v) < 10 {
		return ""
	}
	return v[:10]
}

// RecordAbsence types a single-record read that found nothing (a by-id
// 404) by the one rule (TypeAbsence): the sources of kinds (record types
// as scopes name them: "notice", "contract", "land_project", "person" …)
// behind an empty answer whose dates asked are day, the day the id itself
// states ("" when it states none). Its note speaks of the one record.
func RecordAbsence(cov []SourceCoverage, kinds []string, day string) *EmptyAnswer {
	f := map[string]string{"kind": strings.Join(kinds, ",")}
	if day != "" {
		f["from"], f["to"] = day, day
	}
	s := NewScope(Searched{Kind: "record", Filters: f}, cov, 0)
	e := s.Empty
	if e == nil { // NewScope types every empty scope; never reached
		e = &EmptyAnswer{Type: NotIngested, Sources: []SourceAbsence{}}
	}
	e.NoteKey = recordAbsenceNotes[e.Type]
	if e.Type == NoneFound && slices.ContainsFunc(e.Sources, func(a SourceAbsence) bool { return a.Note != "" }) {
		e.NoteKey = N("absence.record.unstated")
	}
	e.Note = e.NoteKey.String()
	return e
}

var recordAbsenceNotes = map[string]Note{
	NoneFound:       N("absence.record.none_found"),
	OutsideCoverage: N("absence.record.outside_coverage"),
	NotIngested:     N("absence.record.not_ingested"),
	AbsentStale:     N("absence.record.stale"),
	UpstreamFailing: N("absence.record.upstream_failing"),
}

// IDDay is the day an id states, YYYY-MM-DD, "" when it states none: a
// City Record request id's first eight digits (YYYYMMDD), else the first
// YYYY-MM-DD in the id (a meeting's).
func IDDay(id string) string {
	if len(id) >= 9 && allDigits(id) {
		if t, err := time.Parse("20060102", id[:8]); err == nil {
			return t.Format("2006-01-02")
		}
		return ""
	}
	if m := isoDay.FindString(id); m != "" {
		if _, err := time.Parse("2006-01-02", m); err == nil {
			return m
		}
	}
	return ""
}

var isoDay = regexp.MustCompile(`\d{4}-\d{2}-\d{2}`)

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
