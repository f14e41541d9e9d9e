package api

import (
	"bytes"
	"net/http"
	"net/url"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
)

// A paging cursor that is not one the service made is a 400 naming the
// cursor, never page 1 again: plain words and numbers, and cursors whose
// sort value is not a finite number (NaN, ±Inf) for the relevance order
// (scores) and the date order (keys), on the notice search, passages and
// the browses that share the one cursor parser (search.DecodeCursor). A
// cursor the service made still pages.
func TestNonNumericCursorIsA400(t *testing.T) {
	e := shared
	_, first := get(t, e, "/api/search?q=parks&limit=2")
	next := decode[SearchResponse](t, first).NextCursor
	if next == "" {
		t.Fatal("no next cursor on page 1")
	}
	if res, b := get(t, e, "/api/search?q=parks&limit=2&cursor="+url.QueryEscape(next)); res.StatusCode != http.StatusOK || bytes.Equal(b, first) {
		t.Fatalf("a made cursor: %d, same page %v", res.StatusCode, bytes.Equal(b, first))
	}
	for _, r := range []struct{ route, sort string }{
		{"/api/search?q=parks&limit=2", search.SortRelevance}, {"/api/passages?q=parks&limit=2", search.SortRelevance},
		{"/api/search?limit=2", search.SortNewest}, {"/api/search?q=parks&sort=newest", search.SortNewest},
	} {
		for _, c := range []string{"NaN", "abc", "-1", "Infinity",
			search.EncodeCursor(r.sort, []string{"NaN", "20140930007"}),
			search.EncodeCursor(r.sort, []string{"nan"}),
			search.EncodeCursor(r.sort, []string{"+Inf", "20140930007"}),
			search.EncodeCursor(r.sort, []string{"-Infinity", "20140930007"}),
		} {
			res, b := get(t, e, r.route+"&cursor="+url.QueryEscape(c))
			if res.StatusCode != http.StatusBadRequest || !bytes.Contains(b, []byte(`"param":"cursor"`)) || !bytes.Contains(b, []byte("start again without it")) {
				t.Errorf("%s cursor %q: %d %.200s", r.route, c, res.StatusCode, b)
			}
		}
	}
}
