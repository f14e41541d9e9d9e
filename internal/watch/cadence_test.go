package watch

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestParseCadence: the words of a request choose the cadence and never
// become keywords; a weekday other than the fixed one is noted.
func TestParseCadence(t *testing.T) {
	cases := []struct {
		text, cadence, note string
	}{
		{"Parks construction awards", CadenceDaily, "No cadence was named"},
		{"Parks construction awards weekly", CadenceWeekly, "a weekly digest, sent on Mondays"},
		{"Parks construction awards, every Monday please", CadenceWeekly, "a weekly digest, sent on Mondays"},
		{"once a week: rezonings in the Bronx", CadenceWeekly, "a weekly digest"},
		{"DOT hearings every Friday", CadenceWeekly, "not on Fridays"},
		{"send me a daily digest of Parks awards", CadenceDaily, "a daily digest"},
	}
	for _, c := range cases {
		u, err := Parse(c.text, ParseOptions{Form: 2})
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		if u.Cadence != c.cadence || !strings.Contains(strings.Join(u.Notes, " "), c.note) {
			t.Errorf("%q: cadence %q notes %v", c.text, u.Cadence, u.Notes)
		}
		for _, w := range []string{"weekly", "monday", "friday", "daily", "week", "digest", "every", "once"} {
			if slices.Contains(u.Filter.AnyOf, w) {
				t.Errorf("%q: %q became a keyword: %v", c.text, w, u.Filter.AnyOf)
			}
		}
	}
	if _, err := CheckCadence("hourly"); err == nil {
		t.Error("hourly accepted")
	}
}

// TestStoredWatchCompatible: a watch stored before cadences and progress
// existed reads back daily with its seen set.
func TestStoredWatchCompatible(t *testing.T) {
	var w Watch
	if err := json.Unmarshal([]byte(`{"id":"x","email":"a@example.org","seen":["20140930007"],"last_window":"2026-08-14"}`), &w); err != nil {
		t.Fatal(err)
	}
	if w.CadenceOf() != CadenceDaily || !slices.Equal(w.Seen, []string{"20140930007"}) || w.LastWindow != "2026-08-14" || !w.QuietSince.IsZero() {
		t.Errorf("%+v", w)
	}
	b, _ := json.Marshal(w)
	if !strings.Contains(string(b), `"seen":["20140930007"]`) {
		t.Errorf("written back as %s", b)
	}
}
