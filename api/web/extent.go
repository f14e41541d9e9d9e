package web

import (
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// extentWords says the extent of the records a total is built on in
// lang, from its fields through the one rule (record.Extent.Say) with the
// word table's phrases, for a total of unit (a key of record.ExtentKinds,
// said through the "extent_unit" labels). The JSON keeps the English
// (extent_words).
func extentWords(lang string, es []record.Extent, unit string) string {
	p := record.ExtentPhrases{Partial: Word(lang, "extent.partial"), Held: Word(lang, "extent.held"),
		Only: Word(lang, "extent.only"), Dates: Word(lang, "extent.dates"), Under: Word(lang, "extent.under"), Comma: lang == "es"}
	out := make([]string, 0, len(es))
	for _, e := range es {
		out = append(out, e.Say(p, Label(lang, "extent_unit", unit)))
	}
	return strings.Join(out, " ")
}
