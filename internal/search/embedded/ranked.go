package embedded

import (
	"context"
	"strconv"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// NoticePivot and PassagePivot are the ranked path's BM25 length pivots:
// the average number of indexed words of a notice's content and of a
// passage in the bundled sample (132.3 and 67.3; TestPivotsAreTheSampleAverages).
const (
	NoticePivot  = 130
	PassagePivot = 67
)

// noticeFacets are the notice facets and the keyword field each counts.
var noticeFacets = map[string]string{
	search.FacetLens: "lenses", search.FacetAgency: "agency_id",
	search.FacetType: "notice_type", search.FacetYear: "year",
}

// analyzedWords are the index terms of keyword words (a word may give none,
// a stop word, or several), each once.
func analyzedWords(idx bleve.Index, words []string) []string {
	a := idx.Mapping().AnalyzerNamed(analyzerName)
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		for _, tok := range a.Analyze([]byte(w)) {
			if t := string(tok.Term); !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}

// rankable reports whether the ranked text path (topk.go) answers a
// search: ranked by relevance, with words and no phrases. The decision
// depends on the query alone, never on the page, so every page of one
// search is ranked the same way.
func rankable(sortName string, k search.Keywords) bool {
	return sortName == search.SortRelevance && len(k.Terms) > 0 && len(k.Phrases) == 0
}

// afterKeyOf reads a relevance cursor's values (score, id).
func afterKeyOf(after []string) (*afterKey, error) {
	if after == nil {
		return nil, nil
	}
	bad := record.Invalid("cursor", "cursor is not valid; start again without it")
	if len(after) != 2 {
		return nil, bad
	}
	score, err := strconv.ParseFloat(after[0], 64)
	if err != nil {
		return nil, bad
	}
	return &afterKey{score: score, id: after[1]}, nil
}

// noticeSpec is a rankable notice search as the ranked text path's
// question.
func noticeSpec(idx bleve.Index, q search.Query, k search.Keywords, after []string) (topSpec, error) {
	ak, err := afterKeyOf(after)
	if err != nil {
		return topSpec{}, err
	}
	spec := topSpec{
		field: "content", boostField: "title", pivot: NoticePivot,
		words:      analyzedWords(idx, k.Terms),
		keyFilters: keyFilters(q),
		limit:      q.Limit,
		after:      ak,
		withDoc:    true,
	}
	spec.filters = otherFilters(q)
	for _, e := range k.Excluded {
		// an excluded word is left out through its postings; an excluded
		// phrase (or a word the analyzer splits) through Bleve's phrase query
		if words := analyzedWords(idx, []string{e}); len(words) == 1 && !strings.Contains(strings.TrimSpace(e), " ") {
			spec.excludeWords = append(spec.excludeWords, words[0])
		} else if len(words) > 0 {
			spec.exclude = append(spec.exclude, exclusions(search.Keywords{Excluded: []string{e}}, "content")...)
		}
	}
	if q.Facets {
		spec.facets = noticeFacets
	}
	return spec, nil
}

// rankedNotices answers a rankable notice search.
func (b *Backend) rankedNotices(ctx context.Context, q search.Query, k search.Keywords, after []string) (search.Result, error) {
	spec, err := noticeSpec(b.notices, q, k, after)
	if err != nil {
		return search.Result{}, err
	}
	res, err := b.topNotices.search(ctx, spec)
	if err != nil {
		return search.Result{}, unavailable(err)
	}
	out := search.Result{Hits: []search.Hit{}, Facets: res.facets}
	out.Total, out.TotalRelation = record.CapCount(res.total, false, q.ExactCount)
	for _, h := range res.hits {
		n, err := decodeNotice(h.doc)
		if err != nil {
			return search.Result{}, err
		}
		out.Hits = append(out.Hits, search.Hit{Notice: n, Score: h.score})
	}
	if len(res.hits) == q.Limit && len(res.hits) > 0 {
		last := res.hits[len(res.hits)-1]
		out.NextCursor = search.EncodeCursor(q.Sort, cursorValues(q.Sort, last.score, last.id, nil))
	}
	cov, err := b.Coverage(ctx)
	if err != nil {
		return search.Result{}, err
	}
	out.Scope = record.NewScope(q.Searched(k), cov, out.Total)
	out.Scope.MatchedRelation = out.TotalRelation
	return out, nil
}
