package embedded

import (
	"context"
	"errors"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The records' coverage (RecordCoverage) is kept like the notices'
// (coverage.go): computed when the indexes open and by every record write
// before it returns, one computation at a time, from the segments: per
// source and kind, the live records (the "source" and "kind" postings
// less the deleted documents), their first and last dates (the
// "sort_date_asc" column without its missing-value sentinels), the record
// observed last ("observed" column, ties to the lowest id) whose
// observation time and label are read from its stored document, or,
// when none says when it was observed, the label of the lowest id. Each
// segment's share is kept until it is merged away or gains deletions.

// recordCovKey is a source and kind.
type recordCovKey struct{ source, kind string }

// recordEdgeDoc is a document of a segment, with the keys it won on.
type recordEdgeDoc struct {
	seg     int    // the segment's place in the snapshot (set when combined)
	doc     uint64 // its number in the segment
	key, id string // its sort key (observed) and id
	has     bool
}

// segRecordCoverage is one source and kind's share of a segment.
type segRecordCoverage struct {
	records     int
	first, last string // "sort_date_asc" keys, "" when none dated
	newest      recordEdgeDoc
	lowest      recordEdgeDoc // the lowest id (key unused)
}

// recordCoverageFlight keeps each segment's share of the records' coverage
// (Backend.rcov serializes the computations).
type recordCoverageFlight struct {
	segs map[[2]uint64]map[recordCovKey]segRecordCoverage // (segment id, deletions)
}

// recordCoverageNow computes the records' coverage from the segments
// (rcov held).
func (b *Backend) recordCoverageNow(ctx context.Context) ([]record.SourceCoverage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	snap, err := indexSnapshot(b.records)
	if err != nil {
		return nil, unavailable(err)
	}
	defer snap.Close()
	segs := snap.Segments()
	type acc struct {
		records        int
		first, last    string
		newest, lowest recordEdgeDoc
	}
	all := map[recordCovKey]*acc{}
	live := map[[2]uint64]map[recordCovKey]segRecordCoverage{}
	for i, s := range segs {
		key := [2]uint64{s.Id(), deletedCount(s)}
		share, ok := b.rcovSegs.segs[key]
		if !ok {
			if share, err = b.segmentRecordCoverage(s); err != nil {
				return nil, unavailable(err)
			}
		}
		live[key] = share
		for k, sc := range share {
			a := all[k]
			if a == nil {
				a = &acc{}
				all[k] = a
			}
			a.records += sc.records
			if sc.first != "" && (a.first == "" || sc.first < a.first) {
				a.first = sc.first
			}
			a.last = max(a.last, sc.last)
			if n := sc.newest; n.has && (!a.newest.has || n.key > a.newest.key || n.key == a.newest.key && n.id < a.newest.id) {
				a.newest, a.newest.seg = n, i
			}
			if l := sc.lowest; l.has && (!a.lowest.has || l.id < a.lowest.id) {
				a.lowest, a.lowest.seg = l, i
			}
		}
	}
	b.rcovSegs.segs = live
	out := []record.SourceCoverage{}
	for k, a := range all {
		c := record.SourceCoverage{Source: k.source, RecordType: k.kind, Records: a.records}
		if a.first != "" {
			c.FirstSourceDate = keyTime(a.first).In(record.NewYork).Format("2006-01-02")
		}
		if a.last != "" {
			c.LastSourceDate = keyTime(a.last).In(record.NewYork).Format("2006-01-02")
		}
		edge := a.newest
		if !edge.has {
			edge = a.lowest // no record states when it was observed: the label of the first
		}
		if edge.has {
			var h topHit
			if err := loadDoc(segs[edge.seg], edge.doc, &h); err != nil {
				return nil, unavailable(err)
			}
			r, err := decodeRecord(h.doc)
			if err != nil {
				return nil, err
			}
			c.Label = r.SourceLabel
			if a.newest.has {
				c.ObservedAt = r.ObservedAt
			}
		}
		out = append(out, c)
	}
	search.SortRecordCoverage(out)
	return out, nil
}

// segmentRecordCoverage is each source and kind's share of segment s. The
// lowest ids are found in one pass over the segment's id dictionary (in
// id order), which stops once every one is found: no id column is kept.
func (b *Backend) segmentRecordCoverage(s *scorch.SegmentSnapshot) (map[recordCovKey]segRecordCoverage, error) {
	t := b.topRecords
	sources, err := t.facetValuesOf(s, "source")
	if err != nil {
		return nil, err
	}
	kinds, err := t.facetValuesOf(s, "kind")
	if err != nil {
		return nil, err
	}
	dates, err := t.column(s, "sort_date_asc")
	if err != nil {
		return nil, err
	}
	observed, err := t.column(s, "observed")
	if err != nil {
		return nil, err
	}
	sentinel := func(term string) bool { return term == "" || term == keyMissingLow || term == keyMissingHigh }
	type pending struct {
		key    recordCovKey
		sc     segRecordCoverage
		m, tie *roaring.Bitmap // the live records; those observed last
	}
	var todo []*pending
	need := 0 // lowest ids still to find
	deleted := s.Deleted()
	for i, src := range sources.docs {
		for j, kind := range kinds.docs {
			m := roaring.And(src, kind)
			if deleted != nil && !deleted.IsEmpty() {
				m.AndNot(deleted)
			}
			if m.IsEmpty() {
				continue
			}
			p := &pending{key: recordCovKey{sources.terms[i], kinds.terms[j]}, sc: segRecordCoverage{records: int(m.GetCardinality())}, m: m}
			newest := uint32(0) // the highest observed ordinal (0: none)
			it := m.Iterator()
			for it.HasNext() {
				d := it.Next()
				if int(d) >= len(dates.ords) || int(d) >= len(observed.ords) {
					continue
				}
				if term := dates.terms[dates.ords[d]]; !sentinel(term) {
					if p.sc.first == "" || term < p.sc.first {
						p.sc.first = term
					}
					p.sc.last = max(p.sc.last, term)
				}
				if o := observed.ords[d]; o > newest && !sentinel(observed.terms[o]) {
					newest = o
				}
			}
			need++
			if newest > 0 {
				p.tie = roaring.New()
				it := m.Iterator()
				for it.HasNext() {
					if d := it.Next(); int(d) < len(observed.ords) && observed.ords[d] == newest {
						p.tie.Add(d)
					}
				}
				p.sc.newest.key = observed.terms[newest]
				need++
			}
			todo = append(todo, p)
		}
	}
	var pit segment.PostingsIterator
	err = eachTerm(s.Segment(), "id", nil, nil, func(term string, pl segment.PostingsList) error {
		var err error
		pit, err = eachDoc(pl, pit, func(d uint64) {
			for _, p := range todo {
				if !p.sc.lowest.has && p.m.Contains(uint32(d)) {
					p.sc.lowest = recordEdgeDoc{doc: d, id: term, has: true}
					need--
				}
				if p.tie != nil && !p.sc.newest.has && p.tie.Contains(uint32(d)) {
					p.sc.newest = recordEdgeDoc{doc: d, key: p.sc.newest.key, id: term, has: true}
					need--
				}
			}
		})
		if err == nil && need == 0 {
			return errEnoughIDs
		}
		return err
	})
	if err != nil && !errors.Is(err, errEnoughIDs) {
		return nil, err
	}
	out := make(map[recordCovKey]segRecordCoverage, len(todo))
	for _, p := range todo {
		out[p.key] = p.sc
	}
	return out, nil
}

// errEnoughIDs ends the pass over the id dictionary.
var errEnoughIDs = errors.New("every lowest id found")

// recordsWritten marks a record write done: the records' coverage is
// computed again before the write returns (a failure leaves none kept,
// and the next read computes it).
func (b *Backend) recordsWritten() {
	b.rcov.Lock()
	defer b.rcov.Unlock()
	b.rcovRuns++
	out, err := b.recordCoverageNow(context.Background())
	b.cmu.Lock()
	defer b.cmu.Unlock()
	if err != nil {
		b.recordCoverage = nil
		return
	}
	b.recordCoverage = slices.Clone(out)
}
