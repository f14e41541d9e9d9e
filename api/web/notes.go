package web

import (
	"html"
	"html/template"
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

// englishHTML is a service's English text that has no note, in a page
// in lang: as written, inside <span lang="en"> when lang is not English
// (the page's other words are in lang; the Spanish crawl still sees it).
func englishHTML(lang, s string) template.HTML {
	if lang == "en" {
		return template.HTML(html.EscapeString(s))
	}
	return template.HTML(`<span lang="en">` + html.EscapeString(s) + `</span>`)
}
