package semantic

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A title's share of a query's words is counted on the words as the
// engines index them: stop words left out, plurals and endings stemmed,
// punctuation as CleanText leaves it.
func TestTitleShareCountsIndexedWords(t *testing.T) {
	k, err := search.ParseKeywords(`the traffic signals "maintenance of"`)
	if err != nil {
		t.Fatal(err)
	}
	words := queryStems(k)
	if len(words) != 3 {
		t.Fatalf("query words %v, want traffic, signal, maintenance stemmed (no stop word)", words)
	}
	for title, want := range map[string]float64{
		"TRAFFIC SIGNAL MAINTENANCE, BROOKLYN":    1,
		"Maintenance of Traffic Signals (Queens)": 1,
		"Signal-maintenance services":             2.0 / 3,
		"Elevator repair":                         0,
		"":                                        0,
	} {
		if got := titleShare(words, title); got != want {
			t.Errorf("%q: share %.3f, want %.3f", title, got, want)
		}
	}
	if got := titleShare(nil, "Traffic signal"); got != 0 {
		t.Errorf("no query word: share %.3f, want 0", got)
	}
}

// Fusion weighs each ranking: a notice first in the ranking weighed fully
// beats one first in the ranking weighed MinorWeight, and one in both
// beats either.
func TestFuseWeighsEachRanking(t *testing.T) {
	h := func(ids ...string) []search.Hit {
		var out []search.Hit
		for _, id := range ids {
			out = append(out, search.Hit{Notice: record.Notice{RequestID: id}})
		}
		return out
	}
	ids := func(hs []search.Hit) []string {
		var out []string
		for _, x := range hs {
			out = append(out, x.Notice.RequestID)
		}
		return out
	}
	kw, sem := h("k1", "both"), h("s1", "both")
	for _, c := range []struct {
		wk, ws float64
		want   []string
	}{
		{1, MinorWeight, []string{"both", "k1", "s1"}},
		{MinorWeight, 1, []string{"both", "s1", "k1"}},
	} {
		got := ids(fuse([]ranking{{kw, c.wk}, {sem, c.ws}}))
		if len(got) != 3 || got[0] != c.want[0] || got[1] != c.want[1] || got[2] != c.want[2] {
			t.Errorf("weights %.1f/%.1f: %v, want %v", c.wk, c.ws, got, c.want)
		}
	}
}

// A paraphrase's keyword search is widened by the words its best semantic
// matches' titles share: a word counted once per title, in at least
// ExpansionShared of them, no stop word, the first found first, at most n.
func TestExpansionTakesSharedTitleWords(t *testing.T) {
	titles := []string{"TRAFFIC SIGNAL MAINTENANCE", "Maintenance of the traffic signals, traffic lights", "The elevator repair"}
	for n, want := range map[int][]string{12: {"traffic", "maintenance"}, 1: {"traffic"}, 0: nil, -3: nil} {
		if got := expansion(titles, n); !slices.Equal(got, want) {
			t.Errorf("at most %d: %v, want %v", n, got, want)
		}
	}
	if got := expansion([]string{"the park", "the pool"}, 12); len(got) != 0 {
		t.Errorf("a stop word widened the search: %v", got)
	}
	if got := expansion([]string{"traffic traffic"}, 12); len(got) != 0 {
		t.Errorf("a word twice in one title counted as shared: %v", got)
	}
}

// A widened keyword search stays a valid one: words are added only while
// the text stays within search.MaxTextLen characters.
func TestWidenedStaysWithinTheTextBound(t *testing.T) {
	if got := widened("vapes", []string{"tobacco", "destruction"}); got != "vapes tobacco destruction" {
		t.Errorf("widened: %q", got)
	}
	long := strings.Repeat("é", search.MaxTextLen-8)
	got := widened(long, []string{"tobacco", "destruction", "nypd"})
	if n := utf8.RuneCountInString(got); n > search.MaxTextLen || got != long+" tobacco" {
		t.Errorf("widened to %d characters: %q", n, got[len(long):])
	}
	if _, err := search.ParseKeywords(got); err != nil {
		t.Errorf("the widened text is refused: %v", err)
	}
}
