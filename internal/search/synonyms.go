package search

import (
	"slices"
	"strings"
)

// synonymGroups is the reviewed synonym list for procurement language:
// each group holds expressions the City Record uses for one thing (an
// abbreviation and its spelled-out form). A keyword clause that is one of
// them also matches the others, on both engines (the expansion is done
// here, before either engine sees the query). An abbreviation with two
// common meanings (RFQ: qualifications or quotations; NA: negotiated
// acquisition or "not applicable") is left out: a synonym must not cost
// precision.
var synonymGroups = [][]string{
	{"rfp", "request for proposals", "request for proposal"},
	{"rfi", "request for information"},
	{"rfei", "request for expressions of interest"},
	{"ifb", "invitation for bids", "invitation for bid"},
	{"csb", "competitive sealed bids", "competitive sealed bid"},
	{"mwbe", "m/wbe", "minority and women-owned business enterprise", "minority and women-owned business enterprises"},
	{"ulurp", "uniform land use review procedure"},
	{"ceqr", "city environmental quality review"},
	{"pin", "procurement identification number"},
	{"eeo", "equal employment opportunity"},
}

// synonymIndex maps each expression, as Words splits it, to its group.
var synonymIndex = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range synonymGroups {
		var norm []string
		for _, e := range g {
			if w := strings.Join(Words(e), " "); w != "" && !slices.Contains(norm, w) {
				norm = append(norm, w)
			}
		}
		for _, w := range norm {
			m[w] = norm
		}
	}
	return m
}()

// maxSynonyms bounds the clauses one query gains by expansion.
const maxSynonyms = 8

// expandSynonyms adds to k the synonyms of its clauses: a term or phrase
// gains the other expressions of its group as alternatives (words as
// terms, several words as phrases), an excluded one excludes them too.
// k.Synonyms records each expansion, so the scope says what was matched.
func expandSynonyms(k *Keywords) {
	added := 0
	expand := func(clauses []string, add func(string)) {
		for _, c := range clauses {
			group := synonymIndex[c]
			for _, alt := range group {
				if alt == c || added >= maxSynonyms {
					continue
				}
				add(alt)
				added++
				if k.Synonyms == nil {
					k.Synonyms = map[string][]string{}
				}
				k.Synonyms[c] = append(k.Synonyms[c], alt)
			}
		}
	}
	positive := append(append([]string(nil), k.Terms...), k.Phrases...)
	expand(positive, func(alt string) {
		if strings.Contains(alt, " ") {
			k.Phrases = appendUnique(k.Phrases, alt)
		} else {
			k.Terms = appendUnique(k.Terms, alt)
		}
	})
	expand(append([]string(nil), k.Excluded...), func(alt string) { k.Excluded = appendUnique(k.Excluded, alt) })
}
