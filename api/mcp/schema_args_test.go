package mcp_test

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api/mcp"
)

// patternExamples holds one valid value for every pattern a tool schema
// states; a pattern without one fails the test, so a new pattern comes
// with an example a client could send.
var patternExamples = map[string]string{
	`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`:                               "2026-08-01",
	`^[0-9]{4}-[0-9]{2}$`:                                        "2026-08",
	`^\d{4}-\d{2}-\d{2}$`:                                        "2026-06-12",
	`^[0-9A-Za-z_-]{1,40}$`:                                      "20140930007",
	`^P?[0-9]{4}[MXKQRY][0-9]{4}$`:                               "2022M0258",
	`^[A-Z]{2}$`:                                                 "ZM",
	`^[1-5][0-9]{9}$`:                                            "1000010010",
	`^(MN|BX|BK|QN|SI|M|X|K|Q|R)\s*0*([0-9]{1,2})$`:              "M11",
	`^[A-Z]?\s*([0-9]{6}[A-Z]?)\s*([A-Z]{3})\s*(\(A\))?$`:        "C 240046 HAM",
	`^(cb-calendar|cb-minutes|cityrecord-hearings|legistar):.+$`: "legistar:22525",
}

// requiredText fills a required string argument with neither enum nor
// pattern.
var requiredText = map[string]string{"q": "parks", "name": "Parks", "id": "CT100220268808241", "request": "parks awards", "email": "someone@example.org"}

// propSchema is the part of a property's schema arguments are built from.
type propSchema struct {
	Type    any      `json:"type"`
	Enum    []any    `json:"enum"`
	Pattern string   `json:"pattern"`
	Minimum *float64 `json:"minimum"`
	Maximum *float64 `json:"maximum"`
	// ExclusiveMaximum is a bound the value stays below.
	ExclusiveMaximum *float64    `json:"exclusiveMaximum"`
	Items            *propSchema `json:"items"`
}

type toolSchema struct {
	Properties map[string]propSchema `json:"properties"`
	Required   []string              `json:"required"`
}

// value is a valid value of p built from its enum, pattern or bounds
// only; ok is false when the schema alone says nothing to build from.
func (p propSchema) value(t *testing.T, tool, name string) (any, bool) {
	switch {
	case p.Items != nil:
		v, ok := p.Items.value(t, tool, name)
		if !ok {
			return nil, false
		}
		return []any{v}, true
	case len(p.Enum) > 0:
		return p.Enum[0], true
	case p.Pattern != "":
		ex, ok := patternExamples[p.Pattern]
		if !ok {
			t.Errorf("%s.%s: pattern %s has no example in patternExamples", tool, name, p.Pattern)
			return nil, false
		}
		if !regexp.MustCompile(p.Pattern).MatchString(ex) {
			t.Errorf("%s.%s: example %q does not match its pattern %s", tool, name, ex, p.Pattern)
		}
		return ex, true
	case p.Minimum != nil && p.Maximum != nil:
		return *p.Minimum, true
	case p.ExclusiveMaximum != nil:
		return *p.ExclusiveMaximum / 2, true
	}
	return nil, false
}

// values are every value of an enum (or of an enum of items), else built,
// the one value built from the schema.
func (p propSchema) values(built any) []any {
	switch {
	case p.Items != nil && len(p.Items.Enum) > 0:
		out := make([]any, len(p.Items.Enum))
		for i, v := range p.Items.Enum {
			out[i] = []any{v}
		}
		return out
	case len(p.Enum) > 0:
		return p.Enum
	}
	return []any{built}
}

// outside is a value p refuses: past an enum or a pattern.
func (p propSchema) outside() (any, bool) {
	switch {
	case p.Items != nil:
		v, ok := p.Items.outside()
		return []any{v}, ok
	case len(p.Enum) > 0:
		return "not-one-of-the-enum", true
	case p.Pattern != "":
		return "/not/this/shape", true
	case p.Maximum != nil:
		return *p.Maximum + 1, true
	case p.ExclusiveMaximum != nil:
		return *p.ExclusiveMaximum, true
	}
	return nil, false
}

// MCP input schemas carry their constraints as schema (enum, pattern,
// minimum/maximum): for every tool of both forms, arguments built from
// the schema alone validate against it and are accepted by the server
// (no argument error), and each enum, pattern or bound exceeded is
// refused by the server (the SDK validates inputs against the schema)
// with an error naming the argument.
func TestArgumentsBuiltFromSchemas(t *testing.T) {
	constrained := 0
	for _, form := range []int{1, 2} {
		s := connect(t, form)
		tools, err := s.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tl := range tools.Tools {
			b, _ := json.Marshal(tl.InputSchema)
			var sch toolSchema
			if err := json.Unmarshal(b, &sch); err != nil {
				t.Fatal(err)
			}
			var full jsonschema.Schema
			if err := json.Unmarshal(b, &full); err != nil {
				t.Fatal(err)
			}
			resolved, err := full.Resolve(nil)
			if err != nil {
				t.Fatalf("%s: %v", tl.Name, err)
			}
			base := map[string]any{}
			for _, name := range sch.Required {
				if v, ok := sch.Properties[name].value(t, tl.Name, name); ok {
					base[name] = v
				} else if v, ok := requiredText[name]; ok {
					base[name] = v
				} else {
					t.Fatalf("%s: no value for required %s", tl.Name, name)
				}
			}
			mutation := tl.Annotations != nil && !tl.Annotations.ReadOnlyHint
			names := make([]string, 0, len(sch.Properties))
			for name := range sch.Properties {
				names = append(names, name)
			}
			slices.Sort(names)
			for _, name := range names {
				p := sch.Properties[name]
				v, ok := p.value(t, tl.Name, name)
				if !ok {
					continue
				}
				constrained++
				args := clone(base)
				args[name] = v
				if err := resolved.Validate(args); err != nil {
					t.Errorf("%s %v: arguments built from the schema do not validate: %v", tl.Name, args, err)
				}
				if !mutation { // mutations are validated here, not run
					// every value of an enum, so the list agrees with the rule
					// that reads it: no enum value is refused naming the argument
					enum := len(p.Enum) > 0 || p.Items != nil && len(p.Items.Enum) > 0
					for _, v := range p.values(v) {
						args[name] = v
						res := call(t, s, tl.Name, args)
						if res.IsError && (argumentError(text(res)) || enum && strings.Contains(text(res), `argument "`+name+`"`)) {
							t.Errorf("form %d %s %v: refused: %s", form, tl.Name, args, text(res))
						}
					}
				}
				bad, ok := p.outside()
				if !ok {
					continue
				}
				args[name] = bad
				if resolved.Validate(args) == nil {
					t.Errorf("%s.%s = %v: the schema accepts it", tl.Name, name, bad)
				}
				res, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: tl.Name, Arguments: args})
				if err == nil && (!res.IsError || !strings.Contains(text(res), name)) {
					t.Errorf("form %d %s.%s = %v: not refused naming the argument: %v %s", form, tl.Name, name, bad, res.IsError, text(res))
				}
			}
		}
	}
	if constrained < 40 {
		t.Errorf("only %d constrained arguments built from the schemas", constrained)
	}
}

// argumentError reports whether a tool error is the schema refusing an
// argument (rather than the tool answering, for instance, that a record
// is not held).
func argumentError(msg string) bool {
	return strings.Contains(msg, "validating") || strings.Contains(msg, "invalid params") || strings.Contains(msg, "unmarshal")
}

func clone(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Every example a tool lists (the catalog's, what a model copies)
// validates against the tool's input schema.
func TestExamplesValidateAgainstTheirSchemas(t *testing.T) {
	n := 0
	for _, tl := range mcp.All(fx.deps) {
		b, _ := json.Marshal(tl.Def.InputSchema)
		var sch jsonschema.Schema
		if err := json.Unmarshal(b, &sch); err != nil {
			t.Fatal(err)
		}
		resolved, err := sch.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tl.Def.Name, err)
		}
		for _, ex := range tl.Examples {
			// through JSON, as a client sends it
			b, _ := json.Marshal(ex.Arguments)
			var args map[string]any
			json.Unmarshal(b, &args)
			if err := resolved.Validate(args); err != nil {
				t.Errorf("%s example %q: %v", tl.Def.Name, ex.Description, err)
			}
			n++
		}
	}
	if n < 20 {
		t.Errorf("only %d examples validated", n)
	}
}
