package opensearch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"sort"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/osclient"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// searchResponse is the part of a _search answer the engine reads. Sort
// values stay raw so cursors carry them exactly (a long sort value does not
// survive a float64).
type searchResponse struct {
	TimedOut bool `json:"timed_out"`
	Shards   struct {
		Total      int               `json:"total"`
		Successful int               `json:"successful"`
		Failed     int               `json:"failed"`
		Failures   []json.RawMessage `json:"failures"`
	} `json:"_shards"`
	Hits struct {
		Total struct {
			Value    int    `json:"value"`
			Relation string `json:"relation"`
		} `json:"total"`
		Hits []searchHit `json:"hits"`
	} `json:"hits"`
	Aggregations map[string]json.RawMessage `json:"aggregations"`
}

// trackTotalHits is how far a search counts its hits: exactly when the
// exact count is asked for, otherwise one past record.CountLimit, so that
// exactly CountLimit hits is still known to be exact and record.CapCount
// reports what the embedded engine reports.
func trackTotalHits(exact bool) any {
	if exact {
		return true
	}
	return record.CountLimit + 1
}

// count is the hit count to report (record.CapCount).
func (r *searchResponse) count(exact bool) (int, string) {
	return record.CapCount(r.Hits.Total.Value, r.Hits.Total.Relation == "gte", exact)
}

type searchHit struct {
	ID     string            `json:"_id"`
	Score  *float64          `json:"_score"`
	Source json.RawMessage   `json:"_source"`
	Sort   []json.RawMessage `json:"sort"`
}

type termsAgg struct {
	Buckets []struct {
		Key      json.RawMessage `json:"key"`
		DocCount int             `json:"doc_count"`
		First    *metricAgg      `json:"first"`
		Last     *metricAgg      `json:"last"`
		Dated    *datedAgg       `json:"dated"`
	} `json:"buckets"`
}

// datedAgg is the last start date among notices dated before the future
// cutoff (datedLast).
type datedAgg struct {
	Last *metricAgg `json:"last"`
}

func (d *datedAgg) last() *metricAgg {
	if d == nil {
		return nil
	}
	return d.Last
}

// datedLast is the aggregation of the last start date before the future
// cutoff (record.FutureCutoff from now): a notice dated past tomorrow is
// held and counted, but moves no coverage date.
func datedLast(now time.Time) obj {
	return obj{"filter": obj{"range": obj{"start_date": obj{"lt": record.FutureCutoff(now).UnixMilli(), "format": "epoch_millis"}}},
		"aggs": obj{"last": obj{"max": obj{"field": "start_date"}}}}
}

type metricAgg struct {
	Value *float64 `json:"value"`
}

// bucketKey reads a bucket key (a string for keyword fields).
func bucketKey(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// search runs one _search and refuses partial answers.
func (b *Backend) search(ctx context.Context, op, index string, body obj) (*searchResponse, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	pref := pagePreference(body)
	for attempt := 0; ; attempt++ {
		var res searchResponse
		if _, err := b.client.Do(ctx, op, http.MethodPost, opensearchapi.SearchReq{Indices: []string{index}, Body: bytes.NewReader(raw),
			Params: opensearchapi.SearchParams{Preference: pref}}, &res); err != nil {
			return nil, err
		}
		if res.Shards.Failed == 0 && !res.TimedOut {
			return &res, nil
		}
		msg := fmt.Sprintf("the search index answered %s only in part (%d of %d shards failed, timed out: %v)",
			op, res.Shards.Failed, res.Shards.Total, res.TimedOut)
		if len(res.Shards.Failures) > 0 {
			msg += ": " + osclient.Truncate(string(res.Shards.Failures[0]), 300)
		}
		// A shard can fail in a phase OpenSearch does not move to another
		// copy: the fetch phase on a node that has just left the cluster
		// (node_disconnected_exception) — seen when a node was killed under
		// TestClusterSurvivesANodeLoss. A search is read-only, so it is
		// sent again like a request that failed as a whole.
		if !b.retry || attempt == MaxRetries {
			return nil, &record.Error{Code: record.EUNAVAILABLE, Message: msg}
		}
		b.log.Warn("opensearch: search answered in part: sending it again", "op", op, "attempt", attempt+1, "why", msg)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("opensearch: %s: %w (after: %s)", op, ctx.Err(), msg)
		case <-time.After(osclient.Backoff(attempt + 1)):
		}
	}
}

// pagePreference is the search preference of a request: a hash of its body
// without search_after, so every page of one query (and a repeat of it) is
// answered by the same shard copies. With replicas, copies of a shard can
// score the same document differently (each merges and expunges deletes on
// its own), and relevance pages read from different copies could repeat
// or skip hits at a page boundary. If a copy is lost, OpenSearch answers
// from another copy.
func pagePreference(body obj) string {
	rest := make(obj, len(body))
	for k, v := range body {
		if k != "search_after" {
			rest[k] = v
		}
	}
	raw, _ := json.Marshal(rest) // map keys are sorted: the same query, the same hash
	sum := sha256.Sum256(raw)
	return "rw-" + hex.EncodeToString(sum[:8])
}

func unreadable(what, id string, err error) error {
	return &record.Error{Code: record.EUNAVAILABLE, Message: fmt.Sprintf("stored %s %q is unreadable: %v", what, id, err)}
}

// Search runs a notice query.
func (b *Backend) Search(ctx context.Context, q search.Query) (search.Result, error) {
	k, err := q.Normalize()
	if err != nil {
		return search.Result{}, err
	}
	body, err := noticeSearchBody(q, k)
	if err != nil {
		return search.Result{}, err
	}
	res, err := b.search(ctx, "search notices", b.notices(), body)
	if err != nil {
		return search.Result{}, err
	}
	out := search.Result{Hits: make([]search.Hit, 0, len(res.Hits.Hits))}
	out.Total, out.TotalRelation = res.count(q.ExactCount)
	for _, h := range res.Hits.Hits {
		n := record.Notice{RequestID: h.ID}
		if !q.IDsOnly {
			if err := json.Unmarshal(h.Source, &n); err != nil {
				return search.Result{}, unreadable("notice", h.ID, err)
			}
			if q.Brief {
				n = search.BriefNotice(n)
			}
		}
		hit := search.Hit{Notice: n}
		if h.Score != nil {
			hit.Score = *h.Score
		}
		out.Hits = append(out.Hits, hit)
	}
	if len(res.Hits.Hits) == q.Limit && q.Limit > 0 {
		if vals, ok := cursorValues(res.Hits.Hits[len(res.Hits.Hits)-1].Sort); ok && len(vals) > 0 {
			out.NextCursor = search.EncodeCursor(q.Sort, vals)
		}
	}
	if q.Facets {
		out.Facets = map[string][]search.FacetCount{}
		for name := range facetFields {
			fc := []search.FacetCount{}
			if raw, ok := res.Aggregations[name]; ok {
				var agg termsAgg
				if err := json.Unmarshal(raw, &agg); err != nil {
					return search.Result{}, fmt.Errorf("opensearch: facet %s: %w", name, err)
				}
				for _, bk := range agg.Buckets {
					if v := bucketKey(bk.Key); v != "" {
						fc = append(fc, search.FacetCount{Value: v, Count: bk.DocCount})
					}
				}
			}
			out.Facets[name] = search.SortFacet(fc, search.FacetSize)
		}
	}
	cov, err := b.Coverage(ctx)
	if err != nil {
		return search.Result{}, err
	}
	out.Scope = record.NewScope(q.Searched(k), cov, out.Total)
	out.Scope.MatchedRelation = out.TotalRelation
	return out, nil
}

// noticeSearchBody is the _search body of a normalized notice query.
func noticeSearchBody(q search.Query, k search.Keywords) (obj, error) {
	keys := noticeSorts(q.Sort)
	body := obj{
		"query":            noticeQuery(q, k),
		"size":             q.Limit,
		"sort":             sortSpecs(keys),
		"track_total_hits": trackTotalHits(q.ExactCount),
		"_source":          obj{"excludes": hitExcludes},
	}
	if q.IDsOnly {
		body["_source"] = false
	}
	if err := setSearchAfter(body, keys, q.Sort, q.Cursor); err != nil {
		return nil, err
	}
	if !k.Empty() && q.Sort != search.SortRelevance {
		body["track_scores"] = true
	}
	if q.Facets {
		body["aggs"] = facetAggs()
	}
	return body, nil
}

// Get returns one notice by exact request id.
func (b *Backend) Get(ctx context.Context, requestID string) (record.Notice, error) {
	notFound := record.Errorf(record.ENOTFOUND, "no notice with request id %q is held", requestID)
	if requestID == "" {
		return record.Notice{}, notFound
	}
	var res struct {
		Found  bool            `json:"found"`
		Source json.RawMessage `json:"_source"`
		Error  json.RawMessage `json:"error"`
	}
	status, err := b.client.Do(ctx, "get notice", http.MethodGet, opensearchapi.DocumentGetReq{
		Index:      b.notices(),
		DocumentID: requestID,
		Params:     opensearchapi.DocumentGetParams{SourceExcludes: engineSourceFields},
	}, &res, http.StatusNotFound)
	if err != nil {
		return record.Notice{}, err
	}
	if status == http.StatusNotFound && len(res.Error) > 0 {
		// the index itself is missing
		body := append(append([]byte(`{"error":`), res.Error...), '}')
		return record.Notice{}, b.client.Error("get notice", status, body)
	}
	if !res.Found || status == http.StatusNotFound {
		return record.Notice{}, notFound
	}
	var n record.Notice
	if err := json.Unmarshal(res.Source, &n); err != nil {
		return record.Notice{}, unreadable("notice", requestID, err)
	}
	return n, nil
}

// Passages searches cited passages.
func (b *Backend) Passages(ctx context.Context, q search.PassageQuery) (search.PassageResult, error) {
	k, err := q.Normalize()
	if err != nil {
		return search.PassageResult{}, err
	}
	body, err := passageSearchBody(q, k)
	if err != nil {
		return search.PassageResult{}, err
	}
	res, err := b.search(ctx, "search passages", b.passages(), body)
	if err != nil {
		return search.PassageResult{}, err
	}
	out := search.PassageResult{Passages: make([]search.PassageHit, 0, len(res.Hits.Hits))}
	out.Total, out.TotalRelation = res.count(q.ExactCount)
	for _, h := range res.Hits.Hits {
		var p record.Passage
		if err := json.Unmarshal(h.Source, &p); err != nil {
			return search.PassageResult{}, unreadable("passage", h.ID, err)
		}
		hit := search.PassageHit{Passage: p}
		if h.Score != nil {
			hit.Score = *h.Score
		}
		out.Passages = append(out.Passages, hit)
	}
	if len(res.Hits.Hits) == q.Limit && q.Limit > 0 {
		if vals, ok := cursorValues(res.Hits.Hits[len(res.Hits.Hits)-1].Sort); ok && len(vals) > 0 {
			out.NextCursor = search.EncodeCursor(search.SortRelevance, vals)
		}
	}
	cov, err := b.Coverage(ctx)
	if err != nil {
		return search.PassageResult{}, err
	}
	out.Scope = record.NewScope(q.Searched(k), cov, out.Total)
	out.Scope.MatchedRelation = out.TotalRelation
	return out, nil
}

// passageSearchBody is the _search body of a normalized passage query.
func passageSearchBody(q search.PassageQuery, k search.Keywords) (obj, error) {
	body := obj{
		"query":            passageQuery(q, k),
		"size":             q.Limit,
		"sort":             sortSpecs(passageSorts),
		"track_total_hits": trackTotalHits(q.ExactCount),
	}
	if err := setSearchAfter(body, passageSorts, search.SortRelevance, q.Cursor); err != nil {
		return nil, err
	}
	return body, nil
}

// maxSources bounds the sources coverage reads (there are a handful).
const maxSources = 1000

// Coverage reports, per source, its record and passage counts, first and
// last publication dates (New York days) and its latest observation. It is
// cached for CoverageTTL and dropped on this process's writes.
func (b *Backend) Coverage(ctx context.Context) ([]record.SourceCoverage, error) {
	b.cmu.Lock()
	if b.coverage != nil && b.now().Sub(b.covAt) < CoverageTTL {
		c := slices.Clone(b.coverage)
		b.cmu.Unlock()
		return c, nil
	}
	gen := b.gen
	b.cmu.Unlock()

	sources := map[string]*record.SourceCoverage{}
	obs, err := b.search(ctx, "read observations", b.meta(), obj{
		"size":  maxSources,
		"query": obj{"match_all": obj{}},
		"sort":  []any{obj{"source": obj{"order": "asc"}}},
	})
	if err != nil {
		return nil, err
	}
	for _, h := range obs.Hits.Hits {
		var o observationDoc
		if err := json.Unmarshal(h.Source, &o); err != nil {
			return nil, unreadable("observation", h.ID, err)
		}
		sources[o.Source] = &record.SourceCoverage{Source: o.Source, Label: o.Label, RecordType: o.RecordType, ObservedAt: o.ObservedAt}
	}

	notices, err := b.search(ctx, "notice coverage", b.notices(), obj{
		"size": 0,
		"aggs": obj{"sources": obj{
			"terms": obj{"field": "source", "size": maxSources},
			"aggs": obj{
				"first": obj{"min": obj{"field": "start_date"}},
				"dated": datedLast(b.now()),
			},
		}},
	})
	if err != nil {
		return nil, err
	}
	var agg termsAgg
	if err := json.Unmarshal(notices.Aggregations["sources"], &agg); err != nil && notices.Aggregations["sources"] != nil {
		return nil, fmt.Errorf("opensearch: notice coverage: %w", err)
	}
	for _, bk := range agg.Buckets {
		name := bucketKey(bk.Key)
		c := sources[name]
		if c == nil {
			c = &record.SourceCoverage{Source: name, RecordType: "notice"}
			sources[name] = c
		}
		c.Records = bk.DocCount
		c.FirstSourceDate = nyDay(bk.First)
		c.LastSourceDate = nyDay(bk.Dated.last())
	}

	passages, err := b.search(ctx, "passage coverage", b.passages(), obj{
		"size": 0,
		"aggs": obj{"sources": obj{"terms": obj{"field": "source", "size": maxSources}}},
	})
	if err != nil {
		return nil, err
	}
	agg = termsAgg{}
	if err := json.Unmarshal(passages.Aggregations["sources"], &agg); err != nil && passages.Aggregations["sources"] != nil {
		return nil, fmt.Errorf("opensearch: passage coverage: %w", err)
	}
	for _, bk := range agg.Buckets {
		if c := sources[bucketKey(bk.Key)]; c != nil {
			c.Passages = bk.DocCount
		}
	}

	out := make([]record.SourceCoverage, 0, len(sources))
	for _, c := range sources {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	b.cmu.Lock()
	if b.gen == gen {
		b.coverage, b.covAt = out, b.now()
	}
	b.cmu.Unlock()
	return slices.Clone(out), nil
}

// nyDay turns a min/max date aggregation (epoch milliseconds) into a New
// York calendar day, or "" when there is no value.
func nyDay(m *metricAgg) string {
	if m == nil || m.Value == nil {
		return ""
	}
	return time.UnixMilli(int64(*m.Value)).In(record.NewYork).Format("2006-01-02")
}
