package main

import (
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
)

// A returned vector that ties the exact k-th counts as found; one below
// it does not; never more than k.
func TestTiedFound(t *testing.T) {
	want := []semantic.Scored{{ID: "a", Score: 0.9}, {ID: "b", Score: 0.8}}
	deep := append(want, semantic.Scored{ID: "c", Score: 0.8}, semantic.Scored{ID: "d", Score: 0.7})
	for _, c := range []struct {
		got  []string
		want int
	}{{[]string{"a", "b"}, 2}, {[]string{"a", "c"}, 2}, {[]string{"a", "d"}, 1}, {[]string{"d", "e"}, 0}, {[]string{"a", "b", "c"}, 2}} {
		var got []search.Near
		for _, id := range c.got {
			got = append(got, search.Near{ID: id})
		}
		if n := tiedFound(want, deep, got); n != c.want {
			t.Errorf("%v: %d found, want %d", c.got, n, c.want)
		}
	}
}

// Overlap by id and with ties: a tie found counts only in the second; an
// empty exact answer is matched by any.
func TestNearOverlap(t *testing.T) {
	want := []semantic.Scored{{ID: "a", Score: 0.9}, {ID: "b", Score: 0.8}}
	deep := append(want, semantic.Scored{ID: "c", Score: 0.8})
	byID, tied := nearOverlap(want, deep, []search.Near{{ID: "a"}, {ID: "c"}})
	if byID != 0.5 || tied != 1 {
		t.Errorf("overlap %v, tied %v; want 0.5 and 1", byID, tied)
	}
	if byID, tied = nearOverlap(nil, nil, nil); byID != 1 || tied != 1 {
		t.Errorf("empty: %v %v", byID, tied)
	}
}
