package web

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/recordwatch/recordwatch/internal/procure"
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
	for k, w := range m.Notes {
		m.Notes[k] = "⟦xx⟧" + w
	}
	delete(m.Words, drop)
	delete(m.Notes, drop)
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
	delete(es.Notes, "dossier.vendor.matched")
	broken, _ := json.Marshal(es)
	_, err := record.LoadLocales(localeWith(t, map[string][]byte{"words-es.json": broken}), "locale")
	if err == nil || !strings.Contains(err.Error(), "es: word nav.search is missing") || !strings.Contains(err.Error(), "es: label stage_state/happened is missing") ||
		!strings.Contains(err.Error(), "es: note dossier.vendor.matched is missing") {
		t.Errorf("a Spanish file without a word, a label or a note loads: %v", err)
	}
	if _, err := record.LoadLocales(localeWith(t, map[string][]byte{"words-xx.json": testLanguage(t, "nav.about")}), "locale"); err == nil || !strings.Contains(err.Error(), "xx: word nav.about is missing") {
		t.Errorf("a third language without a word loads: %v", err)
	}
	if _, err := record.LoadLocales(localeWith(t, map[string][]byte{"words-xx.json": testLanguage(t, "absence.rule.no_hits")}), "locale"); err == nil || !strings.Contains(err.Error(), "xx: note absence.rule.no_hits is missing") {
		t.Errorf("a third language without a note loads: %v", err)
	}
}

// Adding a language is adding one file: with words-xx.json beside the
// others, the loader speaks xx, and a page renders in it — its own words,
// labels and the services' notes (the absence rules, a dossier's absence,
// a sum's) from the file, record text (a note's arguments) as published.
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
	tm := template.Must(template.New("about").Funcs(funcs).Funcs(langFuncs("xx")).ParseFS(assets, "templates/layout.html", "templates/parts.html", "templates/about.html"))
	var buf bytes.Buffer
	if err := tm.ExecuteTemplate(&buf, "layout", Page{Kind: About, Lang: "xx", Title: "About", Path: "/about", Data: struct {
		Form  int
		Rules record.Notes
	}{1, record.AbsenceRuleNotes}}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`<html lang="xx">`, "⟦xx⟧" + saved["en"].Words["about.title"], "⟦xx⟧" + saved["en"].Words["nav.search"],
		"⟦xx⟧" + record.AbsenceRules[0], "⟦xx⟧" + record.AbsenceRules[3]} {
		if !strings.Contains(out, want) {
			t.Errorf("the xx page lacks %q", want)
		}
	}
	// a service's note with arguments: its text from the xx file, its
	// arguments as the service gives them, marked as record text
	n := record.N("procure.matter.apart", 3, "12522P0001")
	if got := string(noteHTML("xx", n)); !strings.HasPrefix(got, "⟦xx⟧<span data-verbatim>3</span> records share only the 10-character base PIN <span data-verbatim>12522P0001</span>") {
		t.Errorf("a note in xx: %q", got)
	}
	var sum bytes.Buffer
	st := template.Must(template.New("s").Funcs(funcs).Funcs(langFuncs("xx")).Parse(`{{sum .}}`))
	if err := st.Execute(&sum, procure.Sum{Absent: procure.NoPaymentsKey}.Money()); err != nil || sum.String() != "⟦xx⟧no payments held" {
		t.Errorf("a sum's absence in xx: %q %v", sum.String(), err)
	}
	if Label("xx", "stage_state", "happened") != "⟦xx⟧"+saved["en"].Labels["stage_state"]["happened"] {
		t.Errorf("label in xx: %q", Label("xx", "stage_state", "happened"))
	}
	if got := WithLang("/about", "xx"); got != "/about?lang=xx" {
		t.Errorf("a link keeps xx: %q", got)
	}
}
