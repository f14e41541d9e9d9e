package web

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Every site word a template or a page handler names exists in English
// and Spanish: a missing key or a missing language fails here (and shows
// as [[key]], which the plain-words walk catches).
func TestEveryWordInBothLanguages(t *testing.T) {
	used := map[string]string{}
	tmpl := regexp.MustCompile(`\bt "([a-z0-9.]+)"`)
	files, _ := fs.Glob(assets, "templates/*.html")
	for _, f := range files {
		b, _ := fs.ReadFile(assets, f)
		for _, m := range tmpl.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = f
		}
	}
	code := regexp.MustCompile(`web\.Word\([a-zA-Z.()]+, "([a-z0-9.]+)"\)`)
	gofiles, _ := filepath.Glob("../*.go")
	for _, f := range gofiles {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range code.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = f
		}
	}
	if len(used) < 20 {
		t.Fatalf("found only %d words in use: the scan is broken", len(used))
	}
	wordsExist(t, used)
	if miss := record.MissingMessages(msgs); len(miss) > 0 {
		t.Errorf("the message files disagree: %v", miss)
	}
}

// Every word the scripts name (static/*.js: each "js.…" string, given to
// t in app.js or w in pins.js) exists in English and Spanish and is served to them: a
// missing key fails here (and shows as [[key]], which the browser suite's
// plain-words walk catches). Every lens has its script name.
func TestEveryScriptWordInBothLanguages(t *testing.T) {
	call := regexp.MustCompile(`"(js\.[a-z0-9.]*[a-z0-9])"`)
	used := map[string]string{}
	files, _ := fs.Glob(assets, "static/*.js")
	for _, f := range files {
		b, _ := fs.ReadFile(assets, f)
		for _, m := range call.FindAllStringSubmatch(string(b), -1) {
			used[m[1]] = f
		}
	}
	if len(used) < 100 {
		t.Fatalf("found only %d script words in use: the scan is broken", len(used))
	}
	for _, lens := range append(LabelValues("lens"), "search") {
		used["js.lens."+lens] = "app.js lensName"
	}
	served := map[string]map[string]any{}
	for _, lang := range Langs {
		b := Script(lang)
		start, end := bytes.IndexByte(b, '{'), bytes.LastIndexByte(b, '}')
		var rw map[string]any
		if start < 0 || json.Unmarshal(b[start:end+1], &rw) != nil {
			t.Fatalf("%s: the word script is not window.RW = {…}: %.80s", lang, b)
		}
		served[lang] = rw["words"].(map[string]any)
		if rw["lang"] != lang || len(rw["labels"].(map[string]any)) < len(msgs["en"].Labels) {
			t.Errorf("%s: the word script carries lang %v and %d label tables", lang, rw["lang"], len(rw["labels"].(map[string]any)))
		}
	}
	wordsExist(t, used)
	for key := range used {
		for _, lang := range Langs {
			if served[lang][key] != Word(lang, key) {
				t.Errorf("%s: %q is not served to the scripts", lang, key)
			}
		}
	}
	if es := served["es"]["js.lens.money"]; es != "Dinero: contratación" {
		t.Errorf("the Spanish script serves %q", es)
	}
	// the pin list's words reach pins.js through the layout (data-w-*)
	layout, _ := fs.ReadFile(assets, "templates/layout.html")
	for key := range msgs["en"].Words {
		if _, ok := used[key]; !ok && strings.HasPrefix(key, "js.") && !strings.Contains(string(layout), `{{t "`+key+`"}}`) {
			t.Errorf("%q is in the word list but no script uses it", key)
		}
	}
	if !StaticFile(ScriptName("es")) || StaticFile("words-fr.js") {
		t.Error("the word scripts are not served as static files (or one for a language not spoken is)")
	}
}

// wordsExist fails on each used word (key → where it is used) the word
// list lacks or holds in one language only.
func wordsExist(t *testing.T, used map[string]string) {
	t.Helper()
	for key, where := range used {
		for _, lang := range Langs {
			if Word(lang, key) == "" {
				t.Errorf("%s uses %q, which the %s message file lacks", where, key, lang)
			}
		}
	}
}
