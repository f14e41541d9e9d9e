package embedded

import (
	"bytes"

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
// the one punctuation rule both engines apply.
const analyzerName = "recordwatch_en"

const charFilterName = "recordwatch_punctuation"

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
		for _, name := range []string{en.PossessiveName, lowercase.Name, en.StopName, porter.Name} {
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
