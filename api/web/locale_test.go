package web

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recordwatch/recordwatch/internal/record"
)

// localeWith is the embedded message files plus extra files (name →
// content), as a file system loadLocales reads.
func localeWith(t *testing.T, extra map[string][]byte) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	files, _ := fs.Glob(record.LocaleFS, "locale/*.json")
	for _, f := range files {
		b, _ := fs.ReadFile(record.LocaleFS, f)
		out[f] = &fstest.MapFile{Data: b}
	}
	for name, b := range extra {
		out["locale/"+name] = &fstest.MapFile{Data: b}
	}
	return out
}

// testLanguage is a third language made from the English file with every
// word and label marked "⟦xx⟧", optionally without one word.
func testLanguage(t *testing.T, drop string) []byte {
	t.Helper()
	b, _ := fs.ReadFile(record.LocaleFS, "locale/words-en.json")
	var m messages
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k, w := range m.Words {
		m.Words[k] = "⟦xx⟧" + w
	}
	for _, set := range m.Labels {
		for v, w := range set {
			set[v] = "⟦xx⟧" + w
		}
	}
	delete(m.Words, drop)
	out, _ := json.Marshal(m)
	return out
}

// The message files hold the same keys in every language, and a file
// that lacks one is refused by name.
func TestMessageFilesAgree(t *testing.T) {
	if miss := record.MissingMessages(msgs); len(miss) > 0 {
		t.Fatalf("the message files disagree: %v", miss)
	}
	if len(Langs) < 2 || Langs[0] != "en" || !HasLang("es") {
		t.Fatalf("languages %v", Langs)
	}
	// Spanish without one word: the loader names it
	b, _ := fs.ReadFile(record.LocaleFS, "locale/words-es.json")
	var es messages
	_ = json.Unmarshal(b, &es)
	delete(es.Words, "nav.search")
	es.Labels["stage_state"]["happened"] = ""
	broken, _ := json.Marshal(es)
	_, err := record.LoadLocales(localeWith(t, map[string][]byte{"words-es.json": broken}), "locale")
	if err == nil || !strings.Contains(err.Error(), "es: word nav.search is missing") || !strings.Contains(err.Error(), "es: label stage_state/happened is missing") {
		t.Errorf("a Spanish file without a word loads: %v", err)
	}
	if _, err := record.LoadLocales(localeWith(t, map[string][]byte{"words-xx.json": testLanguage(t, "nav.about")}), "locale"); err == nil || !strings.Contains(err.Error(), "xx: word nav.about is missing") {
		t.Errorf("a third language without a word loads: %v", err)
	}
}

// Adding a language is adding one file: with words-xx.json beside the
// others, the loader speaks xx, and a page renders in it — its own words
// and labels from the file, record text as published.
func TestThirdLanguageIsOneFile(t *testing.T) {
	all, err := record.LoadLocales(localeWith(t, map[string][]byte{"words-xx.json": testLanguage(t, "")}), "locale")
	if err != nil {
		t.Fatal(err)
	}
	if all["xx"] == nil || all["xx"].Words["nav.search"] != "⟦xx⟧Search" {
		t.Fatalf("xx not loaded: %v", all["xx"] != nil)
	}
	// speak it as the site would at start (the package's tables are the
	// embedded files'; the test swaps them for the loaded ones)
	saved := msgs
	msgs = all
	defer func() { msgs = saved }()
	for _, land := range []string{"land_procedure", "land_stage", "land_actor"} { // built in Go at start (addWords)
		all["en"].Labels[land], all["xx"].Labels[land] = saved["en"].Labels[land], saved["en"].Labels[land]
	}
	tm := template.Must(template.New("about").Funcs(funcs).Funcs(langFuncs("xx")).ParseFS(assets, "templates/layout.html", "templates/parts.html", "templates/about.html"))
	var buf bytes.Buffer
	if err := tm.ExecuteTemplate(&buf, "layout", Page{Kind: About, Lang: "xx", Title: "About", Path: "/about", Data: struct {
		Form  int
		Rules []string
	}{1, nil}}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`<html lang="xx">`, "⟦xx⟧" + saved["en"].Words["about.title"], "⟦xx⟧" + saved["en"].Words["nav.search"]} {
		if !strings.Contains(out, want) {
			t.Errorf("the xx page lacks %q", want)
		}
	}
	if Label("xx", "stage_state", "happened") != "⟦xx⟧"+saved["en"].Labels["stage_state"]["happened"] {
		t.Errorf("label in xx: %q", Label("xx", "stage_state", "happened"))
	}
	if got := WithLang("/about", "xx"); got != "/about?lang=xx" {
		t.Errorf("a link keeps xx: %q", got)
	}
}
