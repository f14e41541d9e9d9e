package opensearch

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The notice aggregations (search.NoticeAggregates): the raw agency
// strings of the notices and NoticeTotals. Queries mean the same as in the
// embedded engine.

var _ search.Engine = (*Backend)(nil)

// validSum is the sub-aggregation that sums valid amounts.
func validSum() obj {
	return obj{"filter": obj{"term": obj{"amount_valid": true}}, "aggs": obj{"sum": obj{"sum": obj{"field": "amount"}}}}
}

// bucketAgg is a bucket with the valid-amount sub-aggregation.
// groupBuckets reads a terms aggregation of a totals grouping: its
// non-empty buckets (count, valid amounts and their sum) and the count of
// the documents in buckets left out.
func groupBuckets(raw json.RawMessage) ([]search.Bucket, int, error) {
	var agg struct {
		SumOtherDocCount int         `json:"sum_other_doc_count"`
		Buckets          []bucketAgg `json:"buckets"`
	}
	if raw != nil {
		if err := json.Unmarshal(raw, &agg); err != nil {
			return nil, 0, err
		}
	}
	bs := []search.Bucket{}
	for _, bk := range agg.Buckets {
		if bk.DocCount == 0 {
			continue
		}
		n, sum := bk.valid()
		value := bucketKey(bk.Key)
		if bk.KeyAsString != "" { // a date histogram's buckets: the formatted day
			value = bk.KeyAsString
		}
		bs = append(bs, search.Bucket{Value: value, Count: bk.DocCount, ValidAmounts: n, Amount: sum})
	}
	return bs, agg.SumOtherDocCount, nil
}

type bucketAgg struct {
	Key         json.RawMessage `json:"key"`
	KeyAsString string          `json:"key_as_string"`
	DocCount    int             `json:"doc_count"`
	Valid       *struct {
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

// compositePage is the page size of the composite aggregation that lists
// raw agency strings.
const compositePage = 1000

// NoticeAgencyNames lists the distinct raw agency strings of the notices,
// per source, paging a composite aggregation.
func (b *Backend) NoticeAgencyNames(ctx context.Context) ([]search.AgencyName, error) {
	var out []search.AgencyName
	for _, index := range []string{b.notices()} {
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
				"field": groupField[g],
				"size":  size,
				// each shard reports up to MaxRecordGroups values, not its
				// own top size by sum, so a value ranked low on one shard
				// and high on another is summed whole (as RecordTotals)
				"shard_size": search.MaxRecordGroups,
				"order":      []any{obj{"valid>sum": "desc"}, obj{"_count": "desc"}, obj{"_key": "asc"}},
				"exclude":    []string{""},
			},
			"aggs": obj{"valid": validSum()},
		}
	}
	return obj{"size": 0, "query": noticeQuery(q, k), "track_total_hits": true, "aggs": aggs}
}

// NoticeTotals aggregates every notice q matches: counts, valid-amount sums,
// first and last publication dates, and the top buckets per grouping.
func (b *Backend) NoticeTotals(ctx context.Context, q search.Query, groupBy []string, size int) (search.Totals, error) {
	q, k, err := search.PrepareNoticeTotals(q, groupBy)
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
		bs, other, err := groupBuckets(res.Aggregations["g_"+g])
		if err != nil {
			return t, fmt.Errorf("opensearch: notice totals %s: %w", g, err)
		}
		search.SortBuckets(g, bs)
		t.Groups[g] = bs
		t.Other[g] = other
	}
	return t, nil
}
