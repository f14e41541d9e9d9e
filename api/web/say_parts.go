package web

import (
	"regexp"
)

// SaidPart is one part of a service sentence as a page shows it: the
// site's own words, or (Record) a piece of record text the sentence
// quotes — a place, a body's name, a line of an agenda — which the page
// marks data-verbatim because it stays as published.
type SaidPart struct {
	Text   string
	Record bool
}

// SayParts is sentence in lang (Say) in parts: when its Spanish comes
// from a pattern, each argument of the pattern is a part of its own,
// marked as record text, between the Spanish words. Use it only for
// sentences whose patterns take record text (or ids and dates) as their
// arguments: a hearing's place, a meeting's agenda line. In English, and
// when no pattern applies, the sentence is one part (as Say has it).
func SayParts(lang, sentence string) []SaidPart {
	if lang != "es" || sentence == "" {
		return []SaidPart{{Text: sentence}}
	}
	if _, ok := sentences[sentence]; ok {
		return []SaidPart{{Text: Say(lang, sentence)}}
	}
	if _, ok := pageSentences[sentence]; ok {
		return []SaidPart{{Text: Say(lang, sentence)}}
	}
	p, args, ok := matchPattern(sentence)
	if !ok {
		return []SaidPart{{Text: Say(lang, sentence)}}
	}
	var out []SaidPart
	rest := p.es
	for _, a := range args {
		loc := verbRe.FindStringIndex(rest)
		if loc == nil {
			break
		}
		if loc[0] > 0 {
			out = append(out, SaidPart{Text: rest[:loc[0]]})
		}
		out = append(out, SaidPart{Text: a, Record: true})
		rest = rest[loc[1]:]
	}
	if rest != "" {
		out = append(out, SaidPart{Text: rest})
	}
	return out
}

// verbRe is an argument's place in a pattern's Spanish.
var verbRe = regexp.MustCompile(`%[sd]`)

// matchPattern is the pattern (patterns) sentence matches, with its
// arguments in order.
func matchPattern(sentence string) (sentencePattern, []string, bool) {
	for _, p := range patterns() {
		if m := p.re.FindStringSubmatch(sentence); m != nil {
			return p, m[1:], true
		}
	}
	return sentencePattern{}, nil, false
}
