package api

import (
	"context"
	"html"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

var (
	bannerRe       = regexp.MustCompile(`(?s)<div class="banner"[^>]*>.*?</div>`)
	bannerSourceRe = regexp.MustCompile(`data-source="([^"]*)"`)
)

// bannerSources are the sources a page's stale-source banner names, by
// their ids (nil: no banner).
func bannerSources(page string) []string {
	m := bannerRe.FindString(page)
	if m == "" {
		return nil
	}
	var out []string
	for _, s := range bannerSourceRe.FindAllStringSubmatch(m, -1) {
		out = append(out, html.UnescapeString(s[1]))
	}
	return out
}

// A page's stale-source banner names only the sources behind that page
// (issue 32): over the full sample with City Record fresh and every other
// source held from files (stale), the land projects list names the stale
// sources of its kind and none other, and a contract, land project or
// meeting page the stale sources its answer is built from (its JSON
// twin's sources, issue 46) and none other; the home page, behind every
// source, names others too.
func TestBannerNamesOnlyTheSourcesBehindThePage(t *testing.T) {
	e, _ := scheduledEnvOver(t, sampletest.Full, receipt("crol", fixedNow.Add(-10*time.Minute), true))
	ctx := context.Background()
	cov, err := search.WithScope(e.srv.deps.Search, e.srv.deps.Search).Coverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// the stale sources of each record type, as the coverage says
	staleOf := func(kinds ...string) []string {
		var out []string
		for _, c := range cov {
			if (c.State == record.Stale || c.State == record.Failing) && slices.Contains(kinds, c.RecordType) && !slices.Contains(out, c.Source) {
				out = append(out, c.Source)
			}
		}
		return out
	}
	cs, err := search.Find(ctx, e.be, procure.ContractKind, search.RecordQuery{Limit: 1})
	if err != nil || len(cs.Items) == 0 {
		t.Fatal(cs, err)
	}
	ms, err := search.Find(ctx, e.be, meeting.Kind, search.RecordQuery{Limit: 1})
	if err != nil || len(ms.Items) == 0 {
		t.Fatal(ms, err)
	}
	home := map[string]bool{}
	_, body := getPage(t, e, "/about")
	for _, s := range bannerSources(string(body)) {
		home[s] = true
	}
	// the stale sources a record's answer is built from, as its JSON twin
	// states them
	staleIn := func(path string) []string {
		_, body := get(t, e, path)
		var out []string
		for _, c := range decode[struct {
			Sources []record.SourceCoverage `json:"sources"`
		}](t, body).Sources {
			if (c.State == record.Stale || c.State == record.Failing) && !slices.Contains(out, c.Source) {
				out = append(out, c.Source)
			}
		}
		return out
	}
	for _, c := range []struct {
		path string
		want []string
	}{
		{"/contracts/" + url.PathEscape(cs.Items[0].ID), staleIn("/api/contracts/" + url.PathEscape(cs.Items[0].ID))},
		{"/land-projects/2024Q0292", staleIn("/api/land-projects/2024Q0292")},
		{"/meetings/" + url.PathEscape(ms.Items[0].ID), staleIn("/api/meetings/" + url.PathEscape(ms.Items[0].ID))},
		{"/land-projects", staleOf("land_project")},
	} {
		if len(c.want) == 0 {
			t.Fatalf("%s: the sample holds no stale source behind it to name", c.path)
		}
		res, body := getPage(t, e, c.path)
		got := bannerSources(string(body))
		if res.StatusCode != 200 || len(got) == 0 {
			t.Errorf("%s: %d, no banner", c.path, res.StatusCode)
			continue
		}
		for _, s := range got {
			if !slices.Contains(c.want, s) && s != "and" {
				t.Errorf("%s: the banner names %s, not behind the page (behind it: %v)", c.path, s, c.want)
			}
		}
		for _, s := range c.want {
			if (len(c.want) <= bannerShown || len(got) < bannerShown) && !slices.Contains(got, s) {
				t.Errorf("%s: the banner does not name %s (names %v)", c.path, s, got)
			}
		}
		others := false
		for s := range home {
			others = others || !slices.Contains(c.want, s)
		}
		if !others {
			t.Errorf("%s: the page behind every source names nothing else (%v): the test proves nothing", c.path, home)
		}
	}
}

// The banner speaks the page's language (issue 35): each source by its
// name with its state and since when, the sources beyond those named
// counted, and its notes, all from the word table; no English phrase is
// left on the Spanish page, and the English page keeps its English.
func TestBannerInBothLanguages(t *testing.T) {
	e, _ := scheduledEnvOver(t, sampletest.Full, receipt("crol", fixedNow.Add(-10*time.Minute), true))
	for _, c := range []struct{ lang, state, more, note string }{
		{"en", "out of date", "; and ", "Held from the bundled sample or files"},
		{"es", "desactualizada", "; y ", "Guardado de la muestra incluida"},
	} {
		_, body := getPage(t, e, "/about?lang="+c.lang)
		banner := bannerRe.FindString(string(body))
		names := bannerSources(banner)
		if len(names) != bannerShown || !strings.Contains(banner, c.state) || !strings.Contains(banner, c.more) || !strings.Contains(banner, c.note) {
			t.Errorf("%s: the banner names %v:\n%s", c.lang, names, banner)
		}
		if regexp.MustCompile(`data-source="[^"]*">[a-z]+[-_]?[a-z]*</span>`).MatchString(banner) {
			t.Errorf("%s: a source is named by its id:\n%s", c.lang, banner)
		}
		if left := englishLeft(banner); c.lang == "es" && len(left) > 0 || strings.Contains(banner, " stale") {
			t.Errorf("%s: English or a state's machine word left on the banner %q:\n%s", c.lang, left, banner)
		}
	}
}
