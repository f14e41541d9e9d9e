package embedded

import (
	"fmt"
	"math"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Sort keys are fixed-width keyword terms compared as strings. A numeric
// Bleve field indexes each value as 16 prefix-coded terms (for range
// queries), and sorting on it decodes all of them for every hit: 70-76% of
// the CPU of a vendor or newest-first query at 1.1M notices. A keyword key
// has one term per document in the doc values. Range filters keep using
// the numeric and date fields (amount, start_date, ...).
//
// Missing values get sentinels that sort below ("-") or above ("~") every
// digit, so records without a date or amount come last in every order and
// cursors stay plain strings.
const (
	keyMissingLow  = "-"
	keyMissingHigh = "~"
)

// timeKey is t in UTC to the second, as YYYYMMDDhhmmss. Years outside
// 0000-9999 are clamped so the key keeps its width.
func timeKey(t time.Time) string {
	t = t.UTC()
	switch {
	case t.Year() < 0:
		return "00000000000000"
	case t.Year() > 9999:
		return "99991231235959"
	}
	return t.Format("20060102150405")
}

// keyTime reads a timeKey back ("" or a sentinel → zero time).
func keyTime(k string) time.Time {
	t, err := time.ParseInLocation("20060102150405", k, time.UTC)
	if err != nil {
		return time.Time{}
	}
	return t
}

// amountKey is a valid amount in whole cents, zero-padded to 19 digits
// (valid amounts are below record.MaxValidAmount, 10^10 dollars).
func amountKey(a float64) string {
	c := math.Round(a * 100)
	switch {
	case c < 0 || math.IsNaN(c):
		c = 0
	case c > math.MaxInt64/2:
		c = math.MaxInt64 / 2
	}
	return fmt.Sprintf("%019d", int64(c))
}

// keySort orders by a keyword sort key. Ties in every order are broken by a
// keyword id field (request_id, id) the same way: Bleve's _id sort would
// load every hit's stored fields to read its id, 38% of the CPU of a
// relevance query at 1.1M notices, where doc values cost a lookup.
func keySort(field string, desc bool) bsearch.SearchSort {
	return &bsearch.SortField{Field: field, Desc: desc, Type: bsearch.SortFieldAsString, Missing: bsearch.SortFieldMissingLast}
}

// validCursorKey reports whether v can be a sort key of the named order, so
// a cursor from another key layout (format 1 used plain numbers) is refused
// instead of silently paging from the wrong place.
func validCursorKey(sortName, v string) bool {
	width := len("20060102150405")
	switch sortName {
	case search.SortRelevance:
		return true
	case search.SortAmount:
		width = 19
	}
	if v == keyMissingLow || v == keyMissingHigh {
		return true
	}
	if len(v) != width {
		return false
	}
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// rawDocValues are the fields whose doc values are stored uncompressed and
// one document per chunk: the sort keys and tie-break ids read for every hit
// of a sorted query, and the facet fields. Compressed doc values are decoded
// (snappy) chunk by chunk on every query that touches them, 34% of the CPU
// of a sorted query at 100k notices; raw ones are read straight from the
// mapped file. They are short keys, so the index grows little. Both flags
// are needed: zapx merges SkipDVCompression without SkipDVChunking wrongly
// (TestRawDocValuesSurviveMerges).
var rawDocValues = map[string]bool{
	"request_id": true, "id": true,
	"sort_start_desc": true, "sort_start_asc": true, "sort_due": true, "sort_event": true, "sort_amount_desc": true,
	"sort_date_asc": true, "sort_date_desc": true, "kind": true,
	"lenses": true, "agency_id": true, "notice_type": true, "year": true, "source": true,
}

// add maps fields to a Bleve document through the index's mapping, with
// the doc values of rawDocValues fields left uncompressed, and adds it to
// the batch.
func add(batch *bleve.Batch, m mapping.IndexMapping, id string, fields map[string]interface{}) error {
	doc, err := mapDoc(m, id, fields)
	if err != nil {
		return err
	}
	return batch.IndexAdvanced(doc)
}

// mapDoc maps fields to a Bleve document through the index's mapping, with
// the doc values of rawDocValues fields left uncompressed (add, and the
// bulk path's builders: bulk.go).
func mapDoc(m mapping.IndexMapping, id string, fields map[string]interface{}) (*document.Document, error) {
	doc := document.NewDocument(id)
	if err := m.MapDocument(doc, fields); err != nil {
		return nil, err
	}
	for i, f := range doc.Fields {
		tf, ok := f.(*document.TextField)
		if !ok || !rawDocValues[tf.Name()] || !tf.Options().IncludeDocValues() {
			continue
		}
		doc.Fields[i] = document.NewTextFieldCustom(tf.Name(), tf.ArrayPositions(), tf.Value(),
			tf.Options()|index.SkipDVCompression|index.SkipDVChunking, tf.Analyzer())
	}
	return doc, nil
}
