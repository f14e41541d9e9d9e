package entity

import (
	"regexp"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

var trailingAcronymRE = regexp.MustCompile(`\s*\([A-Z0-9&/.\- ]{2,12}\)\s*$`)

// AgencyKey is the comparison key of an agency spelling: a trailing
// parenthesised acronym dropped (" (DCAS)"), accents stripped, "&" turned into
// AND, apostrophes dropped, upper-cased, other punctuation folded to spaces.
func AgencyKey(raw string) string {
	s := strings.TrimSpace(raw)
	if strings.HasSuffix(s, ")") {
		s = trailingAcronymRE.ReplaceAllString(s, "")
	}
	s = StripAccents(s)
	s = strings.ReplaceAll(s, "&", " AND ")
	s = apostrophes.Replace(s)
	s = strings.ToUpper(s)
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return ' '
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// StripAccents removes accents ("Café" → "Cafe"): the one accent rule of
// agency keys and land-project name words.
func StripAccents(s string) string {
	if isASCII(s) { // ASCII has no accents to strip
		return s
	}
	s, _, _ = transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
	return s
}

// apostrophes are dropped from an agency key.
var apostrophes = strings.NewReplacer("'", "", "’", "", "‘", "", "`", "")

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// AgencyID turns a canonical name into its stable id: its key, lower-cased
// and hyphenated ("Administration for Children's Services" →
// "administration-for-childrens-services").
func AgencyID(canonicalName string) string {
	return strings.ToLower(strings.ReplaceAll(AgencyKey(canonicalName), " ", "-"))
}
