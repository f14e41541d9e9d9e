// Package entity resolves identities: vendor name stems, the agency
// crosswalk and (later) people and organizations.
package entity

import (
	"regexp"
	"strings"
	"unicode"
)

// MinStemChars is the fewest characters a vendor stem must have to be
// matched by: every surface that takes a vendor name (search, feeds, batch,
// profiles, watches, tools) refuses a shorter stem with StemLongEnough.
const MinStemChars = 3

// StemChars counts the characters of a stem: letters, digits, spaces and
// punctuation, not bytes ("ÉA" is 2), and a combining accent adds none.
func StemChars(stem string) int {
	n := 0
	for _, r := range stem {
		if !unicode.In(r, unicode.Mn, unicode.Me) {
			n++
		}
	}
	return n
}

// StemLongEnough reports whether stem has at least MinStemChars characters.
func StemLongEnough(stem string) bool { return StemChars(stem) >= MinStemChars }

var tagRE = regexp.MustCompile(`<[^>]*>`)

// legalSuffixes are stripped from the end of a vendor name, longest forms
// first; each is a sequence of whole words after punctuation became spaces.
var legalSuffixes = [][]string{
	{"OF", "NEW", "YORK"},
	{"INCORPORATED"},
	{"CORPORATION"},
	{"COMPANY"},
	{"LIMITED"},
	{"OF", "NY"},
	{"L", "L", "C"},
	{"L", "L", "P"},
	{"P", "L", "L", "C"},
	{"L", "P"},
	{"P", "C"},
	{"PLLC"},
	{"LLC"},
	{"LLP"},
	{"INC"},
	{"CORP"},
	{"LTD"},
	{"USA"},
	{"CO"},
	{"LP"},
	{"PC"},
}

// VendorStem is the normalized name under which suffix and case variants of
// a vendor meet: HTML tags stripped, upper-cased, ". , ' ’ &" turned into
// spaces, whitespace collapsed, then trailing legal suffixes (INC, LLC,
// L.L.C., L.P., CORP, P.C., OF NEW YORK …) removed one after another while
// more than MinStemChars characters (StemChars) remain. Related but
// different firms keep different stems.
func VendorStem(name string) string {
	s := tagRE.ReplaceAllString(name, " ")
	s = strings.ToUpper(s)
	s = strings.NewReplacer(".", " ", ",", " ", "'", " ", "’", " ", "&", " ").Replace(s)
	words := strings.Fields(s)
	for {
		stripped := false
		for _, suf := range legalSuffixes {
			if len(words) <= len(suf) {
				continue
			}
			tail := words[len(words)-len(suf):]
			if !equalWords(tail, suf) {
				continue
			}
			rest := strings.Join(words[:len(words)-len(suf)], " ")
			if StemChars(rest) <= MinStemChars {
				continue
			}
			words = words[:len(words)-len(suf)]
			stripped = true
			break
		}
		if !stripped {
			break
		}
	}
	return strings.Join(words, " ")
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// StemSlug is a vendor stem as it appears in a URL path: lower case, words
// joined by "-", a hyphen inside a word written "~" so it survives the way
// back ("ACME CONSTRUCTION" → "acme-construction", "SKANSKA-TREVCON JV" →
// "skanska~trevcon-jv").
func StemSlug(stem string) string {
	words := strings.Fields(stem)
	for i, w := range words {
		words[i] = strings.ReplaceAll(w, "-", "~")
	}
	return strings.ToLower(strings.Join(words, "-"))
}

// StemFromSlug reverses StemSlug for lookups.
func StemFromSlug(slug string) string {
	s := strings.ReplaceAll(strings.TrimSpace(slug), "-", " ")
	return strings.ToUpper(strings.ReplaceAll(s, "~", "-"))
}
