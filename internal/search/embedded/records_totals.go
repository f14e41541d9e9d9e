package embedded

import (
	"context"
	"math"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/numeric"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/recordwatch/recordwatch/internal/lru"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Record totals are an aggregation inside the engine, the way OpenSearch
// runs a sum aggregation over doc values: a query's matches are read as
// one bitmap per segment straight from the postings of its keyword
// filters, and the date, amount and grouping values of each match come
// from per-segment columns. Segments never change (deletions are applied
// apart), so a column is read once per segment and kept (within
// TotalsColumnBytes); a browse's totals cost a pass over bitmaps and
// arrays, never a decoded record. search.RecordTotalsAccumulator stays the
// reference (the contract suite compares the two).

// TotalsColumnBytes caps the memory of the records index's totals columns.
const TotalsColumnBytes = 128 << 20

// noDate marks a document without a date in a date column.
const noDate = math.MinInt64

// valueColumn is one segment's dates (UnixNano; noDate when missing) and
// valid amounts (NaN when the record has no valid amount).
type valueColumn struct {
	date   []int64
	amount []float64
}

func (c *valueColumn) size() int64 { return int64(64 + 16*len(c.date)) }

// groupColumn is one segment's values of a grouping: document d holds
// terms[ords[start[d]:start[d+1]]].
type groupColumn struct {
	start []uint32
	ords  []uint32
	terms []string
}

func (c *groupColumn) size() int64 {
	n := 64 + 4*len(c.start) + 4*len(c.ords)
	for _, t := range c.terms {
		n += 16 + len(t)
	}
	return int64(n)
}

// recordTotals holds an index's totals columns: the records index's, and
// the notices index's (notice_totals.go).
type recordTotals struct {
	fields totalsFields

	values lru.Cache[uint64, *valueColumn]
	groups lru.Cache[columnKey, *groupColumn]
	terms  lru.Cache[columnKey, *termColumn] // records_page.go

	warmer warmer // reads the columns ahead (warm.go)
}

// totalsFields names the fields of an index that its totals read.
type totalsFields struct {
	date, amount string         // numeric fields with doc values; amount held only when valid
	fiscalYear   string         // the grouping by NYC fiscal year of the date
	day          string         // the grouping by New York day of the date ("" for none)
	zone         *time.Location // of the first and last dates answered
	// group is the keyword field of a grouping and the prefix its terms
	// carry there ("" for none)
	group func(group string) (field, prefix string)
	warm  []warmTerm // the term columns every page reads (records_page.go)
}

type warmTerm struct {
	field  string
	byTerm bool
}

// recordColumns are the records index's.
var recordColumns = totalsFields{
	date: "date", amount: "amount", fiscalYear: search.GroupByFiscalYear, day: search.GroupByDay, zone: time.UTC,
	group: func(group string) (string, string) {
		switch group {
		case search.GroupByKind:
			return "kind", ""
		case search.GroupBySource:
			return "source", ""
		}
		return "keys", keyTerm(group, "")
	},
	warm: []warmTerm{{"id", false}, {"kind", false}, {"sort_date_desc", true}},
}

// warm reads, in the background, the columns every page and totals read
// (values and the fields' warm term columns: for records the ids, kinds
// and the newest-first key) of the segments not yet read:
// called when the engine opens and after each write, so a segment's
// columns are ready before the first query that needs them, not built by
// it. One warm-up runs at a time; a segment written meanwhile is read by
// the next one (or by the first query that needs it).
func (rt *recordTotals) warm(idx bleve.Index) {
	rt.warmer.run(func() { rt.warmNow(idx) })
}

// warmNow is one warm-up, in the caller's goroutine.
func (rt *recordTotals) warmNow(idx bleve.Index) {
	snap, err := indexSnapshot(idx)
	if err != nil {
		return // closed meanwhile
	}
	defer snap.Close()
	for _, s := range snap.Segments() {
		if rt.warmer.stop.Load() {
			return
		}
		if _, err := rt.valueColumn(s); err != nil {
			return
		}
		for _, f := range rt.fields.warm {
			if _, err := rt.termColumn(s, f.field, f.byTerm); err != nil {
				return
			}
		}
	}
}

// halt stops the warm-up and waits for it (the engine is closing).
func (rt *recordTotals) halt() { rt.warmer.halt() }

// RecordTotals sums every record q matches, overall and per grouping.
func (b *Backend) RecordTotals(ctx context.Context, q search.RecordQuery, groupBy []string, size int) (search.Totals, error) {
	if err := search.CheckGroupBy(groupBy); err != nil {
		return search.Totals{}, err
	}
	q.Limit, q.Cursor, q.Sort = 0, "", ""
	if err := q.Normalize(); err != nil {
		return search.Totals{}, err
	}
	t, err := b.totals.sum(ctx, b.records, q, groupBy)
	if err != nil {
		return search.Totals{}, unavailable(err)
	}
	return t.Totals(size), nil
}

func (rt *recordTotals) sum(ctx context.Context, idx bleve.Index, q search.RecordQuery, groupBy []string) (*search.RecordTotalsAccumulator, error) {
	snap, err := indexSnapshot(idx)
	if err != nil {
		return nil, err
	}
	defer snap.Close()
	acc := search.NewRecordTotalsAccumulator(groupBy)
	for _, s := range snap.Segments() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		m, err := recordMatches(s, q)
		if err != nil {
			return nil, err
		}
		if m.IsEmpty() {
			continue
		}
		part, err := rt.segmentTotals(s, m, valueCondition(q), groupBy)
		if err != nil {
			return nil, err
		}
		acc.Merge(part)
	}
	return acc, nil
}

// indexSnapshot is the index's current snapshot; the caller closes it.
func indexSnapshot(idx bleve.Index) (*scorch.IndexSnapshot, error) {
	adv, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	reader, err := adv.Reader()
	if err != nil {
		return nil, err
	}
	snap, ok := reader.(*scorch.IndexSnapshot)
	if !ok {
		return nil, errNotScorch
	}
	if snap == nil {
		return nil, bleve.ErrorIndexClosed
	}
	return snap, nil
}

// recordMatches are the segment's live documents that q's keyword filters
// (kinds, sources, ids, keys) admit; the date and amount conditions are
// applied from the value column.
func recordMatches(s *scorch.SegmentSnapshot, q search.RecordQuery) (*roaring.Bitmap, error) {
	seg := s.Segment()
	m := roaring.New()
	m.AddRange(0, seg.Count())
	narrow := func(field string, values []string) error {
		if len(values) == 0 {
			return nil
		}
		f, err := orPostings(seg, field, values)
		if err != nil {
			return err
		}
		m.And(f)
		return nil
	}
	for _, f := range []struct {
		field  string
		values []string
	}{{"kind", q.Kinds}, {"source", q.Sources}, {"id", q.IDs}} {
		if err := narrow(f.field, f.values); err != nil {
			return nil, err
		}
	}
	for name, vs := range q.Keys {
		ts := make([]string, 0, len(vs))
		for _, v := range vs {
			ts = append(ts, keyTerm(name, v))
		}
		if err := narrow("keys", ts); err != nil {
			return nil, err
		}
	}
	if d := s.Deleted(); d != nil {
		m.AndNot(d)
	}
	return m, nil
}

// segmentTotals sums the matches of one segment per grouping value
// ordinal, then names the values.
// keep (when not nil) applies the query's date and amount conditions.
func (rt *recordTotals) segmentTotals(s *scorch.SegmentSnapshot, m *roaring.Bitmap, keep func(date int64, amount float64) bool, groupBy []string) (search.Totals, error) {
	vals, err := rt.valueColumn(s)
	if err != nil {
		return search.Totals{}, err
	}
	cols := make([]*groupColumn, len(groupBy))
	sums := make([][]search.Bucket, len(groupBy))
	fiscal := make([]*fiscalSums, len(groupBy))
	days := make([]*daySums, len(groupBy))
	for i, g := range groupBy {
		if g == rt.fields.fiscalYear {
			fiscal[i] = &fiscalSums{}
			continue
		}
		if rt.fields.day != "" && g == rt.fields.day {
			days[i] = &daySums{}
			continue
		}
		if cols[i], err = rt.groupColumn(s, g); err != nil {
			return search.Totals{}, err
		}
		sums[i] = make([]search.Bucket, len(cols[i].terms))
	}
	var t search.Totals
	var first, last int64 = math.MaxInt64, noDate
	it := m.Iterator()
	for it.HasNext() {
		d := it.Next()
		date, amount := vals.date[d], vals.amount[d]
		valid := !math.IsNaN(amount)
		if keep != nil && !keep(date, amount) {
			continue
		}
		t.Count++
		if valid {
			t.ValidAmounts++
			t.Amount += amount
		}
		if date != noDate {
			first, last = min(first, date), max(last, date)
		}
		for i, c := range cols {
			var b *search.Bucket
			if c == nil {
				if date == noDate {
					continue
				}
				if days[i] != nil {
					b = days[i].of(date)
				} else {
					b = fiscal[i].of(date)
				}
				addTo(b, amount, valid)
				continue
			}
			seen := -1 // ords of a document are ascending and distinct but for repeats
			for _, o := range c.ords[c.start[d]:c.start[d+1]] {
				if int(o) == seen {
					continue
				}
				seen = int(o)
				addTo(&sums[i][o], amount, valid)
			}
		}
	}
	if last != noDate {
		t.First, t.Last = time.Unix(0, first).In(rt.fields.zone), time.Unix(0, last).In(rt.fields.zone)
	}
	if len(groupBy) > 0 {
		t.Groups = make(map[string][]search.Bucket, len(groupBy))
	}
	for i, g := range groupBy {
		var bs []search.Bucket
		if c := cols[i]; c != nil {
			for o, b := range sums[i] {
				if b.Count > 0 && c.terms[o] != "" {
					b.Value = c.terms[o]
					bs = append(bs, b)
				}
			}
		}
		if f := fiscal[i]; f != nil {
			bs = f.buckets(bs)
		}
		if ds := days[i]; ds != nil {
			bs = ds.buckets(bs)
		}
		t.Groups[g] = bs
	}
	return t, nil
}

// fiscalYearStarts are the first instants (UnixNano) of NYC fiscal years
// firstTabledFY onwards: a date's fiscal year is a search among them, not
// a time zone lookup per match.
const firstTabledFY, lastTabledFY = 1951, 2100

var fiscalYearStarts = func() []int64 {
	out := make([]int64, 0, lastTabledFY-firstTabledFY+2)
	for fy := firstTabledFY; fy <= lastTabledFY+1; fy++ {
		start, _ := search.FiscalYearRange(fy)
		out = append(out, start.UnixNano())
	}
	return out
}()

// fiscalSums are one segment's sums by fiscal year: by table position for
// the tabled years, in a map for the others.
type fiscalSums struct {
	tabled [lastTabledFY - firstTabledFY + 1]search.Bucket
	others map[int]*search.Bucket
}

// of is the bucket of a date's fiscal year.
func (f *fiscalSums) of(date int64) *search.Bucket {
	fy := fiscalYearOf(date)
	if k := fy - firstTabledFY; k >= 0 && k < len(f.tabled) {
		return &f.tabled[k]
	}
	if f.others == nil {
		f.others = map[int]*search.Bucket{}
	}
	b := f.others[fy]
	if b == nil {
		b = &search.Bucket{}
		f.others[fy] = b
	}
	return b
}

// buckets appends the years counted, each named.
func (f *fiscalSums) buckets(bs []search.Bucket) []search.Bucket {
	for k, b := range f.tabled {
		if b.Count > 0 {
			b.Value = strconv.Itoa(firstTabledFY + k)
			bs = append(bs, b)
		}
	}
	for fy, b := range f.others {
		b.Value = strconv.Itoa(fy)
		bs = append(bs, *b)
	}
	return bs
}

// daySums are one segment's sums by New York day of the date.
type daySums struct {
	byDay map[string]*search.Bucket
	// the last date seen and its day: records of one day often share
	// their instant (a payment's issue date is midnight)
	lastDate int64
	lastDay  *search.Bucket
}

// of is the bucket of a date's New York day.
func (ds *daySums) of(date int64) *search.Bucket {
	if ds.lastDay != nil && date == ds.lastDate {
		return ds.lastDay
	}
	day := time.Unix(0, date).In(record.NewYork).Format(time.DateOnly)
	if ds.byDay == nil {
		ds.byDay = map[string]*search.Bucket{}
	}
	b := ds.byDay[day]
	if b == nil {
		b = &search.Bucket{Value: day}
		ds.byDay[day] = b
	}
	ds.lastDate, ds.lastDay = date, b
	return b
}

// buckets appends the days counted.
func (ds *daySums) buckets(bs []search.Bucket) []search.Bucket {
	for _, b := range ds.byDay {
		bs = append(bs, *b)
	}
	return bs
}

// fiscalYearOf is record.FiscalYear of a UnixNano date in New York time.
func fiscalYearOf(date int64) int {
	i, found := slices.BinarySearch(fiscalYearStarts, date)
	if !found {
		i--
	}
	if i < 0 || i >= len(fiscalYearStarts)-1 {
		return record.FiscalYear(time.Unix(0, date).In(record.NewYork))
	}
	return firstTabledFY + i
}

func addTo(b *search.Bucket, amount float64, valid bool) {
	b.Count++
	if valid {
		b.ValidAmounts++
		b.Amount += amount
	}
}

// valueColumn is the segment's date and amount column, read once from the
// exact (shift 0) terms of the numeric "date" and "amount" fields.
func (rt *recordTotals) valueColumn(s *scorch.SegmentSnapshot) (*valueColumn, error) {
	if c, ok := rt.values.Get(s.Id()); ok {
		return c, nil
	}
	seg := s.Segment()
	n := seg.Count()
	c := &valueColumn{date: make([]int64, n), amount: make([]float64, n)}
	for i := range c.date {
		c.date[i], c.amount[i] = noDate, math.NaN()
	}
	if err := exactNumbers(seg, c, rt.fields.date, rt.fields.amount, &rt.warmer.stop); err != nil {
		return nil, err
	}
	rt.values.Put(s.Id(), c, c.size())
	rt.values.Trim(0, TotalsColumnBytes/2)
	return c, nil
}

// exactNumbers fills c from the doc values of the numeric date and
// amount fields, document by document (chunk by chunk in the segment
// file): Bleve keeps a number as prefix-coded terms at several shifts, and
// the shift-0 term (first byte 0x20) is the value itself. Reading the
// fields' dictionaries instead costs a postings list per distinct value,
// and amounts are nearly all distinct.
func exactNumbers(seg segment.Segment, c *valueColumn, dateField, amountField string, stop *atomic.Bool) error {
	dv, ok := seg.(segment.DocValueVisitable)
	if !ok {
		return errNotScorch
	}
	fields := []string{dateField, amountField}
	var state segment.DocVisitState
	var doc uint64
	var err error
	visit := func(field string, term []byte) {
		if len(term) == 0 || term[0] != 0x20 {
			return
		}
		v, perr := numeric.PrefixCoded(term).Int64()
		if perr != nil {
			err = perr
			return
		}
		if field == dateField {
			c.date[doc] = v
		} else {
			c.amount[doc] = numeric.Int64ToFloat64(v)
		}
	}
	for doc = 0; doc < uint64(len(c.date)); doc++ {
		if doc%4096 == 0 && stop.Load() {
			return bleve.ErrorIndexClosed
		}
		var verr error
		if state, verr = dv.VisitDocValues(doc, fields, visit, state); verr != nil {
			return verr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// groupColumn is the segment's column of a grouping: "kind" or "source"
// for the pseudo-keys, else the grouping key's "name=value" terms.
func (rt *recordTotals) groupColumn(s *scorch.SegmentSnapshot, group string) (*groupColumn, error) {
	key := columnKey{s.Id(), group}
	if c, ok := rt.groups.Get(key); ok {
		return c, nil
	}
	field, prefix := rt.fields.group(group)
	seg := s.Segment()
	n := seg.Count()
	var start, end []byte
	if prefix != "" {
		start = []byte(prefix)
		end = append([]byte(prefix[:len(prefix)-1]), prefix[len(prefix)-1]+1)
	}
	// two passes over the postings: count each document's values, then
	// place them
	type termDocs struct {
		ord  uint32
		docs []uint32
	}
	var all []termDocs
	c := &groupColumn{start: make([]uint32, n+1)}
	var pit segment.PostingsIterator
	err := eachTerm(seg, field, start, end, func(term string, pl segment.PostingsList) error {
		td := termDocs{ord: uint32(len(c.terms))}
		c.terms = append(c.terms, term[len(prefix):])
		var err error
		pit, err = eachDoc(pl, pit, func(d uint64) {
			td.docs = append(td.docs, uint32(d))
			c.start[d+1]++
		})
		all = append(all, td)
		return err
	})
	if err != nil {
		return nil, err
	}
	for d := 1; d <= int(n); d++ {
		c.start[d] += c.start[d-1]
	}
	c.ords = make([]uint32, c.start[n])
	fill := make([]uint32, n)
	for _, td := range all {
		for _, d := range td.docs {
			c.ords[c.start[d]+fill[d]] = td.ord
			fill[d]++
		}
	}
	rt.groups.Put(key, c, c.size())
	rt.groups.Trim(0, TotalsColumnBytes/2)
	return c, nil
}
