package view

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// FreshnessNote is what a record's freshness does not say.
const FreshnessNote = "The source date differs from when this service last observed the source."

// Freshness says when a record's source was last observed (absent when
// the coverage does not say).
type Freshness struct {
	Source           string    `json:"source"`
	SourceObservedAt time.Time `json:"source_observed_at,omitzero"`
	Note             string    `json:"note"`
}

// Coverages is what a freshness reads: the sources held and when each
// was observed.
type Coverages interface {
	Coverage(ctx context.Context) ([]record.SourceCoverage, error)
}

// SourceFreshness is when source was last observed, by the coverage held;
// a coverage that cannot be read leaves the time absent.
func SourceFreshness(ctx context.Context, cov Coverages, source string) Freshness {
	f := Freshness{Source: source, Note: FreshnessNote}
	cs, err := cov.Coverage(ctx)
	if err != nil {
		return f
	}
	for _, c := range cs {
		if c.Source == source && !c.ObservedAt.IsZero() {
			f.SourceObservedAt = c.ObservedAt
		}
	}
	return f
}
