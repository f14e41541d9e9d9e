package api

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
)

// pageKinds is one address of every kind of server-rendered page on the
// bundled sample (the shell's hash views are covered by the browser suite).
var pageKinds = []string{
	"/vendors/denville-line-painting/",
	"/agencies/parks-and-recreation/",
	"/contracts/CT100220268808241",
	"/contracts/analysis?group_by=agency",
	"/contracts/analysis?group_by=fiscal_year&rank_by=count",
	"/land-projects/2024Q0292",
	"/land-projects?status=completed",
	"/land-projects",
	"/organizations/NYC_GOID_000002/",
	"/people/NYC_GOID_000002%2Fprincipal-officer%2F2026-06-12",
	"/meetings/legistar:22632",
	"/meetings?from=2026-09-01&to=2026-09-30",
	"/r/notice/20991231999",
	"/stats",
	"/about",
	"/property-locations",
}

var (
	hiddenRe = regexp.MustCompile(`(?is)<head>.*?</head>|<(script|style|code|pre|title)\b[^>]*>.*?</(script|style|code|pre|title)>|<[^>]*\bdata-verbatim\b[^>]*>.*?</[a-z]+>`)
	tagRe    = regexp.MustCompile(`(?s)<[^>]*>`)
	urlRe    = regexp.MustCompile(`\b(https?://|www\.)\S+|\b[\w.-]+\.(json|csv|xml|ics|gov|org|com)\b`)
	snakeRe  = regexp.MustCompile(`\b[a-zA-Z][a-zA-Z0-9]*(_[a-zA-Z0-9]+)+\b`)
	slugRe   = regexp.MustCompile(`^[a-z]+(-[a-z]+)+$`) // a machine slug (zap-portal), not a dataset id (hgx4-8ukb)
	hrefRe   = regexp.MustCompile(`href="([^"#]+)"`)
)

// visibleText is the text a reader sees on a page: no head, scripts,
// styles, markup, code (identifiers shown as identifiers), text marked
// data-verbatim (record text as published) or addresses.
func visibleText(page string) string {
	s := hiddenRe.ReplaceAllString(page, " ")
	s = html.UnescapeString(tagRe.ReplaceAllString(s, " "))
	return urlRe.ReplaceAllString(s, " ")
}

// rawWords are the machine words visible on a page: snake_case words, the
// hyphenated machine values the label tables hold (zap-portal), and a
// site word with no entry ([[key]]).
func rawWords(text string) []string {
	var out []string
	out = append(out, snakeRe.FindAllString(text, -1)...)
	for _, kind := range web.LabelKinds() {
		for _, v := range web.LabelValues(kind) {
			if slugRe.MatchString(v) && regexp.MustCompile(`(^|[\s(])`+regexp.QuoteMeta(v)+`($|[\s),.;])`).MatchString(text) {
				out = append(out, v)
			}
		}
	}
	if i := strings.Index(text, "[["); i >= 0 {
		out = append(out, text[i:min(len(text), i+40)])
	}
	return out
}

// The plain-words walk: every page kind on the bundled sample, and the
// site's pages they link to (breadth first, bounded), in English and
// Spanish, shows no raw enum or snake_case word in its visible text.
func TestPlainWordsOnEveryPage(t *testing.T) {
	e := newEntityEnv(t, Config{})
	for _, lang := range []string{"en", "es"} {
		seen := map[string]bool{}
		queue := append([]string(nil), pageKinds...)
		for len(queue) > 0 && len(seen) < 90 {
			path := queue[0]
			queue = queue[1:]
			if seen[path] {
				continue
			}
			seen[path] = true
			addr := path
			if lang == "es" {
				addr = withLang(path)
			}
			res, b := getPage(t, e, addr)
			if !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Errorf("%s: %d %s is not a page", addr, res.StatusCode, res.Header.Get("Content-Type"))
				continue
			}
			if words := rawWords(visibleText(string(b))); len(words) > 0 {
				sort.Strings(words)
				t.Errorf("%s shows machine words: %q", addr, words)
			}
			for _, m := range hrefRe.FindAllStringSubmatch(string(b), -1) {
				u := html.UnescapeString(m[1])
				u = strings.TrimPrefix(u, "http://rw.test")
				if strings.HasPrefix(u, "/") && htmlPage(strings.SplitN(u, "?", 2)[0]) && !strings.HasPrefix(u, "/r/") && !seen[u] {
					queue = append(queue, withoutLang(u))
				}
			}
		}
		if len(seen) < len(pageKinds) {
			t.Errorf("%s: walked %d pages", lang, len(seen))
		}
	}
}

func withoutLang(path string) string {
	u, err := url.Parse(path)
	if err != nil {
		return path
	}
	q := u.Query()
	q.Del("lang")
	u.RawQuery = q.Encode()
	return u.String()
}

func withLang(path string) string {
	if strings.Contains(path, "?") {
		return path + "&lang=es"
	}
	return path + "?lang=es"
}

// The walk's detector finds what it must: snake_case words, hyphenated
// machine values and missing site words, and skips code and addresses.
func TestPlainWordsDetector(t *testing.T) {
	page := `<html><head><title>a_b</title></head><body><p>state certified_referred from zap-portal [[nav.x]]</p>` +
		`<code>record_id</code> <a href="/x_y">https://x.test/a_b</a> <span data-verbatim>ad_hoc</span></body></html>`
	got := strings.Join(rawWords(visibleText(page)), "|")
	for _, want := range []string{"certified_referred", "zap-portal", "[[nav.x]]"} {
		if !strings.Contains(got, want) {
			t.Errorf("detector misses %s: %q", want, got)
		}
	}
	for _, not := range []string{"a_b", "record_id", "x_y", "ad_hoc"} {
		if strings.Contains(got, not) {
			t.Errorf("detector reports %s, which is not visible text: %q", not, got)
		}
	}
}

// getPage gets path as a browser does (Accept: text/html first).
func getPage(t *testing.T, e *env, path string) (*http.Response, []byte) {
	t.Helper()
	return get(t, e, path, "Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8")
}
