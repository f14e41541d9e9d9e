package api

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"net/url"
	"os/exec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/people"
)

// The people lens follows one rule on every surface (watch.PeopleFilter,
// notices.Service.Roster): /api/search?lens=people&agency=, the feed and a
// watch preview return the same Changes in Personnel notices of the
// agency, and search and preview the same roster half (its roster
// releases and leader changes). A search of several lenses carries no
// roster half.
func TestPeopleLensSameRuleOnEverySurface(t *testing.T) {
	e := newEntityEnv(t, Config{})
	agency := url.QueryEscape("POLICE DEPARTMENT")
	res, body := get(t, e, "/api/search?lens=people&agency="+agency+"&limit=50")
	var sr SearchResponse
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &sr) != nil {
		t.Fatalf("search: %d %s", res.StatusCode, body)
	}
	var searched []string
	for _, h := range sr.Hits {
		if h.Lens != "people" || h.AgencyID != "police-department" {
			t.Errorf("search hit %s: lens %s agency %s", h.RequestID, h.Lens, h.AgencyID)
		}
		searched = append(searched, h.RequestID)
	}
	if len(searched) == 0 || sr.Total != len(searched) {
		t.Fatalf("search: %d hits of %d", len(searched), sr.Total)
	}
	if len(sr.Roster) != 1 {
		t.Fatalf("search roster: %+v", sr.Roster)
	}
	r := sr.Roster[0]
	if r.AgencyID != "police-department" || r.RecordID != "NYC_GOID_000389" || r.State != people.Published ||
		!slices.Equal(r.Releases, []string{"2026-06-12"}) || r.Newest == nil || r.Newest.AsOf != "as of 2026-06-12" || len(r.Changes) != 0 {
		t.Errorf("police roster: %+v", r)
	}

	res, body = get(t, e, "/feed.json?lens=people&agency="+agency)
	var jf jsonFeedDoc
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &jf) != nil {
		t.Fatalf("feed: %d %s", res.StatusCode, body)
	}
	var fed []string
	for _, it := range jf.Items {
		fed = append(fed, it.Extension.RequestID)
	}
	if !slices.Equal(fed, searched) {
		t.Errorf("feed ids %v\nsearch ids %v", fed, searched)
	}

	res, body = get(t, e, "/api/watches/preview?lens=people&agency="+agency)
	var pv PreviewResponse
	if res.StatusCode != http.StatusOK || json.Unmarshal(body, &pv) != nil {
		t.Fatalf("preview: %d %s", res.StatusCode, body)
	}
	var previewed []string
	for _, h := range pv.Hits {
		previewed = append(previewed, h.RequestID)
	}
	if pv.Total != sr.Total || !slices.Equal(previewed, searched[:len(previewed)]) || !reflect.DeepEqual(pv.Roster, sr.Roster) ||
		!strings.Contains(pv.Understood.Scope, "roster releases that change their leader") {
		t.Errorf("preview: total %d ids %v roster %+v scope %q", pv.Total, previewed, pv.Roster, pv.Understood.Scope)
	}

	// several lenses, or no agency: no roster half
	for _, q := range []string{"lens=people,money&agency=" + agency, "lens=people"} {
		_, body = get(t, e, "/api/search?"+q)
		var other SearchResponse
		if json.Unmarshal(body, &other) != nil || other.Roster != nil {
			t.Errorf("%s: roster %+v", q, other.Roster)
		}
	}
}

// The people-lens feed validates: Atom with Debian's python3-feedparser,
// the calendar with python3-icalendar (when /usr/bin/python3 has them),
// and structurally always: well-formed Atom with one entry per JSON item,
// the JSON Feed 1.1 required members, the RFC 5545 checks of validateICS.
func TestPeopleLensFeedValidates(t *testing.T) {
	e := newEntityEnv(t, Config{})
	q := "lens=people&agency=" + url.QueryEscape("POLICE DEPARTMENT")
	_, atom := get(t, e, "/feed.xml?"+q)
	_, jsonFeed := get(t, e, "/feed.json?"+q)
	_, ics := get(t, e, "/feed.ics?"+q)
	var jf jsonFeedDoc
	if err := json.Unmarshal(jsonFeed, &jf); err != nil || len(jf.Items) == 0 {
		t.Fatalf("json feed: %v %d items", err, len(jf.Items))
	}
	n := len(jf.Items)

	// structural: well-formed Atom with one entry per item
	var doc struct {
		Entries []struct {
			ID string `xml:"id"`
		} `xml:"entry"`
	}
	if err := xml.Unmarshal(atom, &doc); err != nil || len(doc.Entries) != n {
		t.Fatalf("atom: %v, %d entries, want %d", err, len(doc.Entries), n)
	}
	validateICS(t, ics)
	// JSON Feed 1.1 (Debian's feedparser 6.0 reads no JSON Feed): the
	// required members, and every item's id and content
	var raw struct {
		Version string           `json:"version"`
		Title   string           `json:"title"`
		Items   []map[string]any `json:"items"`
	}
	if err := json.Unmarshal(jsonFeed, &raw); err != nil || raw.Version != "https://jsonfeed.org/version/1.1" || raw.Title == "" {
		t.Fatalf("json feed: %v version %q title %q", err, raw.Version, raw.Title)
	}
	for _, it := range raw.Items {
		if id, _ := it["id"].(string); id == "" || (it["content_text"] == nil && it["content_html"] == nil) {
			t.Errorf("json feed item without id or content: %v", it["id"])
		}
	}

	py := "/usr/bin/python3"
	if _, err := exec.LookPath(py); err != nil || exec.Command(py, "-c", "import feedparser, icalendar").Run() != nil {
		t.Log("python3 feedparser/icalendar not importable: structural checks only")
		return
	}
	parse := func(name, contentType string, b []byte) string {
		cmd := exec.Command(py, "-c", `import sys, feedparser
d = feedparser.parse(sys.stdin.buffer.read(), response_headers={"content-type": sys.argv[1]})
if d.bozo:
    sys.exit("not well-formed: %s" % d.bozo_exception)
if not d.feed.get("title") or any(not (x.get("id") and x.get("link") and x.get("title")) for x in d.entries):
    sys.exit("a feed title, or an entry id, link or title, is missing")
print(d.version, len(d.entries))`, contentType)
		cmd.Stdin = bytes.NewReader(b)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("feedparser refuses the %s feed: %v %s", name, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	if got := parse("atom", "application/atom+xml", atom); got != "atom10 "+strconv.Itoa(n) {
		t.Errorf("feedparser atom: %q, want atom10 %d", got, n)
	}
	cmd := exec.Command(py, "-c", "import sys, icalendar; c = icalendar.Calendar.from_ical(sys.stdin.buffer.read()); print(c.get('PRODID') is not None)")
	cmd.Stdin = bytes.NewReader(ics)
	if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "True" {
		t.Errorf("python icalendar refuses the people-lens calendar: %v %s", err, out)
	}
}
