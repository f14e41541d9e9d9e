package searchtest

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// RecordsDown is an engine whose record reads fail as an engine that
// cannot answer fails (EUNAVAILABLE); everything else is the engine's.
// A fault injected for tests: every engine holds records.
type RecordsDown struct{ search.Engine }

// ErrRecordsDown is the error RecordsDown's record reads answer.
var ErrRecordsDown = record.CouldNotAnswer("the search index", nil)

func (RecordsDown) FindRecords(context.Context, search.RecordQuery) (search.RecordPage, error) {
	return search.RecordPage{}, ErrRecordsDown
}

func (RecordsDown) GetRecord(context.Context, string, string) (search.Record, error) {
	return search.Record{}, ErrRecordsDown
}

func (RecordsDown) RecordTotals(context.Context, search.RecordQuery, []string, int) (search.Totals, error) {
	return search.Totals{}, ErrRecordsDown
}

func (RecordsDown) RecordCoverage(context.Context) ([]record.SourceCoverage, error) {
	return nil, ErrRecordsDown
}
