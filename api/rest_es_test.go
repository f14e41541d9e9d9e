package api

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A parameter a page cannot read and the /stats page's sources, in
// Spanish on the bundled sample: the error is said from its note (the
// message file's Spanish, the parameter and values marked as given), the
// sources by their Spanish titles; no English sentence of these is left
// on the page, not even shown as English (lang="en").
func TestParamErrorsAndStatsInSpanish(t *testing.T) {
	e := newEntityEnv(t, Config{})
	names := sourceNames(t, e)
	for _, c := range []struct {
		path, twin string
		want       []string
		english    []string
	}{
		{"/rows?limit=abc", "/api/rows?limit=abc", []string{"<span data-verbatim>limit</span> debe ser un número entero de <span data-verbatim>1</span> a <span data-verbatim>500</span>"}, []string{"must be a whole number"}},
		{"/rows?agency_id=parks-and-recreation&format=csv", "", []string{"la descarga en CSV está en <span data-verbatim>"}, []string{"the CSV download is at"}},
		{"/meetings?from=2026-99-01", "/api/meetings?from=2026-99-01", []string{"<span data-verbatim>from</span> debe ser una fecha con el formato AAAA-MM-DD"}, []string{"must be a date as"}},
		{"/contracts/analysis?limit=x", "/api/contracts/analysis?limit=x", []string{"debe ser un número entero de"}, []string{"must be a whole number"}},
		{"/rows?bogus=1", "/api/rows?bogus=1", []string{"parámetros desconocidos: <span data-verbatim>bogus</span>; se aceptan: <span data-verbatim>kind, "}, []string{"unknown parameter"}},
		{"/property-locations?format=kml", "", []string{"<p>format debe ser json o geojson</p>"}, []string{"must be json or geojson"}},
		{"/rows?vendor=ab", "/api/rows?vendor=ab", []string{"el proveedor <span data-verbatim>&#34;ab&#34;</span> es demasiado corto para buscarlo por la raíz de su nombre"}, []string{"is too short to match"}},
		{"/rows?agency_id=parks-and-recreation&sort=zzz", "/api/rows?agency_id=parks-and-recreation&sort=zzz", []string{"orden desconocido <span data-verbatim>&#34;zzz&#34;</span>; órdenes: "}, []string{"unknown sort"}},
		{"/rows?vendor=acme&vendor_stem=foo", "/api/rows?vendor=acme&vendor_stem=foo", []string{"nombran dos proveedores: pida uno solo"}, []string{"name two vendors"}},
		{"/rows?pin=!!", "/api/rows?pin=!!", []string{"<span data-verbatim>&#34;!!&#34;</span> no es un PIN"}, []string{"is not a PIN"}},
		{"/contracts/analysis?group_by=zz", "/api/contracts/analysis?group_by=zz", []string{"agrupación desconocida <span data-verbatim>&#34;zz&#34;</span>; agrupaciones: "}, []string{"unknown grouping"}},
		{"/stats", "", []string{"Padrón de agencias y organizaciones de gobierno de NYC", "Asuntos de uso del suelo del Concejo de NYC (Legistar, según la copia pública de un tercero en GitHub)"},
			[]string{"NYC Agencies and Governance Organizations roster", "as mirrored by", "nyc_legislation"}},
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
		for _, en := range c.english {
			if strings.Contains(page, en) {
				t.Errorf("%s?lang=es still says %q", c.path, en)
			}
		}
		if strings.Contains(page, `<span lang="en">`) {
			t.Errorf("%s?lang=es shows a service's English", c.path)
		}
		if left := serviceEnglish(visibleText(page), names); len(left) > 0 {
			t.Errorf("%s: English left on the Spanish page: %q", c.path, left)
		}
		if c.twin == "" {
			continue
		}
		// the JSON twin publishes the note beside its English message
		_, tw := get(t, e, c.twin)
		var v struct {
			Error record.Error `json:"error"`
		}
		if err := json.Unmarshal(tw, &v); err != nil || v.Error.MessageKey.IsZero() || v.Error.MessageKey.String() != v.Error.Message ||
			!strings.HasPrefix(v.Error.MessageKey.Key, "param.") {
			t.Errorf("%s: error %+v (%v), want its message with a param note", c.twin, v.Error, err)
		}
	}
}

// A meeting whose land project joins were cut by the bound of a join read
// says so on its JSON twin (land_projects_note and its note) and on its
// page, in Spanish from the message file.
func TestMeetingSaysWhenLandJoinsWereCut(t *testing.T) {
	e := newEntityEnv(t, Config{})
	from := record.Ref{Kind: record.RefMeeting, ID: "legistar:22525"}
	var ls []record.Link
	for _, id := range []string{"2025K9991", "2025K9992"} {
		ls = append(ls, record.NewLink(from, record.Ref{Kind: record.RefLandProject, ID: id}, id, "project_id", "medium", false, "fixture"))
	}
	if err := search.Put(context.Background(), e.be, joins.Kind, ls); err != nil {
		t.Fatal(err)
	}
	defer func(n int) { joins.MaxRead = n }(joins.MaxRead)
	joins.MaxRead = 1
	_, body := get(t, e, "/api/meetings/"+from.ID)
	var m struct {
		Meeting struct {
			Note string       `json:"land_projects_note"`
			Key  *record.Note `json:"land_projects_note_key"`
		} `json:"meeting"`
	}
	if err := json.Unmarshal(body, &m); err != nil || m.Meeting.Key == nil || m.Meeting.Key.String() != m.Meeting.Note ||
		m.Meeting.Note != joins.BoundNote("land project joins of this meeting", 1) {
		t.Fatalf("twin: %+v %v", m, err)
	}
	_, es := getPage(t, e, "/meetings/"+from.ID+"?lang=es")
	if page := string(es); !strings.Contains(page, `data-links-complete="false">Incompleto: se guardan más vínculos de esta reunión con proyectos de uso del suelo de los <span data-verbatim>1</span>`) ||
		strings.Contains(page, "Incomplete:") {
		t.Errorf("the Spanish meeting page does not say in Spanish that its land joins were cut")
	}
}

// The language a link asked for holds where the page is not one of the
// site's own: an unknown address's error page speaks it, and a permalink's
// redirect (a vendor's or an agency's name to its canonical slug) keeps it
// for a client without the cookie.
func TestLanguageKeptByErrorPagesAndRedirects(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, path := range []string{"/no-such-page?lang=es", "/static/no-such-file.js?lang=es"} {
		res, b := getPage(t, e, path)
		page := string(b)
		if res.StatusCode != 404 || !strings.Contains(page, `<html lang="es">`) || !strings.Contains(page, "Página no encontrada") {
			t.Errorf("%s: %d, want the Spanish 404 page; got %.300s", path, res.StatusCode, page)
		}
	}
	// without ?lang= the page stays in English
	if res, b := getPage(t, e, "/no-such-page"); res.StatusCode != 404 || !strings.Contains(string(b), `<html lang="en">`) {
		t.Errorf("/no-such-page: %d, want the English 404 page", res.StatusCode)
	}
	// an address that takes no parameters says so, never "accepted:" and
	// an empty list, on the page and in its JSON twin
	if res, b := getPage(t, e, "/agencies/parks-and-recreation/?format=xml&lang=es"); res.StatusCode != 400 ||
		!strings.Contains(string(b), "parámetros desconocidos: <span data-verbatim>format</span>; esta dirección no admite parámetros") || strings.Contains(string(b), "se aceptan") {
		t.Errorf("agency page with ?format=xml: %d, want the Spanish no-parameters error", res.StatusCode)
	}
	res, tw := get(t, e, "/api/agencies/parks-and-recreation?format=xml")
	if err := keyedError(t, "agency twin with ?format=xml", res, tw, "param.none"); err.Message != "unknown parameter(s): format; this address takes no parameters" {
		t.Errorf("agency twin with ?format=xml: %q", err.Message)
	}
	once := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, c := range []struct{ path, to string }{
		{"/vendors/dell%20marketing%20lp?lang=es", "/vendors/dell-marketing/?lang=es"},
		{"/agencies/DPR/?lang=es", "/agencies/parks-and-recreation/?lang=es"},
	} {
		req, _ := http.NewRequest("GET", e.ts.URL+c.path, nil)
		req.Header.Set("Accept", "text/html")
		res, err := once.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc := res.Header.Get("Location"); res.StatusCode != http.StatusMovedPermanently || loc != c.to {
			t.Errorf("%s: %d to %q, want a redirect to %s", c.path, res.StatusCode, loc, c.to)
		}
	}
}

// A search the API cannot run says why in a note (message_key) whose
// English is its message, which the Spanish message file holds and the
// search view's script is served (its errors said in the reader's
// language).
func TestSearchErrorsInSpanish(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, c := range []struct{ path, key string }{
		{"/api/search?q=x&sort=zzz", "param.search.sort"},
		{"/api/search?q=x&mode=zzz", "param.search.mode"},
		{"/api/search?q=x&mode=semantic&facets=true", "param.search.mode_facets"},
		{"/api/search?q=x&from=2026-02-01&to=2026-01-01", "param.search.to_before_from"},
		{"/api/search?q=x&cursor=zzz", "param.search.cursor"},
		{"/api/search/federated?q=x&collections=nope", "param.federated.collection"},
		{"/api/search/federated?q=%20", "param.federated.q"},
	} {
		res, b := get(t, e, c.path)
		keyedError(t, c.path, res, b, c.key)
	}
}

// keyedError checks an error answer (400) of the API: its message_key is
// key and says exactly its English message, the Spanish message file
// holds the key and says it otherwise, and the word script serves it to
// the site's views (web.ScriptNote), which say it in the reader's
// language. It returns the error.
func keyedError(t *testing.T, where string, res *http.Response, body []byte, key string) record.Error {
	t.Helper()
	var v struct {
		Error record.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &v); err != nil || res.StatusCode != 400 {
		t.Errorf("%s: %d %s", where, res.StatusCode, body)
		return v.Error
	}
	n := v.Error.MessageKey
	if n.Key != key || n.String() != v.Error.Message {
		t.Errorf("%s: message_key %+v says %q, message %q; want %s saying the message", where, n, n.String(), v.Error.Message, key)
		return v.Error
	}
	all := record.Locales()
	es := record.SayNote(all, "es", n, func(string) string { return "·" })
	if all["es"].Notes[n.Key] == "" || strings.Contains(es, "[[") || es == n.String() {
		t.Errorf("%s: no Spanish for %s: %q", where, n.Key, es)
	}
	if !web.ScriptNote(n.Key) {
		t.Errorf("%s: %s is not served to the site's scripts", where, n.Key)
	}
	return v.Error
}
