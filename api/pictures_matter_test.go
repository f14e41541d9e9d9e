package api

import (
	"html"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
)

// The matter timeline (GET /pictures/matter-timeline) is an SVG document
// with its text alternative that draws exactly the dated steps of the
// matter's JSON twin, each at its date with its valid amount, on the
// track of its record kind; Spanish with lang=es; a bad parameter is a
// 400 and an unknown PIN a 404.
func TestMatterTimelineMatchesItsJSONTwin(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, pin := range []string{"12522P0001001R004", "81626W0043001"} {
		res, b := get(t, e, "/pictures/matter-timeline?pin="+pin)
		svg := string(b)
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "image/svg+xml") {
			t.Fatalf("%s: %d %s", pin, res.StatusCode, res.Header.Get("Content-Type"))
		}
		for _, want := range []string{`<svg xmlns="http://www.w3.org/2000/svg"`, `role="group"`, `aria-labelledby="matter-timeline-t matter-timeline-d"`,
			`<title id="matter-timeline-t">`, `<desc id="matter-timeline-d">`} {
			if !strings.Contains(svg, want) {
				t.Errorf("%s: the picture lacks %s", pin, want)
			}
		}
		var got []string
		for _, g := range regexp.MustCompile(`<g data-label="([^"]*)" data-value="([^"]*)" data-record="([^"]*)"`).FindAllStringSubmatch(svg, -1) {
			got = append(got, html.UnescapeString(g[1]+" "+g[2]+" "+g[3]))
		}
		var mv struct {
			Timeline []struct {
				Date   string `json:"date"`
				Record string `json:"record"`
				Amount *struct {
					Valid bool     `json:"valid"`
					Value *float64 `json:"value"`
				} `json:"amount"`
			} `json:"timeline"`
		}
		getJSON(t, e, "/api/matters/"+pin, &mv)
		var want []string
		for _, s := range mv.Timeline {
			if len(s.Date) != 10 {
				continue
			}
			v := "0"
			if s.Amount != nil && s.Amount.Valid && s.Amount.Value != nil {
				v = web.Num(*s.Amount.Value)
			}
			want = append(want, s.Date+" "+v+" "+s.Record)
		}
		sort.Strings(got)
		sort.Strings(want)
		if len(want) == 0 || strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: marks %v, twin's dated steps %v", pin, got, want)
		}
	}
	if _, b := get(t, e, "/pictures/matter-timeline?pin=81626W0043001&lang=es"); !strings.Contains(string(b), "Tres pistas") || !strings.Contains(string(b), "Licitación") {
		t.Errorf("the Spanish timeline: %.400s", b)
	}
	for path, code := range map[string]int{
		"/pictures/matter-timeline":                           400,
		"/pictures/matter-timeline?pin=81626W0043001&lang=fr": 400,
		"/pictures/matter-timeline?pin=81626W0043001&x=1":     400,
		"/pictures/matter-timeline?pin=99999Z9999":            404,
	} {
		if res, b := get(t, e, path); res.StatusCode != code {
			t.Errorf("%s: %d, want %d: %.200s", path, res.StatusCode, code, b)
		}
	}
}
