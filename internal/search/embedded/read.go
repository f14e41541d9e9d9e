package embedded

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/blevesearch/bleve/v2"
	bsearch "github.com/blevesearch/bleve/v2/search"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Passages searches cited passages.
func (b *Backend) Passages(ctx context.Context, q search.PassageQuery) (search.PassageResult, error) {
	k, err := q.Normalize()
	if err != nil {
		return search.PassageResult{}, err
	}
	after, err := search.DecodeCursor(search.SortRelevance, q.Cursor)
	if err != nil {
		return search.PassageResult{}, err
	}
	if !k.Empty() {
		return b.searchPassages(ctx, q, k, after)
	}
	// no words: every passage the filters keep, in id order (equal scores)
	bq := bleve.NewBooleanQuery()
	for field, vals := range passageKeyFilters(q) {
		bq.AddMust(terms(field, vals))
	}
	if !q.From.IsZero() || !q.To.IsZero() {
		bq.AddMust(dateRange("start_date", q.From, q.To))
	}
	for _, e := range exclusions(k, "text") {
		bq.AddMustNot(e)
	}
	if bq.Must == nil {
		bq.AddMust(bleve.NewMatchAllQuery())
	}
	req := bleve.NewSearchRequestOptions(bq, q.Limit, 0, false)
	req.Fields = []string{"doc"}
	req.SortByCustom(bsearch.SortOrder{&bsearch.SortScore{Desc: true}, keySort("id", false)})
	if after != nil {
		if len(after) != 2 {
			return search.PassageResult{}, record.Invalid("cursor", "cursor is not valid; start again without it")
		}
		req.SearchAfter = after
	}
	res, err := b.passages.SearchInContext(ctx, req)
	if err != nil {
		return search.PassageResult{}, unavailable(err)
	}
	hits := make([]topHit, 0, len(res.Hits))
	for _, h := range res.Hits {
		doc, _ := h.Fields["doc"].(string)
		hits = append(hits, topHit{id: h.ID, score: h.Score, doc: doc})
	}
	return b.passageResult(ctx, q, k, int(res.Total), hits)
}

// passageResult is a page of passages: their stored documents decoded, the
// count, the cursor after the last and the scope.
func (b *Backend) passageResult(ctx context.Context, q search.PassageQuery, k search.Keywords, total int, hits []topHit) (search.PassageResult, error) {
	out := search.PassageResult{Passages: []search.PassageHit{}}
	out.Total, out.TotalRelation = record.CapCount(total, false, q.ExactCount)
	docs := make([]string, len(hits))
	for i, h := range hits {
		docs[i] = h.doc
	}
	ps, err := passageTexts(ctx, b.notices, docs)
	if err != nil {
		return search.PassageResult{}, err
	}
	for i, p := range ps {
		out.Passages = append(out.Passages, search.PassageHit{Passage: p, Score: hits[i].score})
	}
	if len(hits) == q.Limit && len(hits) > 0 {
		last := hits[len(hits)-1]
		out.NextCursor = search.EncodeCursor(search.SortRelevance, []string{strconv.FormatFloat(last.score, 'g', -1, 64), last.id})
	}
	cov, err := b.Coverage(ctx)
	if err != nil {
		return search.PassageResult{}, err
	}
	out.Scope = record.NewScope(q.Searched(k), cov, out.Total)
	out.Scope.MatchedRelation = out.TotalRelation
	return out, nil
}

// observations reads every source observation.
func (b *Backend) observations() map[string]search.Observation {
	out := map[string]search.Observation{}
	v, err := b.notices.GetInternal(observationsKey)
	if err == nil && v != nil {
		_ = json.Unmarshal(v, &out)
	}
	return out
}
