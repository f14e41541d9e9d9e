package opensearch

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/mappings"
)

// Records live in <prefix>-records (mappings/records.v1.json): one
// document per record, _id search.RecordDocID, the record's JSON plus the
// engine field valid_amount (the amount when it is valid, which sorts,
// ranges and sums read). Keys are an object of keywords (keys.<name>).
// Queries mean what search.RecordQuery.Matches and search.RecordLess say.
//
// Upgrading from the retired entries index (<prefix>-entries.v1): Open
// leaves it alone and does not copy it; the payments, contracts and lots
// are loaded again into Records (indexer.EnsureSampleRecords), then the
// old index is removed by hand.

var _ search.Records = (*Backend)(nil)

func (b *Backend) records() string { return b.Alias(mappings.Records) }

type recordDoc struct {
	search.Record
	ValidAmount *float64 `json:"valid_amount,omitempty"`
	// Vector is Record.Vector, the knn_vector field (nearest.go).
	Vector []float32 `json:"vector,omitempty"`
}

// PutRecords writes records in one _bulk request and waits until they are
// visible to searches (refresh=wait_for).
func (b *Backend) PutRecords(ctx context.Context, rs []search.Record) error {
	if len(rs) == 0 {
		return nil
	}
	w := newBulkWriter()
	for _, r := range rs {
		if err := search.CheckRecord(r); err != nil {
			return err
		}
		d := recordDoc{Record: r, Vector: r.Vector}
		if r.AmountValid {
			a := r.Amount
			d.ValidAmount = &a
		}
		if err := w.index(b.records(), search.RecordDocID(r.Kind, r.ID), d); err != nil {
			return err
		}
	}
	return b.sendBulk(ctx, "bulk records", w, "wait_for")
}

// DeleteRecords removes records of one kind by id.
func (b *Backend) DeleteRecords(ctx context.Context, kind string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	w := newBulkWriter()
	for _, id := range ids {
		if err := w.delete(b.records(), search.RecordDocID(kind, id)); err != nil {
			return err
		}
	}
	return b.sendBulk(ctx, "bulk delete records", w, "wait_for")
}

func decodeRecordHit(h searchHit) (search.Record, error) {
	var d recordDoc
	if err := json.Unmarshal(h.Source, &d); err != nil {
		return search.Record{}, unreadable("record", h.ID, err)
	}
	return d.Record, nil
}

// GetRecord returns one record by kind and id.
func (b *Backend) GetRecord(ctx context.Context, kind, id string) (search.Record, error) {
	res, err := b.search(ctx, "get record", b.records(), obj{
		"size":  1,
		"query": obj{"ids": obj{"values": []string{search.RecordDocID(kind, id)}}},
	})
	if err != nil {
		return search.Record{}, err
	}
	if len(res.Hits.Hits) == 0 {
		return search.Record{}, record.Errorf(record.ENOTFOUND, "no %s with id %q is held", kind, id)
	}
	return decodeRecordHit(res.Hits.Hits[0])
}

// recordFilter is the bool query of a normalized record query.
func recordFilter(q search.RecordQuery) obj {
	var filter []any
	for _, f := range []struct {
		field  string
		values []string
	}{{"kind", q.Kinds}, {"source", q.Sources}, {"id", q.IDs}} {
		if len(f.values) > 0 {
			filter = append(filter, terms(f.field, f.values))
		}
	}
	names := make([]string, 0, len(q.Keys))
	for name := range q.Keys {
		names = append(names, name)
	}
	slices.Sort(names) // one request shape for one query
	for _, name := range names {
		if vs := q.Keys[name]; len(vs) > 0 {
			filter = append(filter, terms("keys."+name, vs))
		}
	}
	if !q.From.IsZero() || !q.To.IsZero() {
		r := obj{}
		if !q.From.IsZero() {
			r["gte"] = q.From.UTC().Format(dateLayout)
		}
		if !q.To.IsZero() {
			r["lte"] = q.To.UTC().Format(dateLayout)
		}
		filter = append(filter, obj{"range": obj{"date": r}})
	}
	if q.ValidAmountOnly {
		filter = append(filter, obj{"exists": obj{"field": "valid_amount"}})
	}
	if q.MinAmount != nil || q.MaxAmount != nil {
		r := obj{}
		if q.MinAmount != nil {
			r["gte"] = *q.MinAmount
		}
		if q.MaxAmount != nil {
			r["lte"] = *q.MaxAmount
		}
		filter = append(filter, obj{"range": obj{"valid_amount": r}})
	}
	return boolQuery(nil, nil, filter, nil)
}

// recordSorts is the order of a record sort: its key, then id, then kind.
func recordSorts(name string) []sortKey {
	tie := []sortKey{{field: "id"}, {field: "kind"}}
	switch name {
	case search.RecordSortDate:
		return append([]sortKey{{field: "date", missing: true, numeric: true}}, tie...)
	case search.RecordSortDateDesc:
		return append([]sortKey{{field: "date", desc: true, missing: true, numeric: true}}, tie...)
	case search.RecordSortAmount:
		return append([]sortKey{{field: "valid_amount", desc: true, missing: true, numeric: true}}, tie...)
	}
	return tie
}

// recordSearchBody is the _search body of a normalized record query.
func recordSearchBody(q search.RecordQuery) (obj, error) {
	keys := recordSorts(q.Sort)
	body := obj{
		"query":            recordFilter(q),
		"size":             q.Limit,
		"sort":             sortSpecs(keys),
		"track_total_hits": true,
	}
	if err := setSearchAfter(body, keys, q.CursorSort(), q.Cursor); err != nil {
		return nil, err
	}
	return body, nil
}

// FindRecords reads a page of records in the query's order.
func (b *Backend) FindRecords(ctx context.Context, q search.RecordQuery) (search.RecordPage, error) {
	if err := q.Normalize(); err != nil {
		return search.RecordPage{}, err
	}
	body, err := recordSearchBody(q)
	if err != nil {
		return search.RecordPage{}, err
	}
	res, err := b.search(ctx, "find records", b.records(), body)
	if err != nil {
		return search.RecordPage{}, err
	}
	out := search.RecordPage{Records: make([]search.Record, 0, len(res.Hits.Hits)), Total: res.Hits.Total.Value}
	for _, h := range res.Hits.Hits {
		r, err := decodeRecordHit(h)
		if err != nil {
			return out, err
		}
		out.Records = append(out.Records, r)
	}
	if n := len(res.Hits.Hits); n == q.Limit && n > 0 {
		if vals, ok := cursorValues(res.Hits.Hits[n-1].Sort); ok && len(vals) > 0 {
			out.NextCursor = search.EncodeCursor(q.CursorSort(), vals)
		}
	}
	return out, nil
}

// recordValidSum sums valid amounts.
func recordValidSum() obj {
	return obj{"filter": obj{"exists": obj{"field": "valid_amount"}}, "aggs": obj{"sum": obj{"sum": obj{"field": "valid_amount"}}}}
}

// recordGroupField is the field behind a record grouping.
func recordGroupField(g string) string {
	switch g {
	case search.GroupByKind:
		return "kind"
	case search.GroupBySource:
		return "source"
	}
	return "keys." + g
}

// recordTotalsBody is the _search body of RecordTotals.
func recordTotalsBody(q search.RecordQuery, groupBy []string, size int) obj {
	aggs := obj{
		"valid": recordValidSum(),
		"first": obj{"min": obj{"field": "date"}},
		"last":  obj{"max": obj{"field": "date"}},
	}
	for i, g := range groupBy {
		name := "g" + strconv.Itoa(i)
		if g == search.GroupByFiscalYear {
			ranges := make([]any, 0, lastFiscalYear-firstFiscalYear+1)
			for fy := firstFiscalYear; fy <= lastFiscalYear; fy++ {
				from, _ := search.FiscalYearRange(fy)
				to, _ := search.FiscalYearRange(fy + 1)
				ranges = append(ranges, obj{"key": strconv.Itoa(fy), "from": from.Format(dateLayout), "to": to.Format(dateLayout)})
			}
			aggs[name] = obj{"date_range": obj{"field": "date", "ranges": ranges}, "aggs": obj{"valid": recordValidSum()}}
			continue
		}
		if g == search.GroupByDay {
			// New York days with at least one record, each keyed by its
			// day (key_as_string); the engine returns them whole
			aggs[name] = obj{"date_histogram": obj{"field": "date", "calendar_interval": "day", "time_zone": "America/New_York",
				"min_doc_count": 1, "format": "yyyy-MM-dd"}, "aggs": obj{"valid": recordValidSum()}}
			continue
		}
		aggs[name] = obj{
			"terms": obj{
				"field": recordGroupField(g),
				"size":  size,
				// every shard reports every value it has (up to the bound),
				// so sums and counts are exact over several shards
				"shard_size": search.MaxRecordGroups,
				"order":      []any{obj{"valid>sum": "desc"}, obj{"_count": "desc"}, obj{"_key": "asc"}},
			},
			"aggs": obj{"valid": recordValidSum()},
		}
	}
	return obj{"size": 0, "query": recordFilter(q), "track_total_hits": true, "aggs": aggs}
}

// RecordTotals aggregates every record q matches.
func (b *Backend) RecordTotals(ctx context.Context, q search.RecordQuery, groupBy []string, size int) (search.Totals, error) {
	if err := search.CheckGroupBy(groupBy); err != nil {
		return search.Totals{}, err
	}
	q.Limit, q.Cursor, q.Sort = 0, "", ""
	if err := q.Normalize(); err != nil {
		return search.Totals{}, err
	}
	if size <= 0 || size > search.MaxRecordGroups {
		size = search.MaxRecordGroups
	}
	res, err := b.search(ctx, "record totals", b.records(), recordTotalsBody(q, groupBy, size))
	if err != nil {
		return search.Totals{}, err
	}
	t := search.Totals{Count: res.Hits.Total.Value}
	if raw := res.Aggregations["valid"]; raw != nil {
		var v struct {
			DocCount int       `json:"doc_count"`
			Sum      metricAgg `json:"sum"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return t, fmt.Errorf("opensearch: record totals: %w", err)
		}
		t.ValidAmounts, t.Amount = bucketAgg{Valid: &v}.valid()
	}
	var first, last metricAgg
	_ = json.Unmarshal(res.Aggregations["first"], &first)
	_ = json.Unmarshal(res.Aggregations["last"], &last)
	if first.Value != nil {
		t.First = time.UnixMilli(int64(*first.Value)).UTC()
	}
	if last.Value != nil {
		t.Last = time.UnixMilli(int64(*last.Value)).UTC()
	}
	if len(groupBy) > 0 {
		t.Groups = map[string][]search.Bucket{}
		t.Other = map[string]int{}
	}
	for i, g := range groupBy {
		bs, other, err := groupBuckets(res.Aggregations["g"+strconv.Itoa(i)])
		if err != nil {
			return t, fmt.Errorf("opensearch: record totals %s: %w", g, err)
		}
		search.SortRecordBuckets(bs)
		if len(bs) > size { // date ranges come back whole
			for _, bk := range bs[size:] {
				other += bk.Count
			}
			bs = bs[:size]
		}
		t.Groups[g] = bs
		t.Other[g] = other
	}
	return t, nil
}

// RecordCoverage reports, per source and kind, the records held, their
// first and last dates (New York days) and the latest observation with its
// label.
func (b *Backend) RecordCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	res, err := b.search(ctx, "record coverage", b.records(), obj{
		"size": 0,
		"aggs": obj{"sources": obj{
			"terms": obj{"field": "source", "size": maxSources},
			"aggs": obj{"kinds": obj{
				"terms": obj{"field": "kind", "size": 1000},
				"aggs": obj{
					"first": obj{"min": obj{"field": "date"}},
					"last":  obj{"max": obj{"field": "date"}},
					"latest": obj{"top_hits": obj{
						"size": 1,
						"sort": []any{obj{"observed_at": obj{"order": "desc", "missing": "_last"}},
							obj{"id": obj{"order": "asc"}}, obj{"kind": obj{"order": "asc"}}},
						"_source": obj{"includes": []string{"observed_at", "source_label"}},
					}},
				},
			}},
		}},
	})
	if err != nil {
		return nil, err
	}
	var agg struct {
		Buckets []struct {
			Key   json.RawMessage `json:"key"`
			Kinds struct {
				Buckets []struct {
					Key      json.RawMessage `json:"key"`
					DocCount int             `json:"doc_count"`
					First    metricAgg       `json:"first"`
					Last     metricAgg       `json:"last"`
					Latest   struct {
						Hits struct {
							Hits []struct {
								Source struct {
									ObservedAt  time.Time `json:"observed_at"`
									SourceLabel string    `json:"source_label"`
								} `json:"_source"`
							} `json:"hits"`
						} `json:"hits"`
					} `json:"latest"`
				} `json:"buckets"`
			} `json:"kinds"`
		} `json:"buckets"`
	}
	if raw := res.Aggregations["sources"]; raw != nil {
		if err := json.Unmarshal(raw, &agg); err != nil {
			return nil, fmt.Errorf("opensearch: record coverage: %w", err)
		}
	}
	out := []record.SourceCoverage{}
	for _, s := range agg.Buckets {
		for _, k := range s.Kinds.Buckets {
			c := record.SourceCoverage{Source: bucketKey(s.Key), RecordType: bucketKey(k.Key), Records: k.DocCount,
				FirstSourceDate: nyDay(&k.First), LastSourceDate: nyDay(&k.Last)}
			if hs := k.Latest.Hits.Hits; len(hs) > 0 {
				c.ObservedAt, c.Label = hs[0].Source.ObservedAt, hs[0].Source.SourceLabel
			}
			out = append(out, c)
		}
	}
	search.SortRecordCoverage(out)
	return out, nil
}
