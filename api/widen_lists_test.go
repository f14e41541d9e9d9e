package api

import (
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
)

var widenRE = regexp.MustCompile(`<p class="widen" data-widening="([a-z_]+)" data-matched="(\d+)">[^<]*<a href="([^"]*)">`)

// An empty meetings calendar or land-project list says why and offers the
// nearest non-empty widening, the same on the JSON twin and the page (in
// the page's language); its link opens a list holding exactly the count
// it promises.
func TestEmptyListsOfferTheirWidening(t *testing.T) {
	e := newEntityEnv(t, Config{Form: 1})
	for _, c := range []struct{ page, api, list string }{
		{"/meetings?from=2025-10-01&to=2025-10-31&body_kind=council", "/api/meetings?from=2025-10-01&to=2025-10-31&body_kind=council", "meetings"},
		{"/land-projects?word=68th+Road&status=withdrawn", "/api/land-projects?word=68th+Road&status=withdrawn", "projects"},
	} {
		var twin struct {
			Total    int `json:"total"`
			Widening *struct {
				Without string            `json:"without"`
				Matched int               `json:"matched"`
				Filters map[string]string `json:"filters"`
				Note    string            `json:"note"`
			} `json:"widening"`
		}
		getJSON(t, e, c.api, &twin)
		if twin.Total != 0 || twin.Widening == nil || twin.Widening.Matched == 0 || twin.Widening.Note == "" {
			t.Fatalf("%s: total %d, widening %+v", c.api, twin.Total, twin.Widening)
		}
		for _, lang := range []string{"en", "es"} {
			res, body := getPage(t, e, c.page+"&lang="+lang)
			m := widenRE.FindStringSubmatch(string(body))
			if res.StatusCode != http.StatusOK || m == nil || m[1] != twin.Widening.Without || m[2] != strconv.Itoa(twin.Widening.Matched) ||
				!strings.Contains(string(body), html.EscapeString(web.Word(lang, "widen.none"))) {
				t.Fatalf("%s (%s): %d, widening %v", c.page, lang, res.StatusCode, m)
			}
			link := strings.TrimPrefix(html.UnescapeString(m[3]), "http://rw.test")
			if lang == "es" && !strings.Contains(link, "lang=es") {
				t.Errorf("%s: the widening's link loses the language: %s", c.page, link)
			}
			var wide struct {
				Total int `json:"total"`
			}
			api := strings.Replace(strings.Replace(link, "/"+c.list, "/api/"+c.list, 1), "lang="+lang, "", 1)
			if c.list == "projects" {
				api = strings.Replace(strings.Replace(link, "/land-projects", "/api/land-projects", 1), "lang="+lang, "", 1)
			}
			getJSON(t, e, api, &wide)
			if wide.Total != twin.Widening.Matched {
				t.Errorf("%s: the widening's list %s holds %d, it promised %d", c.page, link, wide.Total, twin.Widening.Matched)
			}
		}
	}
}
