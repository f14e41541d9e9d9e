package api

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
)

// In Spanish no heading, page title or header section link of a page kind
// is left in English: none is one of the site's English words (the word
// table's English where its Spanish differs) or starts with one followed
// by a record's own id or name. The meetings pages name their section in
// the page's language and keep it in its link.
func TestSpanishHeadingsAndTitles(t *testing.T) {
	e := newEntityEnv(t, Config{})
	english := map[string]bool{}
	for _, k := range web.WordKeys() {
		if en, es := web.Word("en", k), web.Word("es", k); en != es && len(strings.TrimSpace(en)) > 3 && !strings.Contains(en, "%") {
			english[strings.TrimSpace(en)] = true
		}
	}
	prefixes := []string{"Contract ", "Land project ", "Registered contracts", "Meeting", "Upcoming meetings", "Sources and their"}
	heads := regexp.MustCompile(`(?s)<(h[1-3]|title)\b[^>]*>(.*?)</(h[1-3]|title)>`)
	for _, path := range []string{"/meetings?from=2026-09-01&to=2026-09-30", "/meetings/legistar:22632", "/meetings/no-such-meeting", "/sources",
		"/contracts/analysis?group_by=agency", "/contracts/CT100220268808241", "/land-projects", "/land-projects/2024Q0292", "/land-projects/ZZZZ9999",
		"/property-locations", "/stats", "/about", "/vendors/denville-line-painting/", "/agencies/parks-and-recreation/"} {
		_, b := getPage(t, e, withLang(path))
		page := string(b)
		for _, m := range heads.FindAllStringSubmatch(page, -1) {
			text := strings.TrimSpace(html.UnescapeString(tagRe.ReplaceAllString(m[2], " ")))
			text = strings.TrimSuffix(text, " · Recordwatch")
			if english[text] {
				t.Errorf("%s: <%s> %q is English", path, m[1], text)
			}
			for _, p := range prefixes {
				if strings.HasPrefix(text, p) {
					t.Errorf("%s: <%s> %q starts in English", path, m[1], text)
				}
			}
		}
		if strings.HasPrefix(path, "/meetings") && !strings.Contains(page, `/meetings?lang=es">Reuniones</a>`) {
			t.Errorf("%s: the header's meetings section is not in Spanish", path)
		}
	}
}
