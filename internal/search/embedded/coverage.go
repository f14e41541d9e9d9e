package embedded

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Coverage (issue 50, item 2): every answer's scope carries it, so no
// request computes it. It is computed when the indexes open and again by
// every notice write before the write returns (Upsert, Delete, Observe),
// one computation at a time: writes that finish while one runs share the
// next (coverageFlight). A read returns the value kept; it computes only
// when none is kept (a computation that failed) or when the future cutoff
// (record.FutureCutoff) has moved to a new day since, and then once however
// many requests ask at the same time.
//
// A computation reads Bleve's immutable segments, not searches: a source's
// notices in a segment are its "source" postings less the deleted
// documents (the facet values the warm-up reads, facets.go), its first and
// last publication keys come from the "sort_start_asc" sort column
// (topk.go's column, also read ahead). Each segment's share is kept until
// the segment is merged away or gains deletions, so a write pays for its
// new segments only (at 1.1M notices the Bleve searches took 2.4–3.0 s).

// coverageFlight serializes coverage computations and keeps each
// segment's share.
type coverageFlight struct {
	mu   sync.Mutex
	segs map[segCoverageKey]map[string]segCoverage
	runs int // computations done (tests count them)
}

// segCoverageKey is one segment's state: its deletions only grow, so their
// count tells its states apart; the cutoff bounds the last date.
type segCoverageKey struct {
	seg     uint64
	deleted uint64
	cutoff  string
}

// segCoverage is one source's notices in one segment and their first and
// last publication keys ("": none dated before the cutoff).
type segCoverage struct {
	records     int
	first, last string
}

// Coverage reports, per source, its record and passage counts, first and
// last source (publication) dates and when it was observed: the value
// kept since the last write (see above).
func (b *Backend) Coverage(ctx context.Context) ([]record.SourceCoverage, error) {
	cutoff := b.coverageCutoff()
	b.cmu.Lock()
	if b.coverage != nil && b.coverageAt.Equal(cutoff) {
		c := b.coverage
		b.cmu.Unlock()
		return c, nil
	}
	b.cmu.Unlock()
	return b.refreshCoverage(ctx)
}

func (b *Backend) coverageCutoff() time.Time {
	now := time.Now
	if b.Now != nil {
		now = b.Now
	}
	return record.FutureCutoff(now())
}

// refreshCoverage computes the coverage unless a computation that started
// after the last notice write and for today's cutoff has already kept it.
func (b *Backend) refreshCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	b.cov.mu.Lock()
	defer b.cov.mu.Unlock()
	cutoff := b.coverageCutoff()
	b.cmu.Lock()
	gen := b.noticeGen
	if b.coverage != nil && b.coverageGen == gen && b.coverageAt.Equal(cutoff) {
		c := b.coverage
		b.cmu.Unlock()
		return c, nil
	}
	b.cmu.Unlock()
	b.cov.runs++
	out, err := b.coverageNow(ctx, cutoff)
	b.cmu.Lock()
	defer b.cmu.Unlock()
	if err != nil {
		if b.coverageGen != gen {
			b.coverage = nil // a later write's would be wrong to keep
		}
		return nil, err
	}
	b.coverage, b.coverageGen, b.coverageAt = out, gen, cutoff
	return out, nil
}

// noticesWritten marks a notice write done: the coverage is computed
// again before the write returns. A failure leaves none kept, and the next
// read computes it.
func (b *Backend) noticesWritten() {
	b.cmu.Lock()
	b.noticeGen++
	b.cmu.Unlock()
	_, _ = b.refreshCoverage(context.Background())
}

// coverageNow computes the coverage from the segments (cov.mu held).
func (b *Backend) coverageNow(ctx context.Context, cutoff time.Time) ([]record.SourceCoverage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sources := map[string]*record.SourceCoverage{}
	for _, o := range b.observations() {
		sources[o.Source] = &record.SourceCoverage{Source: o.Source, Label: o.Label, RecordType: o.RecordType, ObservedAt: o.ObservedAt}
	}
	snap, err := indexSnapshot(b.notices)
	if err != nil {
		return nil, unavailable(err)
	}
	defer snap.Close()
	lo, hi := timeKey(time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC)), timeKey(cutoff) // hi exclusive
	firsts, lasts := map[string]string{}, map[string]string{}
	live := map[segCoverageKey]map[string]segCoverage{}
	for _, s := range snap.Segments() {
		key := segCoverageKey{seg: s.Id(), deleted: deletedCount(s), cutoff: hi}
		share, ok := b.cov.segs[key]
		if !ok {
			if share, err = b.segmentCoverage(s, lo, hi); err != nil {
				return nil, unavailable(err)
			}
		}
		live[key] = share
		for src, sc := range share {
			c := sources[src]
			if c == nil {
				c = &record.SourceCoverage{Source: src, RecordType: "notice"}
				sources[src] = c
			}
			c.Records += sc.records
			if sc.first != "" && (firsts[src] == "" || sc.first < firsts[src]) {
				firsts[src] = sc.first
			}
			if sc.last > lasts[src] {
				lasts[src] = sc.last
			}
		}
	}
	b.cov.segs = live // the shares of segments merged away, or of their older states, go
	for src, k := range firsts {
		sources[src].FirstSourceDate = keyTime(k).In(record.NewYork).Format("2006-01-02")
	}
	for src, k := range lasts {
		sources[src].LastSourceDate = keyTime(k).In(record.NewYork).Format("2006-01-02")
	}
	// passages: each source's postings less the deleted documents
	psnap, err := indexSnapshot(b.passages)
	if err != nil {
		return nil, unavailable(err)
	}
	defer psnap.Close()
	for _, s := range psnap.Segments() {
		v, err := b.topPassages.facetValuesOf(s, "source")
		if err != nil {
			return nil, unavailable(err)
		}
		for j, docs := range v.docs {
			if c := sources[v.terms[j]]; c != nil {
				c.Passages += liveCount(docs, s.Deleted())
			}
		}
	}
	out := make([]record.SourceCoverage, 0, len(sources))
	for _, c := range sources {
		out = append(out, *c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Source < out[j].Source })
	return out, nil
}

// segmentCoverage is each source's share of segment s: its live notices,
// and the lowest and highest publication key in [lo, hi) among them.
func (b *Backend) segmentCoverage(s *scorch.SegmentSnapshot, lo, hi string) (map[string]segCoverage, error) {
	v, err := b.topNotices.facetValuesOf(s, "source")
	if err != nil {
		return nil, err
	}
	col, err := b.topNotices.column(s, "sort_start_asc")
	if err != nil {
		return nil, err
	}
	// the column's keys are ascending: the ordinals of keys in [lo, hi)
	from := uint32(sort.SearchStrings(col.terms[1:], lo) + 1)
	to := uint32(sort.SearchStrings(col.terms[1:], hi) + 1)
	out := make(map[string]segCoverage, len(v.terms))
	deleted := s.Deleted()
	for j, docs := range v.docs {
		m := docs
		if deleted != nil && !deleted.IsEmpty() {
			m = roaring.AndNot(docs, deleted)
		}
		n := int(m.GetCardinality())
		if n == 0 {
			continue
		}
		sc := segCoverage{records: n}
		minOrd, maxOrd := to, from
		it := m.Iterator()
		for it.HasNext() {
			d := it.Next()
			if int(d) >= len(col.ords) {
				continue
			}
			o := col.ords[d]
			if o < from || o >= to {
				continue
			}
			minOrd, maxOrd = min(minOrd, o), max(maxOrd, o+1)
		}
		if minOrd < maxOrd {
			sc.first, sc.last = col.terms[minOrd], col.terms[maxOrd-1]
		}
		out[v.terms[j]] = sc
	}
	return out, nil
}

func deletedCount(s *scorch.SegmentSnapshot) uint64 {
	if d := s.Deleted(); d != nil {
		return d.GetCardinality()
	}
	return 0
}

func liveCount(docs, deleted *roaring.Bitmap) int {
	if deleted == nil || deleted.IsEmpty() {
		return int(docs.GetCardinality())
	}
	return int(docs.GetCardinality() - docs.AndCardinality(deleted))
}
