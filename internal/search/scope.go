package search

import (
	"context"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// CoverageReader reports the notice corpus's coverage (Reader.Coverage).
type CoverageReader interface {
	Coverage(ctx context.Context) ([]record.SourceCoverage, error)
}

// Scoped is a RecordReader with scope added by wrapping (zoekt's Searcher
// wrappers): FindRecords pages carry the Scope of the read, built from the
// notice coverage and the record coverage, and Scope builds the same for
// any read that is not a record page (a dossier, a totals view). Nothing
// else changes: the other methods are the wrapped engine's.
type Scoped struct {
	RecordReader
	Notices CoverageReader // nil: records only
}

// WithScope wraps an engine's Records, with the notice coverage of notices
// (nil leaves notices out of the scope).
func WithScope(r RecordReader, notices CoverageReader) Scoped {
	return Scoped{RecordReader: r, Notices: notices}
}

// ScopeType is the record type a kind is reported as in a scope: its name
// without the family ("payment.payroll" → "payroll").
func ScopeType(kind string) string {
	if _, name, ok := strings.Cut(kind, "."); ok {
		return name
	}
	return kind
}

// Coverage is the notice coverage followed by the record coverage (record
// types as ScopeType), the sources every scope lists.
func (s Scoped) Coverage(ctx context.Context) ([]record.SourceCoverage, error) {
	var out []record.SourceCoverage
	if s.Notices != nil {
		cov, err := s.Notices.Coverage(ctx)
		if err != nil {
			return nil, err
		}
		out = slices.Clone(cov)
	}
	rcov, err := s.RecordReader.RecordCoverage(ctx)
	if err != nil {
		return nil, err
	}
	for _, c := range SourceCoverage(rcov) {
		c.RecordType = ScopeType(c.RecordType)
		out = append(out, c)
	}
	return out, nil
}

// Scope is the scope of a read: what was searched, every source held
// (notices and records) with its observed date, first and last source
// dates and counts, how many matched, and the absence rules. Handlers that
// build a scope for a read over records call this one function.
func (s Scoped) Scope(ctx context.Context, searched record.Searched, matched int) (record.Scope, error) {
	cov, err := s.Coverage(ctx)
	if err != nil {
		return record.Scope{}, err
	}
	return record.NewScope(searched, cov, matched), nil
}

// FindRecords reads a page and adds its scope (Searched.Kind "records",
// the query's filters, Matched the page's total).
func (s Scoped) FindRecords(ctx context.Context, q RecordQuery) (RecordPage, error) {
	p, err := s.RecordReader.FindRecords(ctx, q)
	if err != nil {
		return p, err
	}
	searched := record.Searched{Kind: "records", Filters: q.Filters(), Sort: q.Sort, Lenses: []string{"all"}}
	if searched.Sort == "" {
		searched.Sort = RecordSortDate
	}
	p.Scope, err = s.Scope(ctx, searched, p.Total)
	return p, err
}
