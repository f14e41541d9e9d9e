package mcp_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// preview_watch and create_watch take, as structured arguments, the
// filters plain English names: a plain request (Form 2's preview_watch)
// and its structured equivalent (Form 1's) understand the same filter and
// scope and preview the same records; a value outside the accepted list is
// a tool error that lists them.
func TestWatchToolsStructuredEqualsPlainEnglish(t *testing.T) {
	s1, s2 := connect(t, 1), connect(t, 2)
	for _, tc := range []struct {
		request string
		args    map[string]any
		hits    bool
	}{
		{"construction awards in 2014", map[string]any{"lens": "money", "awards": true, "category": []string{"construction"},
			"from": "2014-01-01", "until": "2014-12-31"}, true},
		{"goods awards over $100k in 2014", map[string]any{"lens": "money", "awards": true, "min_amount": 100000, "category": []string{"goods"},
			"from": "2014-01-01", "until": "2014-12-31"}, true},
		{"small business awards", map[string]any{"lens": "money", "awards": true, "requirement": []string{"small_business"}}, true},
		{"construction bids due this year", map[string]any{"lens": "money", "category": []string{"construction"}, "until": "2026-12-31"}, true},
		{"construction bids over $100k due in the next 3 months", map[string]any{"lens": "money", "bids": true, "min_amount": 100000,
			"category": []string{"construction"}, "within": "3 months"}, false},
		{"M/WBE professional services solicitations from Parks due this year", map[string]any{"lens": "money", "agency": []string{"Parks"},
			"category": []string{"professional services"}, "requirement": []string{"mwbe"}, "from": "2026-01-01", "until": "2026-12-31"}, false},
		{"hearings in the next 2 weeks in Brooklyn", map[string]any{"lens": "meetings", "borough": []string{"Brooklyn"}, "within": "2 weeks"}, false},
	} {
		plain := structured[mcp.PreviewOut](t, call(t, s2, "preview_watch", map[string]any{"request": tc.request}))
		got := structured[mcp.PreviewOut](t, call(t, s1, "preview_watch", tc.args))
		if !reflect.DeepEqual(plain.Understood.Filter, got.Understood.Filter) || plain.Understood.Scope != got.Understood.Scope {
			t.Errorf("%q: understood\nplain      %+v %q\nstructured %+v %q", tc.request, plain.Understood.Filter, plain.Understood.Scope,
				got.Understood.Filter, got.Understood.Scope)
		}
		// the meetings lens previews its meeting records in Form 1 only
		if tc.args["lens"] != "meetings" && (plain.Total != got.Total || !reflect.DeepEqual(plain.Results, got.Results)) {
			t.Errorf("%q: %d results, structured %d", tc.request, plain.Total, got.Total)
		}
		if tc.hits && got.Total == 0 {
			t.Errorf("%q: no matches in the sample", tc.request)
		}
	}
	args := map[string]any{"email": "structured@example.org", "lens": "money", "bids": true, "min_amount": 100000,
		"category": []string{"construction"}, "within": "3 months"}
	out := structured[watch.Created](t, call(t, s1, "create_watch", args))
	plain := structured[mcp.PreviewOut](t, call(t, s2, "preview_watch", map[string]any{"request": "construction bids over $100k due in the next 3 months"}))
	if out.Status != "active" || !reflect.DeepEqual(out.Understood.Filter, plain.Understood.Filter) || out.Understood.Scope != plain.Understood.Scope {
		t.Errorf("create %+v, plain %+v", out, plain.Understood)
	}
	for _, tc := range []struct {
		args map[string]any
		says []string
	}{
		{map[string]any{"lens": "money", "category": []string{"plumbing"}}, []string{"category", "construction", "human services"}},
		{map[string]any{"lens": "money", "requirement": []string{"veteran"}}, []string{"requirement", "mwbe", "small_business"}},
		{map[string]any{"lens": "land", "category": []string{"goods"}}, []string{"category", "lens money"}},
		{map[string]any{"lens": "money", "within": "3 fortnights"}, []string{"within", "days, weeks, months or years"}},
		{map[string]any{"lens": "money", "awards": true, "within": "3 months"}, []string{"within", "from and until"}},
		{map[string]any{"lens": "money", "bids": true, "awards": true}, []string{"bids", "exclude each other"}},
		{map[string]any{"lens": "money", "from": "2026-13-01"}, []string{"from", "YYYY-MM-DD"}},
		{map[string]any{"lens": "money", "from": "08/01/2026"}, []string{"from"}},
	} {
		res := call(t, s1, "preview_watch", tc.args)
		for _, w := range tc.says {
			if !res.IsError || !strings.Contains(text(res), w) {
				t.Errorf("%v: error %v %q, want %q", tc.args, res.IsError, text(res), w)
			}
		}
	}
}
