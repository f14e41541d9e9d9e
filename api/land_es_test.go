package api

import (
	"strings"
	"testing"
)

// The land and property pages in Spanish: one project of each procedure
// and state on the bundled sample (a hearing's place quoted, a completed
// project, outside milestones, meetings joined, no reviewed procedure),
// the list and its filters, and the property map, say every word of the
// site's and the services' in Spanish, and keep the record text they
// quote as published (data-verbatim). The plain-words walk covers every
// page kind; this keeps the land area's pages checked on their own.
func TestLandPagesInSpanish(t *testing.T) {
	e := newEntityEnv(t, Config{})
	names := sourceNames(t, e)
	for _, c := range []struct {
		path string
		want []string
	}{
		{"/land-projects/2024Q0292", []string{"Revisión de la junta comunitaria", "completada según las pruebas", "audiencia pública el <span data-verbatim>2026-06-02 18:30</span> en <span data-verbatim>67-29 108TH STREET, FOREST HILLS</span>",
			"el portal la lista como no iniciada", "hito ad hoc", "lote de Queens:"}},
		{"/land-projects/2022M0258", []string{"El proyecto figura como terminado", "no es una etapa del procedimiento: el cierre del proyecto", "; una etapa condicional (solo cuando la solicitud"}},
		{"/land-projects/2024Q0113", []string{"un punto del orden del día (<span data-verbatim>", "nombra la solicitud <span data-verbatim>C 250253 ZMQ</span>"}},
		{"/land-projects/2023R0413", []string{"Remitida para revisión", "(véase lo no verificado)"}},
		{"/land-projects/2024Q0356", []string{"Procedimiento Acelerado de Revisión del Uso del Suelo (ELURP)", "añadido en la votación del 2025-11-04"}},
		{"/land-projects", []string{"Proyectos de uso del suelo"}},
		{"/land-projects?status=completed", nil},
		{"/land-projects?stage=bogus", []string{"etapa desconocida"}},
		{"/land-projects/NOPE", []string{"no es un id de proyecto ZAP"}},
		{"/property-locations", []string{"área de interés conjunto"}},
	} {
		res, b := getPage(t, e, withLang(c.path))
		page := string(b)
		if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d is not a page", c.path, res.StatusCode)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(page, w) {
				t.Errorf("%s?lang=es does not say %q", c.path, w)
			}
		}
		if left := serviceEnglish(visibleText(page), names); len(left) > 0 {
			t.Errorf("%s: English left on the Spanish page: %q", c.path, left)
		}
		if words := rawWords(visibleText(page)); len(words) > 0 && res.StatusCode < 400 {
			t.Errorf("%s shows machine words: %q", c.path, words)
		}
	}
}
