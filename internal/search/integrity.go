package search

import (
	"context"
	"time"
)

// Damage is a part of an engine's files refused because it failed its
// checksum or could not be read (the embedded engine checks every segment
// when it opens): nothing in it is served, and the records it held are
// unavailable — never answered from it, never "not found" — until they are
// loaded again from their source.
type Damage struct {
	Index   string `json:"index"`   // "notices", "passages", "records"
	Segment string `json:"segment"` // the refused file, as it was named
	Reason  string `json:"reason"`  // "checksum mismatch", "truncated: …"
	// Quarantine is where the refused file was moved (for a post-mortem).
	Quarantine string    `json:"quarantine,omitempty"`
	FoundAt    time.Time `json:"found_at"`
	// IDs are the ids of the documents it held, when they could still be
	// read from it (the term dictionary of its ids); Records is their
	// count, -1 when unknown (then every id of that index that is not
	// found is answered as unavailable).
	Records int      `json:"records"`
	IDs     []string `json:"ids,omitempty"`
}

// Integrity is an engine's account of its own files: the damage found and
// not yet repaired, and the word that the damaged records were loaded
// again (the indexer reloads them from their sources, then says so).
type Integrity interface {
	Damaged() []Damage
	Repaired(ctx context.Context) error
}

// BulkLoader is an engine's faster path for a first load (the embedded
// engine's, internal/search/embedded/bulk.go; OpenSearch has none and
// starts none): BeginBulk starts one when the notice indexes are empty and
// reports whether it did; the notices written and sources observed until
// EndBulk become visible to reads together when it returns. The indexer
// takes it for the bundled sample's first load (indexer.EnsureSample).
type BulkLoader interface {
	BeginBulk(ctx context.Context) (bool, error)
	EndBulk(ctx context.Context) error
}
