package embedded

import (
	"context"
	"github.com/blevesearch/bleve/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
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
	segs map[segCoverageKey]map[srcSection]segCoverage
	runs int // computations done (tests count them)
}

// segCoverageKey is one segment's state: its deletions only grow, so their
// count tells its states apart; the cutoff bounds the last date.
type segCoverageKey struct {
	seg     uint64
	deleted uint64
	cutoff  string
}

// srcSection is a source's notices of one section ("": of none).
type srcSection struct{ source, section string }

// segCoverage is one source's notices of one section in one segment and
// their first and last publication keys ("": none dated before the
// cutoff).
type segCoverage struct {
	records     int
	first, last string
}

// Coverage reports, per source, its record and passage counts, first and
// last source (publication) dates and when it was observed: the value
// kept since the last write (see above).
func (b *Backend) Coverage(ctx context.Context) ([]record.SourceCoverage, error) {
	if b.closed.Load() {
		return nil, unavailable(bleve.ErrorIndexClosed)
	}
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
	out, sections, err := b.coverageNow(ctx, cutoff)
	b.cmu.Lock()
	defer b.cmu.Unlock()
	if err != nil {
		if b.coverageGen != gen {
			b.coverage = nil // a later write's would be wrong to keep
		}
		return nil, err
	}
	b.coverage, b.sections, b.coverageGen, b.coverageAt = out, sections, gen, cutoff
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

// coverageNow computes the coverage and the sections from the segments
// (cov.mu held).
func (b *Backend) coverageNow(ctx context.Context, cutoff time.Time) ([]record.SourceCoverage, []search.SectionCoverage, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	sources := map[string]*record.SourceCoverage{}
	for _, o := range b.observations() {
		sources[o.Source] = &record.SourceCoverage{Source: o.Source, Label: o.Label, RecordType: o.RecordType, ObservedAt: o.ObservedAt}
	}
	snap, err := indexSnapshot(b.notices)
	if err != nil {
		return nil, nil, unavailable(err)
	}
	defer snap.Close()
	lo, hi := timeKey(time.Date(1800, 1, 1, 0, 0, 0, 0, time.UTC)), timeKey(cutoff) // hi exclusive
	firsts, lasts := map[string]string{}, map[string]string{}
	sections := map[srcSection]*segCoverage{}
	live := map[segCoverageKey]map[srcSection]segCoverage{}
	for _, s := range snap.Segments() {
		key := segCoverageKey{seg: s.Id(), deleted: deletedCount(s), cutoff: hi}
		share, ok := b.cov.segs[key]
		if !ok {
			if share, err = b.segmentCoverage(s, lo, hi); err != nil {
				return nil, nil, unavailable(err)
			}
		}
		live[key] = share
		for ss, sc := range share {
			src := ss.source
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
			sec := sections[ss]
			if sec == nil {
				sec = &segCoverage{}
				sections[ss] = sec
			}
			sec.add(sc)
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
		return nil, nil, unavailable(err)
	}
	defer psnap.Close()
	for _, s := range psnap.Segments() {
		v, err := b.topPassages.facetValuesOf(s, "source")
		if err != nil {
			return nil, nil, unavailable(err)
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
	return out, sectionList(sections), nil
}

// add counts o's notices and dates in c.
func (c *segCoverage) add(o segCoverage) {
	c.records += o.records
	if o.first != "" && (c.first == "" || o.first < c.first) {
		c.first = o.first
	}
	if o.last > c.last {
		c.last = o.last
	}
}

// segmentCoverage is each source's share of segment s, section by
// section ("": notices of none): its live notices, and the lowest and
// highest publication key in [lo, hi) among them.
func (b *Backend) segmentCoverage(s *scorch.SegmentSnapshot, lo, hi string) (map[srcSection]segCoverage, error) {
	v, err := b.topNotices.facetValuesOf(s, "source")
	if err != nil {
		return nil, err
	}
	secs, err := b.topNotices.facetValuesOf(s, "section")
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
	share := func(m *roaring.Bitmap) segCoverage {
		sc := segCoverage{records: int(m.GetCardinality())}
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
		return sc
	}
	out := make(map[srcSection]segCoverage, len(v.terms))
	deleted := s.Deleted()
	for j, docs := range v.docs {
		m := docs
		if deleted != nil && !deleted.IsEmpty() {
			m = roaring.AndNot(docs, deleted)
		}
		if m.IsEmpty() {
			continue
		}
		rest := m.Clone()
		for k, sdocs := range secs.docs {
			x := roaring.And(m, sdocs)
			if x.IsEmpty() {
				continue
			}
			out[srcSection{v.terms[j], secs.terms[k]}] = share(x)
			rest.AndNot(sdocs)
		}
		if !rest.IsEmpty() {
			out[srcSection{v.terms[j], ""}] = share(rest)
		}
	}
	return out, nil
}

// sectionList is the sections' coverage as Sections answers it: by source
// then section, each source's sections beyond the MaxSections largest
// counted under "" with its notices of none, and at most MaxSections
// sources (the largest).
func sectionList(shares map[srcSection]*segCoverage) []search.SectionCoverage {
	bySource := map[string][]search.SectionCoverage{}
	total := map[string]int{}
	for ss, c := range shares {
		bySource[ss.source] = append(bySource[ss.source], search.SectionCoverage{Source: ss.source, Section: ss.section, Records: c.records,
			FirstSourceDate: c.first, LastSourceDate: c.last}) // keys, made days below
		total[ss.source] += c.records
	}
	largest := func(a, b search.SectionCoverage) int {
		if a.Records != b.Records {
			return b.Records - a.Records
		}
		return strings.Compare(a.Section, b.Section)
	}
	srcs := make([]string, 0, len(bySource))
	for src := range bySource {
		srcs = append(srcs, src)
	}
	sort.Slice(srcs, func(i, j int) bool {
		if total[srcs[i]] != total[srcs[j]] {
			return total[srcs[i]] > total[srcs[j]]
		}
		return srcs[i] < srcs[j]
	})
	if len(srcs) > search.MaxSections {
		srcs = srcs[:search.MaxSections]
	}
	out := []search.SectionCoverage{}
	for _, src := range srcs {
		var named []search.SectionCoverage
		none := search.SectionCoverage{Source: src}
		for _, c := range bySource[src] {
			if c.Section != "" {
				named = append(named, c)
				continue
			}
			none = c
		}
		slices.SortFunc(named, largest)
		if len(named) > search.MaxSections {
			for _, c := range named[search.MaxSections:] {
				none.Records += c.Records
				if c.FirstSourceDate != "" && (none.FirstSourceDate == "" || c.FirstSourceDate < none.FirstSourceDate) {
					none.FirstSourceDate = c.FirstSourceDate
				}
				none.LastSourceDate = max(none.LastSourceDate, c.LastSourceDate)
			}
			named = named[:search.MaxSections]
		}
		if none.Records > 0 {
			named = append(named, none)
		}
		out = append(out, named...)
	}
	for i, c := range out {
		if c.FirstSourceDate != "" {
			out[i].FirstSourceDate = keyTime(c.FirstSourceDate).In(record.NewYork).Format("2006-01-02")
		}
		if c.LastSourceDate != "" {
			out[i].LastSourceDate = keyTime(c.LastSourceDate).In(record.NewYork).Format("2006-01-02")
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Source != out[j].Source {
			return out[i].Source < out[j].Source
		}
		return out[i].Section < out[j].Section
	})
	return out
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
