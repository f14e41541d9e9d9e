package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/segment"
)

// Text analysis has one rule for the punctuation that joins words, applied
// to indexed text by both engines (the embedded engine's char filter, the
// OpenSearch mappings' pattern_replace char filters, which state the same
// two steps as regular expressions) and to keywords (Words):
//
//  1. a possessive — an apostrophe (' or ’) and "s" after a letter or
//     digit, not followed by one — becomes spaces ("Mayor’s Office" is
//     "Mayor   Office"), so "mayor's office" and "mayor’s office" are one
//     phrase;
//  2. then a colon, period or apostrophe between two letters becomes a
//     space ("SECTION:PROCUREMENT", "CONTRACT.NO", "O'Brien" are two
//     words each), where Unicode word segmentation (UAX #29, both engines'
//     tokenizer) would keep one token that neither word finds.
//
// Replacements keep the byte length, so token offsets (highlights,
// passages) still point into the original text. Numbers keep their
// decimal points and separators ("1,250.50" stays one token).
//
// OpenSearch's char filters, in order (Java regular expressions):
//
//	(?<=[\p{L}\p{N}])['’][sS](?![\p{L}\p{N}])   →  two spaces
//	(?<=\p{L})[:.'’](?=\p{L})                    →  one space
func CleanText(s string) string {
	if !strings.ContainsAny(s, ":.'’") {
		return s
	}
	return betweenLetters(possessives(s))
}

func letterOrNumber(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

func apostrophe(r rune) bool { return r == '\'' || r == '’' }

// possessives is step 1 of CleanText.
func possessives(s string) string {
	var b strings.Builder
	prev := utf8.RuneError
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if apostrophe(r) && letterOrNumber(prev) && i+n < len(s) && (s[i+n] == 's' || s[i+n] == 'S') {
			next, _ := utf8.DecodeRuneInString(s[i+n+1:])
			if i+n+1 == len(s) || !letterOrNumber(next) {
				b.WriteString(strings.Repeat(" ", n+1))
				prev = 's'
				i += n + 1
				continue
			}
		}
		b.WriteString(s[i : i+n])
		prev = r
		i += n
	}
	return b.String()
}

// betweenLetters is step 2 of CleanText: it reads the text step 1 wrote
// (its lookbehind sees step 1's spaces, as OpenSearch's second char filter
// does).
func betweenLetters(s string) string {
	var b strings.Builder
	prev := utf8.RuneError
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == ':' || r == '.' || apostrophe(r)) && unicode.IsLetter(prev) && i+n < len(s) {
			if next, _ := utf8.DecodeRuneInString(s[i+n:]); unicode.IsLetter(next) {
				b.WriteString(strings.Repeat(" ", n))
				prev = ' '
				i += n
				continue
			}
		}
		b.WriteString(s[i : i+n])
		prev = r
		i += n
	}
	return b.String()
}

// Words are the lower-cased words of s as the engines tokenize indexed
// text: CleanText, then Unicode word segmentation (UAX #29), keeping
// letters, numbers and ideographs.
func Words(s string) []string {
	seg := segment.NewWordSegmenterDirect([]byte(CleanText(s)))
	var out []string
	for seg.Segment() {
		if seg.Type() != segment.None {
			out = append(out, strings.ToLower(string(seg.Bytes())))
		}
	}
	return out
}
