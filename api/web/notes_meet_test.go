package web

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

// englishLeftRe are English words no Spanish note of the meetings, people
// and sources pages uses: one in a Spanish text, outside the quoted record
// text it holds and its arguments, is a part left in English.
var englishLeftRe = regexp.MustCompile(`(?i)\b(the|is|are|and|this|with|which|from|not|was|its|their|only|by|of|on|at|or|held|none|when|may|does|it|than|every|names|linked|published|recorded|printed|read|gives|carry|agree|agrees)\b`)

// verbatimSpanRe is a record value a page marks.
var verbatimSpanRe = regexp.MustCompile(`<span data-verbatim>([^<]*)</span>`)

// fieldNameRe is a JSON field a note names (when.start_known).
var fieldNameRe = regexp.MustCompile(`\b[a-z_]+\.[a-z_]+\b`)

// quotedTextRe is a quoted text in a note (the words of a record as
// printed: "Zoom Meeting", "President and CEO").
var quotedTextRe = regexp.MustCompile(`"[^"]*"`)

// Every note of the meetings, people and sources areas (keys meet.,
// people., sources.) is said in Spanish by the message file: its text is
// not the English one (but for "Video") and, outside its arguments and the
// record text it quotes, holds no English word.
func TestMeetPeopleSourcesNotesInSpanish(t *testing.T) {
	n := 0
	for _, k := range record.NoteKeys() {
		if !strings.HasPrefix(k, "meet.") && !strings.HasPrefix(k, "people.") && !strings.HasPrefix(k, "sources.") {
			continue
		}
		n++
		en, es := msgs["en"].Notes[k], msgs["es"].Notes[k]
		if es == en && en != "Video" {
			t.Errorf("note %s: the Spanish is the English %q", k, en)
		}
		left := fieldNameRe.ReplaceAllString(quotedTextRe.ReplaceAllString(strings.NewReplacer("%s", " ").Replace(regexp.MustCompile(`%\[\d\]s`).ReplaceAllString(es, " ")), " "), " ")
		if w := englishLeftRe.FindAllString(left, -1); len(w) > 0 {
			t.Errorf("note %s is said %q: English left %q", k, es, w)
		}
	}
	if n < 150 {
		t.Fatalf("only %d notes of these areas: the scan is broken", n)
	}
}

// A stored note is said from its key: in English its text exactly (the
// machine words it names said plainly), in Spanish with the record values
// it carries marked data-verbatim and escaped; a record stored before its
// notes shows its own English, marked as English record text.
func TestKeyedNotes(t *testing.T) {
	ev := record.N("meet.land.agenda.application", "Committee on Land Use", "2026-07-14", `"A & B <c>"`, "C 250290 ZMQ", "2024Q0164", "164th Street Rezoning")
	if got := string(keyedHTML("en", &ev, "ignored")); got != html.EscapeString(ev.String()) {
		t.Errorf("English: %q, the note says %q", got, ev.String())
	}
	got := string(keyedHTML("es", &ev, "ignored"))
	for _, want := range []string{
		`<span data-verbatim>Committee on Land Use</span> el <span data-verbatim>2026-07-14</span>: un punto del orden del día (<span data-verbatim>&#34;A &amp; B &lt;c&gt;&#34;</span>)`,
		`nombra la solicitud <span data-verbatim>C 250290 ZMQ</span>, una acción del proyecto de uso del suelo <span data-verbatim>2024Q0164</span> (<span data-verbatim>164th Street Rezoning</span>)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Spanish %q lacks %q", got, want)
		}
	}
	// machine words the note names are said plainly, in both languages
	when := record.N("meet.calendar.when.read")
	if got := string(keyedHTML("en", &when, "")); got != "read from the calendar text (see the fields read below)" {
		t.Errorf("English: %q", got)
	}
	if got := string(keyedHTML("es", &when, "")); got != "leída del texto del calendario (véanse los campos leídos abajo)" {
		t.Errorf("Spanish: %q", got)
	}
	// a note inside a note is said in the same language, its values marked
	held := record.N("meet.legistar.held")
	held.Inner = []record.Part{record.PartOf(record.N("meet.legistar.held.minutes", "Final")), record.PartOf(record.N("meet.legistar.held.roll_calls", 3))}
	if got, want := string(keyedHTML("es", &held, "")), "celebrada según consta en Legistar: hay actas enlazadas (<span data-verbatim>Final</span>); consta una votación nominal en <span data-verbatim>3</span> punto(s)"; got != want {
		t.Errorf("inner notes: %q, want %q", got, want)
	}
	// no note: the record's own English, never matched
	old := "the link stage has not run"
	if got := string(keyedHTML("es", nil, old)); got != `<span data-verbatim lang="en">the link stage has not run</span>` {
		t.Errorf("a record with no note: %q", got)
	}
	if got := string(keyedHTML("en", nil, old)); got != old {
		t.Errorf("a record with no note, in English: %q", got)
	}
	if got := string(keyedClausesHTML("es", record.Notes{record.N("meet.notice.none_held", "2026-07-14"), record.N("meet.notice.too_thin")}, "")); !strings.HasPrefix(got, "no se guarda ningún aviso de audiencia del City Record con un evento el <span data-verbatim>2026-07-14</span>; pruebas demasiado escasas") {
		t.Errorf("clauses: %q", got)
	}
}

// A source's own label is said from the source_title labels (source and
// record type), in Spanish; in English it is the record's, as given; a
// label no table holds is the record's English, marked.
func TestSourceTitles(t *testing.T) {
	vs := LabelValues("source_title")
	if len(vs) < 15 {
		t.Fatalf("only %d source titles", len(vs))
	}
	for _, v := range vs {
		src, typ, ok := strings.Cut(v, "/")
		if !ok || !HasLabel("source_record_type", typ) {
			t.Errorf("source title %q is not source/record type", v)
		}
		en := Label("en", "source_title", v)
		if SourceTitle("es", src, typ, en) == en || SourceTitle("en", src, typ, en) != en {
			t.Errorf("source title %q: Spanish %q", v, SourceTitle("es", src, typ, en))
		}
	}
	if got := string(sourceTitleHTML("es", "nowhere", "meeting", "A new source")); got != `<span data-verbatim lang="en">A new source</span>` {
		t.Errorf("an unknown source's label: %q", got)
	}
}

// The machine values of these pages have their labels in both languages:
// the fields the meeting parsers read, the record types /stats lists, a
// civil-service list's dates and a roster value's states.
func TestMeetingAndPeopleLabels(t *testing.T) {
	for kind, values := range map[string][]string{
		// meeting.ParsedField.Field, as indexer/source/meetings calendar.go and minutes.go write them
		"parsed_field": {"body", "month", "date", "start", "name", "place", "attendance"},
		// the record types of the sample's record sets (search.Describe)
		"stats_record_type": {"notice", "exam", "land event", "land project", "list", "meeting", "organization", "person", "payment",
			"registered contract row", "tax lot location", "payroll payment (payments dataset transaction)", "payroll row (person, agency, title and fiscal year)"},
		// indexer/source/civillist DateLabel
		"civil_date":   {"application period starts", "filing starts", "list established"},
		"roster_state": {people.Published, people.Empty, people.Unknown},
		"time_filter":  meeting.TimeFilters,
		// record.ScopeType of the sources held, record's freshness states and receipt outcomes
		"source_record_type": {"notice", "land_event", "land_project", "meeting", "contract", "payment", "payroll", "exam", "list", "organization", "person", "lot"},
		"source_state":       {record.Fresh, record.Stale, record.Failing, record.NeverLoaded},
		"receipt_outcome":    {record.ReceiptOK, record.ReceiptFailed},
	} {
		for _, v := range values {
			if !HasLabel(kind, v) || Label("es", kind, v) == Label("en", kind, v) {
				t.Errorf("%s %q: no Spanish label", kind, v)
			}
		}
	}
	if Label("en", "stats_record_type", "payroll row (person, agency, title and fiscal year)") != "payroll row (person, agency, title and fiscal year)" {
		t.Error("the English record type changed")
	}
}
