package embedded

import (
	"cmp"
	"context"
	"math"
	"slices"
	"sort"

	"github.com/blevesearch/bleve/v2"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/recordwatch/recordwatch/internal/search"
)

// A page of records is read from columns too, so its cost follows the
// page, not the matches: per segment, the sort key's terms are walked in
// the page's order and each term's documents are checked against the
// match bitmap until the page is full; ties (a payroll year holds a
// fiscal year's rows under one date key) are settled by the id and kind
// columns' ordinals, which are in id and kind order within a segment.
// Segments' pages are merged by the keys themselves. The order and the
// cursor are Bleve's sort of recordSort (key, then id, then kind), so a
// cursor made before reads the same next page.

// termColumn is a keyword field in one segment: each document's term as
// an ordinal (ascending term order; noTerm when it has none), the terms
// packed in one buffer (a million ids take about 15 MB, not the 27 MB of
// as many strings), and for a sort key each term's documents as a bitmap
// (intersected with a page's matches, container by container).
type termColumn struct {
	ords []uint32
	text []byte
	ends []uint32 // term o is text[ends[o-1]:ends[o]]
	docs []*roaring.Bitmap
}

const noTerm = math.MaxUint32

func (c *termColumn) size() int64 {
	n := int64(64 + 4*len(c.ords) + len(c.text) + 4*len(c.ends))
	for _, bm := range c.docs {
		n += 48 + int64(bm.GetSizeInBytes())
	}
	return n
}

func (c *termColumn) len() int { return len(c.ends) }

// term is the o-th term ("" for noTerm).
func (c *termColumn) term(o uint32) string {
	if o == noTerm {
		return ""
	}
	from := uint32(0)
	if o > 0 {
		from = c.ends[o-1]
	}
	return string(c.text[from:c.ends[o]])
}

// locate is where t falls among the column's terms: the ordinal of the
// first term not before it, and whether that term is t.
func (c *termColumn) locate(t string) (uint32, bool) {
	o := sort.Search(c.len(), func(i int) bool { return c.term(uint32(i)) >= t })
	return uint32(o), o < c.len() && c.term(uint32(o)) == t
}

// termColumn reads field's column in segment s once (cached), with each
// term's documents when byTerm.
func (rt *recordTotals) termColumn(s *scorch.SegmentSnapshot, field string, byTerm bool) (*termColumn, error) {
	key := columnKey{s.Id(), "terms:" + field}
	if c, ok := rt.terms.Get(key); ok {
		return c, nil
	}
	seg := s.Segment()
	c := &termColumn{ords: make([]uint32, seg.Count())}
	for i := range c.ords {
		c.ords[i] = noTerm
	}
	var pit segment.PostingsIterator
	err := eachTerm(seg, field, nil, nil, func(term string, pl segment.PostingsList) error {
		if rt.warmer.stop.Load() {
			return bleve.ErrorIndexClosed
		}
		ord := uint32(len(c.ends))
		c.text = append(c.text, term...)
		c.ends = append(c.ends, uint32(len(c.text)))
		var err error
		if pit, err = eachDoc(pl, pit, func(d uint64) { c.ords[d] = ord }); err != nil {
			return err
		}
		if byTerm {
			bm := roaring.New()
			if err := orInto(pl, bm); err != nil {
				return err
			}
			bm.RunOptimize()
			c.docs = append(c.docs, bm)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	rt.terms.Put(key, c, c.size())
	rt.terms.Trim(0, TotalsColumnBytes)
	return c, nil
}

// eachTerm visits field's terms in [start, end) (nil bounds: every term),
// in order, each with its documents: the one dictionary walk behind every
// per-segment column (sort columns, term, group and value columns).
func eachTerm(seg segment.Segment, field string, start, end []byte, visit func(term string, pl segment.PostingsList) error) error {
	dict, err := seg.Dictionary(field)
	if err != nil {
		return err
	}
	itr := dict.AutomatonIterator(everything{}, start, end)
	var pl segment.PostingsList
	for {
		e, err := itr.Next()
		if err != nil || e == nil {
			return err
		}
		if pl, err = dict.PostingsList([]byte(e.Term), nil, pl); err != nil {
			return err
		}
		if err := visit(e.Term, pl); err != nil {
			return err
		}
	}
}

// eachDoc visits the documents of a postings list; it reuses it (nil:
// a new iterator) and returns it for the next list.
func eachDoc(pl segment.PostingsList, it segment.PostingsIterator, visit func(doc uint64)) (segment.PostingsIterator, error) {
	it = pl.Iterator(false, false, false, it)
	for {
		p, err := it.Next()
		if err != nil || p == nil {
			return it, err
		}
		visit(p.Number())
	}
}

// pageHit is one record of a page, located in its segment.
type pageHit struct {
	key, id, kind string
	seg           int
	doc           uint32
}

// recordOrder is the order of a record sort: the key field (none for the
// id sort) and its direction; ties by id, then kind, ascending.
func recordOrder(sort string) (field string, desc bool) {
	switch sort {
	case search.RecordSortDate:
		return "sort_date_asc", false
	case search.RecordSortDateDesc:
		return "sort_date_desc", true
	case search.RecordSortAmount:
		return "sort_amount_desc", true
	}
	return "", false
}

// comparePage orders two hits in a sort's order.
func comparePage(desc bool) func(a, b pageHit) int {
	return func(a, b pageHit) int {
		c := cmp.Compare(a.key, b.key)
		if desc {
			c = -c
		}
		if c != 0 {
			return c
		}
		if c = cmp.Compare(a.id, b.id); c != 0 {
			return c
		}
		return cmp.Compare(a.kind, b.kind)
	}
}

// page reads the records q's page holds (q normalized; after is its
// decoded cursor) and the number of matches.
func (rt *recordTotals) page(ctx context.Context, snap *scorch.IndexSnapshot, q search.RecordQuery, after []string) ([]pageHit, int, error) {
	field, desc := recordOrder(q.Sort)
	order := comparePage(desc)
	var cursor *pageHit
	if after != nil {
		cursor = &pageHit{id: after[len(after)-2], kind: after[len(after)-1]}
		if field != "" {
			cursor.key = after[0]
		}
	}
	var hits []pageHit
	total := 0
	for i, s := range snap.Segments() {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		m, err := recordMatches(s, q)
		if err != nil {
			return nil, 0, err
		}
		if m, err = rt.admit(s, m, q); err != nil {
			return nil, 0, err
		}
		total += int(m.GetCardinality())
		if m.IsEmpty() {
			continue
		}
		seg, err := rt.segmentPage(s, i, m, field, desc, cursor, q.Limit)
		if err != nil {
			return nil, 0, err
		}
		hits = append(hits, seg...)
	}
	slices.SortFunc(hits, order)
	return hits[:min(len(hits), q.Limit)], total, nil
}

// admit narrows m to the documents q's date and amount conditions admit,
// read from the value column.
func (rt *recordTotals) admit(s *scorch.SegmentSnapshot, m *roaring.Bitmap, q search.RecordQuery) (*roaring.Bitmap, error) {
	keep := valueCondition(q)
	if keep == nil {
		return m, nil
	}
	vals, err := rt.valueColumn(s)
	if err != nil {
		return nil, err
	}
	out := roaring.New()
	it := m.Iterator()
	for it.HasNext() {
		d := it.Next()
		if keep(vals.date[d], vals.amount[d]) {
			out.Add(d)
		}
	}
	return out, nil
}

// valueCondition is q's test of a record's date and amount (nil when q
// sets none): an inclusive date window (undated records fail it), a valid
// amount, an inclusive amount band.
func valueCondition(q search.RecordQuery) func(date int64, amount float64) bool {
	dated := !q.From.IsZero() || !q.To.IsZero()
	if !dated && !q.ValidAmountOnly && q.MinAmount == nil && q.MaxAmount == nil {
		return nil
	}
	var from, to int64 = math.MinInt64 + 1, math.MaxInt64
	if !q.From.IsZero() {
		from = q.From.UnixNano()
	}
	if !q.To.IsZero() {
		to = q.To.UnixNano()
	}
	return func(date int64, amount float64) bool {
		if dated && (date == noDate || date < from || date > to) {
			return false
		}
		if q.ValidAmountOnly && math.IsNaN(amount) {
			return false
		}
		// NaN compares false: ValidAmountOnly (set with either bound) left it out
		return !(q.MinAmount != nil && amount < *q.MinAmount) && !(q.MaxAmount != nil && amount > *q.MaxAmount)
	}
}

// segmentPage is the first limit matches of one segment after the cursor:
// the key's terms in the page's order, each term's matching documents
// ordered by id and kind.
func (rt *recordTotals) segmentPage(s *scorch.SegmentSnapshot, segIdx int, m *roaring.Bitmap, field string, desc bool, cursor *pageHit, limit int) ([]pageHit, error) {
	ids, err := rt.termColumn(s, "id", false)
	if err != nil {
		return nil, err
	}
	kinds, err := rt.termColumn(s, "kind", false)
	if err != nil {
		return nil, err
	}
	var keys *termColumn
	if field != "" {
		if keys, err = rt.termColumn(s, field, true); err != nil {
			return nil, err
		}
	}
	hit := func(d uint32, key string) pageHit {
		h := pageHit{key: key, seg: segIdx, doc: d}
		h.id, h.kind = ids.term(ids.ords[d]), kinds.term(kinds.ords[d])
		return h
	}
	// tie is the order of documents under one key: id, then kind
	tie := func(a, b uint32) int {
		if c := cmp.Compare(ids.ords[a], ids.ords[b]); c != 0 {
			return c
		}
		return cmp.Compare(kinds.ords[a], kinds.ords[b])
	}
	var idPos uint32
	var idExact bool
	if cursor != nil {
		idPos, idExact = ids.locate(cursor.id)
	}
	var out []pageHit
	// group adds the matching documents of one key, after the cursor
	group := func(docs *roaring.Bitmap, key string, atCursor bool) {
		var g []uint32
		it := roaring.And(docs, m).Iterator()
		for it.HasNext() {
			d := it.Next()
			if atCursor {
				// after the cursor's id (located once among the segment's
				// ids), or at it with a later kind
				o := ids.ords[d]
				if o < idPos || o == idPos && idExact && kinds.term(kinds.ords[d]) <= cursor.kind {
					continue
				}
			}
			g = append(g, d)
		}
		g = smallest(g, limit-len(out), tie)
		for _, d := range g {
			out = append(out, hit(d, key))
		}
	}
	if keys == nil {
		group(m, "", cursor != nil)
		return out, nil
	}
	n := keys.len()
	for step := 0; step < n && len(out) < limit; step++ {
		o := step
		if desc {
			o = n - 1 - step
		}
		key := keys.term(uint32(o))
		atCursor := false
		if cursor != nil {
			c := cmp.Compare(key, cursor.key)
			if desc {
				c = -c
			}
			if c < 0 {
				continue
			}
			atCursor = c == 0
		}
		group(keys.docs[o], key, atCursor)
	}
	return out, nil
}

// smallest is the k first of docs in order, in order.
func smallest(docs []uint32, k int, order func(a, b uint32) int) []uint32 {
	if k <= 0 {
		return nil
	}
	if len(docs) > 4*k && len(docs) > 64 {
		// keep a sorted window of the k best while reading the rest
		best := slices.Clone(docs[:k])
		slices.SortFunc(best, order)
		for _, d := range docs[k:] {
			if order(d, best[k-1]) >= 0 {
				continue
			}
			i, _ := slices.BinarySearchFunc(best, d, order)
			copy(best[i+1:], best[i:k-1])
			best[i] = d
		}
		return best
	}
	slices.SortFunc(docs, order)
	return docs[:min(k, len(docs))]
}

// recordDoc reads a hit's stored record.
func recordDoc(snap *scorch.IndexSnapshot, h pageHit) (search.Record, error) {
	var raw any // nil: decodeRecord says the stored record is missing
	err := snap.Segments()[h.seg].VisitDocument(uint64(h.doc), func(field string, _ byte, value []byte, _ []uint64) bool {
		if field == "doc" {
			raw = string(value)
			return false
		}
		return true
	})
	if err != nil {
		return search.Record{}, err
	}
	return decodeRecord(raw)
}
