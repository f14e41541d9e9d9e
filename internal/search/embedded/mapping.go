package embedded

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"
)

func keywordField() *mapping.FieldMapping {
	f := bleve.NewKeywordFieldMapping()
	f.Analyzer = keyword.Name
	f.Store = false
	f.IncludeInAll = false
	f.DocValues = true
	// no term vectors (Bleve's default keeps each value's position, byte
	// offsets and array positions): nothing reads a keyword's locations,
	// only the phrase matcher reads locations, of text fields (phrase.go)
	f.IncludeTermVectors = false
	return f
}

func textField(store bool) *mapping.FieldMapping {
	f := bleve.NewTextFieldMapping()
	f.Analyzer = analyzerName
	f.Store = store
	f.IncludeInAll = false
	f.IncludeTermVectors = true
	f.DocValues = false
	return f
}

func numField() *mapping.FieldMapping {
	f := bleve.NewNumericFieldMapping()
	f.Store = false
	f.IncludeInAll = false
	f.DocValues = true
	return f
}

func dateField() *mapping.FieldMapping {
	f := bleve.NewDateTimeFieldMapping()
	f.Store = false
	f.IncludeInAll = false
	f.DocValues = true
	return f
}

func boolField() *mapping.FieldMapping {
	f := bleve.NewBooleanFieldMapping()
	f.Store = false
	f.IncludeInAll = false
	return f
}

func storedNum() *mapping.FieldMapping {
	f := bleve.NewNumericFieldMapping()
	f.Index = false
	f.Store = true
	f.IncludeInAll = false
	f.DocValues = false
	return f
}

func storedOnly() *mapping.FieldMapping {
	f := bleve.NewTextFieldMapping()
	f.Index = false
	f.Store = true
	f.IncludeInAll = false
	f.DocValues = false
	return f
}

func newMapping(fields map[string]*mapping.FieldMapping) *mapping.IndexMappingImpl {
	dm := bleve.NewDocumentStaticMapping()
	for name, f := range fields {
		dm.AddFieldMappingsAt(name, f)
	}
	// no "_all" composite field: every query names its field, and building
	// the (empty) composite cost 5% of indexing CPU
	dm.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	im := bleve.NewIndexMapping()
	im.DefaultMapping = dm
	im.DefaultAnalyzer = analyzerName
	im.StoreDynamic = false
	im.IndexDynamic = false
	im.DocValuesDynamic = false
	im.ScoringModel = index.BM25Scoring
	return im
}

// noticeMapping: keyword filters, text for keywords, keyword sort keys,
// and the notice stored in "hit" (what a result list reads, as JSON),
// "body", "text" and "raw" (Raw as JSON), each text once (hit.go).
func noticeMapping() *mapping.IndexMappingImpl {
	return newMapping(map[string]*mapping.FieldMapping{
		"request_id":       keywordField(),
		"source":           keywordField(),
		"section":          keywordField(),
		"lenses":           keywordField(),
		"notice_type":      keywordField(),
		"agency_id":        keywordField(),
		"agency_raw":       keywordField(),
		"vendor_stem":      keywordField(),
		"vendor_name":      keywordField(), // the totals' grouping by printed name (notice_totals.go)
		"pin":              keywordField(),
		"year":             keywordField(),
		"content":          textField(false),
		"title":            textField(false),
		"amount":           numField(),
		"amount_valid":     boolField(),
		"due_rolling":      boolField(),
		"start_date":       dateField(),
		"due_date":         dateField(),
		"event_date":       dateField(),
		"sort_start_desc":  keywordField(),
		"sort_start_asc":   keywordField(),
		"sort_due":         keywordField(),
		"sort_event":       keywordField(),
		"sort_amount_desc": keywordField(),
		"hit":              storedOnly(),
		"body":             storedOnly(),
		"text":             storedOnly(),
		"raw":              storedOnly(),
		"passage_count":    storedNum(),
	})
}

func passageMapping() *mapping.IndexMappingImpl {
	return newMapping(map[string]*mapping.FieldMapping{
		"id":         keywordField(),
		"request_id": keywordField(),
		"source":     keywordField(),
		"lenses":     keywordField(),
		"agency_id":  keywordField(),
		"text":       textField(false),
		"start_date": dateField(),
		"doc":        storedOnly(),
	})
}
