package web

import (
	"fmt"
	"html/template"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

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
		"plain": func(note string) string { return Plain(lang, Say(lang, note)) },
		// say is a service's sentence that is not yet a note, in lang:
		// the Spanish of pageSentences (words.go), else as written; a
		// note (record.Note) is said by note, from its key
		"say": func(sentence string) string { return Say(lang, sentence) },
		// recordNote is plain, with the record text the note quotes
		// marked as such (notes.go)
		"recordNote": func(note string) any { return recordNote(lang, note) },
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

// pageSentences are the services' sentences that are not yet notes
// (record.Note): the server-rendered pages still say them in Spanish by
// matching their English (Say) — the land procedures' texts and the land
// decision path, the meetings' and the people lens's evidence and notes,
// the sources page and the links the indexer writes (the money pages say
// only notes). Each area adds its own (addSentences in words_es_*.go); the
// scripts carry none (they say only notes, from their keys).
var pageSentences = map[string]string{
}

// addSentences adds Spanish sentences to the pages' list. A sentence
// defined twice is a panic at start.
func addSentences(m map[string]string) {
	for en, es := range m {
		if _, dup := pageSentences[en]; dup {
			panic("web: sentence defined twice: " + en)
		}
		pageSentences[en] = es
	}
}

// Say is sentence in lang: its Spanish when the list holds it, else as
// written.
//
// A sentence of the list with %d or %s in it is a pattern: a service
// sentence with a number or a name in its place reads in Spanish with the
// same number or name.
//
// A service's note is often several sentences, or clauses joined by "; "
// (a stage's evidence and its condition): when the whole is not in the
// list, each sentence and then each clause is said on its own, so that a
// composed note reads in Spanish when each of its parts is listed. A part
// no list holds stays as written (the plain-words test finds it).
//
// A pattern's argument that is itself a listed sentence (a reason inside
// a note) is said too; a name or a number no list holds stays as written.
func Say(lang, sentence string) string { return say(lang, sentence, nil) }

// say is Say; mark, when not nil, is applied to each argument of a
// pattern that no list says (a name, a date, a quoted text: a record's
// value), so that a page can mark it as record text
// (notes.go recordNote).
func say(lang, sentence string, mark func(string) string) string {
	if lang != "es" || sentence == "" {
		return sentence
	}
	if es, ok := sayWhole(sentence, mark); ok {
		return es
	}
	if parts := splitSentences(sentence); len(parts) > 1 {
		for i, p := range parts {
			parts[i] = say(lang, p, mark)
		}
		return strings.Join(parts, " ")
	}
	if parts := strings.Split(sentence, "; "); len(parts) > 1 {
		for i, p := range parts {
			if es, ok := sayWhole(p, mark); ok {
				parts[i] = es
			}
		}
		return strings.Join(parts, "; ")
	}
	return sentence
}

// sayWhole is the Spanish of one sentence of the lists, or of one that
// matches a pattern.
func sayWhole(sentence string, mark func(string) string) (string, bool) {
	if es, ok := pageSentences[sentence]; ok {
		return es, true
	}
	p, m, ok := matchPattern(sentence)
	if !ok {
		return "", false
	}
	args := make([]any, len(m))
	for i := range args {
		a := m[i]
		if a != sentence { // a pattern of placeholders only would say itself forever
			a = say("es", a, mark)
		}
		if a == m[i] && mark != nil {
			a = mark(a)
		}
		args[i] = a
	}
	return fmt.Sprintf(strings.ReplaceAll(p.es, "%d", "%s"), args...), true
}

// matchPattern is the pattern (patterns) sentence matches, with its
// arguments in order.
func matchPattern(sentence string) (sentencePattern, []string, bool) {
	for _, p := range patterns() {
		if m := p.re.FindStringSubmatch(sentence); m != nil {
			return p, m[1:], true
		}
	}
	return sentencePattern{}, nil, false
}

// sentenceEnd is where one sentence of a note ends and another begins: a
// full stop and a space before a capital letter or a digit.
var sentenceEnd = regexp.MustCompile(`[.!?] +[A-Z0-9(“"]`)

// splitSentences cuts a note into its sentences (each keeps its full
// stop); a note of one sentence is one part.
func splitSentences(s string) []string {
	var out []string
	for {
		loc := sentenceEnd.FindStringIndex(s)
		if loc == nil {
			break
		}
		out = append(out, strings.TrimSpace(s[:loc[0]+1]))
		_, size := utf8.DecodeLastRuneInString(s[:loc[1]]) // the next sentence's first letter (“ is 3 bytes)
		s = s[loc[1]-size:]
	}
	return append(out, s)
}

type sentencePattern struct {
	re *regexp.Regexp
	es string
}

var (
	patternsOnce sync.Once
	patternList  []sentencePattern
)

// patterns are the sentences with %d or %s, as expressions, built once
// (after every area's addSentences has run), the longest first so that
// the most specific pattern wins.
func patterns() []sentencePattern {
	patternsOnce.Do(func() {
		var ens []string
		all := map[string]string{}
		for en, es := range pageSentences {
			if strings.Contains(en, "%d") || strings.Contains(en, "%s") {
				ens = append(ens, en)
				all[en] = es
			}
		}
		sort.Slice(ens, func(i, j int) bool {
			if len(ens[i]) != len(ens[j]) {
				return len(ens[i]) > len(ens[j])
			}
			return ens[i] < ens[j]
		})
		for _, en := range ens {
			expr := regexp.QuoteMeta(en)
			expr = strings.ReplaceAll(expr, "%d", `(\d[\d,]*)`)
			expr = strings.ReplaceAll(expr, "%s", `(.+?)`)
			patternList = append(patternList, sentencePattern{regexp.MustCompile("^" + expr + "$"), all[en]})
		}
	})
	return patternList
}

// Sentences lists the English sentences the list says in Spanish (for
// tests: one left in English on a Spanish page is a miss).
func Sentences() []string {
	out := make([]string, 0, len(pageSentences))
	for en := range pageSentences {
		out = append(out, en)
	}
	return out
}

// WordKeys lists the keys of the site's words (for tests).
func WordKeys() []string {
	out := make([]string, 0, len(msgs["en"].Words))
	for k := range msgs["en"].Words {
		out = append(out, k)
	}
	return out
}
