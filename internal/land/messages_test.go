package land

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Every procedure's own text (its source's title and review note, each
// stage's effect and condition, each milestone outside it) has its key in
// every message file, the English byte for byte the definition's, and
// every name (the procedure's, each stage's and actor's) a label in every
// language: a text without one fails here, by procedure and key.
func TestEveryProcedureTextHasItsKey(t *testing.T) {
	all := record.Locales()
	if len(all) < 2 {
		t.Fatalf("languages: %d", len(all))
	}
	n := 0
	text := func(p, what, en string, key record.Note) {
		t.Helper()
		n++
		if key.Key == "" {
			t.Errorf("%s %s: no key", p, what)
			return
		}
		for lang, m := range all {
			got, ok := m.Notes[key.Key]
			switch {
			case !ok || got == "":
				t.Errorf("%s %s: %s has no %s", p, what, key.Key, lang)
			case lang == "en" && got != en:
				t.Errorf("%s %s: the English of %s is %q, the definition's %q", p, what, key.Key, got, en)
			case lang != "en" && got == en:
				t.Errorf("%s %s: %s in %s is the English", p, what, key.Key, lang)
			}
		}
		if got := key.String(); got != en {
			t.Errorf("%s %s: the note says %q", p, what, got)
		}
	}
	label := func(p, kind, value, en string) {
		t.Helper()
		n++
		for lang, m := range all {
			got := m.Labels[kind][value]
			switch {
			case got == "":
				t.Errorf("%s: label %s/%s has no %s", p, kind, value, lang)
			case lang == "en" && got != en:
				t.Errorf("%s: label %s/%s in English is %q, the definition's %q", p, kind, value, got, en)
			case lang != "en" && got == en:
				t.Errorf("%s: label %s/%s in %s is the English", p, kind, value, lang)
			}
		}
	}
	for _, id := range ProcedureIDs() {
		p, _ := ProcedureByID(id)
		text(id, "source title", p.Source.Title, p.Source.TitleKey)
		text(id, "review note", p.Source.ReviewNote, p.Source.ReviewNoteKey)
		label(id, "land_procedure", id, p.Name)
		for _, s := range p.Stages {
			text(id, s.ID+" effect", s.Effect, s.EffectKey)
			if s.Condition != "" || s.Applies == "conditional" {
				if s.ConditionKey == nil {
					t.Errorf("%s %s: a conditional stage with no condition", id, s.ID)
				} else {
					text(id, s.ID+" condition", s.Condition, *s.ConditionKey)
				}
			}
			label(id, "land_stage", id+"/"+s.ID, s.Name)
			label(id, "land_actor", id+"/"+s.ID, s.Actor)
		}
		for _, o := range p.Outside {
			text(id, "outside "+o.Milestone, o.Note, o.NoteKey)
		}
	}
	if n < 120 {
		t.Errorf("only %d procedure texts checked", n)
	}
	// the message files hold no procedure text that no procedure has
	// (a stage renamed leaves none behind)
	keys := map[string]bool{}
	for _, id := range ProcedureIDs() {
		p, _ := ProcedureByID(id)
		keys[p.Source.TitleKey.Key], keys[p.Source.ReviewNoteKey.Key] = true, true
		for _, s := range p.Stages {
			keys[s.EffectKey.Key] = true
			if s.ConditionKey != nil {
				keys[s.ConditionKey.Key] = true
			}
		}
		for _, o := range p.Outside {
			keys[o.NoteKey.Key] = true
		}
	}
	for k := range all["en"].Notes {
		if strings.HasPrefix(k, "land.proc.") && !keys[k] {
			t.Errorf("the message files hold %s, which no procedure has", k)
		}
	}
}

// A stage's reason is its clauses: the reason, its condition and a later
// stage, each a note; the English is the path's reason, and the
// condition, which may itself hold "; ", stays one clause.
func TestReasonNotesAreClauses(t *testing.T) {
	p, _ := ProcedureByID("ulurp")
	var cond *record.Note
	var condText string
	for _, s := range p.Stages {
		if s.ConditionKey != nil {
			cond, condText = s.ConditionKey, s.Condition
			break
		}
	}
	if cond == nil {
		t.Fatal("ulurp has no conditional stage")
	}
	ns := ReasonNotes(NReasonAbsent, cond, true)
	want := ReasonAbsent + "; a conditional stage (" + condText + "); a later stage is recorded"
	if got := ns.Clauses("en"); got != want {
		t.Errorf("English:\n%q\nwant\n%q", got, want)
	}
	es := ns.Clauses("es")
	if es == want || len(ns) != 3 || ns[1].Inner[0].Key != cond.Key {
		t.Errorf("Spanish: %q (%d clauses)", es, len(ns))
	}
	for _, w := range []string{"la lista de hitos del portal", "una etapa condicional (", "hay registrada una etapa posterior"} {
		if !strings.Contains(es, w) {
			t.Errorf("Spanish lacks %q: %q", w, es)
		}
	}
}

// The note of a read cut by a bound says in English what joins.BoundNote
// says of the same joins, and has Spanish.
func TestBoundNoteIsTheJoinsNote(t *testing.T) {
	for what, joined := range map[string]string{BoundMeetings: "meetings joined to the project", BoundEvents: "events of other publishers joined to the project",
		BoundNotices: "City Record notices linked to the project"} {
		n := BoundNote(what, 7)
		if got, want := n.String(), joins.BoundNote(joined, 7); got != want {
			t.Errorf("%s: %q, want %q", what, got, want)
		}
		if es := n.In("es"); !strings.HasPrefix(es, "Incompleto: ") || !strings.Contains(es, " 7 ") {
			t.Errorf("%s in Spanish: %q", what, es)
		}
	}
}

// A lot placed or not says how, or why not, as a note whose English is
// the text it publishes: a centroid, a project's outline, a lot
// MapPLUTO does not hold, one never asked.
func TestLotPlacesSayTheirNotes(t *testing.T) {
	point := []byte(`{"type":"Point","coordinates":[-73.99,40.72]}`)
	held := []LotLocation{
		{BBL: "1000010001", Source: "mappluto", Geometry: point, Method: LotMethodCentroid, Confidence: "high"},
		{BBL: "1000010002", Source: "zap", Geometry: point, Raw: map[string]string{"geometry_scope": "project"}},
		{BBL: "1000010003", Source: "mappluto", Unresolved: LotNotInPLUTO, UnresolvedKey: &NLotNotInPLUTO},
	}
	for _, c := range []struct {
		bbl     string
		fetched bool
		key     string
	}{{"1000010001", true, "land.lot.method.centroid"}, {"1000010002", true, "land.lot.method.project"}, {"1000010003", true, "land.lot.not_in_pluto"},
		{"1000010004", true, "land.lot.not_asked"}, {"1000010004", false, "land.lot.not_fetched"}} {
		p := PlaceLot(c.bbl, held, false, c.fetched)
		n, text := p.MethodKey, p.Method
		if p.Kind == LocationNone {
			n, text = p.ReasonKey, p.Reason
		}
		if n == nil || n.Key != c.key || n.String() != text || n.In("es") == text {
			t.Errorf("%s: %q, note %v", c.bbl, text, n)
		}
	}
	if n := LotNoAnswerNote("HTTP 503"); n.String() != "MapPLUTO did not answer: HTTP 503" || !strings.Contains(n.In("es"), "HTTP 503") {
		t.Errorf("no answer: %q / %q", n.String(), n.In("es"))
	}
}
