package mcp

import (
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// DeprecatedTag is the struct tag that marks a published field kept only
// for readers of an older answer (SPEC §9: existing reads keep working):
// its value names the field that replaced it, as a JSON path of the same
// answer ("understood.filter"). docs/api.md's change log names every one.
const DeprecatedTag = "deprecated"

// markDeprecated sets deprecated: true, and says what to read instead, on
// every property of the output schema s whose field of t carries the
// deprecated tag, at any depth (s is the schema jsonschema.For inferred
// from t).
func markDeprecated(t reflect.Type, s *jsonschema.Schema) {
	markType(t, s, map[reflect.Type]bool{})
}

func markType(t reflect.Type, s *jsonschema.Schema, open map[reflect.Type]bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || open[t] {
		return
	}
	open[t] = true
	defer delete(open, t)
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		markType(t.Elem(), s.Items, open)
	case reflect.Map:
		markType(t.Elem(), s.AdditionalProperties, open)
	case reflect.Struct:
		for _, f := range reflect.VisibleFields(t) {
			if !f.IsExported() || f.Anonymous && f.Tag.Get("json") == "" {
				continue // an embedded struct's fields are visited themselves
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			p := s.Properties[name]
			if p == nil {
				continue
			}
			if use, ok := f.Tag.Lookup(DeprecatedTag); ok {
				p.Deprecated = true
				p.Description = "Deprecated: kept for older readers; read " + use + " instead."
			}
			markType(f.Type, p, open)
		}
	}
}
