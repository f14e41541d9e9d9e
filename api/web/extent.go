package web

import (
	"cmp"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
)

// extentWords says the extents of the records a total is built on in
// lang, from their fields through the one rule (record.Extent.Say) with
// the word table's phrases, each source's records named by their noun
// (record.Extent.Noun, said through the "extent_noun" labels). The JSON
// keeps the English (extent_words).
func extentWords(lang string, es []record.Extent) string {
	p := record.ExtentPhrases{Partial: Word(lang, "extent.partial"), Held: Word(lang, "extent.held"), Statement: Word(lang, "extent.statement"),
		Only: Word(lang, "extent.only"), Dates: Word(lang, "extent.dates"), Under: Word(lang, "extent.under"),
		Day: Word(lang, "extent.day"), Run: Word(lang, "extent.run"), And: Word(lang, "extent.and"), More: Word(lang, "extent.more"),
		MoreDays: Word(lang, "extent.moredays"), Gap: Word(lang, "extent.gap"), Undated: Word(lang, "extent.undated"), Comma: lang == "es"}
	out := make([]string, 0, len(es))
	for _, e := range es {
		e.Label = SourceTitle(lang, e.Source, e.RecordType, e.Label) // a source's own label, in lang (its source_title label)
		out = append(out, e.Say(p, Label(lang, "extent_noun", cmp.Or(e.Noun(), e.RecordType))))
	}
	return strings.Join(out, " ")
}
