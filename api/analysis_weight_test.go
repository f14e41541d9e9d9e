package api

import (
	"html"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// The contract analysis page, the heaviest page kind, stays well under
// the browser suite's 150 KB of HTML+CSS+JS (issue 35): its list of every
// accepted agency label (about 430) is one labelled select in a GET form
// that keeps the analysis's other parameters and the language, not a link
// per label (which made the page 110.9 KB), and the select offers every
// label the JSON twin accepts.
func TestAnalysisPageIsLight(t *testing.T) {
	e := newEntityEnv(t, Config{})
	_, css := get(t, e, "/static/app.css")
	_, pins := get(t, e, "/static/pins.js")
	for _, path := range []string{"/contracts/analysis?group_by=agency", "/contracts/analysis?group_by=vendor&rank_by=count&lang=es"} {
		res, body := getPage(t, e, path)
		page := string(body)
		weight := len(body) + len(css) + len(pins)
		if res.StatusCode != 200 || weight > 100*1024 {
			t.Errorf("%s: %d, ships %d bytes of HTML+CSS+JS (budget 150 KB, this page kept under 100 KB)", path, res.StatusCode, weight)
		}
		form := regexp.MustCompile(`(?s)<form method="get" action="[^"]*/contracts/analysis" class="labels-pick">.*?</form>`).FindString(page)
		options := regexp.MustCompile(`<option[^>]*>([^<]*)</option>`).FindAllStringSubmatch(form, -1)
		if len(options) < 400 || !strings.Contains(form, `<select name="agency">`) || !strings.Contains(form, `<input type="hidden" name="group_by" value="`) {
			t.Errorf("%s: the label picker offers %d labels:\n%.400s", path, len(options), form)
		}
		if strings.Contains(path, "lang=es") != strings.Contains(form, `<input type="hidden" name="lang" value="es">`) {
			t.Errorf("%s: the picker does not keep the language", path)
		}
		for _, o := range options[:min(len(options), 3)] {
			label := html.UnescapeString(o[1])
			if res, _ := get(t, e, "/api/contracts/analysis?group_by=agency&agency="+url.QueryEscape(label)); res.StatusCode != 200 {
				t.Errorf("the picker offers %q, which the analysis refuses: %d", label, res.StatusCode)
			}
		}
	}
}
