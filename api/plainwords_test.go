package api

import (
	"context"
	"github.com/recordwatch/recordwatch/internal/record"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/internal/search"
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
	names := sourceNames(t, e)
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
			if loc := otherDateRe.FindStringIndex(visibleText(string(b))); loc != nil {
				v := visibleText(string(b))
				t.Errorf("%s shows a date not in the site's one format (2006-01-02): %q", addr, v[max(0, loc[0]-60):loc[1]])
			}
			if lang == "es" {
				if left := serviceEnglish(visibleText(string(b)), names); len(left) > 0 {
					t.Errorf("%s: English left on a Spanish page: %q", addr, left)
				}
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

// otherDateRe is a date written with a month's name (Oct 2, 2013,
// "2 de octubre"): the site writes every date one way, 2013-10-02.
var otherDateRe = regexp.MustCompile(`\b(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.? \d{1,2}, \d{4}\b`)

// serviceEnglishRe are the services' English words that a Spanish page
// must say through the word table.
var serviceEnglishRe = regexp.MustCompile(`\b(published|registered value|contract records|no \w+ held|payments \(|since \d{4})\b`)

// serviceEnglish lists what a Spanish page's visible text still says in
// English: a phrase of the site's word table (englishLeft), a note's
// English (one without arguments) whose Spanish differs, one of the
// services' English words (serviceEnglishRe), or any English function word
// (englishWordRe) with the words around it.
//
// Record text is not the site's words: it is shown as published, marked
// data-verbatim (visibleText leaves it out). A source's name (a dataset's
// title, as its publisher names it) is a name, not a sentence: names are
// taken out first.
func serviceEnglish(text string, names []string) []string {
	for _, n := range names {
		text = strings.ReplaceAll(text, n, " ")
		if len(n) > 24 { // a long name cut short (…)
			text = regexp.MustCompile(regexp.QuoteMeta(n[:24])+`[^…]{0,40}…`).ReplaceAllString(text, " ")
		}
	}
	left := englishLeft(text)
	es := record.Locales()["es"]
	for k, en := range record.Locales()["en"].Notes {
		if len(en) > 12 && !strings.Contains(en, "%") && es.Notes[k] != en && strings.Contains(text, en) {
			left = append(left, en)
		}
	}
	left = append(left, serviceEnglishRe.FindAllString(text, -1)...)
	text = strings.Join(strings.Fields(text), " ")
	seen := map[string]bool{}
	for _, loc := range englishWordRe.FindAllStringIndex(text, -1) {
		from, to := max(0, loc[0]-50), min(len(text), loc[1]+50)
		for from > 0 && !utf8.RuneStart(text[from]) {
			from--
		}
		for to < len(text) && !utf8.RuneStart(text[to]) {
			to++
		}
		ctx := text[from:to]
		if !seen[ctx] && len(seen) < 12 {
			seen[ctx] = true
			left = append(left, "…"+ctx+"…")
		}
	}
	return left
}

// englishWordRe are English words that no Spanish sentence uses (between
// letters of any script: RE2's \b is ASCII, so "mayúscula" would hold
// "may"): one of
// them on a Spanish page, outside record text and names, is a sentence
// of the site's (or of a service's) left in English.
var englishWordRe = regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}_])(the|is|are|and|this|that|with|which|from|not|was|were|have|its|their|only|by|of|on|at|or|held|none|after|before|when|may|does|it|be|been|than|into|any|every|must|would|should|they|there|these|those|what|who|whose|named|linked|published|recorded|printed)(?:$|[^\p{L}\p{N}_])`)

// sourceNames are the names of the sources held (their coverage labels).
func sourceNames(t *testing.T, e *env) []string {
	t.Helper()
	cov, err := search.WithScope(e.srv.deps.Search, e.srv.deps.Search).Coverage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cov {
		if c.Label != "" {
			out = append(out, c.Label)
		}
	}
	sort.Slice(out, func(i, j int) bool { return len(out[i]) > len(out[j]) })
	return out
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
