package api

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

type strictInner struct {
	Kind string `json:"kind"`
	Note string `json:"note,omitempty"`
}

type strictEmbedded struct {
	Shared string `json:"shared"`
}

type strictOuter struct {
	strictEmbedded
	Title  string                 `json:"title"`
	Items  []strictInner          `json:"items"`
	ByName map[string]strictInner `json:"by_name"`
	When   time.Time              `json:"when"`
	Raw    json.RawMessage        `json:"raw"`
	Plain  string
	Hidden string `json:"-"`
}

func TestDecodeStrict(t *testing.T) {
	ok := `{"shared": "s", "title": "t", "items": [{"kind": "notice"}, {"kind": "vendor", "note": "n"}],
		"by_name": {"A": {"kind": "k"}}, "when": "2026-08-14T00:00:00Z", "raw": {"Anything": 1}, "Plain": "p"}`
	var v strictOuter
	if err := decodeStrict([]byte(ok), &v); err != nil {
		t.Fatalf("valid body: %v", err)
	}
	if v.Shared != "s" || v.Title != "t" || len(v.Items) != 2 || v.Items[1].Note != "n" || v.ByName["A"].Kind != "k" || v.Plain != "p" {
		t.Errorf("decoded %+v", v)
	}
	for _, tc := range []struct{ body, param string }{
		{`{"Title": "t"}`, "Title"},
		{`{"TITLE": "t"}`, "TITLE"},
		{`{"title": "t", "Shared": "s"}`, "Shared"},
		{`{"title": "t", "extra": 1}`, "extra"},
		{`{"items": [{"kind": "notice"}, {"Kind": "notice"}]}`, "items[1].Kind"},
		{`{"by_name": {"A": {"kind": "k", "NOTE": "n"}}}`, "by_name.A.NOTE"},
		{`{"plain": "p"}`, "plain"},
		{`{"Hidden": "h"}`, "Hidden"},
		{`{"title": 7}`, "title"},
		{`{"items": "notice"}`, "items"},
		{``, "body"},
		{`   `, "body"},
		{`names=Acme`, "body"},
		{`["title"]`, "body"},
		{`"title"`, "body"},
		{`null`, "body"},
		{`{"title": "t"} {"title": "u"}`, "body"},
		{`{"title": "t"}]`, "body"},
		{`{"title": "t"`, "body"},
		// a key given twice, at any depth, is refused, not silently the last
		{`{"title": "t", "title": "u"}`, "title"},
		{`{"items": [{"kind": "notice"}, {"kind": "a", "kind": "b"}]}`, "items[1].kind"},
		{`{"by_name": {"A": {"kind": "k"}, "A": {"kind": "l"}}}`, "by_name.A"},
	} {
		var v strictOuter
		err := decodeStrict([]byte(tc.body), &v)
		var re *record.Error
		if !errors.As(err, &re) || re.Code != record.EINVALID || re.Param != tc.param {
			t.Errorf("%s: err = %v, want invalid naming %s", tc.body, err, tc.param)
		}
	}
}

// POST /batch reads exactly the field "names": a case variant is an unknown
// field, refused and named, not read as names.
func TestBatchFieldNamesAreExact(t *testing.T) {
	e := freshEnv(t)
	for _, tc := range []struct{ body, param string }{
		{`{"Names": ["Denville Line Painting"]}`, "Names"},
		{`{"NAMES": ["Denville Line Painting"]}`, "NAMES"},
		{`{"names": ["Denville Line Painting"], "Names": ["IBM Corp."]}`, "Names"},
		{`{"names": ["Denville Line Painting"], "limit": 5}`, "limit"},
		{`{"names": "Denville Line Painting"}`, "names"},
		{`{"names": ["Denville Line Painting"]} {}`, "body"},
	} {
		res, b := post(t, e, "/batch", "application/json", []byte(tc.body))
		wantInvalid(t, "/batch "+tc.body, res.StatusCode, b, tc.param)
	}
	res, b := post(t, e, "/batch", "application/json", []byte(`{"names": ["Denville Line Painting"]}`))
	if res.StatusCode != 200 || decode[BatchResponse](t, b).Results[0].Awards.Total != 3 {
		t.Errorf("exact names: %d %.300s", res.StatusCode, b)
	}
}
