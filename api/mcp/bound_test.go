package mcp_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/api/mcp"
)

// limitSession is a tool session of one form over the fixture's services
// with results bounded at limit bytes (0: the service's 64 KiB).
func limitSession(t *testing.T, form, limit int) *sdk.ClientSession {
	t.Helper()
	d := *fx.deps
	d.ResultLimit = limit
	ts := httptest.NewServer(mcp.Handler(&d, form))
	t.Cleanup(ts.Close)
	s, err := sdk.NewClient(&sdk.Implementation{Name: "bound-test", Version: "1"}, nil).
		Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: ts.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// part is what a test reads of one answer.
type part struct {
	Truncated    *bool `json:"truncated"`
	Continuation *struct {
		Cursor    string   `json:"cursor"`
		Argument  string   `json:"argument"`
		Reason    string   `json:"reason"`
		Returned  int      `json:"returned"`
		Remaining int      `json:"remaining"`
		Lists     []string `json:"lists"`
		Omitted   []struct {
			List  string `json:"list"`
			Index int    `json:"index"`
			Bytes int    `json:"bytes"`
		} `json:"omitted"`
	} `json:"continuation"`
	Continued *struct {
		Skipped int `json:"skipped"`
	} `json:"continued"`
}

func sizeOf(res *sdk.CallToolResult) int {
	b, _ := json.Marshal(res)
	return len(b)
}

// records is the list at a dotted path of an answer (nil when absent).
func records(sc any, path string) []any {
	m, _ := sc.(map[string]any)
	keys := strings.Split(path, ".")
	for _, k := range keys[:len(keys)-1] {
		m, _ = m[k].(map[string]any)
	}
	l, _ := m[keys[len(keys)-1]].([]any)
	return l
}

// follow calls a tool and follows its continuation cursors to the end:
// every part within limit bytes, each continuing the one before. It
// returns the parts' structured contents and the records left out as
// too large to fit in any part beside the answer's other fields (list →
// indexes).
func follow(t *testing.T, s *sdk.ClientSession, tool string, args map[string]any, limit int) ([]map[string]any, map[string][]int) {
	t.Helper()
	var parts []map[string]any
	omitted := map[string][]int{}
	given := 0
	cursor := ""
	for i := 0; ; i++ {
		a := map[string]any{}
		for k, v := range args {
			a[k] = v
		}
		if cursor != "" {
			a["cursor"] = cursor
		}
		res := call(t, s, tool, a)
		if res.IsError {
			t.Fatalf("%s %v part %d: %s", tool, args, i, text(res))
		}
		if n := sizeOf(res); n > limit {
			t.Fatalf("%s %v part %d: %d bytes, over %d", tool, args, i, n, limit)
		}
		p := structured[part](t, res)
		if i > 0 && (p.Continued == nil || p.Continued.Skipped != given) {
			t.Fatalf("%s part %d: continued %+v, want %d records given before", tool, i, p.Continued, given)
		}
		parts = append(parts, res.StructuredContent.(map[string]any))
		if p.Continuation != nil {
			for _, o := range p.Continuation.Omitted {
				if o.Bytes <= 0 {
					t.Errorf("%s part %d: omitted %+v", tool, i, o)
				}
				omitted[o.List] = append(omitted[o.List], o.Index)
				given++
			}
		}
		if p.Continuation == nil || p.Continuation.Cursor == "" {
			if p.Truncated != nil && *p.Truncated && (p.Continuation == nil || len(p.Continuation.Omitted) == 0) {
				t.Fatalf("%s part %d: truncated with no cursor: %+v", tool, i, p.Continuation)
			}
			return parts, omitted
		}
		c := p.Continuation
		if p.Truncated == nil || !*p.Truncated || c.Argument != "cursor" || c.Remaining == 0 || c.Reason == "" || len(c.Lists) == 0 {
			t.Fatalf("%s part %d: %+v", tool, i, c)
		}
		given += c.Returned
		cursor = c.Cursor
		if i > 200 {
			t.Fatalf("%s: no end after 200 parts", tool)
		}
	}
}

// parts is an answer and its continuations, each decoded as T: what a
// client reads of an answer the 64 KiB bound may cut.
func parts[T any](t *testing.T, s *sdk.ClientSession, tool string, args map[string]any) []T {
	t.Helper()
	ps, _ := follow(t, s, tool, args, mcp.ResultLimit)
	out := make([]T, len(ps))
	for i, p := range ps {
		b, _ := json.Marshal(p)
		if err := json.Unmarshal(b, &out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// A search whose answer is over 64 KiB (50 notices) is cut at a record
// boundary: each part is within 64 KiB and says so, the continuation
// cursor (the tool's own cursor argument) gives the rest, and the parts
// together are the uncut answer's records, in order, none twice; the
// answer's own next_cursor, total and scope are every part's.
func TestContinuationRebuildsALongAnswer(t *testing.T) {
	for _, form := range []int{1, 2} {
		args := map[string]any{"q": "construction services contract", "limit": 50}
		whole := call(t, limitSession(t, form, 1<<30), "search_notices", args)
		if n := sizeOf(whole); n <= mcp.ResultLimit {
			t.Fatalf("the uncut answer is %d bytes: not over the bound, the test proves nothing", n)
		}
		want := records(whole.StructuredContent, "results")
		parts, omitted := follow(t, connect(t, form), "search_notices", args, mcp.ResultLimit)
		if len(omitted) > 0 {
			t.Errorf("records left out as too large: %v", omitted)
		}
		if len(parts) < 2 {
			t.Fatalf("form %d: the answer was not cut (%d part)", form, len(parts))
		}
		var got []any
		seen := map[string]bool{}
		for i, p := range parts {
			for _, r := range records(p, "results") {
				id := r.(map[string]any)["request_id"].(string)
				if seen[id] {
					t.Errorf("form %d part %d: %s given twice", form, i, id)
				}
				seen[id] = true
				got = append(got, r)
			}
			for _, k := range []string{"next_cursor", "total", "scope"} {
				if !reflect.DeepEqual(p[k], whole.StructuredContent.(map[string]any)[k]) {
					t.Errorf("form %d part %d: %s differs from the uncut answer's", form, i, k)
				}
			}
		}
		if len(want) != 50 || !reflect.DeepEqual(got, want) {
			t.Errorf("form %d: the parts hold %d records, the uncut answer %d (or in another order)", form, len(got), len(want))
		}
		t.Logf("form %d: %d bytes uncut, %d parts", form, sizeOf(whole), len(parts))
	}
}

// Every tool with records, bounded at 20 KiB (so that the answers that
// keep deprecated twins of their fields, such as search_federated's
// lens_coverage, still have room for records): each answer of each catalog
// example (and of no arguments) that is cut is rebuilt by following its
// continuations: every record list, concatenated over the parts, is the
// uncut answer's list, and every other field is the uncut answer's.
func TestEveryToolContinues(t *testing.T) {
	const limit = 20 << 10
	cutS, wholeS := limitSession(t, 1, limit), limitSession(t, 1, 1<<30)
	cutTools := map[string]bool{}
	for _, tool := range mcp.Offered(fx.deps, 1) {
		lists := tool.Records()
		if lists == nil {
			continue
		}
		argSets := []map[string]any{{}}
		for _, ex := range tool.Examples {
			argSets = append(argSets, ex.Arguments)
		}
		for _, args := range argSets {
			whole := call(t, wholeS, tool.Def.Name, args)
			if whole.IsError || sizeOf(whole) <= limit {
				continue
			}
			first := call(t, cutS, tool.Def.Name, args)
			if first.IsError {
				// only an answer whose fields without records are over the bound is refused
				if !strings.Contains(text(first), "cannot be cut") {
					t.Errorf("%s %v: %s", tool.Def.Name, args, text(first))
				}
				continue
			}
			parts, omitted := follow(t, cutS, tool.Def.Name, args, limit)
			cutTools[tool.Def.Name] = true
			if len(omitted) > 0 {
				t.Logf("%s %v: left out as too large for any part of %d bytes: %v", tool.Def.Name, args, limit, omitted)
			}
			w := whole.StructuredContent.(map[string]any)
			for _, path := range lists {
				var got []any
				for _, p := range parts {
					got = append(got, records(p, path)...)
				}
				var want []any
				for i, r := range records(w, path) {
					if !slices.Contains(omitted[path], i) {
						want = append(want, r)
					}
				}
				if len(want) != len(got) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
					t.Errorf("%s %v: %s rebuilt as %d records, uncut %d", tool.Def.Name, args, path, len(got), len(want))
				}
			}
			for k, v := range w {
				top := slices.ContainsFunc(lists, func(p string) bool { return p == k || strings.HasPrefix(p, k+".") })
				if !top && !reflect.DeepEqual(parts[0][k], v) {
					t.Errorf("%s %v: field %s differs from the uncut answer's", tool.Def.Name, args, k)
				}
			}
		}
	}
	if len(cutTools) < 6 {
		t.Errorf("only %d tools were cut at %d bytes: %v", len(cutTools), limit, cutTools)
	}
	t.Logf("cut and rebuilt at %d bytes: %v", limit, slices.Sorted(func(yield func(string) bool) {
		for k := range cutTools {
			if !yield(k) {
				return
			}
		}
	}))
}

// A continuation cursor is good only for the call it continues; a tool
// that has no cursor of its own takes no other cursor; the schemas
// declare the cursor argument and the fields of a cut answer.
func TestContinuationCursorIsTheCallsOwn(t *testing.T) {
	const limit = 16 << 10
	s := limitSession(t, 1, limit)
	args := map[string]any{"q": "construction", "limit": 50}
	p := structured[part](t, call(t, s, "search_notices", args))
	if p.Continuation == nil || p.Continuation.Cursor == "" {
		t.Fatalf("not cut: %+v", p)
	}
	for _, bad := range []struct {
		tool string
		args map[string]any
	}{
		{"search_notices", map[string]any{"q": "construction", "limit": 40, "cursor": p.Continuation.Cursor}},
		{"search_notices", map[string]any{"q": "elevators", "limit": 50, "cursor": p.Continuation.Cursor}},
		{"search_notices", map[string]any{"q": "construction", "limit": 50, "cursor": "more.x.y.z"}},
		{"get_entity_dossier", map[string]any{"kind": "agency", "name": "Parks", "cursor": "abc"}},
		{"get_entity_dossier", map[string]any{"kind": "agency", "name": "Parks", "cursor": p.Continuation.Cursor}},
	} {
		res := call(t, s, bad.tool, bad.args)
		if !res.IsError || !strings.Contains(text(res), `"cursor"`) {
			t.Errorf("%s %v: %v %s", bad.tool, bad.args, res.IsError, text(res))
		}
	}
	// the same arguments written otherwise (50.0 for 50) are the same call
	if res := call(t, s, "search_notices", map[string]any{"limit": 50.0, "q": "construction", "cursor": p.Continuation.Cursor}); res.IsError {
		t.Errorf("the same call refused: %s", text(res))
	}
	for _, tool := range mcp.All(fx.deps) {
		if tool.Records() == nil {
			continue
		}
		in, _ := json.Marshal(tool.Def.InputSchema)
		out, _ := json.Marshal(tool.Def.OutputSchema)
		for _, want := range []string{`"cursor":{`} {
			if !strings.Contains(string(in), want) {
				t.Errorf("%s: input schema lacks %s", tool.Def.Name, want)
			}
		}
		for _, want := range []string{`"truncated":{`, `"continuation":{`, `"continued":{`} {
			if !strings.Contains(string(out), want) {
				t.Errorf("%s: output schema lacks %s", tool.Def.Name, want)
			}
		}
	}
}
