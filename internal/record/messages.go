package record

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// The words people read are data: one message file per language,
// locale/words-<lang>.json, each holding the same keys in its language —
// the site's own words ("words": "nav.search", "js.scope.in", …), the label
// tables of machine values ("labels": kind → value → label) and the
// services' notes ("notes": key → text with %s for each argument, in
// order, or %[n]s to reorder them). English is the reference: every other
// file holds exactly its keys, and each of its notes takes the same
// arguments (MissingMessages; a test fails on a key missing in any
// language, and the program does not start with one). Adding a language is
// adding a file.
//
// The files live here, beside the services, because both ends read them:
// a service publishes a note's English text (Note.String) in its answer's
// string fields, and the site renders the same note from its key and
// arguments in the reader's language (Note.In) — one renderer of a key in
// a language.

//go:embed locale
var localeFS embed.FS

// LocaleFS is the embedded message files (locale/words-<lang>.json), for
// the loader's tests.
var LocaleFS fs.FS = localeFS

// Messages are one language's words, label tables and notes.
type Messages struct {
	Labels map[string]map[string]string `json:"labels"`
	Notes  map[string]string            `json:"notes"`
	Words  map[string]string            `json:"words"`
}

// locales holds every language's messages, by language tag.
var locales = func() map[string]*Messages {
	m, err := LoadLocales(localeFS, "locale")
	if err != nil {
		panic(err)
	}
	return m
}()

// Locales is every language's messages, by language tag, as loaded from
// the embedded files (the site adds the label tables it builds from
// reviewed data at start).
func Locales() map[string]*Messages { return locales }

// LoadLocales reads every words-<lang>.json of dir in fsys; English must be
// one, and every other must hold exactly its keys (MissingMessages).
func LoadLocales(fsys fs.FS, dir string) (map[string]*Messages, error) {
	files, err := fs.Glob(fsys, path.Join(dir, "words-*.json"))
	if err != nil {
		return nil, err
	}
	out := map[string]*Messages{}
	for _, f := range files {
		lang := strings.TrimSuffix(strings.TrimPrefix(path.Base(f), "words-"), ".json")
		b, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		m := &Messages{}
		if err := json.Unmarshal(b, m); err != nil {
			return nil, fmt.Errorf("record: %s: %w", f, err)
		}
		if m.Words == nil {
			m.Words = map[string]string{}
		}
		if m.Labels == nil {
			m.Labels = map[string]map[string]string{}
		}
		if m.Notes == nil {
			m.Notes = map[string]string{}
		}
		out[lang] = m
	}
	if out["en"] == nil {
		return nil, fmt.Errorf("record: no %s/words-en.json", dir)
	}
	if miss := MissingMessages(out); len(miss) > 0 {
		return nil, fmt.Errorf("record: message files disagree: %s", strings.Join(miss, "; "))
	}
	return out, nil
}

// verbRe is one argument's place in a note's text: %s, or %[n]s.
var verbRe = regexp.MustCompile(`%(?:\[(\d+)\])?s`)

// noteArity is the number of arguments a note's text takes (the highest
// explicit index, or the count of plain %s), and whether it uses them all.
func noteArity(text string) int {
	n, next := 0, 0
	for _, m := range verbRe.FindAllStringSubmatch(text, -1) {
		i := next + 1
		if m[1] != "" {
			fmt.Sscan(m[1], &i)
		}
		next = i
		if i > n {
			n = i
		}
	}
	return n
}

// MissingMessages lists, for every language but English, each English key
// (word, label or note) it lacks or leaves empty, each key it has that
// English does not, and each note whose text takes another number of
// arguments than English's: the message files must hold the same keys.
func MissingMessages(all map[string]*Messages) []string {
	en := all["en"]
	var out []string
	for lang, m := range all {
		if lang == "en" {
			continue
		}
		for k := range en.Words {
			if m.Words[k] == "" {
				out = append(out, lang+": word "+k+" is missing")
			}
		}
		for k := range m.Words {
			if _, ok := en.Words[k]; !ok {
				out = append(out, lang+": word "+k+" is not an English key")
			}
		}
		for kind, set := range en.Labels {
			for v := range set {
				if m.Labels[kind][v] == "" {
					out = append(out, lang+": label "+kind+"/"+v+" is missing")
				}
			}
		}
		for kind, set := range m.Labels {
			for v := range set {
				if _, ok := en.Labels[kind][v]; !ok {
					out = append(out, lang+": label "+kind+"/"+v+" is not an English key")
				}
			}
		}
		for k, t := range en.Notes {
			switch {
			case m.Notes[k] == "":
				out = append(out, lang+": note "+k+" is missing")
			case noteArity(m.Notes[k]) != noteArity(t):
				out = append(out, fmt.Sprintf("%s: note %s takes %d arguments, English %d", lang, k, noteArity(m.Notes[k]), noteArity(t)))
			}
		}
		for k := range m.Notes {
			if _, ok := en.Notes[k]; !ok {
				out = append(out, lang+": note "+k+" is not an English key")
			}
		}
	}
	sort.Strings(out)
	return out
}

// A Note is a service's sentence as data: the key of its text in the
// message files and its arguments (names, numbers, dates, ids: record
// values, never translated). A service publishes its English text
// (String) in its answer's string fields, and may publish the note itself
// beside them; the site says it in the reader's language (In).
type Note struct {
	Key  string   `json:"key"`
	Args []string `json:"args,omitempty"`
	// Inner, when set, is the note's last argument: parts said as the
	// clauses of one sentence ("; "), each in the same language (a list
	// of parts inside a sentence) — or as Join says.
	Inner []Part `json:"inner,omitempty"`
	// Join says how Inner fills the note: "" (the clauses of one
	// argument, "; "), JoinRun (one argument of the parts run on with no
	// separator, each part's text carrying its own leading words: a
	// sentence of optional clauses, each with its own joiner) or JoinArgs
	// (each part its own argument, after Args: a list said by a key of
	// as many arguments, such as OrParts).
	Join string `json:"join,omitempty"`
}

// The ways a note's inner parts fill it (Note.Join).
const (
	JoinRun  = "run"
	JoinArgs = "args"
)

// A Part is a note inside a note (Note.Inner): a key and its arguments,
// and parts of its own (a list inside a clause).
type Part struct {
	Key   string   `json:"key"`
	Args  []string `json:"args,omitempty"`
	Inner []Part   `json:"inner,omitempty"`
	Join  string   `json:"join,omitempty"`
}

// PartOf is n as a part of another note.
func PartOf(n Note) Part { return Part{Key: n.Key, Args: n.Args, Inner: n.Inner, Join: n.Join} }

// Note is p as a note of its own.
func (p Part) Note() Note { return Note{Key: p.Key, Args: p.Args, Inner: p.Inner, Join: p.Join} }

// P is the part key with args, each written as fmt's %v writes it.
func P(key string, args ...any) Part { return PartOf(N(key, args...)) }

// orKeys are the notes of a list of one to five items joined by "or"
// (English a or b or c; each language its own way).
var orKeys = [...]string{"money.or.1", "money.or.2", "money.or.3", "money.or.4", "money.or.5"}

// OrList is items (record values, said as given) as a list joined by
// "or" in the reader's language: a note's part.
func OrList(items []string) Part {
	if len(items) <= len(orKeys) {
		return Part{Key: orKeys[len(items)-1], Args: items}
	}
	ps := make([]Part, len(items))
	for i, s := range items {
		ps[i] = Part{Key: "money.or.1", Args: []string{s}}
	}
	return OrParts(ps)
}

// OrParts is parts as a list joined by "or" in the reader's language; a
// list longer than the longest key is said as that list or the rest.
func OrParts(parts []Part) Part {
	if len(parts) == 1 {
		return parts[0]
	}
	if len(parts) > len(orKeys) {
		return Part{Key: orKeys[1], Inner: []Part{OrParts(parts[:len(parts)-1]), parts[len(parts)-1]}, Join: JoinArgs}
	}
	return Part{Key: orKeys[len(parts)-1], Inner: parts, Join: JoinArgs}
}

// N is the note key with args, each written as fmt's %v writes it.
func N(key string, args ...any) Note {
	n := Note{Key: key}
	for _, a := range args {
		n.Args = append(n.Args, fmt.Sprint(a))
	}
	return n
}

// String is the note in English: the text the services publish.
func (n Note) String() string { return n.In("en") }

// IsZero reports whether n is no note.
func (n Note) IsZero() bool { return n.Key == "" }

// In is the note in lang (English for a language no file holds).
func (n Note) In(lang string) string { return SayNote(locales, lang, n, nil) }

// SayNote is the note n in lang from the messages all; mark, when not
// nil, is applied to each argument (a page marks them as record text). A
// key no file holds reads [[key]] followed by its arguments (the plain-
// words test and the message files' test find it).
func SayNote(all map[string]*Messages, lang string, n Note, mark func(string) string) string {
	m, ok := all[lang]
	if !ok {
		m = all["en"]
	}
	text, ok := m.Notes[n.Key]
	args, inner := n.Args, len(n.Args)
	if len(n.Inner) > 0 {
		parts := make([]string, len(n.Inner))
		for i, in := range n.Inner {
			parts[i] = SayNote(all, lang, in.Note(), mark)
		}
		switch n.Join {
		case JoinRun:
			parts = []string{strings.Join(parts, "")}
		case JoinArgs:
		default:
			parts = []string{strings.Join(parts, "; ")}
		}
		args = append(append([]string(nil), args...), parts...)
	}
	if !ok {
		return "[[" + n.Key + "]] " + strings.Join(args, ", ")
	}
	next := 0
	return verbRe.ReplaceAllStringFunc(text, func(v string) string {
		i := next + 1
		if sm := verbRe.FindStringSubmatch(v); sm[1] != "" {
			fmt.Sscan(sm[1], &i)
		}
		next = i
		if i < 1 || i > len(args) {
			return "%!s(MISSING)"
		}
		if mark != nil && i-1 < inner { // the inner notes are said (and marked) already
			return mark(args[i-1])
		}
		return args[i-1]
	})
}

// Clone is n with its own arguments (a cached answer's copy shares none).
func (n Note) Clone() Note {
	n.Args = append([]string(nil), n.Args...)
	if n.Inner != nil {
		inner := make([]Part, len(n.Inner))
		for i, p := range n.Inner {
			inner[i] = PartOf(p.Note().Clone())
		}
		n.Inner = inner
	}
	return n
}

// Notes are several notes said as one paragraph: each in turn, separated
// by a space (each note ends its own sentence).
type Notes []Note

// String is the notes in English.
func (ns Notes) String() string { return ns.In("en") }

// In is the notes in lang.
func (ns Notes) In(lang string) string {
	parts := make([]string, 0, len(ns))
	for _, n := range ns {
		if s := n.In(lang); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, " ")
}

// Clone is ns with its own notes and arguments.
func (ns Notes) Clone() Notes {
	if ns == nil {
		return nil
	}
	out := make(Notes, len(ns))
	for i, n := range ns {
		out[i] = n.Clone()
	}
	return out
}

// Clauses is the notes in lang as clauses of one sentence, joined by
// "; " (each note a clause).
func (ns Notes) Clauses(lang string) string {
	parts := make([]string, 0, len(ns))
	for _, n := range ns {
		parts = append(parts, n.In(lang))
	}
	return strings.Join(parts, "; ")
}

// NoteKeys lists the keys of the notes (for tests).
func NoteKeys() []string {
	out := make([]string, 0, len(locales["en"].Notes))
	for k := range locales["en"].Notes {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
