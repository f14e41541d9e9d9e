package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/absencetest"
)

// impossibleArgs are what a read tool is asked that nothing matches, the
// first argument set it accepts taken: a word, vendor, body, agency, a
// date range before anything held, an id no record has; the last ask
// is with no arguments.
var impossibleArgs = []map[string]any{
	{"q": "zzzqqqxyzzy", "lens": "money"},
	{"q": "zzzqqqxyzzy"},
	{"kind": "vendor", "name": "zzzqqqxyzzy"},
	{"vendor": "zzzqqqxyzzy"},
	{"body": "zzzqqqxyzzy"},
	{"agency": "zzzqqqxyzzy"},
	{"from": "2001-01-01", "to": "2001-01-02"},
	{"id": "zzzqqq-no-such-id"},
	{"request_id": "zzzqqq-no-such-id"},
	{"request": "zzzqqqxyzzy"},
	{},
}

// Every read tool of both forms, asked what nothing matches, answers a
// tool error (an id no record has: not found) or an answer; an empty
// answer says why (typed absence): none is an untyped empty list.
func TestEveryToolTypesItsEmptyAnswer(t *testing.T) {
	for _, form := range []int{1, 2} {
		s := connect(t, form)
		answered := 0
		for _, tool := range mcp.All(fx.deps) {
			if tool.Class != mcp.ClassRead || !tool.InForm(form) {
				continue
			}
			for _, args := range impossibleArgs {
				res := call(t, s, tool.Def.Name, args)
				if res.IsError || res.StructuredContent == nil {
					continue
				}
				answered++
				b, _ := json.Marshal(res.StructuredContent)
				var v map[string]any
				if json.Unmarshal(b, &v) != nil {
					break
				}
				if empty, typed := absencetest.Check(v); empty && !typed {
					t.Errorf("form %d %s %v: an empty answer without its type: %.300s", form, tool.Def.Name, args, b)
				}
				break
			}
		}
		if answered < map[int]int{1: 10, 2: 2}[form] {
			t.Errorf("form %d: only %d tools answered", form, answered)
		}
	}
}
