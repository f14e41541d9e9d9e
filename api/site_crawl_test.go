package api

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The site as a reader clicks through it: a crawl of every link and form
// on every page kind, from the pages the navigation names, in both forms
// and both languages, over the full bundled sample. It finds no 4xx or
// 5xx, no JSON where a page was asked for (the JSON twins, feeds and
// machine endpoints aside), and — from a Spanish page, with no cookie to
// help — every page reached is Spanish: the language travels on the
// links themselves. An address the site does not serve answers an HTML
// 404 page in the reader's language.
func TestSiteCrawlNoDeadLinks(t *testing.T) {
	for _, form := range []int{1, 2} {
		e := newEntityEnv(t, Config{Form: form})
		for _, lang := range []string{"en", "es"} {
			t.Run(fmt.Sprintf("form%d-%s", form, lang), func(t *testing.T) {
				c := siteCrawl{t: t, e: e, lang: lang, seen: map[string]bool{}, shapes: map[string]int{}, notes: map[string]bool{}}
				c.run()
				if c.pages < 6 {
					t.Errorf("only %d pages crawled", c.pages)
				}
				// the services' notes were met, said in the page's
				// language from their keys: the absence rules on every
				// page with a scope box, a profile's absences, the
				// contract measure (Form 1 serves those pages)
				for _, key := range []string{"absence.rule.no_hits", "absence.rule.retained", "dossier.agency.counts", "dossier.vendor.matched", "procure.contract.measure"} {
					if form == 1 && !c.notes[key] {
						t.Errorf("%s: no page crawled shows the note %s in its language", lang, key)
					}
				}
				t.Logf("%s: %d notes met in the page's language", lang, len(c.notes))
				t.Logf("form %d %s: %d pages, %d links checked; shapes %v", form, lang, c.pages, c.links, c.shapes)
			})
		}
		t.Run(fmt.Sprintf("form%d-404", form), func(t *testing.T) {
			paths := []string{"/no-such-page", "/static/no-such-file.css", "/land-projects/NOPE-0000/extra"}
			if form == 2 {
				paths = append(paths, "/contracts/analysis", "/land-projects", "/meetings")
			}
			for _, p := range paths {
				for _, lang := range []string{"en", "es"} {
					res, body := get(t, e, p, "Accept", "text/html,application/xhtml+xml,*/*;q=0.8", "Cookie", "lang="+lang)
					if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
						!strings.Contains(string(body), `<html lang="`+lang+`"`) || !strings.Contains(string(body), "<h1>") {
						t.Errorf("%s (%s): %d %s %.300s", p, lang, res.StatusCode, res.Header.Get("Content-Type"), body)
					}
				}
				// a program asking for JSON still gets the one error shape
				if res, body := get(t, e, p); res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
					t.Errorf("%s as JSON: %d %s %.200s", p, res.StatusCode, res.Header.Get("Content-Type"), body)
				}
			}
		})
	}
}

type siteCrawl struct {
	t       *testing.T
	e       *env
	lang    string
	seen    map[string]bool
	shapes  map[string]int
	pages   int
	links   int
	queue   []string
	from    map[string]string
	dropped map[string]bool
	slugs   []string
	notes   map[string]bool // the note keys met, in the crawl's language
}

// crawlPerShape bounds the pages of one shape (a path with its ids
// stripped) that are opened: every page kind is reached, not every record.
const crawlPerShape = 6

var (
	hrefRE     = regexp.MustCompile(`(href|action|src)="([^"]*)"`)
	formRE     = regexp.MustCompile(`(?s)<form[^>]*action="([^"]*)".*?</form>`)
	digitsRE   = regexp.MustCompile(`[0-9]+`)
	headingRE  = regexp.MustCompile(`<h([1-6])\b`)
	sourceIDRE = regexp.MustCompile(`"source":"([a-z0-9_-]+)"`)
)

// machine reports whether a path answers machines, not readers: its JSON
// (or feed, calendar, script) is what the link promises.
func machine(u *url.URL) bool {
	p := u.Path
	return u.Query().Has("format") || strings.HasPrefix(p, "/api/") || strings.HasPrefix(p, "/mcp") || strings.HasPrefix(p, "/static/") || p == "/healthz" || p == "/readyz" ||
		strings.HasPrefix(p, "/pictures/") || strings.HasSuffix(p, ".xml") || strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".ics") ||
		strings.HasPrefix(p, "/feed")
}

// shape is a page's kind for the crawl's bound: the path's first
// segment, whether it is a record's page, and which parameters it has.
func shape(u *url.URL) string {
	segs := strings.Split(strings.Trim(u.Path, "/"), "/")
	s := segs[0]
	if len(segs) > 1 {
		s += "/*"
	}
	var keys []string
	for k := range u.Query() {
		if k != "lang" {
			keys = append(keys, k)
		}
	}
	return s + "?" + digitsRE.ReplaceAllString(strings.Join(sortedCopy(keys), ","), "")
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func (c *siteCrawl) run() {
	c.from, c.dropped, c.slugs = map[string]string{}, map[string]bool{}, sourceSlugs()
	// every source's machine id the service lists (crol, nyc_legislation…)
	_, src := get(c.t, c.e, "/api/sources")
	for _, m := range sourceIDRE.FindAllStringSubmatch(string(src), -1) {
		if m[1] != "source" {
			c.slugs = append(c.slugs, m[1])
		}
	}
	start := []string{"/", "/about", "/stats", "/sources", "/property-locations"}
	for _, s := range start {
		if c.lang == "es" {
			s += "?lang=es"
		}
		c.push(s, "(start)")
	}
	for len(c.queue) > 0 {
		u := c.queue[0]
		c.queue = c.queue[1:]
		c.visit(u)
	}
}

func (c *siteCrawl) push(ref, from string) {
	if c.seen[ref] {
		return
	}
	c.seen[ref] = true
	c.from[ref] = from
	c.queue = append(c.queue, ref)
}

func (c *siteCrawl) visit(ref string) {
	t := c.t
	u, _ := url.Parse(ref)
	c.links++
	req, _ := http.NewRequest("GET", c.e.ts.URL+ref, nil)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,*/*;q=0.8")
	res, err := http.DefaultClient.Do(req) // no cookie jar: the links themselves carry the language
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode >= 400 && !(c.e.srv.deps.MCP == nil && strings.HasPrefix(u.Path, "/mcp")) { // this test server mounts no MCP
		t.Errorf("%s (linked from %s): %d %.200s", ref, c.from[ref], res.StatusCode, body)
		return
	}
	ct := res.Header.Get("Content-Type")
	if machine(u) {
		return
	}
	if !strings.HasPrefix(ct, "text/html") {
		if strings.Contains(ct, "json") {
			t.Errorf("%s (linked from %s): JSON where a page was asked: %s", ref, c.from[ref], ct)
		}
		return
	}
	c.pages++
	c.checkNotes(ref, string(body))
	if c.lang == "es" {
		for _, w := range englishChrome(string(body)) {
			fu, _ := url.Parse(ref)
			if key := "en " + shape(fu) + " " + w; !c.dropped[key] {
				c.dropped[key] = true
				t.Errorf("%s: English on a Spanish page: %q", ref, w)
			}
		}
	}
	for _, w := range developerWords(string(body), c.slugs) {
		fu, _ := url.Parse(ref)
		if key := "dev " + shape(fu) + " " + w; !c.dropped[key] {
			c.dropped[key] = true
			t.Errorf("%s: a developer word on the page: %q", ref, w)
		}
	}
	// headings never skip a level going down (axe's heading-order)
	last := 0
	for _, h := range headingRE.FindAllStringSubmatch(string(body), -1) {
		n := int(h[1][0] - '0')
		if last > 0 && n > last+1 {
			fu, _ := url.Parse(ref)
			if key := "heading " + shape(fu) + h[1]; !c.dropped[key] {
				c.dropped[key] = true
				t.Errorf("%s: an h%d after an h%d", ref, n, last)
			}
		}
		last = n
	}
	if c.lang == "es" && !strings.Contains(string(body), `<html lang="es"`) {
		t.Errorf("%s (linked from %s): the Spanish reader lands on a page in English", ref, c.from[ref])
	}
	posts := map[string]bool{} // a POST form's action is not a link to follow
	for _, f := range formRE.FindAllStringSubmatch(string(body), -1) {
		if strings.Contains(strings.ToLower(f[0]), `method="post"`) {
			posts[html.UnescapeString(f[1])] = true
		}
	}
	for _, m := range hrefRE.FindAllStringSubmatch(string(body), -1) {
		if m[1] == "action" && posts[html.UnescapeString(m[2])] {
			continue
		}
		c.follow(html.UnescapeString(m[2]), ref, m[1] == "action")
	}
	// a form of a Spanish page keeps the language in a field of its own
	if c.lang == "es" {
		for _, f := range formRE.FindAllString(string(body), -1) {
			if strings.Contains(strings.ToLower(f), `method="post"`) {
				continue
			}
			if !strings.Contains(f, `name="lang" value="es"`) {
				c.t.Errorf("%s: a form without the language: %.200s", ref, f)
			}
		}
	}
}

// follow queues a link of the site (its fragment dropped: the shell's
// views are script), bounded per shape; other sites are not followed.
func (c *siteCrawl) follow(link, from string, form bool) {
	if link == "" || strings.HasPrefix(link, "#") || strings.HasPrefix(link, "mailto:") || strings.HasPrefix(link, "data:") {
		return
	}
	if rest, ok := strings.CutPrefix(link, "http://rw.test"); ok {
		link = rest
		if link == "" {
			link = "/"
		}
	}
	u, err := url.Parse(link)
	if err != nil {
		c.t.Errorf("%s: unreadable link %q", from, link)
		return
	}
	if u.Scheme != "" || u.Host != "" || !strings.HasPrefix(u.Path, "/") {
		return
	}
	if l := u.Query().Get("lang"); l != "" && l != c.lang {
		return // the language switch
	}
	if c.lang == "es" && !machine(u) && u.Query().Get("lang") != "es" && !form {
		fu, _ := url.Parse(from)
		key := shape(fu) + " → " + shape(u)
		if !c.dropped[key] {
			c.dropped[key] = true
			c.t.Errorf("%s: link %q drops the language", from, link)
		}
	}
	if c.lang == "es" && form {
		q := u.Query() // the form's own lang field, checked above
		q.Set("lang", "es")
		u.RawQuery = q.Encode()
	}
	u.Fragment = ""
	sh := shape(u)
	ref := u.String()
	if c.seen[ref] {
		return
	}
	if c.shapes[sh] >= crawlPerShape {
		return
	}
	c.shapes[sh]++
	c.push(ref, from)
}

// checkNotes records the services' notes a page shows in the crawl's
// language (each note's fixed text between its arguments, whole) and, on
// a page in another language than English, fails on any note shown in
// English: a note is said from its key, never left as the service's
// English.
func (c *siteCrawl) checkNotes(ref, page string) {
	text := html.UnescapeString(tagRe.ReplaceAllString(devHiddenRe.ReplaceAllString(page, " "), " "))
	text = strings.Join(strings.Fields(text), " ")
	all := record.Locales()
	for key, form := range all[c.lang].Notes {
		if noteShown(text, form) {
			c.notes[key] = true
		}
		if c.lang == "en" {
			continue
		}
		if en := all["en"].Notes[key]; en != form && noteShown(text, en) {
			fu, _ := url.Parse(ref)
			if k := "note " + shape(fu) + " " + key; !c.dropped[k] {
				c.dropped[k] = true
				c.t.Errorf("%s: the note %s is in English on a %s page: %q", ref, key, c.lang, en)
			}
		}
	}
}

// noteArgRe is an argument's place in a note's text.
var noteArgRe = regexp.MustCompile(`%(?:\[\d+\])?s`)

// noteShown reports whether text shows the note form: each of its fixed
// parts of 12 bytes or more, in order (a note of short parts only is not
// told apart from other words, and is not looked for).
func noteShown(text, form string) bool {
	var parts []string
	for _, p := range noteArgRe.Split(form, -1) {
		if p = strings.Join(strings.Fields(p), " "); len(p) >= 12 {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return false
	}
	at := 0
	for _, p := range parts {
		i := strings.Index(text[at:], p)
		if i < 0 {
			return false
		}
		at += i + len(p)
	}
	return true
}
