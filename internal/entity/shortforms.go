package entity

import (
	"slices"
	"strings"
	"unicode"
)

// AgencyShortForms are the agency short forms a keyword search holds
// ("HPD", "DOT", "NYPD", "DCAS" …), each resolved as ResolveName resolves
// it: a keyword search for "HPD roof repairs" finds notices that print
// "HPD", not every notice of the Department of Housing Preservation and
// Development (which prints its full name), so every surface offers the
// agency filter beside the results. Only a short form counts: 2 to 6
// letters typed in capitals ("hpd", "parks", "dot" are not offered), from
// the nickname table, a reviewed short form of the crosswalk ("HRA",
// "NYCHA") or an acronym the mapping records for one agency.
// Excluded words (-HPD) and words in quoted phrases are not offered.
func (c *Crosswalk) AgencyShortForms(keywords string) []Resolution {
	var out []Resolution
	seen := map[string]bool{}
	inQuote := false
	for _, f := range strings.Fields(keywords) {
		quoted := inQuote || strings.ContainsAny(f[:1], "\"“”")
		if strings.Count(f, "\"")%2 == 1 || strings.ContainsAny(f, "“”") && !(strings.ContainsRune(f, '“') && strings.ContainsRune(f, '”')) {
			inQuote = !inQuote
		}
		if quoted || strings.HasPrefix(f, "-") {
			continue
		}
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		n := len([]rune(w))
		if n < 2 || n > 6 || strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) >= 0 {
			continue
		}
		if w != strings.ToUpper(w) {
			continue
		}
		r, ok := c.resolve(w, w, false, true)
		if !ok || (r.Method != MethodNickname && r.Method != MethodAcronym && r.Method != MethodShort) {
			continue
		}
		key := strings.Join(r.IDs, ",")
		if seen[key] || slices.Contains(r.IDs, "") {
			continue
		}
		seen[key] = true
		out = append(out, r)
	}
	return out
}
