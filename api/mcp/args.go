package mcp

import (
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Bounds on tool arguments.
const (
	maxResults  = 50
	datePattern = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
)

var lensEnum = []any{record.LensMoney, record.LensLand, record.LensProperty, record.LensRules, record.LensMeetings, record.LensPeople}

func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties[name]
	if !ok {
		panic("mcp: no property " + name)
	}
	return p
}

func bounded(s *jsonschema.Schema, name string, maxLen int, desc string) {
	p := prop(s, name)
	p.MaxLength = ptr(maxLen)
	p.Description = desc
}

func limitProp(s *jsonschema.Schema, max int) {
	p := prop(s, "limit")
	p.Minimum = ptr(1.0)
	p.Maximum = ptr(float64(max))
	p.Description = "How many results to return (default 20)."
}

func dateProp(s *jsonschema.Schema, name, desc string) {
	p := prop(s, name)
	p.Pattern = datePattern
	p.Description = desc
}

func cursorProp(s *jsonschema.Schema) {
	bounded(s, "cursor", record.MaxCursorLen, "Opaque next_cursor from the previous page of the same search.")
}

// exactCountProp is the exact_count switch of a search tool: counts are
// exact up to record.CountLimit, then a lower bound ("gte") unless asked.
func exactCountProp(s *jsonschema.Schema) {
	prop(s, "exact_count").Description = "Count every hit exactly. Without it, total and scope.matched are exact up to 10,000; " +
		"beyond that they read 10,000 with total_relation and scope.matched_relation \"gte\" (at least 10,000)."
}

func lensProp(s *jsonschema.Schema, name, desc string) {
	p := prop(s, name)
	p.Types = nil
	p.Type = "array"
	p.Items = &jsonschema.Schema{Type: "string", Enum: lensEnum}
	p.MaxItems = ptr(6)
	p.Description = desc
}

func (d *Deps) agencyID(name string) ([]string, error) {
	if name == "" {
		return nil, nil
	}
	ids, _, err := d.Crosswalk.ResolveNames("agency", []string{name}) // the one agency rule
	return ids, err
}

func limitOr(n, def int) int {
	if n == 0 {
		return def
	}
	return n
}

// refs are a result's hits as notice references, scored by sort.
func (d *Deps) refs(res search.Result, sort string) []NoticeRef {
	refs := make([]NoticeRef, 0, len(res.Hits))
	for _, h := range res.Hits {
		r := d.ref(h.Notice)
		r.Score = view.HitScore(h, sort)
		refs = append(refs, r)
	}
	return refs
}
