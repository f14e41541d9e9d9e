package embedded

import (
	"context"
	"math"
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

// keywordsInto sets a spec's words, phrases and exclusions on its field:
// a phrase matches through the segment path's phrase matcher (phrase.go,
// cached per segment) and is scored by its words; an excluded word is left
// out through its postings, an excluded phrase (or a word the analyzer
// splits) through the same phrase matcher.
func keywordsInto(spec *topSpec, idx bleve.Index, k search.Keywords) {
	spec.words = analyzedWords(idx, k.Terms)
	if len(k.Phrases) > 0 {
		spec.phrases = phraseQueries(k.Phrases, spec.field)
		spec.scoreWords = analyzedWords(idx, k.Phrases)
	}
	for _, e := range k.Excluded {
		if words := analyzedWords(idx, []string{e}); len(words) == 1 && !strings.Contains(strings.TrimSpace(e), " ") {
			spec.excludeWords = append(spec.excludeWords, words[0])
		} else if len(words) > 0 {
			spec.exclude = append(spec.exclude, phraseQueries([]string{e}, spec.field)...)
		}
	}
}

// afterKeyOf reads a cursor's values: score and id for relevance, sort key
// and id for the other orders.
func afterKeyOf(sortName string, after []string) (*afterKey, error) {
	if after == nil {
		return nil, nil
	}
	bad := record.Invalid("cursor", "cursor is not valid; start again without it")
	if len(after) != 2 || !validCursorKey(sortName, after[0]) {
		return nil, bad
	}
	if sortName != search.SortRelevance {
		return &afterKey{key: after[0], id: after[1]}, nil
	}
	score, err := strconv.ParseFloat(after[0], 64)
	if err != nil {
		return nil, bad
	}
	if math.IsNaN(score) || math.IsInf(score, 0) { // every hit would come after it: page 1 again
		return nil, search.ErrCursorNotNumber
	}
	return &afterKey{score: score, id: after[1]}, nil
}

// noticeSpec is a notice search as the ranked text path's question (or,
// for an order other than relevance, the sorted path's).
func noticeSpec(idx bleve.Index, q search.Query, k search.Keywords, after []string) (topSpec, error) {
	ak, err := afterKeyOf(q.Sort, after)
	if err != nil {
		return topSpec{}, err
	}
	spec := topSpec{
		field: "content", boostField: "title", pivot: NoticePivot,
		keyFilters: keyFilters(q),
		filters:    otherFilters(q),
		limit:      q.Limit,
		after:      ak,
	}
	if !q.IDsOnly {
		spec.load = loadNotice(q.Brief)
	}
	keywordsInto(&spec, idx, k)
	if sk, ok := noticeSortKeys[q.Sort]; ok {
		spec.sortField, spec.sortDesc = sk.field, sk.desc
	}
	if k.Empty() {
		spec.all = true
	}
	if q.Facets {
		spec.facets = noticeFacets
	}
	return spec, nil
}

// searchNotices answers a notice search.
func (b *Backend) searchNotices(ctx context.Context, q search.Query, k search.Keywords, after []string) (search.Result, error) {
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
		if q.IDsOnly {
			out.Hits = append(out.Hits, search.Hit{Notice: record.Notice{RequestID: h.id}, Score: h.score})
			continue
		}
		out.Hits = append(out.Hits, search.Hit{Notice: *h.notice, Score: h.score})
	}
	if len(res.hits) == q.Limit && len(res.hits) > 0 {
		last := res.hits[len(res.hits)-1]
		vals := []string{strconv.FormatFloat(last.score, 'g', -1, 64), last.id}
		if spec.sortField != "" {
			vals = []string{last.key, last.id}
		}
		out.NextCursor = search.EncodeCursor(q.Sort, vals)
	}
	cov, err := b.Coverage(ctx)
	if err != nil {
		return search.Result{}, err
	}
	out.Scope = record.NewScope(q.Searched(k), cov, out.Total)
	out.Scope.MatchedRelation = out.TotalRelation
	return out, nil
}

// passageKeyFilters are a passage query's exact-value filters, by keyword
// field.
func passageKeyFilters(q search.PassageQuery) map[string][]string {
	out := map[string][]string{}
	for field, vals := range map[string][]string{"lenses": q.Lenses, "agency_id": q.AgencyIDs, "source": q.Sources} {
		if len(vals) > 0 {
			out[field] = vals
		}
	}
	if q.RequestID != "" {
		out["request_id"] = []string{q.RequestID}
	}
	return out
}

// passageSpec is a passage search with keywords as the ranked text path's
// question.
func passageSpec(idx bleve.Index, q search.PassageQuery, k search.Keywords, after []string) (topSpec, error) {
	ak, err := afterKeyOf(search.SortRelevance, after)
	if err != nil {
		return topSpec{}, err
	}
	spec := topSpec{field: "text", pivot: PassagePivot, limit: q.Limit, after: ak, load: loadDoc, keyFilters: passageKeyFilters(q)}
	if !q.From.IsZero() || !q.To.IsZero() {
		spec.filters = append(spec.filters, dateRange("start_date", q.From, q.To))
	}
	keywordsInto(&spec, idx, k)
	return spec, nil
}

// searchPassages answers a passage search with keywords.
func (b *Backend) searchPassages(ctx context.Context, q search.PassageQuery, k search.Keywords, after []string) (search.PassageResult, error) {
	spec, err := passageSpec(b.passages, q, k, after)
	if err != nil {
		return search.PassageResult{}, err
	}
	res, err := b.topPassages.search(ctx, spec)
	if err != nil {
		return search.PassageResult{}, unavailable(err)
	}
	return b.passageResult(ctx, q, k, res.total, res.hits)
}
