package web

import (
	"fmt"
	"html/template"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// langFuncs are the template functions bound to one language.
func langFuncs(lang string) template.FuncMap {
	return template.FuncMap{
		"lang": func() string { return lang },
		// monthName is a month's name in lang
		"monthName": func(m time.Month) string {
			if lang == "es" {
				return monthsES[m-1]
			}
			return m.String()
		},
		// label is a machine value's label (labels.go)
		"label": func(kind, value string) string { return Label(lang, kind, value) },
		// fy names a fiscal year (0: not registered), in lang
		"fy": func(n int) string {
			if n == 0 {
				return Word(lang, "fy.none")
			}
			return "FY" + strconv.Itoa(n)
		},
		// extentWords is the extent of a total's records (extent.go)
		"extentWords": func(es []record.Extent) string { return extentWords(lang, es) },
		// plain says the machine words a service note names in words
		"plain": func(note string) string { return Plain(lang, note) },
		// english is a service's text that has no note (an error, a
		// ledger's reason): as written, marked as English on a page in
		// another language (notes.go englishHTML)
		"english": func(s string) template.HTML { return englishHTML(lang, s) },
		// said is a service's text by its note when it has one (note),
		// else as written (english): an error's message_key or message
		"said": func(n record.Note, s string) template.HTML {
			if n.Key != "" {
				return noteHTML(lang, n)
			}
			return englishHTML(lang, s)
		},
		// note is a service's note (record.Note, record.Notes or a list
		// of notes) in lang, from its key and arguments (notes.go)
		"note": func(n any) template.HTML { return noteHTML(lang, n) },
		// noteText is a note in lang as text (for plain)
		"noteText": func(n record.Note) string { return NoteIn(lang, n) },
		// keyed is a stored note (nil on a record stored before its
		// notes) in lang, else the record's English text; keyedClauses
		// the same for notes said as clauses; recorded a record's
		// English text that has no note (notes.go)
		"keyed":        func(n *record.Note, s string) template.HTML { return keyedHTML(lang, n, s) },
		"keyedClauses": func(ns record.Notes, s string) template.HTML { return keyedClausesHTML(lang, ns, s) },
		"recorded":     func(s string) template.HTML { return recordedHTML(lang, s) },
		// sourceTitle is a source's own label (source, record type,
		// label as recorded) in lang (notes.go)
		"sourceTitle": func(source, recordType, label string) template.HTML {
			return sourceTitleHTML(lang, source, recordType, label)
		},
		// clauses is notes said as the clauses of one sentence ("; ")
		"clauses": func(ns record.Notes) template.HTML { return clausesHTML(lang, ns) },
		// sum is a sum as read in lang: its amount, or what is absent
		// (its display_key); sumText is the same as text
		"sum":     func(m procure.Money) template.HTML { return moneyHTML(lang, m) },
		"sumText": func(m procure.Money) string { return moneyText(lang, m) },
		// t is one of the site's own words (words); a missing key shows
		// as [[key]], which the word-list test and the plain-words test
		// catch.
		"t": func(key string, args ...any) string {
			w := messagesOf(lang).Words[key]
			if w == "" {
				return "[[" + key + "]]"
			}
			if len(args) > 0 {
				return fmt.Sprintf(w, args...)
			}
			return w
		},
	}
}

var monthsES = [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"}

// Word is one of the site's own words in lang ("" when missing): its
// message file's (locale.go).
func Word(lang, key string) string { return messagesOf(lang).Words[key] }

// WordKeys lists the keys of the site's words (for tests).
func WordKeys() []string {
	out := make([]string, 0, len(msgs["en"].Words))
	for k := range msgs["en"].Words {
		out = append(out, k)
	}
	return out
}
