package search

import (
	"context"
	"slices"

	"github.com/recordwatch/recordwatch/internal/record"
)

// NoticeRecordType is the record type of the notice corpus's coverage
// entries (Reader.Coverage).
const NoticeRecordType = "notice"

// Behind is one part of what a single-record read is built from: the
// records of Kind (a record kind as stored, "payment.payroll" apart from
// "payroll"; NoticeRecordType for the notice corpus) from Source ("" for
// every source of the kind, as a join reads them).
type Behind struct {
	Kind   string
	Source string
}

// SourcesBehind is the coverage of the sources a single-record read (a
// land project, a contract, a meeting, a person, a payroll row) is built
// from: the entries of every scope's sources (the notice coverage, then
// the record coverage with record types as ScopeType, as Scoped.Coverage
// lists them) that behind names, once each, in the order behind names
// them. Over an engine wrapped by WithFreshness
// each entry states its source's freshness by the one rule
// (record.Freshen): state, since when, observed_at, newest source date,
// schedule. A source behind that holds nothing has no entry. Errors:
// those of the coverage reads (EUNAVAILABLE).
func SourcesBehind(ctx context.Context, r RecordReader, notices CoverageReader, behind ...Behind) ([]record.SourceCoverage, error) {
	var cov []record.SourceCoverage // kinds as stored: a scope's record types merge families' members
	if notices != nil && slices.ContainsFunc(behind, func(b Behind) bool { return b.Kind == NoticeRecordType }) {
		ncov, err := notices.Coverage(ctx)
		if err != nil {
			return nil, err
		}
		cov = slices.Clone(ncov)
	}
	rcov, err := r.RecordCoverage(ctx)
	if err != nil {
		return nil, err
	}
	cov = append(cov, SourceCoverage(rcov)...)
	out := []record.SourceCoverage{}
	seen := map[[2]string]bool{}
	for _, b := range behind {
		for _, c := range cov {
			if c.RecordType != b.Kind || (b.Source != "" && c.Source != b.Source) || seen[[2]string{c.Source, c.RecordType}] {
				continue
			}
			seen[[2]string{c.Source, c.RecordType}] = true
			c.RecordType = ScopeType(c.RecordType)
			out = append(out, c)
		}
	}
	return out, nil
}
