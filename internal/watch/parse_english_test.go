package watch

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// englishRead is how a request was read in English before the scope and
// notes became notes (testdata/parse_english.json, written by the parser
// of that time from testdata/parse_requests.txt: the requests of this
// package's tests and a few more reaching every note).
type englishRead struct {
	Form  int      `json:"form"`
	Text  string   `json:"text"`
	Scope string   `json:"scope,omitempty"`
	Notes []string `json:"notes,omitempty"`
	Error string   `json:"error,omitempty"`
}

// The scope and notes are notes now; their English is the text the
// parser published before, byte for byte, and they are said in Spanish
// from the message files, every key and argument there.
func TestParseNotesKeepTheirEnglish(t *testing.T) {
	b, err := os.ReadFile("testdata/parse_english.json")
	if err != nil {
		t.Fatal(err)
	}
	var reads []englishRead
	if err := json.Unmarshal(b, &reads); err != nil {
		t.Fatal(err)
	}
	cw := entity.DefaultCrosswalk()
	es := record.Locales()["es"]
	keys := map[string]bool{}
	for _, r := range reads {
		u, err := Parse(r.Text, ParseOptions{Crosswalk: cw, Form: r.Form, Now: parseNow})
		if err != nil {
			if err.Error() != r.Error {
				t.Errorf("form %d %q: error %v, was %q", r.Form, r.Text, err, r.Error)
			}
			continue
		}
		if u.Scope != r.Scope {
			t.Errorf("form %d %q: scope\n%s\nwas\n%s", r.Form, r.Text, u.Scope, r.Scope)
		}
		if !slices.Equal(u.Notes, r.Notes) {
			t.Errorf("form %d %q: notes\n%q\nwere\n%q", r.Form, r.Text, u.Notes, r.Notes)
		}
		if u.Follow == nil && u.ScopeKey.String() != u.Scope {
			t.Errorf("form %d %q: scope_key says %q, scope %q", r.Form, r.Text, u.ScopeKey.String(), u.Scope)
		}
		if len(u.NoteKeys) != len(u.Notes) {
			t.Fatalf("form %d %q: %d note keys for %d notes", r.Form, r.Text, len(u.NoteKeys), len(u.Notes))
		}
		all := append(record.Notes{u.ScopeKey}, u.NoteKeys...)
		for i, n := range u.NoteKeys {
			if n.String() != u.Notes[i] {
				t.Errorf("form %d %q: note key %s says %q, note %q", r.Form, r.Text, n.Key, n.String(), u.Notes[i])
			}
		}
		for _, n := range all {
			if n.IsZero() {
				continue
			}
			walkKeys(n, func(k string) { keys[k] = true })
			if s := n.In("es"); strings.Contains(s, "[[") || strings.Contains(s, "%!") || s == n.String() {
				t.Errorf("form %d %q: %s in Spanish is %q", r.Form, r.Text, n.Key, s)
			}
		}
	}
	for k := range keys {
		if es.Notes[k] == "" {
			t.Errorf("note %s is not in the Spanish file", k)
		}
	}
	// the requests reach every note of the parser and the scope
	for _, k := range record.NoteKeys() {
		if strings.HasPrefix(k, "watch.read.") || strings.HasPrefix(k, "watch.scope.") && !strings.HasPrefix(k, "watch.scope.land.") {
			if !keys[k] && !notReachedByText[k] {
				t.Errorf("no request of testdata/parse_requests.txt is read with note %s", k)
			}
		}
	}
}

// notReachedByText are the notes no request in words leads to: a
// structured filter's (TestDescribeKeepsItsEnglish), a chosen cadence's
// and a subscription's (the api's tests), and the related words' (the
// only one, "construction", is read as a category first).
var notReachedByText = map[string]bool{
	"watch.read.cadence_chosen": true, "watch.read.follow_mail": true, "watch.scope.other": true,
	"watch.scope.entity": true, "watch.scope.comma": true, "watch.scope.from_day": true, "watch.read.related": true,
}

// Structured filters' scopes (and the schedules) keep their English too
// (testdata/describe_english.json, written before they were notes), and
// are said in Spanish with no key missing.
func TestDescribeKeepsItsEnglish(t *testing.T) {
	b, err := os.ReadFile("testdata/describe_english.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]string
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	lo, hi := 1000.0, 2500000.5
	got := map[string]record.Note{
		"within+from":  DescribeNote(Filter{Lens: "money", Within: "3 months", From: "2026-09-01"}, nil),
		"from":         DescribeNote(Filter{Lens: "meetings", From: "2026-09-01"}, nil),
		"within+range": DescribeNote(Filter{Lens: "meetings", Within: "1 week", From: "2026-09-01", Until: "2027-01-31"}, nil),
		"entity": DescribeNote(Filter{Lens: LensEntity, AgencyIDs: []string{"a", "b", "c", "d", "e", "f", "g"}, Vendors: []string{"acme", "zeta"},
			MinAmount: &lo, MaxAmount: &hi, Categories: []string{"goods", "human services", "construction"}, Requirements: []string{"small_business", "mwbe"},
			Boroughs: []string{"Queens", "Bronx"}, Exclude: []string{"snow"}}, map[string]string{"a": "Alpha", "c": "Alpha"}),
		"other":  DescribeNote(Filter{Lens: "zoo"}, nil),
		"land":   DescribeNote(Filter{Lens: "land", Stage: "certified", Procedure: "ulurp", Action: "ZM", CommunityDistrict: "BK01"}, nil),
		"people": DescribeNote(Filter{Lens: "people", AgencyIDs: []string{"x"}}, nil),
		"weekly": SchedulePart(7, CadenceWeekly).Note(),
		"daily":  SchedulePart(7, CadenceDaily).Note(),
	}
	if len(got) != len(want) {
		t.Fatalf("%d scopes, the file has %d", len(got), len(want))
	}
	for name, n := range got {
		if n.String() != want[name] {
			t.Errorf("%s: %q, was %q", name, n.String(), want[name])
		}
		if s := n.In("es"); strings.Contains(s, "[[") || strings.Contains(s, "%!") || s == n.String() {
			t.Errorf("%s in Spanish: %q", name, s)
		}
	}
	if s := got["entity"].In("es"); !strings.Contains(s, "en la categoría bienes, servicios humanos o construcción") ||
		!strings.Contains(s, "participación de pequeñas empresas o M/WBE") || !strings.Contains(s, " de Alpha, b, d, e o f o g") {
		t.Errorf("the Spanish scope does not say its lists in Spanish: %s", s)
	}
	if s := got["within+range"].In("es"); !strings.Contains(s, "dentro de 1 semana") || !strings.Contains(s, "del 1 de septiembre de 2026 al 31 de enero de 2027") {
		t.Errorf("the Spanish window: %s", s)
	}
}

func walkKeys(n record.Note, f func(string)) {
	f(n.Key)
	for _, p := range n.Inner {
		walkKeys(p.Note(), f)
	}
}
