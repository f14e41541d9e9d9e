// Package absencetest is the check the typed-absence tests share (every
// route, every MCP tool): whether a JSON answer is an empty list answer,
// and whether it says why (record.TypeAbsence's types). Production code
// never imports it.
package absencetest

import (
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Types are the five absence types.
var Types = []string{record.NoneFound, record.OutsideCoverage, record.NotIngested, record.AbsentStale, record.UpstreamFailing}

// Check reports whether a JSON answer is an empty list answer (a
// total or matched count of 0, or every list of its top level empty), and
// whether it carries a typed absence (scope.empty.type or a feed's
// absence_type, one of the five types) anywhere.
func Check(v map[string]any) (empty, typed bool) {
	lists, nonEmpty := 0, 0
	for k, x := range v {
		switch x := x.(type) {
		case float64:
			if (k == "total" || k == "matched") && x == 0 {
				empty = true
			}
		case []any:
			if k == "sources" || k == "links" || k == "absence_rules" || strings.HasSuffix(k, "_rules") {
				continue
			}
			lists++
			if len(x) > 0 {
				nonEmpty++
			}
		}
	}
	if lists > 0 && nonEmpty == 0 {
		empty = true
	}
	var walk func(x any)
	walk = func(x any) {
		switch x := x.(type) {
		case map[string]any:
			if e, ok := x["empty"].(map[string]any); ok && slices.Contains(Types, asString(e["type"])) {
				typed = true
			}
			if slices.Contains(Types, asString(x["absence_type"])) {
				typed = true
			}
			for _, y := range x {
				walk(y)
			}
		case []any:
			for _, y := range x {
				walk(y)
			}
		}
	}
	walk(v)
	// a read of one record that is not held says so (record.NotFound):
	// the read's own availability type
	if asString(v["status"]) == string(record.NotFound) {
		typed = true
	}
	return empty, typed
}

func asString(x any) string { s, _ := x.(string); return s }
