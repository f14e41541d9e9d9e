package mailer

import (
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Match says why a record is in a digest: the watch's words found in it,
// the filters it met, and a short snippet of its text with the words
// marked.
type Match struct {
	Words   []string // keywords and phrases found (as the watch names them)
	Filters []string // other parts of the filter the record met, in words
	Snippet string   // up to snippetLen characters, words in *stars*
}

const snippetLen = 200

var (
	tagRE   = regexp.MustCompile(`(?s)<[^>]*>`)
	spaceRE = regexp.MustCompile(`\s+`)
)

// plainText strips HTML tags and entities and folds whitespace.
func plainText(s string) string {
	s = tagRE.ReplaceAllString(s, " ")
	s = html.UnescapeString(s)
	return strings.TrimSpace(spaceRE.ReplaceAllString(s, " "))
}

// wordRE matches a watch keyword as the search does roughly: at a word
// start, in any case, with any ending (parks, park's, parking for "park").
func wordRE(w string) *regexp.Regexp {
	parts := strings.Fields(w)
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	stem := strings.Join(parts, `\s+`)
	if len(parts) == 1 && len(stem) > 4 && !strings.HasSuffix(stem, "ss") {
		stem = strings.TrimSuffix(stem, "s") // "parks" finds "park" and "parking"
	}
	return regexp.MustCompile(`(?i)\b` + stem + `\w*`)
}

// WhyMatched explains a record's place in a watch's digest. The snippet
// comes from the record's text with HTML stripped first (the title when
// the text does not hold a word).
func WhyMatched(f watch.Filter, n record.Notice) Match {
	var m Match
	text := plainText(n.Text)
	if text == "" {
		text = plainText(n.Body)
	}
	title := plainText(n.Title)
	var res []*regexp.Regexp
	for _, w := range append(append([]string{}, f.AnyOf...), f.Phrases...) {
		re := wordRE(w)
		if re.MatchString(text) || re.MatchString(title) || re.MatchString(n.AgencyName) || re.MatchString(n.VendorName) {
			m.Words = append(m.Words, w)
			res = append(res, re)
		}
	}
	if len(f.AnyOf)+len(f.Phrases) > 0 && len(m.Words) == 0 {
		m.Filters = append(m.Filters, "keywords matched by the search's word forms (stemming), not spelled as given")
	}
	if len(f.Exclude) > 0 {
		m.Filters = append(m.Filters, "none of: "+strings.Join(plainList(f.Exclude), ", "))
	}
	if len(f.AgencyIDs) > 0 {
		m.Filters = append(m.Filters, "agency: "+n.AgencyName)
	}
	if len(f.Vendors) > 0 && n.VendorName != "" {
		m.Filters = append(m.Filters, "vendor: "+strings.TrimSpace(n.VendorName))
	} else if len(f.Vendors) > 0 {
		m.Filters = append(m.Filters, "vendor: named in the text ("+strings.Join(f.Vendors, ", ")+")")
	}
	if (f.MinAmount != nil || f.MaxAmount != nil) && n.AmountValid {
		bounds := ""
		switch {
		case f.MinAmount != nil && f.MaxAmount != nil:
			bounds = "from " + watch.Dollars(*f.MinAmount) + " to " + watch.Dollars(*f.MaxAmount)
		case f.MinAmount != nil:
			bounds = "at least " + watch.Dollars(*f.MinAmount)
		default:
			bounds = "at most " + watch.Dollars(*f.MaxAmount)
		}
		m.Filters = append(m.Filters, "amount "+watch.Dollars(n.Amount)+", "+bounds)
	}
	for _, b := range f.Boroughs {
		if (watch.Filter{Boroughs: []string{b}}).Keep(n) {
			m.Filters = append(m.Filters, "borough: "+watch.BoroughName(b)+" named in the record")
		}
	}
	for _, c := range f.Categories {
		if (watch.Filter{Categories: []string{c}}).Keep(n) {
			if n.Category != "" {
				m.Filters = append(m.Filters, "category: "+c+" (filed under "+n.Category+")")
			} else {
				m.Filters = append(m.Filters, "category: "+c+" (no category filed; its words say "+c+")")
			}
		}
	}
	for _, r := range f.Requirements {
		if (watch.Filter{Requirements: []string{r}}).Keep(n) {
			m.Filters = append(m.Filters, "special requirement: "+watch.RequirementLabel(r)+" mentioned in the text")
		}
	}
	if n.NoticeType != "" {
		m.Filters = append(m.Filters, "kind: "+n.NoticeType)
	}
	m.Snippet = snippet(text, res)
	if m.Snippet == "" && len(res) > 0 {
		m.Snippet = snippet(title, res)
	}
	if m.Snippet == "" {
		m.Snippet = cut(text, snippetLen)
	}
	return m
}

func plainList(l []string) []string {
	out := make([]string, 0, len(l))
	for _, v := range l {
		out = append(out, fmt.Sprintf("%q", watch.PlainValue(v)))
	}
	return out
}

// snippet is about snippetLen characters of text around the first word
// found, each word found marked *like this*; "" when none is in text.
func snippet(text string, res []*regexp.Regexp) string {
	first := -1
	for _, re := range res {
		if loc := re.FindStringIndex(text); loc != nil && (first < 0 || loc[0] < first) {
			first = loc[0]
		}
	}
	if first < 0 {
		return ""
	}
	r := []rune(text)
	at := len([]rune(text[:first]))
	from := max(at-snippetLen/3, 0)
	to := min(from+snippetLen, len(r))
	// start and end at word boundaries
	for from > 0 && from < at && r[from-1] != ' ' {
		from++
	}
	for to < len(r) && to > at && r[to-1] != ' ' {
		to--
	}
	s := strings.TrimSpace(string(r[from:to]))
	for _, re := range res {
		s = re.ReplaceAllString(s, "*$0*")
	}
	if from > 0 {
		s = "…" + s
	}
	if to < len(r) {
		s += "…"
	}
	return s
}

func cut(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n-1])) + "…"
	}
	return s
}
