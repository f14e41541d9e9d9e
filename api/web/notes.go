package web

import (
	"html"
	"html/template"
	"regexp"
	"strings"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// A service's note (record.Note) is said from its key and arguments in the
// page's language: its text is the message files' (record.SayNote, the one
// renderer), never found by matching the English. In a language other
// than English, the arguments (names, ids, dates, numbers: record values)
// are marked data-verbatim: they stay as published.

// noteHTML is n (a record.Note, record.Notes or []record.Note) in lang, as
// HTML; anything else is shown as written.
func noteHTML(lang string, n any) template.HTML {
	switch v := n.(type) {
	case record.Note:
		if v.IsZero() {
			return ""
		}
		if lang == "en" {
			return template.HTML(html.EscapeString(record.SayNote(msgs, lang, v, nil)))
		}
		const open, close = "\uE000", "\uE001"
		s := record.SayNote(msgs, lang, v, func(a string) string { return open + a + close })
		s = html.EscapeString(s)
		s = strings.NewReplacer(open, `<span data-verbatim>`, close, `</span>`).Replace(s)
		return template.HTML(s)
	case *record.Note:
		if v == nil {
			return ""
		}
		return noteHTML(lang, *v)
	case record.Notes:
		return noteHTML(lang, []record.Note(v))
	case []record.Note:
		parts := make([]string, 0, len(v))
		for _, x := range v {
			if s := noteHTML(lang, x); s != "" {
				parts = append(parts, string(s))
			}
		}
		return template.HTML(strings.Join(parts, " "))
	case nil:
		return ""
	case string:
		return template.HTML(html.EscapeString(v))
	}
	return ""
}

// NoteIn is n in lang as plain text (for the handlers that compose a
// page's text).
func NoteIn(lang string, n record.Note) string { return record.SayNote(msgs, lang, n, nil) }

// moneyHTML is a sum as read in lang: what is absent said from its key,
// else its amount as the service writes it.
func moneyHTML(lang string, m procure.Money) template.HTML {
	return template.HTML(html.EscapeString(moneyText(lang, m)))
}

// moneyText is moneyHTML as text.
func moneyText(lang string, m procure.Money) string {
	if m.DisplayKey != nil {
		return record.SayNote(msgs, lang, *m.DisplayKey, nil)
	}
	return m.Display
}

// SumText is a sum as read in lang (for the handlers that build a
// picture's text).
func SumText(lang string, m procure.Money) string { return moneyText(lang, m) }

// clausesHTML is notes in lang as the clauses of one sentence, joined by
// "; " (record.Notes.Clauses).
func clausesHTML(lang string, ns record.Notes) template.HTML {
	parts := make([]string, 0, len(ns))
	for _, n := range ns {
		parts = append(parts, string(noteHTML(lang, n)))
	}
	return template.HTML(strings.Join(parts, "; "))
}

// A record stored before its notes carries only its English text (a
// meeting's evidence, a link's): a page shows that text as the record
// says it, marked as English record text on a page in another language
// (never matched to a translation). Text the service published as a note
// is said from its key.

// recordedHTML is a record's own English text s in lang: as written in
// English (its machine words said plainly), else marked as record text in
// English.
func recordedHTML(lang, s string) template.HTML {
	if s == "" {
		return ""
	}
	if lang == "en" {
		return template.HTML(html.EscapeString(Plain(lang, s)))
	}
	return template.HTML(`<span data-verbatim lang="en">` + html.EscapeString(s) + `</span>`)
}

// keyedHTML is the stored note n in lang, its machine words said plainly
// (Plain), or the record's English text s when the record has no note.
func keyedHTML(lang string, n *record.Note, s string) template.HTML {
	if n == nil || n.IsZero() {
		return recordedHTML(lang, s)
	}
	if lang == "en" {
		return template.HTML(html.EscapeString(Plain(lang, record.SayNote(msgs, lang, *n, nil))))
	}
	const open, close = "\uE000", "\uE001"
	t := Plain(lang, record.SayNote(msgs, lang, *n, func(a string) string { return open + a + close }))
	t = html.EscapeString(t)
	return template.HTML(strings.NewReplacer(open, `<span data-verbatim>`, close, `</span>`).Replace(t))
}

// keyedClausesHTML is the stored notes ns in lang as the clauses of one
// sentence, or the record's English text s when the record has none.
func keyedClausesHTML(lang string, ns record.Notes, s string) template.HTML {
	if len(ns) == 0 {
		return recordedHTML(lang, s)
	}
	return clausesHTML(lang, ns)
}

// SourceTitle is a source's own label (a record's source_label) in lang:
// the "source_title" label of its source and record type, or the label
// as the record gives it (in English, always as given).
func SourceTitle(lang, source, recordType, label string) string {
	if v := source + "/" + recordType; lang != "en" && HasLabel("source_title", v) {
		return Label(lang, "source_title", v)
	}
	return label
}

// sourceTitleHTML is SourceTitle as HTML: a label no table holds is the
// record's English text (recordedHTML).
func sourceTitleHTML(lang, source, recordType, label string) template.HTML {
	if lang != "en" && !HasLabel("source_title", source+"/"+recordType) {
		return recordedHTML(lang, label)
	}
	return template.HTML(html.EscapeString(SourceTitle(lang, source, recordType, label)))
}

// recordNote (the template function) is a sentence that is not yet a
// note, said by plain and Say (words.go); in Spanish the record values it
// carries (the arguments of its pattern that no list says, and quoted
// text) are marked data-verbatim. The pages of the meetings, people and
// sources no longer use it: their sentences are notes (keyed, note).

// verbatimOpen and verbatimClose bracket a record's value inside a note
// said in Spanish (private-use runes no source text holds).
const verbatimOpen, verbatimClose = "\uE000", "\uE001"

// phraseRe is an argument that reads as a phrase of the site's (a
// lowercase word, then more words): it is never marked as record text,
// so that one no list says stays visible to the plain-words test.
var phraseRe = regexp.MustCompile(`^[a-z]+ `)

// markRecord brackets a pattern's argument that no list says: a name, a
// date, a status, a quoted text, as the record gives it.
func markRecord(s string) string {
	if strings.TrimSpace(s) == "" || phraseRe.MatchString(s) {
		return s
	}
	return verbatimOpen + s + verbatimClose
}

// quotedRe is a quoted text in a note (strconv.Quote's, or typographic):
// the words of a record as printed.
var quotedRe = regexp.MustCompile(`"(?:[^"\\]|\\.)*"|“[^”]*”`)

// recordNote is a service's note in lang, as plain says it; in Spanish the
// record values the note carries (the arguments of its pattern that no
// list says, and quoted text) are marked data-verbatim: they stay as
// published. English is plain's, unchanged.
func recordNote(lang, note string) any {
	if lang != "es" {
		return Plain(lang, Say(lang, note))
	}
	s := Plain(lang, say(lang, note, markRecord))
	var b strings.Builder
	outside := func(t string) {
		last := 0
		for _, loc := range quotedRe.FindAllStringIndex(t, -1) {
			b.WriteString(html.EscapeString(t[last:loc[0]]))
			b.WriteString(`<span data-verbatim>` + html.EscapeString(t[loc[0]:loc[1]]) + `</span>`)
			last = loc[1]
		}
		b.WriteString(html.EscapeString(t[last:]))
	}
	depth, from := 0, 0
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], verbatimOpen):
			if depth == 0 {
				outside(s[from:i])
				from = i + len(verbatimOpen)
			}
			depth++
			i += len(verbatimOpen)
		case strings.HasPrefix(s[i:], verbatimClose) && depth > 0:
			depth--
			if depth == 0 {
				inner := strings.NewReplacer(verbatimOpen, "", verbatimClose, "").Replace(s[from:i])
				b.WriteString(`<span data-verbatim>` + html.EscapeString(inner) + `</span>`)
				from = i + len(verbatimClose)
			}
			i += len(verbatimClose)
		default:
			i++
		}
	}
	if depth > 0 {
		outside(strings.NewReplacer(verbatimOpen, "", verbatimClose, "").Replace(s[from:]))
	} else {
		outside(s[from:])
	}
	return template.HTML(b.String())
}
