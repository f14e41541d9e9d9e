package api

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// The choices the site's watch form is given (GET /api/watches/choices)
// are the vocabulary POST /api/watches accepts: the category and
// requirement lists are the watch rules' own, every agency offered is
// accepted and resolved to itself, every category and requirement is
// accepted as offered, and a category outside the list is refused. Form 2
// (plain English only) offers no structured choices.
func TestWatchChoicesAreTheAPIVocabulary(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	res, out := httpDo(t, "GET", e.ts.URL+"/api/watches/choices", "", "")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("choices %d %s", res.StatusCode, out)
	}
	c := decode[watch.Choices](t, []byte(out))
	if !slices.Equal(c.Categories, watch.CategoryNames) || !slices.Equal(c.Requirements, watch.RequirementNames) ||
		c.MaxValues != watch.MaxValues || c.ProcurementLens != "money" {
		t.Fatalf("choices %+v", c)
	}
	cw := entity.DefaultCrosswalk()
	var ids []string
	for _, a := range c.Agencies {
		ids = append(ids, a.ID)
	}
	for _, name := range []string{"Parks and Recreation", "Transportation"} {
		if id := cw.Resolve(name).ID; id == "" || !slices.Contains(ids, id) {
			t.Errorf("the form does not offer %s (%q)", name, id)
		}
	}
	preview := func(body map[string]any) (int, PreviewResponse, string) {
		t.Helper()
		b, _ := json.Marshal(body)
		res, out := httpDo(t, "POST", e.ts.URL+"/api/watches/preview", "application/json", string(b))
		var v PreviewResponse
		if res.StatusCode == http.StatusOK {
			v = decode[PreviewResponse](t, []byte(out))
		}
		return res.StatusCode, v, out
	}
	// every agency offered, MaxValues at a time, names itself
	for i := 0; i < len(ids); i += c.MaxValues {
		chunk := ids[i:min(i+c.MaxValues, len(ids))]
		code, v, out := preview(map[string]any{"lens": c.ProcurementLens, "agency": chunk})
		if code != http.StatusOK {
			t.Fatalf("agencies %v refused: %d %s", chunk, code, out)
		}
		if got := v.Understood.Filter.AgencyIDs; !slices.Equal(got, chunk) {
			t.Errorf("agencies %v understood as %v", chunk, got)
		}
	}
	// every category and requirement, as offered, with the amount floor and keywords of the form
	code, v, out := preview(map[string]any{"lens": c.ProcurementLens, "category": c.Categories, "requirement": c.Requirements,
		"min": "100000", "q": "landscape", "bids": true})
	if code != http.StatusOK {
		t.Fatalf("categories and requirements refused: %d %s", code, out)
	}
	if f := v.Understood.Filter; !slices.Equal(f.Categories, c.Categories) || !slices.Equal(f.Requirements, c.Requirements) ||
		f.MinAmount == nil || *f.MinAmount != 100000 || !f.Bids {
		t.Errorf("understood %+v", f)
	}
	// a category outside the list is refused: the list is all it takes
	if code, _, out := preview(map[string]any{"lens": "money", "category": []string{"landscaping"}}); code != http.StatusBadRequest {
		t.Errorf("an unlisted category: %d %s", code, out)
	}
	if res, out := httpDo(t, "GET", e.ts.URL+"/api/watches/choices?x=1", "", ""); res.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown parameter: %d %s", res.StatusCode, out)
	}
	f2 := newWatchEnv(t, 2, nil)
	if res, _ := httpDo(t, "GET", f2.ts.URL+"/api/watches/choices", "", ""); res.StatusCode != http.StatusNotFound {
		t.Errorf("form 2 choices: %d", res.StatusCode)
	}
}
