package search

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
)

// RecordAbsence is why no record with id is held, for a by-id read of
// kinds (kind names, as Kind.Name): record.RecordAbsence over the notice
// and record coverage, with the day the id states. Nil when the coverage
// cannot be read (the 404 then says only that nothing is held).
func RecordAbsence(ctx context.Context, r RecordReader, notices CoverageReader, kinds []string, id string) *record.EmptyAnswer {
	cov, err := WithScope(r, notices).Coverage(ctx)
	if err != nil {
		return nil
	}
	return record.RecordAbsence(cov, kinds, record.IDDay(id))
}
