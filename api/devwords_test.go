package api

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/web"
)

// Developer words a resident must never meet in a page's visible text —
// code and identifiers included, record text as published (data-verbatim)
// aside: repo paths, test names, internal model names, source slugs,
// snake_case identifiers, API paths in prose. The crawl
// (TestSiteCrawlNoDeadLinks) applies it to every page it opens.
var (
	devHiddenRe = regexp.MustCompile(`(?is)<head>.*?</head>|<(script|style|title)\b[^>]*>.*?</(script|style|title)>|<[^>]*\bdata-verbatim\b[^>]*>.*?</[a-z]+>`)
	devWordRes  = []*regexp.Regexp{
		regexp.MustCompile(`\b(internal|api|indexer|cmd|mailer|web)/[\w./-]+\.(go|json|html|js|css)\b`), // a repo path
		regexp.MustCompile(`\bTest[A-Z]\w+`),                            // a test name
		regexp.MustCompile(`(?i)\bread model\b`),                        // an internal model
		regexp.MustCompile(`(?:^|[^/\w])[a-z][a-z0-9]*(_[a-z0-9]+)+\b`), // snake_case (a public repository, owner/name, aside)
		regexp.MustCompile(`(^|\s)/(api|mcp)/[\w/.:-]*`),                // an API path in prose
		regexp.MustCompile(`\brow\(s\)`),                                // a programmer's plural
	}
)

// plainID are the source ids that are English words, shown as words.
var plainID = map[string]bool{"source": true, "contracts": true, "payroll": true, "land": true, "leaders": true}

var socrataID = regexp.MustCompile(`^[a-z0-9]{4}-[a-z0-9]{4}$`)

// developerWords are the developer words visible on a page (sourceIDs: the
// source slugs the label tables name).
func developerWords(page string, sourceIDs []string) []string {
	s := devHiddenRe.ReplaceAllString(page, " ")
	s = html.UnescapeString(tagRe.ReplaceAllString(s, " "))
	s = regexp.MustCompile(`\bhttps?://\S+`).ReplaceAllString(s, " ")
	var out []string
	for _, re := range devWordRes {
		for _, m := range re.FindAllString(s, -1) {
			out = append(out, strings.TrimSpace(m))
		}
	}
	for _, id := range sourceIDs {
		if socrataID.MatchString(id) || plainID[id] {
			continue // a public dataset's id (hgx4-8ukb) is how NYC Open Data names it
		}
		if regexp.MustCompile(`(^|[\s(])` + regexp.QuoteMeta(id) + `($|[\s),.;:])`).MatchString(s) {
			out = append(out, id)
		}
	}
	return out
}

// sourceSlugs are the machine ids of the sources (the "source" label
// table's values) that read as identifiers: those with a hyphen, an
// underscore or in lower case only (crol, nyc_legislation, zap-portal).
func sourceSlugs() []string {
	var out []string
	for _, v := range web.LabelValues("source") {
		if strings.ToLower(v) == v && len(v) > 2 && v != "source" { // "source" is a word (the source itself)
			out = append(out, v)
		}
	}
	return out
}

// The detector finds each kind of developer word, and passes plain words.
func TestDeveloperWordsDetector(t *testing.T) {
	page := `<html><head><title>x_y</title></head><body><p>See internal/land/procedures/ulurp.json and TestULURPPath; as joined by the cityscroll read model;
	source <code>crol</code>, state never_loaded; call /api/search for 3 row(s).</p><p data-verbatim>record_text kept</p><a href="/api/x">JSON twin</a></body></html>`
	got := strings.Join(developerWords(page, []string{"crol"}), "|")
	for _, want := range []string{"internal/land/procedures/ulurp.json", "TestULURPPath", "read model", "never_loaded", "/api/search", "row(s)", "crol"} {
		if !strings.Contains(got, want) {
			t.Errorf("misses %q: %s", want, got)
		}
	}
	if strings.Contains(got, "record_text") || strings.Contains(got, "x_y") {
		t.Errorf("flags record text or the head: %s", got)
	}
	if w := developerWords(`<p>Search the notices; JSON twin of this page.</p>`, []string{"crol"}); len(w) != 0 {
		t.Errorf("flags plain words: %v", w)
	}
}

// englishRe finds English function words, which no Spanish sentence holds.
var englishRe = regexp.MustCompile(`\b(the|and|with|from|which|this|that|held|only|not|is|are|was|were|has|have)\b`)

// englishChrome are the site's own words left in English on a Spanish
// page: each sentence of its visible text (record text as published, code
// and addresses aside) that holds an English function word.
func englishChrome(page string) []string {
	s := devHiddenRe.ReplaceAllString(page, " ")
	s = regexp.MustCompile(`(?s)<code\b[^>]*>.*?</code>|<[^>]*\blang="en"[^>]*>.*?</[a-z]+>`).ReplaceAllString(s, " ")
	s = html.UnescapeString(tagRe.ReplaceAllString(s, " "))
	s = regexp.MustCompile(`\bhttps?://\S+`).ReplaceAllString(s, " ")
	var out []string
	for _, part := range regexp.MustCompile(`[.;:\n]+`).Split(s, -1) {
		if englishRe.MatchString(part) {
			out = append(out, strings.Join(strings.Fields(part), " "))
		}
	}
	return out
}
