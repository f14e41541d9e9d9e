package web

import (
	"fmt"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// extentWords says the extent of the records a total is built on
// (record.ExtentOf's sentence) in lang, from its fields: how many are held
// of how many at the source, their dates and the source's name, for a
// total of unit (a key of record.ExtentKinds, said through the
// "extent_unit" labels). The JSON keeps the English (extent_words).
func extentWords(lang string, es []record.Extent, unit string) string {
	var out []string
	for _, e := range es {
		name := e.Label
		if name == "" {
			name = e.Source
		}
		dates := ""
		switch {
		case e.First != "" && e.First == e.Last:
			dates = fmt.Sprintf(Word(lang, "extent.only"), e.First)
		case e.First != "":
			dates = fmt.Sprintf(Word(lang, "extent.dates"), e.First, e.Last)
		}
		u := Label(lang, "extent_unit", unit)
		if e.AtSource > e.Held {
			p := 100 * float64(e.Held) / float64(e.AtSource)
			pct := Word(lang, "extent.under")
			if p >= 0.1 {
				pct = strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", p), "0"), ".")
				if lang == "es" {
					pct = strings.ReplaceAll(pct, ".", ",")
				}
			}
			out = append(out, fmt.Sprintf(Word(lang, "extent.partial"), record.Thousands(e.Held), record.Thousands(e.AtSource), u, pct, dates, name))
			continue
		}
		out = append(out, fmt.Sprintf(Word(lang, "extent.held"), record.Thousands(e.Held), u, dates, name))
	}
	return strings.Join(out, " ")
}
