package opensearch

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/mappings"
)

// The entity views read the entries index (search.Entry documents behind
// the <prefix>-entries alias) and aggregate over notices. Queries mean the
// same as in the embedded engine: see internal/search/entities.go.

var _ search.EntityBackend = (*Backend)(nil)

func (b *Backend) entries() string { return b.Alias(mappings.Entries) }

// entryDoc is what an entry is indexed as: its JSON plus the engine field
// pin_key (the PIN as entity.NormalizePIN compares it).
type entryDoc struct {
	search.Entry
	PINKey string `json:"pin_key,omitempty"`
}

// UpsertEntries writes entries in one _bulk request and waits until they
// are visible to searches (refresh=wait_for).
func (b *Backend) UpsertEntries(ctx context.Context, entries []search.Entry) error {
	if len(entries) == 0 {
		return nil
	}
	w := newBulkWriter()
	for _, e := range entries {
		if e.ID == "" || e.Source == "" || e.Kind == "" {
			return record.Invalid("id", "an entry needs an id, a source and a kind")
		}
		if err := w.index(b.entries(), e.ID, entryDoc{Entry: e, PINKey: entity.NormalizePIN(e.PIN)}); err != nil {
			return err
		}
	}
	return b.bulkVisible(ctx, w)
}

// DeleteEntries removes entries by id.
func (b *Backend) DeleteEntries(ctx context.Context, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	w := newBulkWriter()
	for _, id := range ids {
		if err := w.delete(b.entries(), id); err != nil {
			return err
		}
	}
	return b.bulkVisible(ctx, w)
}

func (b *Backend) bulkVisible(ctx context.Context, w *bulkWriter) error {
	return b.sendBulk(ctx, "bulk entries", w, "wait_for")
}

// entrySorts: dated entries first, oldest first, then by id.
var entrySorts = []sortKey{{field: "date", missing: true, numeric: true}, {field: "id"}}

func entryFilter(q search.EntryQuery) obj {
	pins := make([]string, 0, len(q.PINs))
	for _, p := range q.PINs {
		pins = append(pins, entity.NormalizePIN(p))
	}
	var filter []any
	for _, f := range []struct {
		field  string
		values []string
	}{
		{"kind", q.Kinds}, {"source", q.Sources}, {"id", q.IDs}, {"pin_key", pins}, {"pin_base", q.PINBases},
		{"contract_id", q.ContractIDs}, {"vendor_stem", q.VendorStems}, {"agency_id", q.AgencyIDs}, {"bbl", q.BBLs},
	} {
		if len(f.values) > 0 {
			filter = append(filter, terms(f.field, f.values))
		}
	}
	return boolQuery(nil, nil, filter, nil)
}

// validSum is the sub-aggregation that sums valid amounts.
func validSum() obj {
	return obj{"filter": obj{"term": obj{"amount_valid": true}}, "aggs": obj{"sum": obj{"sum": obj{"field": "amount"}}}}
}

// entrySearchBody is the _search body of a normalized entry query.
func entrySearchBody(q search.EntryQuery) (obj, error) {
	body := obj{
		"query":            entryFilter(q),
		"size":             q.Limit,
		"sort":             sortSpecs(entrySorts),
		"track_total_hits": true,
	}
	vals, err := search.DecodeCursor("entries", q.Cursor)
	if err != nil {
		return nil, err
	}
	if vals != nil {
		after, err := searchAfter(entrySorts, vals)
		if err != nil {
			return nil, err
		}
		body["search_after"] = after
	}
	if q.Totals {
		body["aggs"] = obj{"kinds": obj{
			"terms": obj{"field": "kind", "size": 100},
			"aggs": obj{"years": obj{
				"terms": obj{"field": "fiscal_year", "size": 1000, "missing": 0},
				"aggs":  obj{"valid": validSum()},
			}},
		}}
	}
	return body, nil
}

// bucketAgg is a bucket with the valid-amount sub-aggregation.
type bucketAgg struct {
	Key      json.RawMessage `json:"key"`
	DocCount int             `json:"doc_count"`
	Valid    *struct {
		DocCount int       `json:"doc_count"`
		Sum      metricAgg `json:"sum"`
	} `json:"valid"`
}

func (bk bucketAgg) valid() (int, float64) {
	if bk.Valid == nil {
		return 0, 0
	}
	v := 0.0
	if bk.Valid.Sum.Value != nil {
		v = *bk.Valid.Sum.Value
	}
	return bk.Valid.DocCount, search.RoundCents(v)
}

// Entries reads a page of entries and, when asked, totals by kind and
// fiscal year.
func (b *Backend) Entries(ctx context.Context, q search.EntryQuery) (search.EntryResult, error) {
	if err := q.Normalize(); err != nil {
		return search.EntryResult{}, err
	}
	body, err := entrySearchBody(q)
	if err != nil {
		return search.EntryResult{}, err
	}
	res, err := b.search(ctx, "search entries", b.entries(), body)
	if err != nil {
		return search.EntryResult{}, err
	}
	out := search.EntryResult{Entries: make([]search.Entry, 0, len(res.Hits.Hits)), Total: res.Hits.Total.Value}
	for _, h := range res.Hits.Hits {
		var d entryDoc
		if err := json.Unmarshal(h.Source, &d); err != nil {
			return search.EntryResult{}, unreadable("entry", h.ID, err)
		}
		out.Entries = append(out.Entries, d.Entry)
	}
	if len(res.Hits.Hits) == q.Limit && q.Limit > 0 {
		if vals, ok := cursorValues(res.Hits.Hits[len(res.Hits.Hits)-1].Sort); ok && len(vals) > 0 {
			out.NextCursor = search.EncodeCursor("entries", vals)
		}
	}
	if q.Totals {
		var kinds struct {
			Buckets []struct {
				Key   json.RawMessage `json:"key"`
				Years struct {
					Buckets []bucketAgg `json:"buckets"`
				} `json:"years"`
			} `json:"buckets"`
		}
		if raw := res.Aggregations["kinds"]; raw != nil {
			if err := json.Unmarshal(raw, &kinds); err != nil {
				return out, fmt.Errorf("opensearch: entry totals: %w", err)
			}
		}
		out.Totals = []search.EntryTotal{}
		for _, k := range kinds.Buckets {
			for _, y := range k.Years.Buckets {
				fy, _ := strconv.Atoi(bucketKey(y.Key))
				n, sum := y.valid()
				out.Totals = append(out.Totals, search.EntryTotal{Kind: bucketKey(k.Key), FiscalYear: fy,
					Count: y.DocCount, ValidAmounts: n, Amount: sum})
			}
		}
		search.SortEntryTotals(out.Totals)
	}
	return out, nil
}

// EntryCoverage reports, per source and kind, the entries held, their first
// and last dates (New York days) and the latest observation with its label.
func (b *Backend) EntryCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	res, err := b.search(ctx, "entry coverage", b.entries(), obj{
		"size": 0,
		"aggs": obj{"sources": obj{
			"terms": obj{"field": "source", "size": maxSources},
			"aggs": obj{"kinds": obj{
				"terms": obj{"field": "kind", "size": 100},
				"aggs": obj{
					"first": obj{"min": obj{"field": "date"}},
					"last":  obj{"max": obj{"field": "date"}},
					"latest": obj{"top_hits": obj{
						"size":    1,
						"sort":    []any{obj{"observed_at": obj{"order": "desc", "missing": "_last"}}, obj{"id": obj{"order": "asc"}}},
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
			return nil, fmt.Errorf("opensearch: entry coverage: %w", err)
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
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].RecordType < out[j].RecordType
	})
	return out, nil
}

// compositePage is the page size of the composite aggregation that lists
// raw agency strings.
const compositePage = 1000

// AgencyNames lists the distinct raw agency strings of the notices and the
// entries, per source, paging a composite aggregation on each index.
func (b *Backend) AgencyNames(ctx context.Context) ([]search.AgencyName, error) {
	var out []search.AgencyName
	for _, index := range []string{b.notices(), b.entries()} {
		var after any
		for {
			comp := obj{
				"size": compositePage,
				"sources": []any{
					obj{"source": obj{"terms": obj{"field": "source"}}},
					obj{"agency": obj{"terms": obj{"field": "agency_raw"}}},
				},
			}
			if after != nil {
				comp["after"] = after
			}
			res, err := b.search(ctx, "agency names", index, obj{"size": 0, "aggs": obj{"names": obj{"composite": comp}}})
			if err != nil {
				return nil, err
			}
			var agg struct {
				AfterKey json.RawMessage `json:"after_key"`
				Buckets  []struct {
					Key struct {
						Source string `json:"source"`
						Agency string `json:"agency"`
					} `json:"key"`
					DocCount int `json:"doc_count"`
				} `json:"buckets"`
			}
			if raw := res.Aggregations["names"]; raw != nil {
				if err := json.Unmarshal(raw, &agg); err != nil {
					return nil, fmt.Errorf("opensearch: agency names: %w", err)
				}
			}
			for _, bk := range agg.Buckets {
				out = append(out, search.AgencyName{Raw: bk.Key.Agency, Source: bk.Key.Source, Records: bk.DocCount})
			}
			if len(agg.Buckets) < compositePage || len(agg.AfterKey) == 0 {
				break
			}
			var next map[string]any
			if err := json.Unmarshal(agg.AfterKey, &next); err != nil {
				return nil, fmt.Errorf("opensearch: agency names: %w", err)
			}
			after = next
		}
	}
	search.SortAgencyNames(out)
	return out, nil
}

// groupField is the notice field behind a grouping.
var groupField = map[string]string{
	search.GroupVendorStem: "vendor_stem",
	search.GroupVendorName: "vendor_name",
	search.GroupAgencyID:   "agency_id",
	search.GroupAgencyRaw:  "agency_raw",
	search.GroupNoticeType: "notice_type",
	search.GroupSource:     "source",
}

// Fiscal years the fiscal_year grouping can report.
const (
	firstFiscalYear = 1990
	lastFiscalYear  = 2100
)

// maxGroupSize bounds a grouping asked for without a size.
const maxGroupSize = 10000

// noticeTotalsBody is the _search body of NoticeTotals.
func noticeTotalsBody(q search.Query, k search.Keywords, groupBy []string, size int) obj {
	if size <= 0 {
		size = maxGroupSize
	}
	aggs := obj{
		"valid": validSum(),
		"first": obj{"min": obj{"field": "start_date"}},
		"last":  obj{"max": obj{"field": "start_date"}},
	}
	for _, g := range groupBy {
		if g == search.GroupFiscalYear {
			ranges := make([]any, 0, lastFiscalYear-firstFiscalYear+1)
			for fy := firstFiscalYear; fy <= lastFiscalYear; fy++ {
				from, _ := search.FiscalYearRange(fy)
				to, _ := search.FiscalYearRange(fy + 1)
				ranges = append(ranges, obj{"key": strconv.Itoa(fy), "from": from.Format(dateLayout), "to": to.Format(dateLayout)})
			}
			aggs["g_"+g] = obj{"date_range": obj{"field": "start_date", "ranges": ranges}, "aggs": obj{"valid": validSum()}}
			continue
		}
		aggs["g_"+g] = obj{
			"terms": obj{
				"field":   groupField[g],
				"size":    size,
				"order":   []any{obj{"valid>sum": "desc"}, obj{"_count": "desc"}, obj{"_key": "asc"}},
				"exclude": []string{""},
			},
			"aggs": obj{"valid": validSum()},
		}
	}
	return obj{"size": 0, "query": noticeQuery(q, k), "track_total_hits": true, "aggs": aggs}
}

// NoticeTotals aggregates every notice q matches: counts, valid-amount sums,
// first and last publication dates, and the top buckets per grouping.
func (b *Backend) NoticeTotals(ctx context.Context, q search.Query, groupBy []string, size int) (search.Totals, error) {
	if err := search.CheckGroups(groupBy); err != nil {
		return search.Totals{}, err
	}
	q.Limit, q.Cursor, q.Facets, q.Sort = 0, "", false, search.SortNewest
	k, err := q.Normalize()
	if err != nil {
		return search.Totals{}, err
	}
	res, err := b.search(ctx, "notice totals", b.notices(), noticeTotalsBody(q, k, groupBy, size))
	if err != nil {
		return search.Totals{}, err
	}
	t := search.Totals{Count: res.Hits.Total.Value}
	var valid bucketAgg
	if raw := res.Aggregations["valid"]; raw != nil {
		// the filter aggregation is itself the "valid" level
		var v struct {
			DocCount int       `json:"doc_count"`
			Sum      metricAgg `json:"sum"`
		}
		if err := json.Unmarshal(raw, &v); err != nil {
			return t, fmt.Errorf("opensearch: notice totals: %w", err)
		}
		valid.Valid = &v
	}
	t.ValidAmounts, t.Amount = valid.valid()
	var first, last metricAgg
	_ = json.Unmarshal(res.Aggregations["first"], &first)
	_ = json.Unmarshal(res.Aggregations["last"], &last)
	if first.Value != nil {
		t.First = time.UnixMilli(int64(*first.Value)).In(record.NewYork)
	}
	if last.Value != nil {
		t.Last = time.UnixMilli(int64(*last.Value)).In(record.NewYork)
	}
	if len(groupBy) > 0 {
		t.Groups = map[string][]search.Bucket{}
		t.Other = map[string]int{}
	}
	for _, g := range groupBy {
		var agg struct {
			SumOtherDocCount int         `json:"sum_other_doc_count"`
			Buckets          []bucketAgg `json:"buckets"`
		}
		if raw := res.Aggregations["g_"+g]; raw != nil {
			if err := json.Unmarshal(raw, &agg); err != nil {
				return t, fmt.Errorf("opensearch: notice totals %s: %w", g, err)
			}
		}
		bs := []search.Bucket{}
		for _, bk := range agg.Buckets {
			if bk.DocCount == 0 {
				continue
			}
			n, sum := bk.valid()
			bs = append(bs, search.Bucket{Value: bucketKey(bk.Key), Count: bk.DocCount, ValidAmounts: n, Amount: sum})
		}
		search.SortBuckets(g, bs)
		t.Groups[g] = bs
		t.Other[g] = agg.SumOtherDocCount
	}
	return t, nil
}
