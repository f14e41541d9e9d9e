package embedded

import (
	"context"
	"github.com/blevesearch/bleve/v2"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Sections counts notices per source and section, with each set's first
// and last publication dates. Notices without a section (their section is
// not indexed) are counted as the remainder of their source under "". The
// answer is kept with the coverage, computed when the index opens and by
// each notice write from the segments (coverage.go: segmentCoverage,
// sectionList): no request searches for it.
func (b *Backend) Sections(ctx context.Context) ([]search.SectionCoverage, error) {
	if b.closed.Load() {
		return nil, unavailable(bleve.ErrorIndexClosed)
	}
	cutoff := b.coverageCutoff()
	b.cmu.Lock()
	if b.coverage != nil && b.coverageAt.Equal(cutoff) {
		s := b.sections
		b.cmu.Unlock()
		return s, nil
	}
	b.cmu.Unlock()
	if _, err := b.refreshCoverage(ctx); err != nil {
		return nil, err
	}
	b.cmu.Lock()
	defer b.cmu.Unlock()
	return b.sections, nil
}
