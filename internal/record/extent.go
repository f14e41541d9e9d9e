package record

import (
	"fmt"
	"strings"
)

// Extent says how much of its source a total covers: a total built on
// records held here is a total of what is held, and what is held is an
// extract of the source (the bundled sample: one page of payments of one
// day, payroll of a few agencies and one year, one month of
// registrations …). ExtentOf is the one rule that words it; every surface
// that shows such a total (API JSON, site, MCP) shows Words next to it.
type Extent struct {
	Source     string `json:"source"`
	Label      string `json:"label"`
	RecordType string `json:"record_type"`
	// Held is how many records of the source are held; AtSource how many
	// the source holds, when an answer stated it (0: not known).
	Held     int    `json:"held"`
	AtSource int    `json:"at_source,omitempty"`
	First    string `json:"first_source_date,omitempty"`
	Last     string `json:"last_source_date,omitempty"`
	// Words is the sentence a reader sees next to the figure.
	Words string `json:"words"`
}

// ExtentOf words the extent of one source's records held (c, from the
// record coverage) for a total of unit ("payments", "payroll rows");
// atSource is the source's own count when known (0: not known).
func ExtentOf(c SourceCoverage, unit string, atSource int) Extent {
	e := Extent{Source: c.Source, Label: c.Label, RecordType: c.RecordType, Held: c.Records, AtSource: atSource,
		First: c.FirstSourceDate, Last: c.LastSourceDate}
	e.Words = e.Say(ExtentEnglish, unit)
	return e
}

// ExtentPhrases are the sentences an extent is said in: Partial (held,
// at the source, unit, percent, dates, source name) when the source stated
// more than is held, else Held (held, unit, dates, source name); Only
// (a date) and Dates (first, last) word the dates; Under is a share under
// 0.1%; Comma writes the percent with a decimal comma. ExtentEnglish is
// the JSON's (extent_words); the site says the same in its languages.
type ExtentPhrases struct {
	Partial, Held, Only, Dates, Under string
	Comma                             bool
}

// ExtentEnglish are the English phrases of an extent.
var ExtentEnglish = ExtentPhrases{
	Partial: "Built on %s of the %s %s at the source (%s%%)%s, from %s: a partial extract; the total is of what is held, not of the source.",
	Held:    "Built on the %s %s held here%s, from %s: an extract of the source, which holds more; the total is of what is held, not of the source.",
	Only:    " dated %s only",
	Dates:   " dated %s to %s",
	Under:   "under 0.1",
}

// Say is the extent in the phrases p, for a total of unit (as p's
// language names it): the one rule for its numbers, dates and name.
func (e Extent) Say(p ExtentPhrases, unit string) string {
	name := e.Label
	if name == "" {
		name = e.Source
	}
	dates := ""
	switch {
	case e.First != "" && e.First == e.Last:
		dates = fmt.Sprintf(p.Only, e.First)
	case e.First != "":
		dates = fmt.Sprintf(p.Dates, e.First, e.Last)
	}
	if e.AtSource > e.Held {
		pct := percent(e.Held, e.AtSource, p.Under)
		if p.Comma {
			pct = strings.ReplaceAll(pct, ".", ",")
		}
		return fmt.Sprintf(p.Partial, Thousands(e.Held), Thousands(e.AtSource), unit, pct, dates, name)
	}
	return fmt.Sprintf(p.Held, Thousands(e.Held), unit, dates, name)
}

// Units of the totals built on records held, and the record types each
// is built on (ExtentKinds).
const (
	ExtentPayments  = "payments and contract records"
	ExtentPayroll   = "payroll rows"
	ExtentContracts = "contract records"
)

// ExtentKinds are the record types (kind names) a total of each unit is
// built on.
var ExtentKinds = map[string][]string{
	ExtentPayments:  {"payment", "payment.payroll", "contract"},
	ExtentPayroll:   {"payroll"},
	ExtentContracts: {"contract"},
}

// extentNouns name the records of each record type in the words (plural,
// singular).
var extentNouns = map[string][2]string{
	"payment":         {"payments", "payment"},
	"payment.payroll": {"payroll payments", "payroll payment"},
	"contract":        {"contract records", "contract record"},
	"payroll":         {"payroll rows", "payroll row"},
}

// Noun names the extent's records in English, by their record type and
// number ("payments", "contract record"); "" for a type a total is never
// built on.
func (e Extent) Noun() string {
	noun, ok := extentNouns[e.RecordType]
	if !ok {
		return ""
	}
	if e.Held == 1 {
		return noun[1]
	}
	return noun[0]
}

// ExtentsOf are the extents of every source holding records a total of
// unit is built on (ExtentKinds), each worded with its own records'
// name; none when nothing is held.
func ExtentsOf(cov []SourceCoverage, unit string) []Extent {
	out := []Extent{}
	for _, c := range cov {
		for _, rt := range ExtentKinds[unit] {
			if c.RecordType == rt && c.Records > 0 {
				out = append(out, ExtentOf(c, Extent{RecordType: rt, Held: c.Records}.Noun(), 0))
			}
		}
	}
	return out
}

// ExtentWords joins the words of several extents (one sentence each).
func ExtentWords(es []Extent) string {
	var ws []string
	for _, e := range es {
		ws = append(ws, e.Words)
	}
	return strings.Join(ws, " ")
}

// Thousands writes n with thousands separators (1,800).
func Thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func percent(a, b int, under string) string {
	p := 100 * float64(a) / float64(b)
	if p < 0.1 {
		return under
	}
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", p), "0"), ".")
}
