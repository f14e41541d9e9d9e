package record

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
)

// withFiles is the embedded message files with some replaced or added
// (name → content), as a file system LoadLocales reads.
func withFiles(t *testing.T, extra map[string][]byte) fstest.MapFS {
	t.Helper()
	out := fstest.MapFS{}
	files, _ := fs.Glob(localeFS, "locale/*.json")
	for _, f := range files {
		b, _ := fs.ReadFile(localeFS, f)
		out[f] = &fstest.MapFile{Data: b}
	}
	for name, b := range extra {
		out["locale/"+name] = &fstest.MapFile{Data: b}
	}
	return out
}

// A note missing in any language, or taking other arguments than its
// English, stops the files from loading, by name.
func TestNoteMissingInALanguageFails(t *testing.T) {
	if miss := MissingMessages(locales); len(miss) > 0 {
		t.Fatalf("the message files disagree: %v", miss)
	}
	b, _ := fs.ReadFile(localeFS, "locale/words-es.json")
	var es Messages
	if err := json.Unmarshal(b, &es); err != nil {
		t.Fatal(err)
	}
	delete(es.Notes, "procure.matter.one")
	es.Notes["procure.matter.apart"] = "%s registros" // one argument of two
	broken, _ := json.Marshal(es)
	_, err := LoadLocales(withFiles(t, map[string][]byte{"words-es.json": broken}), "locale")
	if err == nil || !strings.Contains(err.Error(), "es: note procure.matter.one is missing") ||
		!strings.Contains(err.Error(), "es: note procure.matter.apart takes 1 arguments, English 2") {
		t.Errorf("a Spanish file without a note loads: %v", err)
	}
}

// A note is said with its arguments in place, in order or by index; its
// English is what the services publish.
func TestNoteSaysItsArguments(t *testing.T) {
	all := map[string]*Messages{
		"en": {Notes: map[string]string{"k": "%s of %s rows"}},
		"xx": {Notes: map[string]string{"k": "filas: %[2]s, de ellas %[1]s"}},
	}
	n := N("k", 3, "10")
	if got := SayNote(all, "en", n, nil); got != "3 of 10 rows" {
		t.Errorf("en: %q", got)
	}
	if got := SayNote(all, "xx", n, func(a string) string { return "<" + a + ">" }); got != "filas: <10>, de ellas <3>" {
		t.Errorf("xx: %q", got)
	}
	if got := SayNote(all, "fr", n, nil); got != "3 of 10 rows" {
		t.Errorf("a language no file holds reads English: %q", got)
	}
	if got := SayNote(all, "en", N("nope", "a"), nil); got != "[[nope]] a" {
		t.Errorf("a key no file holds: %q", got)
	}
	if got := AbsenceRuleNotes[0].String(); got != AbsenceRules[0] || got != "No search hits does not mean no record exists." {
		t.Errorf("the absence rules' English: %q", got)
	}
}

// noteCall is a note made in the code with a literal key; keyLiteral any
// string literal that may be a key (a table of keys by case).
var (
	noteCall   = regexp.MustCompile(`\brecord\.N\("([a-z0-9_.]+)"|\bN\("([a-z0-9_.]+)"`)
	keyLiteral = regexp.MustCompile(`"([a-z0-9_]+\.[a-z0-9_.]+)"`)
	// keyPrefix is the literal start of keys the code builds from reviewed
	// data's ids ("land.proc." + a procedure's id …): the package that
	// builds them checks each against the files (land's test of every
	// procedure).
	keyPrefix = regexp.MustCompile(`"([a-z0-9_]+\.[a-z0-9_.]*\.)"\s*\+`)
)

// Every note key the code makes (record.N with a literal key, anywhere
// outside tests) is in the English file — hence, by the loader's rule, in
// every language — and every note of the files is made somewhere (a
// note no code makes is dead text).
func TestEveryNoteKeyIsInTheFiles(t *testing.T) {
	used, written, prefixes := map[string]string{}, map[string]string{}, map[string]string{}
	root := "../.."
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "testdata" || d.Name() == "node_modules") {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range noteCall.FindAllStringSubmatch(string(b), -1) {
			used[m[1]+m[2]] = p
		}
		for _, m := range keyPrefix.FindAllStringSubmatch(string(b), -1) {
			prefixes[m[1]] = p
		}
		for _, m := range keyLiteral.FindAllStringSubmatch(string(b), -1) {
			if _, ok := locales["en"].Notes[m[1]]; ok {
				written[m[1]] = p
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(used) < 30 {
		t.Fatalf("found only %d note keys in the code: the scan is broken", len(used))
	}
	for k, where := range used {
		if _, ok := locales["en"].Notes[k]; !ok {
			t.Errorf("%s makes note %q, which the English message file lacks", where, k)
		}
	}
	for k := range locales["en"].Notes {
		for pre, where := range prefixes {
			if strings.HasPrefix(k, pre) {
				written[k] = where
			}
		}
		if _, ok := written[k]; !ok {
			t.Errorf("note %q is in the message files but no code makes it", k)
		}
	}
}

// A note's inner parts fill it as its Join says: one argument of clauses
// ("; "), one argument run on (each part carrying its own leading words:
// a sentence of optional clauses), or one argument each (a list said by a
// key of as many arguments); parts nest, and every part is said in the
// same language, its arguments marked and its own words not.
func TestNoteInnerPartsJoin(t *testing.T) {
	all := map[string]*Messages{
		"en": {Notes: map[string]string{"s": "%s.", "c": "Awards", "from": " from %s", "min": ", of at least %s", "or.2": "%s or %s",
			"x": "%s", "lens": "money", "k": "Read: %s", "used": "%[2]s is not used for %[1]s"}},
		"xx": {Notes: map[string]string{"s": "%s.", "c": "Adjudicaciones", "from": " de %s", "min": ", de al menos %s", "or.2": "%s o %s",
			"x": "%s", "lens": "dinero", "k": "Leído: %s", "used": "%[2]s no se usa para %[1]s"}},
	}
	mark := func(a string) string { return "<" + a + ">" }
	run := Note{Key: "s", Join: JoinRun, Inner: []Part{
		{Key: "c"},
		{Key: "from", Inner: []Part{{Key: "or.2", Args: []string{"Parks", "DOT"}}}, Join: JoinArgs},
		P("min", "$1"),
	}}
	if got := SayNote(all, "en", run, nil); got != "Awards from Parks or DOT, of at least $1." {
		t.Errorf("run on, en: %q", got)
	}
	if got := SayNote(all, "xx", run, mark); got != "Adjudicaciones de <Parks> o <DOT>, de al menos <$1>." {
		t.Errorf("run on, xx: %q", got)
	}
	args := Note{Key: "used", Args: []string{"an amount"}, Inner: []Part{{Key: "lens"}}, Join: JoinArgs}
	if got := SayNote(all, "xx", args, mark); got != "dinero no se usa para <an amount>" {
		t.Errorf("one argument each, xx: %q", got)
	}
	clauses := Note{Key: "k", Inner: []Part{{Key: "x", Args: []string{"a"}}, {Key: "x", Args: []string{"b"}}}}
	if got := SayNote(all, "en", clauses, nil); got != "Read: a; b" {
		t.Errorf("clauses: %q", got)
	}
	// a copy shares no part, however deep
	c := run.Clone()
	c.Inner[1].Inner[0].Args[0] = "changed"
	if run.Inner[1].Inner[0].Args[0] != "Parks" {
		t.Error("Clone shares a nested part's arguments")
	}
}

// OrList says a list of record values joined by "or" in each language
// (the money.or.N keys, one rule for every list): up to five by one key,
// more as a list of the first ones "or" the last.
func TestOrList(t *testing.T) {
	for _, c := range []struct {
		items  []string
		en, es string
	}{
		{[]string{"A"}, "A", "A"},
		{[]string{"A", "B"}, "A or B", "A o B"},
		{[]string{"A", "B", "C"}, "A or B or C", "A, B o C"},
		{[]string{"A", "B", "C", "D", "E", "F", "G"}, "A or B or C or D or E or F or G", "A, B, C, D o E o F o G"},
	} {
		n := OrList(c.items).Note()
		if en, es := n.String(), n.In("es"); en != c.en || es != c.es {
			t.Errorf("%v: %q, %q", c.items, en, es)
		}
	}
}
