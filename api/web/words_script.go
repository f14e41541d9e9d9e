package web

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The words of the script-rendered views (static/app.js, static/pins.js)
// are the message files' "js." words (locale.go), served to the scripts
// with the label tables and the services' notes the scripts render (their
// text in the language, by key: ScriptNote) as /static/words-<lang>.js
// (Script). The scripts call t("js.…"), label(kind, value) and note(n)
// for a note's key and arguments; a missing key shows as [[key]], which the word-list
// test (words_test.go) and the browser suite's plain-words walk catch.
// %s and %d are filled in order, as in the templates' t.

func init() {
	for _, lang := range Langs {
		scripts[lang] = buildScript(lang)
	}
}

// scripts are the served word scripts, one per language.
var scripts = map[string][]byte{}

// scriptNotePrefixes are the areas of the services' notes the scripts
// render (static/app.js note): only they are served to the scripts, so
// that the word scripts stay small.
var scriptNotePrefixes = []string{"absence.", "procure.", "dossier.", "watch.", "cycle.", "semantic.", "notices.", "sum.", "people.", "widen.notices.", "money.or.", "param."}

// ScriptNote reports whether the note key is served to the scripts.
func ScriptNote(key string) bool {
	for _, p := range scriptNotePrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// ScriptName is the static file that carries lang's words to the
// scripts.
func ScriptName(lang string) string { return "words-" + lang + ".js" }

// Script is the word script of lang: window.RW, with the "js." words, every
// label table and the notes the scripts render (ScriptNote), in lang.
func Script(lang string) []byte { return scripts[lang] }

func buildScript(lang string) []byte {
	type out struct {
		Lang   string                       `json:"lang"`
		Words  map[string]string            `json:"words"`
		Labels map[string]map[string]string `json:"labels"`
		Notes  map[string]string            `json:"notes"`
	}
	o := out{Lang: lang, Words: map[string]string{}, Labels: map[string]map[string]string{}, Notes: map[string]string{}}
	for k := range msgs["en"].Words {
		if strings.HasPrefix(k, "js.") {
			o.Words[k] = Word(lang, k)
		}
	}
	for kind, set := range msgs["en"].Labels {
		m := map[string]string{}
		for v := range set {
			m[v] = Label(lang, kind, v)
		}
		o.Labels[kind] = m
	}
	for k := range msgs["en"].Notes {
		if ScriptNote(k) {
			o.Notes[k] = messagesOf(lang).Notes[k]
		}
	}
	b, err := json.Marshal(o) // sorted keys: the same bytes every start
	if err != nil {
		panic(err)
	}
	var buf bytes.Buffer
	buf.WriteString("// The site's own words for its scripts, generated from the message files (internal/record/locale).\n\"use strict\";\nwindow.RW = ")
	buf.Write(b)
	buf.WriteString(";\n")
	return buf.Bytes()
}
