package search

import (
	"slices"
	"testing"
)

func TestCleanTextAndWords(t *testing.T) {
	for _, c := range []struct {
		in    string
		words []string
	}{
		{"SECTION:PROCUREMENT", []string{"section", "procurement"}},
		{"CONTRACT.NO 12345", []string{"contract", "no", "12345"}},
		{"the Mayor’s Office", []string{"the", "mayor", "office"}},
		{"the Mayor's Office", []string{"the", "mayor", "office"}},
		{"MAYOR'S", []string{"mayor"}},
		{"1990's", []string{"1990"}},
		{"O'Brien Plumbing", []string{"o", "brien", "plumbing"}},
		{"U.S.A.", []string{"u", "s", "a"}},
		{"A.:B", []string{"a", "b"}},
		{"X's.Y", []string{"x", "y"}},
		{"it's", []string{"it"}},
		{"$1,250.50 at 12:30", []string{"1,250.50", "at", "12", "30"}},
		{"e-mail foo-bar", []string{"e", "mail", "foo", "bar"}},
		{"Parks' lots", []string{"parks", "lots"}},
		{"sister’s", []string{"sister"}},
		{"Queens’ssomething", []string{"queens", "ssomething"}},
	} {
		if got := Words(c.in); !slices.Equal(got, c.words) {
			t.Errorf("Words(%q) = %q, want %q", c.in, got, c.words)
		}
		if cl := CleanText(c.in); len(cl) != len(c.in) {
			t.Errorf("CleanText(%q) = %q changes the length", c.in, cl)
		}
	}
}

func TestKeywordsSplitWordsArePhrases(t *testing.T) {
	for _, c := range []struct {
		q       string
		terms   []string
		phrases []string
		exclude []string
	}{
		{"parks", []string{"parks"}, nil, nil},
		{"foo-bar", nil, []string{"foo bar"}, nil},
		{"qwzx-foo-bar baz", []string{"baz"}, []string{"qwzx foo bar"}, nil},
		{"SECTION:PROCUREMENT", nil, []string{"section procurement"}, nil},
		{"mayor's", []string{"mayor"}, nil, nil},
		{`"Mayor’s Office"`, nil, []string{"mayor office"}, nil},
		{"court -foo-lobby", []string{"court"}, nil, []string{"foo lobby"}},
		{"O'Brien", nil, []string{"o brien"}, nil},
	} {
		k, err := ParseKeywords(c.q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(k.Terms, c.terms) || !slices.Equal(k.Phrases, c.phrases) || !slices.Equal(k.Excluded, c.exclude) {
			t.Errorf("ParseKeywords(%q) = %+v, want terms %q phrases %q excluded %q", c.q, k, c.terms, c.phrases, c.exclude)
		}
	}
}

func TestSynonymsExpandBothWaysAndSayWhat(t *testing.T) {
	k, err := ParseKeywords(`RFP "invitation for bids" -csb guards`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"request for proposals", "request for proposal"} {
		if !slices.Contains(k.Phrases, want) {
			t.Errorf("phrases %q lack %q", k.Phrases, want)
		}
	}
	if !slices.Contains(k.Terms, "ifb") || !slices.Contains(k.Excluded, "competitive sealed bids") {
		t.Errorf("terms %q excluded %q: want ifb and the excluded csb spelled out", k.Terms, k.Excluded)
	}
	if !slices.Equal(k.Synonyms["rfp"], []string{"request for proposals", "request for proposal"}) || len(k.Synonyms["invitation for bids"]) == 0 {
		t.Errorf("synonyms = %v", k.Synonyms)
	}
	q := Query{Text: "rfq"} // two meanings: not expanded
	kk, _ := q.Normalize()
	if len(kk.Synonyms) != 0 || q.Searched(kk).Synonyms != nil {
		t.Errorf("rfq expanded: %v", kk.Synonyms)
	}
}
