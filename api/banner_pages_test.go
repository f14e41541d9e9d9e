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

var bannerRe = regexp.MustCompile(`(?s)<p class="banner"[^>]*><strong>[^<]*</strong> (.*?)\. `)

// bannerSources are the sources a page's stale-source banner names (nil:
// no banner).
func bannerSources(page string) []string {
	m := bannerRe.FindStringSubmatch(page)
	if m == nil {
		return nil
	}
	var out []string
	for _, s := range strings.Split(html.UnescapeString(m[1]), "; ") {
		out = append(out, strings.Fields(s)[0])
	}
	return out
}

// A page's stale-source banner names only the sources behind that page
// (issue 32): over the full sample with City Record fresh and every other
// source held from files (stale), a contract, land project or meeting
// page names the stale sources of its own kind and none other; the home
// page, behind every source, names others too.
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
	for _, c := range []struct {
		path string
		want []string
	}{
		{"/contracts/" + url.PathEscape(cs.Items[0].ID), staleOf("contract")},
		{"/land-projects/2024Q0292", staleOf("land_project")},
		{"/meetings/" + url.PathEscape(ms.Items[0].ID), staleOf("meeting")},
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
			if len(got) <= bannerShown && !slices.Contains(got, s) {
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
