package embedded

import (
	"bytes"
	"unicode/utf8"

	unicodeChars "unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/recordwatch/recordwatch/internal/search"
)

// analyzerName is the analyzer of every text field and keyword query:
// Bleve's "en" analyzer (UAX #29 tokenizer, English possessives,
// lower-casing, English stop words, Porter stemmer) after search.CleanText,
// the one punctuation rule both engines apply, with the tokens that hold
// no letter and no digit dropped (wordsFilter).
const analyzerName = "recordwatch_en"

const charFilterName = "recordwatch_punctuation"

const wordsFilterName = "recordwatch_words"

// wordsFilter drops the tokens that hold no letter and no digit, and
// closes the gap they leave: UAX #29 makes a word of a run of underscores
// (a form's blank, "CPC Appl. __________ Application"), which Lucene's
// standard tokenizer (OpenSearch), SQLite's and PostgreSQL's do not, so
// the words around a blank were not adjacent and a phrase across it was
// found by every other engine but not by this one.
type wordsFilter struct{}

func (wordsFilter) Filter(in analysis.TokenStream) analysis.TokenStream {
	out, dropped := in[:0], 0
	for _, t := range in {
		if !hasWordRune(t.Term) {
			dropped++
			continue
		}
		t.Position -= dropped
		out = append(out, t)
	}
	return out
}

// hasWordRune reports whether b holds a letter or a digit.
func hasWordRune(b []byte) bool {
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if unicodeChars.IsLetter(r) || unicodeChars.IsDigit(r) {
			return true
		}
		b = b[n:]
	}
	return false
}

// cleanFilter is search.CleanText as a Bleve char filter (it keeps the
// byte length, so token offsets stay right). Text without ':', '.' or an
// apostrophe is passed on as it is; other text is cleaned in one copy (the
// input may be the field's own bytes).
type cleanFilter struct{}

func (cleanFilter) Filter(input []byte) []byte {
	if !bytes.ContainsAny(input, ":.'’") {
		return input
	}
	out := bytes.Clone(input)
	search.CleanBytes(out)
	return out
}

func init() {
	if err := registry.RegisterCharFilter(charFilterName, func(map[string]any, *registry.Cache) (analysis.CharFilter, error) {
		return cleanFilter{}, nil
	}); err != nil {
		panic(err)
	}
	if err := registry.RegisterTokenFilter(wordsFilterName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return wordsFilter{}, nil
	}); err != nil {
		panic(err)
	}
	if err := registry.RegisterAnalyzer(analyzerName, func(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
		cf, err := cache.CharFilterNamed(charFilterName)
		if err != nil {
			return nil, err
		}
		tok, err := cache.TokenizerNamed(unicode.Name)
		if err != nil {
			return nil, err
		}
		var filters []analysis.TokenFilter
		for _, name := range []string{wordsFilterName, en.PossessiveName, lowercase.Name, en.StopName, porter.Name} {
			f, err := cache.TokenFilterNamed(name)
			if err != nil {
				return nil, err
			}
			filters = append(filters, f)
		}
		return &analysis.DefaultAnalyzer{CharFilters: []analysis.CharFilter{cf}, Tokenizer: tok, TokenFilters: filters}, nil
	}); err != nil {
		panic(err)
	}
}
