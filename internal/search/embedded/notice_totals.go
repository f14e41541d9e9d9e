package embedded

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Notice totals are the records' column aggregation (records_totals.go)
// run over the notices index: a query's matches are the ranked path's
// match sets (topIndex.matches: the words' postings, phrases, keyword
// filters and filter clauses, so a search's total and its totals' count
// are one set), and each match's publication date, valid amount and
// grouping values come from per-segment columns. Totals never decode a
// notice and read every match, however many.

// noticeColumns are the notices index's: the publication date, the amount
// (indexed only when valid), and one keyword field per grouping, named
// as the grouping.
var noticeColumns = totalsFields{
	date: "start_date", amount: "amount", fiscalYear: search.GroupFiscalYear, zone: record.NewYork,
	group: func(group string) (string, string) { return group, "" },
}

// NoticeTotals sums every notice q matches, overall and per grouping.
func (b *Backend) NoticeTotals(ctx context.Context, q search.Query, groupBy []string, size int) (search.Totals, error) {
	q, k, err := search.PrepareNoticeTotals(q, groupBy)
	if err != nil {
		return search.Totals{}, err
	}
	spec, err := noticeSpec(b.notices, q, k, nil)
	if err != nil {
		return search.Totals{}, err
	}
	snap, err := indexSnapshot(b.notices)
	if err != nil {
		return search.Totals{}, unavailable(err)
	}
	defer snap.Close()
	segs := snap.Segments()
	match, err := b.topNotices.matches(ctx, snap, segs, segmentOffsets(segs), spec)
	if err != nil {
		return search.Totals{}, unavailable(err)
	}
	acc := search.NewTotalsAccumulator(groupBy)
	for i, s := range segs {
		if err := ctx.Err(); err != nil {
			return search.Totals{}, unavailable(err)
		}
		if match[i].IsEmpty() {
			continue
		}
		part, err := b.noticeSums.segmentTotals(s, match[i], nil, groupBy)
		if err != nil {
			return search.Totals{}, unavailable(err)
		}
		acc.Merge(part)
	}
	return acc.Totals(size), nil
}
