package api

import (
	"encoding/json"
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/record"
)

// englishLeft lists the site's own English words (the word table's
// longer phrases, cut at their %s and %d) and the watch service's
// fixed answers that a Spanish page still shows.
func englishLeft(page string) []string {
	var left []string
	fixed := []string{"is on its way", "The watch is active", "Nothing is stored", "[["}
	for _, k := range web.WordKeys() {
		en, es := web.Word("en", k), web.Word("es", k)
		if en == es {
			continue
		}
		for _, part := range regexp.MustCompile(`%[sd]`).Split(en, -1) {
			if part = strings.TrimSpace(part); len(part) >= 14 && !strings.Contains(es, part) {
				fixed = append(fixed, part)
			}
		}
	}
	text := flat(regexp.MustCompile(`<[^>]*>`).ReplaceAllString(page, " "))
	for _, f := range fixed {
		if strings.Contains(text, f) {
			left = append(left, f)
		}
	}
	return left
}

// TestWatchLinkPagesInSpanish: every page behind an emailed watch link
// (confirm, confirmed, manage, cadence changed, unsubscribe, ended) and
// the Follow control's answer speaks the page's language: with ?lang=es
// its title, messages, schedule, buttons and ledger come from the word
// table in Spanish, no English phrase of the table is left, and its forms
// keep the language; the English pages keep their English.
func TestWatchLinkPagesInSpanish(t *testing.T) {
	es := func(u string) string {
		if strings.Contains(u, "?") {
			return u + "&lang=es"
		}
		return u + "?lang=es"
	}
	check := func(name, page string, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(page, w) {
				t.Errorf("%s: lacks %q\n%s", name, w, page)
			}
		}
		if left := englishLeft(page); len(left) > 0 {
			t.Errorf("%s: English left on a Spanish page: %q", name, left)
		}
	}

	// Form 2: a follow waits for its confirmation link
	e := newWatchEnv(t, 2, nil)
	n := heldSolicitation(t, e)
	form := url.Values{"email": {"d@example.org"}, "kind": {"notice"}, "id": {n.RequestID}}
	res, page := httpDo(t, "POST", e.ts.URL+"/follow?lang=es", "application/x-www-form-urlencoded", form.Encode(), "Origin", e.ts.URL)
	if res.StatusCode != 200 {
		t.Fatalf("follow form: %d\n%s", res.StatusCode, page)
	}
	check("follow (form 2)", page, "Revise su correo para confirmar", "Un correo de confirmación que indica lo que se seguirá")
	confirms := e.outboxFiles("confirm.")
	if len(confirms) != 1 {
		t.Fatalf("confirmations %v", confirms)
	}
	link := linkWith(t, readMail(t, confirms[0]).Text, "/confirm/")
	_, page = httpDo(t, "GET", es(link), "", "")
	check("confirm", page, "<h1>Confirme su seguimiento</h1>", "Confirmar</button>", "abrir esta página no confirma nada", `?lang=es">`)
	_, en := httpDo(t, "GET", link, "", "")
	if !strings.Contains(en, "<h1>Confirm your watch</h1>") || !strings.Contains(en, "opening this page confirms nothing") {
		t.Errorf("the English confirm page:\n%s", en)
	}
	_, page = httpDo(t, "POST", es(link), "", "")
	check("confirmed", page, "<h1>Su seguimiento está activo</h1>", "El seguimiento está activo.")
	_, page = httpDo(t, "GET", es(link+"x"), "", "")
	check("a forged confirmation link", page, "<h1>Este enlace no se puede usar</h1>", "Haga la solicitud de nuevo", `href="`+e.ts.URL+`/?lang=es"`)

	// Form 1: active at once; its manage and unsubscribe pages
	e = newWatchEnv(t, 1, nil)
	n = heldSolicitation(t, e)
	form.Set("email", "e@example.org")
	form.Set("id", n.RequestID)
	res, page = httpDo(t, "POST", e.ts.URL+"/follow?lang=es", "application/x-www-form-urlencoded", form.Encode(), "Origin", e.ts.URL)
	if res.StatusCode != 200 {
		t.Fatalf("follow form: %d\n%s", res.StatusCode, page)
	}
	check("follow (form 1)", page, "<h1>Usted sigue el aviso "+n.RequestID+"</h1>", "Escribe cuando cambia un campo seguido")
	welcomes := e.outboxFiles("welcome.")
	if len(welcomes) != 1 {
		t.Fatalf("welcomes %v", welcomes)
	}
	manage := linkWith(t, readMail(t, welcomes[0]).Text, "/manage/")
	_, page = httpDo(t, "GET", es(manage), "", "")
	check("manage", page, "<h1>Su seguimiento</h1>", "Activo desde el 20", "Los cambios se comprueban diarios, hacia las", "Campo seguido ",
		"Registro de envíos", "Cambiar a resúmenes con frecuencia: semanal", "Darse de baja</button>", `action="/manage/`)
	if regexp.MustCompile(`action="[^"]*/(manage|u)/[^"?]*"`).MatchString(page) {
		t.Errorf("manage: a form of the Spanish page drops the language:\n%s", page)
	}
	var managed struct {
		Followed []struct{ N string } `json:"followed_fields"`
	}
	if _, js := httpDo(t, "GET", manage, "", "", "Accept", "application/json"); json.Unmarshal([]byte(js), &managed) != nil || len(managed.Followed) == 0 {
		t.Fatalf("manage JSON: %s", js)
	}
	for _, f := range managed.Followed {
		if !web.HasLabel("followed_field", f.N) || !strings.Contains(page, "Campo seguido "+web.Label("es", "followed_field", f.N)+":") {
			t.Errorf("manage: the followed field %q is not said in Spanish", f.N)
		}
	}
	_, page = httpDo(t, "POST", es(manage), "application/x-www-form-urlencoded", "cadence=weekly")
	check("cadence changed", page, "Cambiado: los resúmenes ahora son semanales, los lunes hacia las", "Cambiar a resúmenes con frecuencia: diaria")
	unsub := strings.Replace(manage, "/manage/", "/u/", 1)
	_, page = httpDo(t, "GET", es(unsub), "", "")
	check("unsubscribe", page, "<h1>Darse de baja</h1>", "¿Dejar de recibir los resúmenes")
	_, page = httpDo(t, "POST", es(unsub), "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click")
	check("unsubscribed", page, "<h1>Se ha dado de baja</h1>", "ya no se envían más resúmenes")
	_, page = httpDo(t, "GET", es(manage), "", "")
	check("ended", page, "<h1>Este seguimiento ha terminado</h1>")
}

// A search watch's manage and unsubscribe pages say its scope in the
// reader's language, from the note kept with the watch (scope_key), the
// same note the manage page's JSON twin publishes beside the English.
func TestManagedWatchScopeInSpanish(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email": "f@example.org", "lens": "money", "awards": true, "min": 100000}`)
	if res.StatusCode/100 != 2 {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	welcomes := e.outboxFiles("welcome.")
	if len(welcomes) != 1 {
		t.Fatalf("welcomes %v", welcomes)
	}
	manage := linkWith(t, readMail(t, welcomes[0]).Text, "/manage/")
	var m struct {
		Scope    string      `json:"scope"`
		ScopeKey record.Note `json:"scope_key"`
	}
	if _, js := httpDo(t, "GET", manage, "", "", "Accept", "application/json"); json.Unmarshal([]byte(js), &m) != nil || m.ScopeKey.IsZero() || m.ScopeKey.String() != m.Scope {
		t.Fatalf("manage JSON: scope_key %+v does not say the scope %q", m.ScopeKey, m.Scope)
	}
	spanish := web.NoteIn("es", m.ScopeKey)
	for _, u := range []string{manage, strings.Replace(manage, "/manage/", "/u/", 1)} {
		_, page := httpDo(t, "GET", u+"?lang=es", "", "")
		p := regexp.MustCompile(`<p class="scope">(.*?)</p>`).FindStringSubmatch(page)
		if p == nil || html.UnescapeString(regexp.MustCompile(`<[^>]+>`).ReplaceAllString(p[1], "")) != spanish || strings.Contains(p[1], `lang="en"`) {
			t.Errorf("%s?lang=es: the scope is not said in Spanish (%q): %q", u, spanish, p)
		}
	}
}
