package search

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Extents are the extents of the sources a total of unit is built on
// (record.ExtentsOfDays, the one rule) and their words, from the engine's
// record coverage and each source's records counted by New York day
// (RecordTotals by GroupByDay: the days held, the undated apart); none
// (and "") when the engine cannot say. A source whose days cannot be
// counted is said by its first and last dates only.
func Extents(ctx context.Context, rs interface {
	RecordCoverage(context.Context) ([]record.SourceCoverage, error)
	RecordTotals(context.Context, RecordQuery, []string, int) (Totals, error)
}, unit string) ([]record.Extent, string) {
	cov, err := rs.RecordCoverage(ctx)
	if err != nil {
		return []record.Extent{}, ""
	}
	es := record.ExtentsOfDays(cov, unit, func(c record.SourceCoverage) (record.HeldDays, bool) {
		return HeldDays(ctx, rs, c.Source, c.RecordType)
	})
	return es, record.ExtentWords(es)
}

// HeldDays counts one source's records of one kind by New York day: the
// days holding records, the undated records, and the dated ones on days
// beyond the engine's bound on groups; false when the engine cannot say.
func HeldDays(ctx context.Context, rs interface {
	RecordTotals(context.Context, RecordQuery, []string, int) (Totals, error)
}, source, kind string) (record.HeldDays, bool) {
	t, err := rs.RecordTotals(ctx, RecordQuery{Kinds: []string{kind}, Sources: []string{source}}, []string{GroupByDay}, 0)
	if err != nil {
		return record.HeldDays{}, false
	}
	d := record.HeldDays{Days: make([]record.DayCount, 0, len(t.Groups[GroupByDay])), Unlisted: t.Other[GroupByDay]}
	dated := d.Unlisted
	for _, b := range t.Groups[GroupByDay] {
		d.Days = append(d.Days, record.DayCount{Day: b.Value, Records: b.Count})
		dated += b.Count
	}
	d.Undated = max(0, t.Count-dated)
	return d, true
}
