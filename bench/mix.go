package main

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Kinds of request in the mix.
const (
	kindSearch     = "search"      // GET /api/search
	kindPassages   = "passages"    // GET /api/passages
	kindFeedCold   = "feed-cold"   // GET /feed.xml with a new parameter set each time (a cache miss)
	kindFeedCached = "feed-cached" // GET /feed.xml with one parameter set (served from the feed cache)
)

// mixQuery is one query of the fixed mix. The same path and parameters go
// to every system: the peers' small HTTP servers accept the subset of the
// /api/search and /api/passages parameters the mix uses, and read them with
// the same parser (search.ParseKeywords, entity.VendorStem).
type mixQuery struct {
	Name     string
	Kind     string
	Params   url.Values
	Filtered bool   // part of the filtered query mix (filters narrow the keyword match)
	Note     string // what the query exercises
}

// path is the request path and query string of q; seq makes a cold feed
// request unique (a new cache key each time).
func (q mixQuery) path(seq int64) string {
	v := url.Values{}
	for k, vs := range q.Params {
		v[k] = vs
	}
	switch q.Kind {
	case kindPassages:
		return "/api/passages?" + v.Encode()
	case kindFeedCold:
		// a distinct minimum amount per request: a new feed every time
		v.Set("min", strconv.FormatInt(1_000_000+seq, 10))
		return "/feed.xml?" + v.Encode()
	case kindFeedCached:
		return "/feed.xml?" + v.Encode()
	default:
		return "/api/search?" + v.Encode()
	}
}

// peerServed reports whether the peers answer this kind of query: feeds are a
// Recordwatch feature with no counterpart in a bare database.
func (q mixQuery) peerServed() bool { return q.Kind == kindSearch || q.Kind == kindPassages }

// buildMix is the fixed query mix. agency is a canonical agency id and
// vendor a vendor name (matched by stem), both chosen from the corpus so the
// filtered queries have hits.
func buildMix(agency, vendor string) []mixQuery {
	v := func(kv ...string) url.Values {
		out := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			out.Set(kv[i], kv[i+1])
		}
		return out
	}
	return []mixQuery{
		{Name: "keyword", Kind: kindSearch, Params: v("q", "construction"), Note: "one word"},
		{Name: "keywords-or", Kind: kindSearch, Params: v("q", "asbestos abatement demolition elevator roofing"),
			Note: "five words, any may match"},
		{Name: "phrase", Kind: kindSearch, Params: v("q", `"sealed bids"`), Note: "quoted phrase (one with no synonym expansion)"},
		{Name: "keyword-exclusion", Kind: kindSearch, Params: v("q", "construction -demolition"),
			Note: "a word, minus another"},
		{Name: "keyword-agency-amount", Kind: kindSearch, Params: v("q", "services", "agency", agency, "min", "1000000"),
			Filtered: true, Note: "word + agency + amount ≥ $1M (valid amounts only)"},
		{Name: "facets", Kind: kindSearch, Params: v("q", "services", "facets", "true"),
			Note: "word + facets (lens, agency, notice type, year)"},
		{Name: "vendor-stem", Kind: kindSearch, Params: v("vendor", vendor), Filtered: true,
			Note: "entity lookup by vendor name stem, newest first"},
		{Name: "passages", Kind: kindPassages, Params: v("q", "bid documents"), Note: "passage search, two words"},
		{Name: "feed-cold", Kind: kindFeedCold, Params: v("lens", "money"),
			Note: "Atom feed, awards ≥ a new amount each request (cache miss)"},
		{Name: "feed-cached", Kind: kindFeedCached, Params: v("lens", "money", "min", "1000000"),
			Note: "Atom feed, the same one every request (feed cache hit)"},
	}
}

// ---- translation of the parsed keywords to the peers' query languages

// websearchText writes positive keywords (words and phrases, OR-matched) in
// PostgreSQL's websearch_to_tsquery syntax: `a or b or "c d"`. Exclusions
// are kept apart (see pgExcluded): websearch_to_tsquery gives & higher
// precedence than or, so `a or b -c` would mean a | (b & !c), not the
// (a | b) & !c that Recordwatch means.
func websearchText(k search.Keywords) string {
	var parts []string
	parts = append(parts, k.Terms...)
	for _, p := range k.Phrases {
		parts = append(parts, `"`+p+`"`)
	}
	return strings.Join(parts, " or ")
}

// pgExcluded is the exclusions as one websearch_to_tsquery text, `a or "b c"`,
// to be negated as a whole: !!(a | b<->c) keeps rows with none of them.
func pgExcluded(k search.Keywords) string {
	var parts []string
	for _, e := range k.Excluded {
		if strings.Contains(e, " ") {
			e = `"` + e + `"`
		}
		parts = append(parts, e)
	}
	return strings.Join(parts, " or ")
}

// pgTSQuery is the SQL tsquery expression for k, with its arguments
// numbered from $first; ok is false when k has nothing positive.
func pgTSQuery(k search.Keywords, first int) (expr string, args []any, ok bool) {
	if k.Empty() {
		return "", nil, false
	}
	expr = fmt.Sprintf("websearch_to_tsquery('%s', $%d)", pgTSConfig, first)
	args = []any{websearchText(k)}
	if len(k.Excluded) > 0 {
		expr = fmt.Sprintf("(%s && !!websearch_to_tsquery('%s', $%d))", expr, pgTSConfig, first+1)
		args = append(args, pgExcluded(k))
	}
	return expr, args, true
}

// fts5Match writes k as an FTS5 MATCH expression: every word or phrase
// quoted (an FTS5 string is a phrase, tokenized and stemmed like the
// column), alternatives joined by OR, exclusions by NOT:
// ("a" OR "b c") NOT "d".
func fts5Match(k search.Keywords) string {
	if k.Empty() {
		return ""
	}
	var alts []string
	for _, t := range k.Terms {
		alts = append(alts, fts5String(t))
	}
	for _, p := range k.Phrases {
		alts = append(alts, fts5String(p))
	}
	m := strings.Join(alts, " OR ")
	if len(k.Excluded) == 0 {
		return m
	}
	if len(alts) > 1 {
		m = "(" + m + ")"
	}
	for _, e := range k.Excluded {
		m += " NOT " + fts5String(e)
	}
	return m
}

// fts5String quotes s as an FTS5 string ("" escapes a quote).
func fts5String(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
