package api

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The money pages in Spanish: a vendor's and a contract's page, the
// errors of the dossier and procurement services (an unknown vendor, agency,
// contract or agency label) and a digest link that does not redirect say
// every sentence from the message files (record.Note keys), never by
// matching English, and keep the record values they quote (ids, names, the
// search address) marked as record text.
func TestMoneyPagesInSpanish(t *testing.T) {
	e := newEntityEnv(t, Config{})
	names := sourceNames(t, e)
	for _, c := range []struct {
		path   string
		status int
		want   []string
	}{
		{"/vendors/denville-line-painting/", 200, []string{"Se buscó en <span data-verbatim>"}},
		{"/contracts/CT100220268808241", 200, []string{">Aviso del City Record vinculado por la fuente</a>"}},
		{"/vendors/zzzzqqqq/", 404, []string{"raíz de nombre <span data-verbatim>&#34;ZZZZQQQQ&#34;</span>. Eso no significa",
			"puede encontrar menciones: <span data-verbatim>http://rw.test/api/search?q=%22zzzzqqqq%22</span>"}},
		{"/agencies/zz/", 404, []string{"ninguna agencia con el id <span data-verbatim>&#34;zz&#34;</span>", "Una búsqueda puede encontrar menciones: <span data-verbatim>"}},
		{"/contracts/CT0000000000000000", 404, []string{"no se guarda ningún contrato con el ID <span data-verbatim>&#34;CT0000000000000000&#34;</span>, y ningún pago guardado lo nombra. Este servicio no guarda ese contrato"}},
		{"/contracts/analysis?agency=aging", 400, []string{"¿quiso decir <span data-verbatim>&#34;Aging&#34;</span>? No se analizó nada"}},
		{"/r/notice/20990101999", 404, []string{"Aquí no se guarda ningún aviso con este id."}},
		{"/r/nope/20990101999", 404, []string{"Este enlace no apunta a ningún aviso que Recordwatch conozca."}},
	} {
		res, b := getPage(t, e, withLang(c.path))
		page := string(b)
		if res.StatusCode != c.status || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: %d %s", c.path, res.StatusCode, res.Header.Get("Content-Type"))
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
		for _, en := range []string{"held here", "does not mean", "did you mean", "joined by the source", "Searched", "is not an accepted"} {
			if strings.Contains(visibleText(page), en) {
				t.Errorf("%s?lang=es says %q in English", c.path, en)
			}
		}
	}
	// the same pages in English read as the services write them
	for path, want := range map[string]string{
		"/contracts/CT0000000000000000":    `no contract with ID &#34;CT0000000000000000&#34; is held, and no payment held names it. This service holds no such contract; that does not mean none was registered.`,
		"/contracts/CT100220268808241":     ">City Record notice joined by the source</a>",
		"/vendors/denville-line-painting/": "<p>Searched ",
		"/r/nope/20990101999":              "This link does not point to a notice Recordwatch knows.",
	} {
		if _, b := getPage(t, e, path); !strings.Contains(string(b), want) {
			t.Errorf("%s does not say %q", path, want)
		}
	}
	// the API publishes the message as before, and its note beside it
	res, b := get(t, e, "/api/vendors/zzzzqqqq")
	var body struct {
		Error struct {
			Message    string `json:"message"`
			MessageKey struct {
				Key   string `json:"key"`
				Inner []struct {
					Key  string   `json:"key"`
					Args []string `json:"args"`
				} `json:"inner"`
			} `json:"message_key"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &body); err != nil || res.StatusCode != http.StatusNotFound {
		t.Fatalf("%d %v %s", res.StatusCode, err, b)
	}
	if m := body.Error.Message; !strings.HasPrefix(m, `no award or intent notice and no payments-dataset record held here names a vendor with the name stem "ZZZZQQQQ". This does not mean there is no such vendor: a full-text search may still find mentions: http://rw.test/api/search?q=`) ||
		body.Error.MessageKey.Key != "error.with_link" || len(body.Error.MessageKey.Inner) != 1 || body.Error.MessageKey.Inner[0].Key != "error.vendor_unknown" {
		t.Errorf("the vendor error: %s", b)
	}
}
