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
	label := c.Label
	if label == "" {
		label = c.Source
	}
	dates := ""
	switch {
	case c.FirstSourceDate != "" && c.FirstSourceDate == c.LastSourceDate:
		dates = " dated " + c.FirstSourceDate + " only"
	case c.FirstSourceDate != "":
		dates = " dated " + c.FirstSourceDate + " to " + c.LastSourceDate
	}
	if atSource > c.Records {
		e.Words = fmt.Sprintf("Built on %s of the %s %s at the source (%s%%)%s, from %s: a partial extract; the total is of what is held, not of the source.",
			Thousands(c.Records), Thousands(atSource), unit, percent(c.Records, atSource), dates, label)
		return e
	}
	e.Words = fmt.Sprintf("Built on the %s %s held here%s, from %s: an extract of the source, which holds more; the total is of what is held, not of the source.",
		Thousands(c.Records), unit, dates, label)
	return e
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

// ExtentsOf are the extents of every source holding records a total of
// unit is built on (ExtentKinds), each worded with its own records'
// name; none when nothing is held.
func ExtentsOf(cov []SourceCoverage, unit string) []Extent {
	out := []Extent{}
	for _, c := range cov {
		for _, rt := range ExtentKinds[unit] {
			if c.RecordType == rt && c.Records > 0 {
				noun := extentNouns[rt]
				n := noun[0]
				if c.Records == 1 {
					n = noun[1]
				}
				out = append(out, ExtentOf(c, n, 0))
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

func percent(a, b int) string {
	p := 100 * float64(a) / float64(b)
	if p < 0.1 {
		return "under 0.1"
	}
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", p), "0"), ".")
}
