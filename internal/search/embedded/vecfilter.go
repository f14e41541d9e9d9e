package embedded

import (
	"encoding/binary"
	"math"
	"slices"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded/ann"
)

// A vector's attributes (ann.Graph.AddMeta) are what a nearest-neighbour
// filter (search.NearQuery.Filter) reads of its record, so the graph
// search applies the filter itself: the record's date and valid amount,
// its source and its keys as "name=value" terms (keyTerm), sorted. The
// form: a flags byte (1 dated, 2 valid amount), the date in Unix
// nanoseconds and the amount's bits when flagged (8 bytes each,
// little-endian), then the source and each term as a length (uvarint) and
// its bytes.
const (
	metaDated = 1 << iota
	metaAmount
)

// vectorMeta is the attributes of r's vector.
func vectorMeta(r search.Record) []byte {
	var terms []string
	for name, vs := range r.Keys {
		for _, v := range vs {
			terms = append(terms, keyTerm(name, v))
		}
	}
	slices.Sort(terms)
	var flags byte
	if !r.Date.IsZero() {
		flags |= metaDated
	}
	if r.AmountValid {
		flags |= metaAmount
	}
	b := []byte{flags}
	if flags&metaDated != 0 {
		b = binary.LittleEndian.AppendUint64(b, uint64(r.Date.UnixNano()))
	}
	if flags&metaAmount != 0 {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.Amount))
	}
	b = binary.AppendUvarint(b, uint64(len(r.Source)))
	b = append(b, r.Source...)
	for _, t := range terms {
		b = binary.AppendUvarint(b, uint64(len(t)))
		b = append(b, t...)
	}
	return b
}

// vecFilter is a normalized search.RecordQuery compiled for the attributes
// of vectors: RecordQuery.Matches's meaning (the reference it is tested
// against) without decoding a record.
type vecFilter struct {
	ids, sources map[string]bool // nil: any
	// terms maps each wanted key term to the bit of its key name; every
	// name's bit must be set by one of the record's terms. Up to
	// linearTerms wanted terms are compared one by one (list, bits), which
	// is faster than hashing each of a record's terms.
	terms    map[string]uint32
	list     [][]byte
	bits     []uint32
	allNames uint32
	dated    bool // a bounded date range: undated records never match
	from, to int64
	amounts  bool // valid amounts only, within min and max
	min, max float64
}

func set(vs []string) map[string]bool {
	if len(vs) == 0 {
		return nil
	}
	m := make(map[string]bool, len(vs))
	for _, v := range vs {
		m[v] = true
	}
	return m
}

// compileVecFilter compiles q (normalized; its kinds are the graph's).
func compileVecFilter(q search.RecordQuery) *vecFilter {
	f := &vecFilter{ids: set(q.IDs), sources: set(q.Sources), min: math.Inf(-1), max: math.Inf(1)}
	names := make([]string, 0, len(q.Keys))
	for name, vs := range q.Keys {
		if len(vs) > 0 {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	if len(names) > 0 {
		f.terms = map[string]uint32{}
	}
	for i, name := range names { // at most search.MaxRecordKeys names
		bit := uint32(1) << i
		f.allNames |= bit
		for _, v := range q.Keys[name] {
			f.terms[keyTerm(name, v)] |= bit
		}
	}
	if len(f.terms) <= linearTerms {
		for t, bit := range f.terms {
			f.list, f.bits = append(f.list, []byte(t)), append(f.bits, bit)
		}
	}
	if !q.From.IsZero() || !q.To.IsZero() {
		f.dated, f.from, f.to = true, math.MinInt64, math.MaxInt64
		if !q.From.IsZero() {
			f.from = unixNano(q.From)
		}
		if !q.To.IsZero() {
			f.to = unixNano(q.To)
		}
	}
	if q.ValidAmountOnly || q.MinAmount != nil || q.MaxAmount != nil {
		f.amounts = true
		if q.MinAmount != nil {
			f.min = *q.MinAmount
		}
		if q.MaxAmount != nil {
			f.max = *q.MaxAmount
		}
	}
	return f
}

const linearTerms = 8

// unixNano is t in Unix nanoseconds, clamped to the int64 range (a bound
// far in the past or future stays one).
func unixNano(t time.Time) int64 {
	switch {
	case t.Year() < 1678:
		return math.MinInt64
	case t.Year() > 2261:
		return math.MaxInt64
	}
	return t.UnixNano()
}

// accept is the filter as an ann.Accept.
func (f *vecFilter) accept(id string, meta []byte) bool {
	if f.ids != nil && !f.ids[id] {
		return false
	}
	if len(meta) == 0 {
		return false // a vector written without attributes matches no filter
	}
	flags, b := meta[0], meta[1:]
	var date int64
	if flags&metaDated != 0 {
		if len(b) < 8 {
			return false
		}
		date, b = int64(binary.LittleEndian.Uint64(b)), b[8:]
	}
	if f.dated && (flags&metaDated == 0 || date < f.from || date > f.to) {
		return false
	}
	var amount float64
	if flags&metaAmount != 0 {
		if len(b) < 8 {
			return false
		}
		amount, b = math.Float64frombits(binary.LittleEndian.Uint64(b)), b[8:]
	}
	if f.amounts && (flags&metaAmount == 0 || amount < f.min || amount > f.max) {
		return false
	}
	source, b, ok := nextField(b)
	if !ok || f.sources != nil && !f.sources[string(source)] {
		return false
	}
	if f.terms == nil {
		return true
	}
	var seen uint32
	for len(b) > 0 {
		var t []byte
		if t, b, ok = nextField(b); !ok {
			return false
		}
		if f.list == nil {
			seen |= f.terms[string(t)]
			continue
		}
		for i, w := range f.list {
			if len(w) == len(t) && string(w) == string(t) {
				seen |= f.bits[i]
			}
		}
	}
	return seen == f.allNames
}

// nextField is the next length-prefixed field of a vector's attributes.
func nextField(b []byte) (field, rest []byte, ok bool) {
	n, w := binary.Uvarint(b)
	if w <= 0 || uint64(len(b)-w) < n {
		return nil, nil, false
	}
	return b[w : w+int(n)], b[w+int(n):], true
}

var _ ann.Accept = (*vecFilter)(nil).accept
