package embedded

import (
	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/recordwatch/recordwatch/internal/search"
)

// A facet is counted per segment as the size of the match set's
// intersection with each of the field's values' documents. Those documents
// never change for a segment (deletions are in the match set), so each
// field's values and their bitmaps are read once per segment, by the
// warm-up when the segment is written or merged (warmSpec.facets), and a
// query pays for the intersections alone: at 1.1M notices reading the
// values' dictionary and postings on every query was half of a faceted
// search's time.

// facetKey is a facet field in one segment.
type facetKey struct {
	seg   uint64
	field string
}

// facetValues are a field's values in one segment and each one's documents.
type facetValues struct {
	terms []string
	docs  []*roaring.Bitmap
	bytes int64
}

// FacetCacheBytes caps the memory of one index's facet values.
const FacetCacheBytes = 64 << 20

// facetValuesOf reads (once per segment) field's values in s.
func (t *topIndex) facetValuesOf(s *scorch.SegmentSnapshot, field string) (*facetValues, error) {
	key := facetKey{s.Id(), field}
	if v, ok := t.facets.Get(key); ok {
		return v, nil
	}
	v := &facetValues{}
	err := eachTerm(s.Segment(), field, nil, nil, func(term string, pl segment.PostingsList) error {
		bm := roaring.New()
		if err := orInto(pl, bm); err != nil {
			return err
		}
		bm.RunOptimize()
		v.terms = append(v.terms, term)
		v.docs = append(v.docs, bm)
		v.bytes += int64(len(term)) + int64(bm.GetSizeInBytes()) + 64
		return nil
	})
	if err != nil {
		return nil, err
	}
	t.facets.Put(key, v, v.bytes)
	t.facets.Trim(0, FacetCacheBytes)
	return v, nil
}

// facetCounts counts each facet field's values over the match sets.
func (t *topIndex) facetCounts(segs []*scorch.SegmentSnapshot, match []*roaring.Bitmap, facets map[string]string) (map[string][]search.FacetCount, error) {
	out := make(map[string][]search.FacetCount, len(facets))
	for name, field := range facets {
		counts := map[string]int{}
		for i, s := range segs {
			if match[i].IsEmpty() {
				continue
			}
			v, err := t.facetValuesOf(s, field)
			if err != nil {
				return nil, err
			}
			for j, docs := range v.docs {
				if n := match[i].AndCardinality(docs); n > 0 {
					counts[v.terms[j]] += int(n)
				}
			}
		}
		fc := make([]search.FacetCount, 0, len(counts))
		for v, n := range counts {
			fc = append(fc, search.FacetCount{Value: v, Count: n})
		}
		out[name] = search.SortFacet(fc, search.FacetSize)
	}
	return out, nil
}
