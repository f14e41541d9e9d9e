// Package entity resolves identities: vendor name stems, the agency
// crosswalk and (later) people and organizations.
package entity

import (
	"regexp"
	"slices"
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

// stemPunct are the characters that separate words in a vendor name: a
// hyphen inside a word ("Ho-Tran") is a space, so "HO-TRAN" and "HO TRAN"
// are one vendor.
var stemPunct = strings.NewReplacer(".", " ", ",", " ", "'", " ", "’", " ", "&", " ", "-", " ", "‐", " ", "–", " ")

// VendorStem is the normalized name under which suffix, case, initial and
// hyphen variants of a vendor meet: HTML tags stripped, upper-cased,
// ". , ' ’ & -" turned into spaces, whitespace collapsed, then trailing
// legal suffixes (INC, LLC, L.L.C., L.P., CORP, P.C., OF NEW YORK …)
// removed one after another while at least MinStemChars characters
// (StemChars) remain; runs of single letters are written together
// ("A.B.C." → "ABC", "J P MORGAN" → "JP MORGAN"). So "ABC Inc.", "ABC Corp"
// and "A.B.C. LLC" are all "ABC". A base shorter than MinStemChars keeps
// its suffix, written without spaces ("AB L.L.C." → "AB LLC"), because a
// shorter stem is too short to match by: such vendors stay one identity
// per suffix. Related but different firms keep different stems.
//
// Stems are stored as record keys when records are indexed; records
// indexed under an earlier rule are found through StemKeys.
func VendorStem(name string) string {
	s := strings.Map(visible, name)
	s = tagRE.ReplaceAllString(s, " ")
	s = strings.ToUpper(s)
	s = stemPunct.Replace(s)
	words := strings.Fields(s)
	var kept []string // a suffix left on a base too short to stand alone
	for {
		stripped := false
		kept = nil
		for _, suf := range legalSuffixes {
			if len(words) <= len(suf) {
				continue
			}
			tail := words[len(words)-len(suf):]
			if !equalWords(tail, suf) {
				continue
			}
			rest := words[:len(words)-len(suf)]
			if StemChars(strings.Join(joinInitials(rest), " ")) < MinStemChars {
				if kept == nil {
					kept = suf
				}
				continue
			}
			words = rest
			stripped = true
			break
		}
		if !stripped {
			break
		}
	}
	if kept != nil {
		base := joinInitials(words[:len(words)-len(kept)])
		return strings.Join(append(base, strings.Join(kept, "")), " ")
	}
	return strings.Join(joinInitials(words), " ")
}

// visible drops invisible format characters (zero-width spaces and
// joiners, byte-order marks, soft hyphens: Unicode category Cf), so they
// never count toward a stem, and reads control characters as spaces.
func visible(r rune) rune {
	switch {
	case unicode.Is(unicode.Cf, r):
		return -1
	case unicode.IsControl(r):
		return ' '
	}
	return r
}

// joinInitials writes runs of two or more one-letter words as one word
// ("A B C" → "ABC").
func joinInitials(words []string) []string {
	out := make([]string, 0, len(words))
	single := func(w string) bool {
		r := []rune(w)
		return len(r) == 1 && unicode.IsLetter(r[0])
	}
	for i := 0; i < len(words); {
		j := i
		for j < len(words) && single(words[j]) {
			j++
		}
		if j-i >= 2 {
			out = append(out, strings.Join(words[i:j], ""))
			i = j
			continue
		}
		out = append(out, words[i])
		i++
	}
	return out
}

// SameVendor reports whether two names or stems are one vendor under the
// current rule (a stem stored under an earlier rule included).
func SameVendor(a, b string) bool {
	sa := VendorStem(a)
	return sa != "" && sa == VendorStem(b)
}

// StemKeys are the stored stems a vendor is found under: its stem by the
// current rule (the argument may be a name, a stem or a stem stored under
// an earlier rule) and the stems earlier rules stored for the same vendor,
// which stay in data indexed before the rule changed: the legal suffix kept
// on a 3-character base ("ABC INC", "ABC L L C"), initials spelled apart
// ("A B C", "J P MORGAN") and hyphens inside words ("HO-TRAN"). Each key
// is checked to come back to the stem (VendorStem(key) == stem), so a key
// never belongs to another vendor. The search package expands every vendor
// stem filter through it (search.Query, EntryQuery and RecordQuery
// Normalize), so every surface that filters by vendor reads old and new
// data alike without re-indexing. Bounded: at most a few hundred keys.
func StemKeys(stem string) []string {
	s := VendorStem(stem)
	if s == "" {
		return nil
	}
	out := []string{s}
	seen := map[string]bool{s: true}
	add := func(k string) {
		if !seen[k] && VendorStem(k) == s {
			seen[k] = true
			out = append(out, k)
		}
	}
	var cands []string
	cands = append(cands, hyphenVariants(strings.Fields(s))...)
	for _, v := range spacedVariants(strings.Fields(s)) {
		cands = append(cands, strings.Join(v, " "))
	}
	for _, c := range cands {
		add(c)
		if StemChars(c) <= MinStemChars {
			for _, suf := range legalSuffixes {
				add(c + " " + strings.Join(suf, " "))
			}
		}
	}
	return out
}

// spacedVariants spells apart, in every combination, the first two words
// of 2 or 3 letters ("ABC" → "ABC", "A B C"; "JP MORGAN" → "J P MORGAN").
func spacedVariants(words []string) [][]string {
	var idx []int
	for i, w := range words {
		if n := len([]rune(w)); n >= 2 && n <= 3 && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			idx = append(idx, i)
			if len(idx) == 2 {
				break
			}
		}
	}
	var out [][]string
	for mask := 0; mask < 1<<len(idx); mask++ {
		var v []string
		for i, w := range words {
			k := slices.Index(idx, i)
			if k >= 0 && mask&(1<<k) != 0 {
				for _, r := range w {
					v = append(v, string(r))
				}
				continue
			}
			v = append(v, w)
		}
		out = append(out, v)
	}
	return out
}

// maxVariantGaps bounds the word gaps hyphenVariants tries one at a time,
// so a name's variants grow linearly with it and stop at a fixed count
// (a name is also bounded by record.MaxNameLen before any rule reads it).
const maxVariantGaps = 12

// hyphenVariants joins neighbouring words with "-": every combination for
// up to 6 words, one hyphen at a time in the first maxVariantGaps gaps of
// longer names; and a standalone " - " between two words, one position at
// a time in the same gaps.
func hyphenVariants(words []string) []string {
	gaps := len(words) - 1
	if gaps <= 0 {
		return []string{strings.Join(words, " ")}
	}
	join := func(mask int) string {
		var b strings.Builder
		for i, w := range words {
			if i > 0 {
				if mask&(1<<(i-1)) != 0 {
					b.WriteByte('-')
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteString(w)
		}
		return b.String()
	}
	var out []string
	if gaps <= 5 {
		for mask := 0; mask < 1<<gaps; mask++ {
			out = append(out, join(mask))
		}
	} else {
		out = append(out, join(0))
		for g := 0; g < min(gaps, maxVariantGaps); g++ {
			out = append(out, join(1<<g))
		}
	}
	// a hyphen standing between words was a word of its own under the
	// earlier rule ("CDW - Government" was stored "CDW - GOVERNMENT")
	for g := 1; g < len(words) && g <= maxVariantGaps; g++ {
		out = append(out, strings.Join(words[:g], " ")+" - "+strings.Join(words[g:], " "))
	}
	return out
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
// joined by "-" ("ACME CONSTRUCTION" → "acme-construction"). Stems no
// longer hold a hyphen (VendorStem makes it a space); a stem stored under
// the earlier rule still writes an in-word hyphen "~" ("SKANSKA-TREVCON JV"
// → "skanska~trevcon-jv"), and such old permalinks keep working: lookups
// read a slug as VendorStem(StemFromSlug(slug)), which is the same vendor
// as "skanska-trevcon-jv".
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

// commonShortWords are short words of vendor names that are words, not
// joined initials, so StemPhrases does not spell them apart.
var commonShortWords = map[string]bool{"THE": true, "AND": true, "FOR": true, "NEW": true, "OF": true, "ALL": true, "ONE": true,
	"TWO": true, "AIR": true, "BAY": true, "ART": true, "CAR": true, "SUN": true, "SEA": true, "OAK": true, "RED": true, "KEY": true,
	"TOP": true, "ICE": true, "BUS": true, "CAB": true, "HUB": true, "LAW": true, "NYC": true, "USA": true, "NY": true, "BY": true,
	"IN": true, "ON": true, "TO": true, "AT": true, "DE": true, "LA": true, "EL": true, "ST": true, "MT": true, "BIG": true}

// StemPhrases are the phrases a vendor's name is written in running text:
// its stem and, when it may have joined initials (a first word of 2 or 3
// letters: "CAC INDUSTRIES" from "C.A.C. Industries"), the initials spelled
// apart ("C A C INDUSTRIES"),
// which is how the search engines' analyzers read "C.A.C.". Mention
// searches ask for any of them.
func StemPhrases(stem string) []string {
	words := strings.Fields(stem)
	out := []string{strings.Join(words, " ")}
	var spaced []string
	changed := false
	for i, w := range words {
		n := len([]rune(w))
		if i == 0 && n >= 2 && n <= 3 && !commonShortWords[w] && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 {
			for _, r := range w {
				spaced = append(spaced, string(r))
			}
			changed = true
			continue
		}
		spaced = append(spaced, w)
	}
	if changed {
		out = append(out, strings.Join(spaced, " "))
	}
	return out
}

// MentionQuery is the keyword query that finds mentions of a vendor stem
// in full text: each of its StemPhrases, lower-cased, quoted when it has
// several words, as alternatives.
func MentionQuery(stem string) string {
	var qs []string
	for _, p := range StemPhrases(stem) {
		p = strings.ToLower(p)
		if strings.Contains(p, " ") {
			p = `"` + p + `"`
		}
		qs = append(qs, p)
	}
	return strings.Join(qs, " ")
}
