package web

import (
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// A watch's scope and the notes on how its words were read are said by
// the page script (app.js note, from understood.scope_key and note_keys):
// every key they use, the "or" lists' included, is served to the scripts
// in Spanish, and said there the script's way has no English left.
func TestScriptWatchNotesInSpanish(t *testing.T) {
	rw := struct{ Notes map[string]string }{scriptNotes(t, "es")}
	used := map[string]bool{}
	var walk func(n record.Note)
	walk = func(n record.Note) {
		used[n.Key] = true
		for _, p := range n.Inner {
			walk(p.Note())
		}
	}
	now := time.Date(2026, 8, 3, 10, 0, 0, 0, record.NewYork)
	for _, text := range []string{
		"construction awards over $100k from Parks in Brooklyn",
		"M/WBE goods bids due in the next 3 months from DOT or DDC, not snow",
		"weekly hearings this year about bike lanes",
		"rezonings in Queens every Friday",
		"follow PIN 84626B0001",
	} {
		u, err := watch.Parse(text, watch.ParseOptions{Crosswalk: entity.DefaultCrosswalk(), Form: 1, Now: now})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		all := append(record.Notes{u.ScopeKey}, u.NoteKeys...)
		for _, n := range all {
			if n.IsZero() {
				continue
			}
			walk(n)
			es := NoteIn("es", n)
			if es == n.String() || strings.Contains(es, "[[") {
				t.Errorf("%q: %s in Spanish: %q", text, n.Key, es)
			}
		}
	}
	for k := range used {
		if !ScriptNote(k) || rw.Notes[k] != msgs["es"].Notes[k] {
			t.Errorf("%s is not served to the scripts (words-es.js)", k)
		}
	}
	if !used["watch.scope"] || !used["money.or.2"] {
		t.Errorf("the requests' scopes use no list: %v", used)
	}
}
