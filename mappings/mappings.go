// Package mappings holds the OpenSearch index definitions (settings and
// mappings) as versioned JSON files embedded in the binary: notices.v1.json,
// passages.v1.json and meta.v1.json (source observations, for coverage).
//
// A mapping change is a new file with the next version (notices.v2.json) and
// a bump of the version constant; the OpenSearch engine then creates the new
// index, reindexes from the old one and swaps the alias (the old index is kept
// until removed by hand).
//
// Every text field uses the custom analyzer "en", built to tokenize like
// the embedded engine's analyzer (recordwatch_en): since version 2 of notices
// and passages, two pattern_replace char filters that state
// search.CleanText's punctuation rule (possessives, then ':', '.' and
// apostrophes between letters become spaces), then the standard (UAX#29)
// tokenizer, English possessive removal, lower-casing, Bleve's own English
// stop word list (the Snowball list, not Lucene's shorter _english_ list) and
// the classic Porter stemmer (porter_stem), which is what Bleve's "en"
// analyzer applies (stemmer_porter), so both engines match the same words.
//
// Notice documents are record.Notice as JSON plus fields the engine adds at
// index time (EngineFields): content (title, agency name, vendor name, PIN
// and text, the field keyword queries search), year (publication year, for
// facets) and passage_ids (the ids of the notice's passages, read back in
// real time so an upsert can delete passages a re-split no longer has). Fields that are kept only in _source are mapped with
// "index": false or "enabled": false; dynamic mapping is strict, so a new
// field on the record types fails loudly until it is mapped here. The test in
// this package keeps the files and the Go types from drifting apart.
package mappings

import (
	"embed"
	"fmt"
	"strconv"
)

//go:embed *.json
var files embed.FS

// Index kinds, one alias each (<prefix>-notices, <prefix>-passages,
// <prefix>-meta, <prefix>-records).
const (
	Notices  = "notices"
	Passages = "passages"
	Meta     = "meta"
	// Records holds every read-model record (search.Record) of every
	// kind (contract, payment, lot, land_project, meeting, payroll …), with
	// the record's keys as an object of keywords (a dynamic template maps
	// every keys.* field to keyword, so a new key needs no mapping change).
	// A new kind, or a new layout of one (search.Kind.Version), needs no
	// new index: the indexer writes the records again
	// (indexer.EnsureSampleRecords) and deletes those of retired kinds.
	Records = "records"
)

// The <prefix>-entries index (entries.v1) of an earlier release is
// retired with the entry documents it held: nothing creates or reads it.
// Payments, contracts and lots are records now; after upgrading, they are
// loaded again into the records index (the bundled sample is reloaded at
// start). Remove the old index by hand.

// Current mapping versions. Bump one (and add the file) to migrate.
const (
	NoticesVersion  = 2
	PassagesVersion = 2
	MetaVersion     = 1
	RecordsVersion  = 2
)

// Kinds lists the index kinds in the order they are opened.
var Kinds = []string{Notices, Passages, Meta, Records}

// EngineFields are the fields of each kind that are not on the record type:
// the engine computes them at index time.
var EngineFields = map[string][]string{
	Notices: {"content", "year", "passage_ids"},
	// valid_amount is the amount of a record whose amount is valid, the
	// field amount sorts, ranges and sums read (amount itself is kept as
	// given, stored only).
	// vector is Record.Vector (not in a record's JSON), a knn_vector of
	// search.VectorDims components searched by the k-NN plugin (records
	// v2; the plugin must be installed: docker/opensearch-local.sh).
	Records: {"valid_amount", "vector"},
}

// Version returns the current mapping version of an index kind, or 0 when
// the kind is unknown.
func Version(kind string) int {
	switch kind {
	case Notices:
		return NoticesVersion
	case Passages:
		return PassagesVersion
	case Meta:
		return MetaVersion
	case Records:
		return RecordsVersion
	}
	return 0
}

// FileName is the name of the file holding a version of a kind's mapping
// ("notices.v1.json").
func FileName(kind string, version int) string {
	return kind + ".v" + strconv.Itoa(version) + ".json"
}

// Get returns the current settings and mappings of an index kind as the JSON
// body of a create-index request.
func Get(kind string) ([]byte, error) {
	v := Version(kind)
	if v == 0 {
		return nil, fmt.Errorf("mappings: unknown index kind %q", kind)
	}
	return GetVersion(kind, v)
}

// GetVersion returns one version of an index kind's settings and mappings.
func GetVersion(kind string, version int) ([]byte, error) {
	b, err := files.ReadFile(FileName(kind, version))
	if err != nil {
		return nil, fmt.Errorf("mappings: no mapping %s: %w", FileName(kind, version), err)
	}
	return b, nil
}
