package search

import (
	"bytes"
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
	b := []byte(s)
	CleanBytes(b)
	return string(b)
}

// CleanBytes applies CleanText's rule to b in place (every replacement
// keeps the byte length, so nothing moves): the indexing path runs it on
// one copy of a field's text instead of building new strings.
func CleanBytes(b []byte) {
	if !bytes.ContainsAny(b, ":.'’") {
		return
	}
	possessives(b)
	betweenLetters(b)
}

func letterOrNumber(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

func apostrophe(r rune) bool { return r == '\'' || r == '’' }

// blank writes n spaces at b[i:].
func blank(b []byte, i, n int) {
	for j := i; j < i+n; j++ {
		b[j] = ' '
	}
}

// possessives is step 1 of CleanText. A rune is decoded before anything
// at or after it is written, so its lookbehind sees the original text.
func possessives(b []byte) {
	prev := utf8.RuneError
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if apostrophe(r) && letterOrNumber(prev) && i+n < len(b) && (b[i+n] == 's' || b[i+n] == 'S') {
			if next, _ := utf8.DecodeRune(b[i+n+1:]); i+n+1 == len(b) || !letterOrNumber(next) {
				blank(b, i, n+1)
				prev = 's'
				i += n + 1
				continue
			}
		}
		prev = r
		i += n
	}
}

// betweenLetters is step 2 of CleanText: it reads the text step 1 wrote
// (its lookbehind sees step 1's spaces, as OpenSearch's second char filter
// does).
func betweenLetters(b []byte) {
	prev := utf8.RuneError
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if (r == ':' || r == '.' || apostrophe(r)) && unicode.IsLetter(prev) && i+n < len(b) {
			if next, _ := utf8.DecodeRune(b[i+n:]); unicode.IsLetter(next) {
				blank(b, i, n)
				prev = ' '
				i += n
				continue
			}
		}
		prev = r
		i += n
	}
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
