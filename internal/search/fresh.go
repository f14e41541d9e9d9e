package search

import (
	"context"
	"sync"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// SourceRuns says what the schedule knows of each coverage source (its
// job, maximum age and last live runs): the input of record.Freshen.
type SourceRuns func(ctx context.Context) (func(source string) record.SourceRun, error)

// RunsTTL is how long Freshened reuses what SourceRuns answered: the
// receipts are read at most this often per process.
const RunsTTL = 5 * time.Second

// Freshened is an Engine whose coverage states every source's freshness
// (record.Freshen, the one rule): Coverage, RecordCoverage and the scope
// of every notice and passage search carry each source's observed_at,
// newest source date, ages, maximum age and state. Every scope built from
// its coverage (record.NewScope, WithScope) carries them too. Nothing
// else changes.
type Freshened struct {
	Engine
	Runs SourceRuns
	Now  func() time.Time

	mu   sync.Mutex
	read time.Time
	runs func(string) record.SourceRun
}

// WithFreshness wraps e so that every coverage and scope it answers
// states each source's freshness at now.
func WithFreshness(e Engine, runs SourceRuns, now func() time.Time) *Freshened {
	if now == nil {
		now = time.Now
	}
	return &Freshened{Engine: e, Runs: runs, Now: now}
}

// sourceRuns reads the runs, at most once per RunsTTL. Runs that cannot
// be read leave every source as its coverage says, with no schedule (an
// unreadable state store must not take reads down).
func (f *Freshened) sourceRuns(ctx context.Context) func(string) record.SourceRun {
	f.mu.Lock()
	defer f.mu.Unlock()
	now := time.Now()
	if f.runs != nil && now.Sub(f.read) < RunsTTL {
		return f.runs
	}
	runs, err := f.Runs(ctx)
	if err != nil {
		if f.runs != nil {
			return f.runs
		}
		return func(string) record.SourceRun { return record.SourceRun{} }
	}
	f.runs, f.read = runs, now
	return runs
}

// Invalidate makes the next read ask for the runs again (a run just
// finished in this process).
func (f *Freshened) Invalidate() {
	f.mu.Lock()
	f.runs = nil
	f.mu.Unlock()
}

// Freshen states the freshness of every entry of cov.
func (f *Freshened) Freshen(ctx context.Context, cov []record.SourceCoverage) []record.SourceCoverage {
	if len(cov) == 0 {
		return cov
	}
	runs := f.sourceRuns(ctx)
	now := f.Now()
	out := make([]record.SourceCoverage, len(cov))
	for i, c := range cov {
		out[i] = record.Freshen(c, runs(c.Source), now)
	}
	return out
}

// Coverage is the engine's notice coverage with each source's freshness.
func (f *Freshened) Coverage(ctx context.Context) ([]record.SourceCoverage, error) {
	cov, err := f.Engine.Coverage(ctx)
	return f.Freshen(ctx, cov), err
}

// RecordCoverage is the engine's record coverage with each source's
// freshness.
func (f *Freshened) RecordCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	cov, err := f.Engine.RecordCoverage(ctx)
	return f.Freshen(ctx, cov), err
}

// Search is the engine's notice search, its scope's sources freshened.
func (f *Freshened) Search(ctx context.Context, q Query) (Result, error) {
	r, err := f.Engine.Search(ctx, q)
	r.Scope.Sources = f.Freshen(ctx, r.Scope.Sources)
	r.Scope.TypeAbsence() // the empty answer's type reads the freshness
	return r, err
}

// Passages is the engine's passage search, its scope's sources freshened.
func (f *Freshened) Passages(ctx context.Context, q PassageQuery) (PassageResult, error) {
	r, err := f.Engine.Passages(ctx, q)
	r.Scope.Sources = f.Freshen(ctx, r.Scope.Sources)
	r.Scope.TypeAbsence()
	return r, err
}
