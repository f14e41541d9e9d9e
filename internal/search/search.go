// Package search is the one seam between Recordwatch and a search engine.
// Backend has a Reader (keyword, filtered, faceted, paged search; get by id;
// passage search; coverage) and a Writer (idempotent upserts, deletes,
// per-source coverage). Two engines implement it: embedded (Bleve, the
// default) and opensearch; searchtest holds the contract suite both pass.
package search

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Sort orders.
const (
	SortRelevance  = "relevance"   // best match first (newest first when there are no keywords)
	SortNewest     = "newest"      // publication (start) date, newest first
	SortOldest     = "oldest"      // publication date, oldest first
	SortDueSoonest = "due"         // due date, soonest first; rolling and undated last
	SortEvent      = "event"       // event date, soonest first; undated last
	SortAmount     = "amount_desc" // valid amount, largest first
)

// Sorts lists the accepted sort names.
var Sorts = []string{SortRelevance, SortNewest, SortOldest, SortDueSoonest, SortEvent, SortAmount}

// Paging bounds.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	MaxTextLen   = record.MaxTextLen
	MaxClauses   = 32
	FacetSize    = 20
	// MaxRequestIDs bounds Query.RequestIDs.
	MaxRequestIDs = record.MaxRequestIDs
)

// Query is a notice search. Keywords in Text are OR-matched; "quoted
// phrases" are alternatives too; -word or -"phrase" excludes. Every other
// field narrows. An amount bound implies valid amounts only.
type Query struct {
	Text        string
	Lenses      []string
	Sections    []string
	NoticeTypes []string
	AgencyIDs   []string
	VendorStems []string
	PINs        []string
	// PINPrefixes keeps notices whose PIN starts with one of these (the
	// 10-character base PIN of a procurement, entity.PINBase).
	PINPrefixes []string
	Sources     []string
	// RequestIDs keeps only these notices (at most MaxRequestIDs): how
	// semantic search (internal/semantic) has the engine apply every other
	// filter to its nearest notices.
	RequestIDs []string

	MinAmount *float64
	MaxAmount *float64
	// ValidAmountOnly keeps only rows with a valid amount (implied by bounds).
	ValidAmountOnly bool

	From, To time.Time // publication (start) date, inclusive days

	DueFrom, DueTo time.Time // due date range
	// IncludeRolling adds rolling (no fixed deadline) notices to a due range.
	IncludeRolling bool

	EventFrom, EventTo time.Time

	Sort   string
	Limit  int
	Cursor string
	Facets bool

	// ExactCount asks for the exact number of hits; without it Total
	// (and Scope.Matched) is exact up to record.CountLimit and then
	// record.CountLimit with the relation "gte" (record.CapCount), the
	// same on both engines. Facet counts are always exact.
	ExactCount bool

	// IDsOnly asks for each hit's request id alone (Hit.Notice holds
	// RequestID and nothing else; scores, totals, cursors and facets are
	// as without it): for a caller that ranks many hits and shows a page
	// of them (semantic and hybrid search read the notices of the page
	// after), so the engine decodes no stored notice that is not shown.
	IDsOnly bool

	// Brief asks for each hit's notice as a result list reads it
	// (BriefNotice): without its full text and Raw, which a list does not
	// show. Surfaces that read the text (feeds' excerpts, watches,
	// linkers, embeddings) leave it false.
	Brief bool
}

// Hit is one notice in a result. Its Notice has every field but Raw (the
// source fields as read, a third of a stored notice, which no result view
// shows), and under Query.Brief neither Body nor Text (BriefNotice); Get
// returns the whole notice.
type Hit struct {
	Notice record.Notice `json:"notice"`
	Score  float64       `json:"score"`
}

// FacetCount is one value of a facet and how many hits have it.
type FacetCount struct {
	Value string `json:"value"`
	Count int    `json:"count"`
}

// Facet names.
const (
	FacetLens   = "lens"
	FacetAgency = "agency"
	FacetType   = "notice_type"
	FacetYear   = "year"
)

// Result is a page of notices with the scope of the search.
type Result struct {
	Hits       []Hit                   `json:"hits"`
	Total      int                     `json:"total"`
	NextCursor string                  `json:"next_cursor,omitempty"`
	Facets     map[string][]FacetCount `json:"facets,omitempty"`
	Scope      record.Scope            `json:"scope"`

	// TotalRelation is record.CountAtLeast ("gte") when Total is a lower
	// bound, "" when it is exact (Query.ExactCount).
	TotalRelation string `json:"total_relation,omitempty"`
}

// PassageQuery is a passage search: keywords as in Query, narrowed by lens,
// agency, source and publication dates.
type PassageQuery struct {
	Text      string
	Lenses    []string
	AgencyIDs []string
	Sources   []string
	RequestID string
	From, To  time.Time
	Limit     int
	Cursor    string

	// ExactCount asks for the exact number of passages (Query.ExactCount).
	ExactCount bool
}

// PassageHit is one passage in a result.
type PassageHit struct {
	Passage record.Passage `json:"passage"`
	Score   float64        `json:"score"`
}

// PassageResult is a page of passages with their scope.
type PassageResult struct {
	Passages   []PassageHit `json:"passages"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Scope      record.Scope `json:"scope"`

	// TotalRelation is "gte" when Total is a lower bound (Result).
	TotalRelation string `json:"total_relation,omitempty"`
}

// Doc is what the indexer writes: a notice and the passages cut from it.
// Upserting a Doc replaces the notice and all of its earlier passages.
type Doc struct {
	Notice   record.Notice
	Passages []record.Passage
}

// Observation records when a source was last observed, for coverage.
type Observation struct {
	Source     string
	Label      string
	RecordType string
	ObservedAt time.Time
}

// Reader answers queries. Errors are *record.Error where the caller can act.
type Reader interface {
	Search(ctx context.Context, q Query) (Result, error)
	// Get returns one notice by exact request id; ENOTFOUND when there is
	// none, EUNAVAILABLE when the engine cannot answer.
	Get(ctx context.Context, requestID string) (record.Notice, error)
	Passages(ctx context.Context, q PassageQuery) (PassageResult, error)
	Coverage(ctx context.Context) ([]record.SourceCoverage, error)
	// Sections counts records per source and section, with each set's
	// first and last source dates (sections.go), ordered by source, then
	// section.
	Sections(ctx context.Context) ([]SectionCoverage, error)
}

// Writer changes the index. Upsert is idempotent.
type Writer interface {
	Upsert(ctx context.Context, docs []Doc) error
	Delete(ctx context.Context, requestIDs []string) error
	Observe(ctx context.Context, o Observation) error
	// Refresh makes earlier writes visible to readers.
	Refresh(ctx context.Context) error
}

// Backend is a search engine behind Recordwatch.
type Backend interface {
	Reader
	Writer
	// Name identifies the engine ("embedded", "opensearch").
	Name() string
	Close() error
}
