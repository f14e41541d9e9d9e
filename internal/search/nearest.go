package search

import (
	"cmp"
	"math"
	"slices"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Nearest-neighbour search over record vectors (Record.Vector): each
// engine keeps an approximate index of the vectors of every kind (embedded:
// an HNSW graph persisted beside its indexes; OpenSearch: a knn_vector
// field searched by the k-NN plugin), updated as records are written.
const (
	// VectorDims is the one length of a record vector (the semantic
	// model's); the OpenSearch mapping states it.
	VectorDims = 128
	// MaxNear bounds NearQuery.K.
	MaxNear = 1000
)

// NearCandidates is how many candidates an engine's graph search keeps
// before it answers the best K (the embedded engine's ann.EfSearch, the
// OpenSearch k-NN query's k): at K = 10 alone the graph walk missed a
// quarter of the exact top 10 at 100,000 vectors.
const NearCandidates = 200

// NearQuery asks for the K records of Kind whose vectors are most similar
// (cosine) to Vector, with a similarity of at least MinScore, among the
// records Filter matches.
type NearQuery struct {
	Kind     string
	Vector   []float32 // of unit length, VectorDims long
	K        int       // 1 to MaxNear
	MinScore float32
	// Filter narrows the records searched with RecordQuery's meaning
	// (sources, ids, keys, a date range, amounts). Engines apply it inside
	// the nearest-neighbour search, not to the K found, so K records come
	// back whenever K records of Kind match it (and pass MinScore). Its
	// Kinds, Sort, Limit and Cursor are not used: Kind names the kind.
	Filter RecordQuery
}

// Filtered reports whether q narrows the records searched beyond its kind.
func (q NearQuery) Filtered() bool {
	f := q.Filter
	for _, vs := range f.Keys {
		if len(vs) > 0 {
			return true
		}
	}
	return len(f.Sources) > 0 || len(f.IDs) > 0 || !f.From.IsZero() || !f.To.IsZero() ||
		f.MinAmount != nil || f.MaxAmount != nil || f.ValidAmountOnly
}

// RecordFilter is q's filter as a record query of q's kind: what the
// engines compile, and the reference (RecordQuery.Matches) they are tested
// against.
func (q NearQuery) RecordFilter() RecordQuery {
	f := q.Filter
	f.Kinds, f.Sort, f.Limit, f.Cursor = []string{q.Kind}, "", 0, ""
	if f.MinAmount != nil || f.MaxAmount != nil {
		f.ValidAmountOnly = true
	}
	return f
}

// Near is one record found by NearestRecords.
type Near struct {
	ID    string  `json:"id"`
	Score float32 `json:"score"`
}

// Check validates a nearest-neighbour query.
func (q NearQuery) Check() error {
	switch {
	case q.Kind == "":
		return record.Invalid("kind", "a nearest-neighbour search names its record kind")
	case len(q.Vector) == 0:
		return record.Invalid("vector", "a nearest-neighbour search needs a vector")
	case q.K < 1 || q.K > MaxNear:
		return record.Invalid("k", "k must be 1 to %d", MaxNear)
	case len(q.Filter.Kinds) > 0:
		return record.Invalid("kind", "a nearest-neighbour filter names no kinds: the query names its one kind")
	case q.Filter.Cursor != "":
		return record.Invalid("cursor", "a nearest-neighbour search is not paged")
	}
	f := q.RecordFilter()
	if err := f.Normalize(); err != nil {
		return err
	}
	return CheckVector(q.Vector)
}

// CheckVector validates a record's or a query's vector: none, or
// VectorDims finite components.
func CheckVector(v []float32) error {
	if len(v) == 0 {
		return nil
	}
	if len(v) != VectorDims {
		return record.Invalid("vector", "a vector has %d components, not %d", len(v), VectorDims)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return record.Invalid("vector", "a vector has a component that is not a number")
		}
	}
	return nil
}

// SortNear orders nearest records best first, ties by id.
func SortNear(ns []Near) {
	slices.SortFunc(ns, func(a, b Near) int { return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID)) })
}

// Overlap is the share of want's ids that got holds (1 when want is
// empty): how an approximate nearest-neighbour answer is held to the exact
// one (overlap@k).
func Overlap(got, want []Near) float64 {
	if len(want) == 0 {
		return 1
	}
	in := make(map[string]bool, len(got))
	for _, g := range got {
		in[g.ID] = true
	}
	same := 0
	for _, w := range want {
		if in[w.ID] {
			same++
		}
	}
	return float64(same) / float64(len(want))
}
