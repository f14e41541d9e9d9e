package web

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"
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
	for key, where := range used {
		w, ok := words[key]
		if !ok {
			t.Errorf("%s uses %q, which the word list lacks", where, key)
			continue
		}
		if w[0] == "" || w[1] == "" {
			t.Errorf("%q lacks a language: %q", key, w)
		}
	}
	for key, w := range words {
		if w[0] == "" || w[1] == "" {
			t.Errorf("%q lacks a language: %q", key, w)
		}
	}
}
