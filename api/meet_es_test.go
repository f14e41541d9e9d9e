package api

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The meetings, people and sources pages in Spanish on the bundled
// sample: every note of these areas the page's JSON twin carries (a
// meeting's evidence and notes, a link's evidence, a roster relation's
// note, the sources' freshness, lateness, windows and rules, an error's
// message) is said on the page in the Spanish of the message file, its
// record values marked data-verbatim; no English text of these areas is
// left outside record text; and a source's own label reads in Spanish.
func TestMeetPeopleSourcesPagesInSpanish(t *testing.T) {
	e := newEntityEnv(t, Config{})
	names := sourceNames(t, e)
	for _, c := range []struct {
		page, twin string
		want       []string
	}{
		{"/meetings/legistar:22525", "/api/meetings/legistar:22525", []string{"fuente Actos del Concejo de NYC (Legistar)", "aplazada: estado del orden del día en Legistar <span data-verbatim>Deferred</span>"}},
		{"/meetings/cb-calendar:bk01-2026-06-09-board-meeting", "/api/meetings/cb-calendar:bk01-2026-06-09-board-meeting", []string{"(véanse los campos leídos abajo)", "la dirección de correo de la junta <span data-verbatim>bk01@cb.nyc.gov</span>"}},
		{"/meetings/cityrecord-hearings:20260727031", "/api/meetings/cityrecord-hearings:20260727031", []string{"Aviso del City Record <span data-verbatim>20260727031</span>"}},
		// the calendar lists meetings without their evidence: its own notes only
		{"/meetings?month=2026-06&time=evening", "", []string{"Calendarios de las juntas comunitarias", "reuniones del periodo que cumplen todos los demás filtros"}},
		{"/meetings/nope:1", "/api/meetings/nope:1", []string{"no se guarda ninguna reunión con el identificador <span data-verbatim>&#34;nope:1&#34;</span>"}},
		{"/meetings?time=night", "/api/meetings?time=night", []string{"filtro de hora desconocido"}},
		{"/organizations/NYC_GOID_000190/", "/api/people/NYC_GOID_000190", []string{"texto libre tal como se imprimió", "Un padrón fechado"}},
		{"/people/NYC_GOID_000190%2Fprincipal-officer%2F2026-06-12", "/api/people/NYC_GOID_000190%2Fprincipal-officer%2F2026-06-12", []string{"impreso como responsable principal de este registro a fecha de <span data-verbatim>2026-06-12</span>"}},
		{"/sources", "/api/sources", []string{"Una fuente está actualizada solo cuando"}},
		{"/land-projects/2024Q0113", "/api/land-projects/2024Q0113", []string{"nombra la solicitud <span data-verbatim>C 250253 ZMQ</span>"}},
	} {
		res, b := getPage(t, e, withLang(c.page))
		page := string(b)
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d is not a page", c.page, res.StatusCode)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s?lang=es does not say %q", c.page, w)
			}
		}
		text := strings.Join(strings.Fields(visibleText(page)), " ")
		var notes []string
		if c.twin != "" {
			_, twin := get(t, e, c.twin)
			if notes = areaNotes(t, twin); len(notes) == 0 {
				t.Errorf("%s: the answer carries no note of these areas", c.twin)
			}
		}
		for _, k := range notes {
			for _, f := range noteParts(web.Plain("es", record.Locales()["es"].Notes[k])) {
				if !strings.Contains(text, f) {
					t.Errorf("%s?lang=es: note %s is not said in Spanish (%q missing)", c.page, k, f)
				}
			}
		}
		for k, en := range record.Locales()["en"].Notes {
			if !inArea(k) {
				continue
			}
			for _, f := range noteParts(en) {
				if len(f) > 14 && strings.Contains(text, f) && !strings.Contains(record.Locales()["es"].Notes[k], f) {
					t.Errorf("%s?lang=es: English of note %s left: %q", c.page, k, f)
				}
			}
		}
		if left := serviceEnglish(text, names); len(left) > 0 {
			t.Errorf("%s: English left on the Spanish page: %q", c.page, left)
		}
	}
}

// inArea reports whether a note is of the meetings, people or sources
// areas (the payroll positions' notes are the money pages').
func inArea(k string) bool {
	return (strings.HasPrefix(k, "meet.") || strings.HasPrefix(k, "people.") || strings.HasPrefix(k, "sources.")) && !strings.HasPrefix(k, "people.positions.")
}

// notShown are the notes an answer carries that its page does not show
// (an excluded meeting's reason: the page lists the meetings only).
var notShown = map[string]bool{"meet.excluded.reason": true}

// areaNotes are the keys of the notes of these areas an answer carries
// (at any depth, inner parts included).
func areaNotes(t *testing.T, b []byte) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	seen := map[string]bool{}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if k, ok := x["key"].(string); ok && inArea(k) && !notShown[k] {
				seen[k] = true
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	return out
}

// noteParts are the words of a note's text between its arguments.
func noteParts(text string) []string {
	var out []string
	for _, p := range regexp.MustCompile(`%(?:\[\d+\])?s`).Split(text, -1) {
		if p = strings.Trim(p, " ;:,.()"); len(p) >= 6 {
			out = append(out, p)
		}
	}
	return out
}
