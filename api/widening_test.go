package api

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
)

var wideningRE = regexp.MustCompile(`<p data-widening="(\w+)">([^<]*)<a href="([^"]*)">`)

// An empty calendar and an empty list of land projects say, in the page's
// language, the nearest widening their service found (the JSON twin
// carries it), and link the page that shows it, which lists as many
// records as the widening counts.
func TestEmptyListsOfferTheirWideningOnTheSite(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, tc := range []struct {
		page, api, without string
		count              func(body []byte) int
	}{
		{"/land-projects?status=Withdrawn+by+mistake&borough=Queens", "/api/land-projects?status=Withdrawn+by+mistake&borough=Queens", "status",
			func(b []byte) int { var p land.Page; json.Unmarshal(b, &p); return p.Total }},
		{"/meetings?month=2030-01&body=Committee+on+Finance", "/api/meetings?month=2030-01&body=Committee+on+Finance", "window",
			func(b []byte) int { var p meeting.Page; json.Unmarshal(b, &p); return p.Total }},
	} {
		res, body := get(t, e, tc.api)
		var twin struct {
			Total    int
			Widening *struct {
				Without string
				Matched int
				Nearest string
			}
		}
		if res.StatusCode != http.StatusOK || json.Unmarshal(body, &twin) != nil || twin.Total != 0 || twin.Widening == nil || twin.Widening.Without != tc.without {
			t.Fatalf("%s: %d %s", tc.api, res.StatusCode, body)
		}
		for _, lang := range []string{"", "es"} {
			u := tc.page
			if lang != "" {
				u += "&lang=" + lang
			}
			res, body := get(t, e, u)
			m := wideningRE.FindSubmatch(body)
			if res.StatusCode != http.StatusOK || m == nil || string(m[1]) != tc.without {
				t.Fatalf("%s: %d, no widening %q on the page", u, res.StatusCode, tc.without)
			}
			if lang == "es" && !strings.Contains(string(m[2]), "coinciden") {
				t.Errorf("%s: the widening is not in Spanish: %q", u, m[2])
			}
			link, err := url.Parse(html.UnescapeString(string(m[3])))
			if err != nil {
				t.Fatal(err)
			}
			if lang == "es" && link.Query().Get("lang") != "es" {
				t.Errorf("%s: the widening's link drops the language: %s", u, link)
			}
			// the page it links lists what the widening counts
			apiQ := link.Query()
			apiQ.Del("lang")
			apiPath := "/api" + link.Path
			res, wide := get(t, e, apiPath+"?"+apiQ.Encode())
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s: %d", apiPath, res.StatusCode)
			}
			got := tc.count(wide)
			if tc.without == "window" {
				if got == 0 || !strings.HasPrefix(twin.Widening.Nearest, apiQ.Get("month")) {
					t.Errorf("%s: the nearest month %s holds %d meetings", link, twin.Widening.Nearest, got)
				}
			} else if got != twin.Widening.Matched {
				t.Errorf("%s lists %d, the widening counts %d", link, got, twin.Widening.Matched)
			}
			if res, _ := get(t, e, link.RequestURI()); res.StatusCode != http.StatusOK {
				t.Errorf("%s: %d", link, res.StatusCode)
			}
		}
	}
}
