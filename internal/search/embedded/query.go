package embedded

import (
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/recordwatch/recordwatch/internal/search"
)

// keywordQuery: words and phrases OR-matched on field (nil when there are
// none). Bleve only decides which documents match with it (entity totals,
// keyword-less passage browsing): ranking is the segment path's (topk.go).
func keywordQuery(k search.Keywords, field string) query.Query {
	pos := phraseQueries(k.Phrases, field)
	for _, t := range k.Terms {
		m := bleve.NewMatchQuery(t)
		m.SetField(field)
		m.Analyzer = analyzerName
		pos = append(pos, m)
	}
	if len(pos) == 0 {
		return nil
	}
	d := bleve.NewDisjunctionQuery(pos...)
	d.SetMin(1)
	return d
}

func exclusions(k search.Keywords, field string) []query.Query {
	return phraseQueries(k.Excluded, field)
}

// phraseQueries are Bleve phrase queries for phrases on field.
func phraseQueries(phrases []string, field string) []query.Query {
	var out []query.Query
	for _, p := range phrases {
		m := bleve.NewMatchPhraseQuery(p)
		m.SetField(field)
		m.Analyzer = analyzerName
		out = append(out, m)
	}
	return out
}

func terms(field string, values []string) query.Query {
	if len(values) == 1 {
		t := bleve.NewTermQuery(values[0])
		t.SetField(field)
		return t
	}
	qs := make([]query.Query, 0, len(values))
	for _, v := range values {
		t := bleve.NewTermQuery(v)
		t.SetField(field)
		qs = append(qs, t)
	}
	return bleve.NewDisjunctionQuery(qs...)
}

// prefixes matches keyword values that start with any of values.
func prefixes(field string, values []string) query.Query {
	qs := make([]query.Query, 0, len(values))
	for _, v := range values {
		p := bleve.NewPrefixQuery(v)
		p.SetField(field)
		qs = append(qs, p)
	}
	if len(qs) == 1 {
		return qs[0]
	}
	return bleve.NewDisjunctionQuery(qs...)
}

func dateRange(field string, from, to time.Time) query.Query {
	var start, end time.Time
	if !from.IsZero() {
		start = search.DayStart(from)
	}
	if !to.IsZero() {
		end = search.DayEnd(to)
	}
	t := true
	q := bleve.NewDateRangeInclusiveQuery(start, end, &t, &t)
	q.SetField(field)
	return q
}

func boolIs(field string, v bool) query.Query {
	q := bleve.NewBoolFieldQuery(v)
	q.SetField(field)
	return q
}

// noticeQuery compiles a notice query: keywords must match (any of them),
// every filter narrows, exclusions remove.
func noticeQuery(q search.Query, k search.Keywords) query.Query {
	bq := bleve.NewBooleanQuery()
	if must := keywordQuery(k, "content"); must != nil {
		bq.AddMust(must)
	}
	for field, vals := range keyFilters(q) {
		bq.AddMust(terms(field, vals))
	}
	for _, f := range otherFilters(q) {
		bq.AddMust(f)
	}
	for _, e := range exclusions(k, "content") {
		bq.AddMustNot(e)
	}
	if bq.Must == nil {
		bq.AddMust(bleve.NewMatchAllQuery())
	}
	return bq
}

// keyFilters are a notice query's exact-value filters, by keyword field.
func keyFilters(q search.Query) map[string][]string {
	out := map[string][]string{}
	for field, vals := range map[string][]string{
		"lenses": q.Lenses, "section": q.Sections, "notice_type": q.NoticeTypes,
		"agency_id": q.AgencyIDs, "vendor_stem": q.VendorStems, "pin": q.PINs, "source": q.Sources,
		"request_id": q.RequestIDs,
	} {
		if len(vals) > 0 {
			out[field] = vals
		}
	}
	return out
}

// otherFilters are a notice query's other filters: PIN prefixes, amounts,
// dates and flags.
func otherFilters(q search.Query) []query.Query {
	var out []query.Query
	if len(q.PINPrefixes) > 0 {
		out = append(out, prefixes("pin", q.PINPrefixes))
	}
	if q.ValidAmountOnly {
		out = append(out, boolIs("amount_valid", true))
	}
	if q.MinAmount != nil || q.MaxAmount != nil {
		t := true
		r := bleve.NewNumericRangeInclusiveQuery(q.MinAmount, q.MaxAmount, &t, &t)
		r.SetField("amount")
		out = append(out, r)
	}
	if !q.From.IsZero() || !q.To.IsZero() {
		out = append(out, dateRange("start_date", q.From, q.To))
	}
	if !q.DueFrom.IsZero() || !q.DueTo.IsZero() {
		due := dateRange("due_date", q.DueFrom, q.DueTo)
		if q.IncludeRolling {
			out = append(out, bleve.NewDisjunctionQuery(due, boolIs("due_rolling", true)))
		} else {
			out = append(out, due)
		}
	}
	if !q.EventFrom.IsZero() || !q.EventTo.IsZero() {
		out = append(out, dateRange("event_date", q.EventFrom, q.EventTo))
	}
	return out
}
