package search

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Extents are the extents of the sources a total of unit is built on
// (record.ExtentsOf, the one rule) and their words, from the engine's
// record coverage; none (and "") when the engine cannot say.
func Extents(ctx context.Context, rs interface {
	RecordCoverage(context.Context) ([]record.SourceCoverage, error)
}, unit string) ([]record.Extent, string) {
	cov, err := rs.RecordCoverage(ctx)
	if err != nil {
		return []record.Extent{}, ""
	}
	es := record.ExtentsOf(cov, unit)
	return es, record.ExtentWords(es)
}
