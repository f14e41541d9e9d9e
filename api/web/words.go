package web

import (
	"fmt"
	"html/template"
	"net/url"
	"sort"
)

// Langs are the languages of the site's own words: English, the default,
// and Spanish (?lang=es, part of every permalink). Record text is never
// translated: it stays as published, and the pages say so.
var Langs = []string{"en", "es"}

// Lang is the site language a request asks for: "es" for lang=es, else
// "en".
func Lang(q url.Values) string {
	if q.Get("lang") == "es" {
		return "es"
	}
	return "en"
}

// langFuncs are the template functions bound to one language.
func langFuncs(lang string) template.FuncMap {
	i := 0
	if lang == "es" {
		i = 1
	}
	return template.FuncMap{
		"lang": func() string { return lang },
		// label is a machine value's label (labels.go)
		"label": func(kind, value string) string { return Label(lang, kind, value) },
		// plain says the machine words a service note names in words
		"plain": func(note string) string { return Plain(lang, note) },
		// t is one of the site's own words (words); a missing key shows
		// as [[key]], which the word-list test and the plain-words test
		// catch.
		"t": func(key string, args ...any) string {
			w, ok := words[key]
			if !ok || w[i] == "" {
				return "[[" + key + "]]"
			}
			if len(args) > 0 {
				return fmt.Sprintf(w[i], args...)
			}
			return w[i]
		},
	}
}

// WordKeys lists the keys of the site's own words (for tests).
func WordKeys() []string {
	out := make([]string, 0, len(words))
	for k := range words {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Word is one of the site's own words in lang ("" when missing).
func Word(lang, key string) string {
	w := words[key]
	if lang == "es" {
		return w[1]
	}
	return w[0]
}

// words are the site's own words: navigation, headings, scope statements,
// empty states and forms, in English and Spanish.
var words = map[string]word{
	"site.tagline": {"New York City public records", "Registros públicos de la ciudad de Nueva York"},
}
