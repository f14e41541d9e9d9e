package opensearch

import (
	"encoding/json"
	"math"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// obj is a JSON object of the query DSL. encoding/json writes map keys in
// order, so a request body is the same bytes every time.
type obj = map[string]any

// dateLayout is how range bounds are sent: millisecond precision with the
// New York offset (date fields hold milliseconds).
const dateLayout = "2006-01-02T15:04:05.000Z07:00"

// keywordClauses compiles keywords for field: the positive clause (any word
// or phrase must match, nil when there are none), title boosts (optional
// clauses that raise the score without changing the hits) and exclusions.
func keywordClauses(k search.Keywords, field, titleField string) (positive obj, boosts, excluded []any) {
	var should []any
	for _, t := range k.Terms {
		should = append(should, obj{"match": obj{field: obj{"query": t, "operator": "or"}}})
		if titleField != "" {
			boosts = append(boosts, obj{"match": obj{titleField: obj{"query": t, "operator": "or"}}})
		}
	}
	for _, p := range k.Phrases {
		should = append(should, obj{"match_phrase": obj{field: obj{"query": p}}})
		if titleField != "" {
			boosts = append(boosts, obj{"match_phrase": obj{titleField: obj{"query": p}}})
		}
	}
	if len(should) > 0 {
		positive = obj{"bool": obj{"should": should, "minimum_should_match": 1}}
	}
	// exclusions are phrases, one word or several (as in the embedded
	// engine): a word the tokenizer splits in two (e.g. CJK) is excluded
	// only where its pieces stand together
	for _, e := range k.Excluded {
		excluded = append(excluded, obj{"match_phrase": obj{field: obj{"query": e}}})
	}
	return positive, boosts, excluded
}

func terms(field string, values []string) obj {
	return obj{"terms": obj{field: values}}
}

// dateRange bounds field by whole New York days, inclusive; nil when both
// ends are open.
func dateRange(field string, from, to time.Time) obj {
	if from.IsZero() && to.IsZero() {
		return nil
	}
	r := obj{}
	if !from.IsZero() {
		r["gte"] = search.DayStart(from).Format(dateLayout)
	}
	if !to.IsZero() {
		r["lte"] = search.DayEnd(to).Format(dateLayout)
	}
	return obj{"range": obj{field: r}}
}

// boolQuery assembles a bool query; with no positive clause it matches
// everything the filters let through.
func boolQuery(positive obj, boosts, filter, excluded []any) obj {
	must := []any{obj{"match_all": obj{}}}
	if positive != nil {
		must = []any{positive}
	}
	b := obj{"must": must}
	if len(boosts) > 0 {
		b["should"] = boosts
	}
	if len(filter) > 0 {
		b["filter"] = filter
	}
	if len(excluded) > 0 {
		b["must_not"] = excluded
	}
	return obj{"bool": b}
}

// noticeQuery compiles a notice query: keywords on content (title matches
// boost), every filter narrows, exclusions remove.
func noticeQuery(q search.Query, k search.Keywords) obj {
	positive, boosts, excluded := keywordClauses(k, "content", "title")
	var filter []any
	for _, f := range []struct {
		field  string
		values []string
	}{
		{"lenses", q.Lenses}, {"section", q.Sections}, {"notice_type", q.NoticeTypes},
		{"agency_id", q.AgencyIDs}, {"vendor_stem", q.VendorStems}, {"pin", q.PINs}, {"source", q.Sources},
		{"request_id", q.RequestIDs},
	} {
		if len(f.values) > 0 {
			filter = append(filter, terms(f.field, f.values))
		}
	}
	if len(q.PINPrefixes) > 0 {
		var alts []any
		for _, p := range q.PINPrefixes {
			alts = append(alts, obj{"prefix": obj{"pin": obj{"value": p}}})
		}
		filter = append(filter, obj{"bool": obj{"should": alts, "minimum_should_match": 1}})
	}
	if q.ValidAmountOnly {
		filter = append(filter, obj{"term": obj{"amount_valid": true}})
	}
	if q.MinAmount != nil || q.MaxAmount != nil {
		r := obj{}
		if q.MinAmount != nil {
			r["gte"] = *q.MinAmount
		}
		if q.MaxAmount != nil {
			r["lte"] = *q.MaxAmount
		}
		filter = append(filter, obj{"range": obj{"amount": r}})
	}
	if r := dateRange("start_date", q.From, q.To); r != nil {
		filter = append(filter, r)
	}
	if r := dateRange("due_date", q.DueFrom, q.DueTo); r != nil {
		if q.IncludeRolling {
			r = obj{"bool": obj{"should": []any{r, obj{"term": obj{"due_rolling": true}}}, "minimum_should_match": 1}}
		}
		filter = append(filter, r)
	}
	if r := dateRange("event_date", q.EventFrom, q.EventTo); r != nil {
		filter = append(filter, r)
	}
	return boolQuery(positive, boosts, filter, excluded)
}

// passageQuery compiles a passage query: keywords on the passage text.
func passageQuery(q search.PassageQuery, k search.Keywords) obj {
	positive, _, excluded := keywordClauses(k, "text", "")
	var filter []any
	for _, f := range []struct {
		field  string
		values []string
	}{
		{"lenses", q.Lenses}, {"agency_id", q.AgencyIDs}, {"source", q.Sources},
	} {
		if len(f.values) > 0 {
			filter = append(filter, terms(f.field, f.values))
		}
	}
	if q.RequestID != "" {
		filter = append(filter, obj{"term": obj{"request_id": q.RequestID}})
	}
	if r := dateRange("start_date", q.From, q.To); r != nil {
		filter = append(filter, r)
	}
	return boolQuery(positive, nil, filter, excluded)
}

// sortKey is one sort criterion and how its cursor value is typed.
type sortKey struct {
	field   string
	desc    bool
	missing bool // missing values sort last
	numeric bool
}

func (s sortKey) spec() obj {
	o := obj{"order": "asc"}
	if s.desc {
		o["order"] = "desc"
	}
	if s.missing {
		o["missing"] = "_last"
	}
	return obj{s.field: o}
}

// noticeSorts is the sort of each order; ties break on request_id.
func noticeSorts(name string) []sortKey {
	id := sortKey{field: "request_id"}
	switch name {
	case search.SortNewest:
		return []sortKey{{field: "start_date", desc: true, missing: true, numeric: true}, id}
	case search.SortOldest:
		return []sortKey{{field: "start_date", missing: true, numeric: true}, id}
	case search.SortDueSoonest:
		return []sortKey{{field: "due_date", missing: true, numeric: true}, id}
	case search.SortEvent:
		return []sortKey{{field: "event_date", missing: true, numeric: true}, id}
	case search.SortAmount:
		return []sortKey{{field: "amount", desc: true, missing: true, numeric: true}, id}
	default:
		return []sortKey{{field: "_score", desc: true, numeric: true}, id}
	}
}

// passageSorts: best match first, ties by passage id.
var passageSorts = []sortKey{{field: "_score", desc: true, numeric: true}, {field: "id"}}

func sortSpecs(keys []sortKey) []any {
	out := make([]any, 0, len(keys))
	for _, k := range keys {
		out = append(out, k.spec())
	}
	return out
}

// searchAfter turns decoded cursor values back into search_after values:
// numbers stay exact (json.Number), the infinities OpenSearch uses for
// missing doubles stay strings, keywords are strings.
// setSearchAfter decodes a cursor issued for sort and, when there is one,
// sets the body's search_after from it (keys: the sort keys of the body).
func setSearchAfter(body obj, keys []sortKey, sort, cursor string) error {
	vals, err := search.DecodeCursor(sort, cursor)
	if err != nil || vals == nil {
		return err
	}
	after, err := searchAfter(keys, vals)
	if err != nil {
		return err
	}
	body["search_after"] = after
	return nil
}

func searchAfter(keys []sortKey, values []string) ([]any, error) {
	if len(values) != len(keys) {
		return nil, badCursor()
	}
	out := make([]any, len(values))
	for i, v := range values {
		if !keys[i].numeric {
			out[i] = v
			continue
		}
		switch v {
		case "Infinity", "-Infinity":
			out[i] = v
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !json.Valid([]byte(v)) {
			return nil, badCursor()
		}
		out[i] = json.Number(v)
	}
	return out, nil
}

func badCursor() error {
	return record.Invalid("cursor", "cursor is not valid; start again without it")
}

// cursorValues turns a hit's raw sort values into cursor strings.
func cursorValues(raw []json.RawMessage) ([]string, bool) {
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		var s string
		if err := json.Unmarshal(r, &s); err == nil {
			out = append(out, s)
			continue
		}
		var n json.Number
		if err := json.Unmarshal(r, &n); err != nil {
			return nil, false
		}
		out = append(out, n.String())
	}
	return out, true
}

// facetShardSize is how many values of a facet each shard reports. A terms
// aggregation over several shards is exact only when every shard reports
// every value that could make the top FacetSize; OpenSearch's default
// (1.5 × size + 10) is not enough, and a three-shard index counted a
// value short (found by TestClusterSurvivesANodeLoss). The facet fields
// have at most a few hundred values (agencies), so each shard reports all.
const facetShardSize = 1000

// facetAggs are the terms aggregations behind the facets: top FacetSize
// values by count, then value; empty strings are not values.
func facetAggs() obj {
	aggs := obj{}
	for name, field := range facetFields {
		aggs[name] = obj{"terms": obj{
			"field":      field,
			"size":       search.FacetSize,
			"shard_size": facetShardSize,
			"order":      []any{obj{"_count": "desc"}, obj{"_key": "asc"}},
			"exclude":    []string{""},
		}}
	}
	return aggs
}

var facetFields = map[string]string{
	search.FacetLens:   "lenses",
	search.FacetAgency: "agency_id",
	search.FacetType:   "notice_type",
	search.FacetYear:   "year",
}
