package record

import (
	"fmt"
	"slices"
	"strings"
	"time"
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
	// What is held, day by day (set when the engine counted the records'
	// days, HeldDays; DaysKnown false: only First and Last are known):
	// DaysHeld is how many New York days hold dated records;
	// CoveredDays the runs of consecutive such days, in date order (at
	// most MaxExtentRuns, those with the most records; RunsOmitted counts
	// the others); Undated the records with no date, counted apart;
	// GapDays how many days between First and Last hold none, and Gaps
	// those spans (the longest MaxExtentRuns, in date order).
	DaysKnown   bool      `json:"days_known,omitempty"`
	DaysHeld    int       `json:"days_held,omitempty"`
	CoveredDays []DayRun  `json:"covered_days,omitempty"`
	RunsOmitted int       `json:"covered_runs_omitted,omitempty"`
	Undated     int       `json:"undated"`
	GapDays     int       `json:"gap_days,omitempty"`
	Gaps        []DaySpan `json:"gaps,omitempty"`
	// Statement says in one English sentence what is held: how many
	// records, on which days, what is undated and where none is held.
	Statement string `json:"statement"`
}

// DayRun is a run of consecutive New York days each holding records:
// the first and last day, how many days and the records dated on them.
type DayRun struct {
	First   string `json:"first"`
	Last    string `json:"last"`
	Days    int    `json:"days"`
	Records int    `json:"records"`
}

// DaySpan is a span of consecutive days holding no record.
type DaySpan struct {
	First string `json:"first"`
	Last  string `json:"last"`
	Days  int    `json:"days"`
}

// DayCount is how many records are dated on one New York day
// (2006-01-02).
type DayCount struct {
	Day     string
	Records int
}

// HeldDays are the days one source's records of one type are dated, as
// the engine counted them: the days holding records (any order),
// the records with no date, and the dated records on days the count did
// not list (the engine's bound on groups).
type HeldDays struct {
	Days     []DayCount
	Undated  int
	Unlisted int
}

// MaxExtentRuns bounds the runs and gaps an extent lists; MaxSaidRuns
// the runs its sentence names (the others are said as a count).
const (
	MaxExtentRuns = 50
	MaxSaidRuns   = 3
)

// ExtentOf words the extent of one source's records held (c, from the
// record coverage) for a total of unit ("payments", "payroll rows");
// atSource is the source's own count when known (0: not known).
// Without the days counted (ExtentOfDays) it states only the first and
// last dates, never a span between them.
func ExtentOf(c SourceCoverage, unit string, atSource int) Extent {
	e := Extent{Source: c.Source, Label: c.Label, RecordType: c.RecordType, Held: c.Records, AtSource: atSource,
		First: c.FirstSourceDate, Last: c.LastSourceDate}
	e.Words, e.Statement = e.Say(ExtentEnglish, unit), e.State(ExtentEnglish, unit)
	return e
}

// ExtentOfDays is ExtentOf with the days the records are dated (d): the
// runs of days held, the undated records apart and the days between held
// none of, said in the words.
func ExtentOfDays(c SourceCoverage, unit string, atSource int, d HeldDays) Extent {
	e := Extent{Source: c.Source, Label: c.Label, RecordType: c.RecordType, Held: c.Records, AtSource: atSource,
		First: c.FirstSourceDate, Last: c.LastSourceDate}
	e.setDays(d)
	e.Words, e.Statement = e.Say(ExtentEnglish, unit), e.State(ExtentEnglish, unit)
	return e
}

// setDays fills the day fields from the days counted.
func (e *Extent) setDays(d HeldDays) {
	e.DaysKnown, e.Undated = true, d.Undated
	days := make([]DayCount, 0, len(d.Days))
	for _, dc := range d.Days {
		if _, err := time.Parse(time.DateOnly, dc.Day); err == nil && dc.Records > 0 {
			days = append(days, dc)
		}
	}
	slices.SortFunc(days, func(a, b DayCount) int { return strings.Compare(a.Day, b.Day) })
	var runs []DayRun
	var gaps []DaySpan
	for _, dc := range days {
		if n := len(runs); n > 0 && dayAfter(runs[n-1].Last, 1) == dc.Day {
			runs[n-1].Last, runs[n-1].Days, runs[n-1].Records = dc.Day, runs[n-1].Days+1, runs[n-1].Records+dc.Records
			continue
		} else if n > 0 {
			g := DaySpan{First: dayAfter(runs[n-1].Last, 1), Last: dayAfter(dc.Day, -1)}
			g.Days = daysFrom(g.First, g.Last)
			gaps = append(gaps, g)
			e.GapDays += g.Days
		}
		runs = append(runs, DayRun{First: dc.Day, Last: dc.Day, Days: 1, Records: dc.Records})
	}
	e.DaysHeld = len(days)
	if len(runs) > 0 {
		// the dates the days say (the coverage's may be missing or older
		// than the count)
		e.First, e.Last = runs[0].First, runs[len(runs)-1].Last
	}
	// dated records on days the count did not list: their days are not
	// known, so no gap is claimed
	if d.Unlisted > 0 {
		e.GapDays, gaps = 0, nil
	}
	e.CoveredDays, e.RunsOmitted = keepLargest(runs, func(r DayRun) int { return r.Records }), max(0, len(runs)-MaxExtentRuns)
	e.Gaps = keepLargest(gaps, func(g DaySpan) int { return g.Days })
}

// keepLargest keeps the MaxExtentRuns elements of xs (in date order)
// with the largest size, ties to the earlier.
func keepLargest[T any](xs []T, size func(T) int) []T {
	if len(xs) <= MaxExtentRuns {
		return xs
	}
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return size(xs[b]) - size(xs[a]) })
	idx = idx[:MaxExtentRuns]
	slices.Sort(idx)
	out := make([]T, 0, len(idx))
	for _, i := range idx {
		out = append(out, xs[i])
	}
	return out
}

// dayAfter is the day n days after day (2006-01-02).
func dayAfter(day string, n int) string {
	t, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return ""
	}
	return t.AddDate(0, 0, n).Format(time.DateOnly)
}

// daysFrom is how many days there are from first to last, both counted.
func daysFrom(first, last string) int {
	a, err1 := time.Parse(time.DateOnly, first)
	b, err2 := time.Parse(time.DateOnly, last)
	if err1 != nil || err2 != nil || b.Before(a) {
		return 0
	}
	return int(b.Sub(a).Hours()/24+0.5) + 1
}

// ExtentPhrases are the sentences an extent is said in: Partial (held,
// at the source, unit, percent, dates, source name) when the source stated
// more than is held, else Held (held, unit, dates, source name); Statement
// (held, unit, dates, source name) is what is held, without the caveat.
// The dates: Only (a day) when every record is dated that one day;
// Dates (first, last) when the days between were not counted; else, in
// brackets, the runs of days with the most records, each Day (records,
// day) or Run (records, first, last), joined by And, then More (records,
// days) or MoreDays (records) for the rest, Gap (days holding none, days
// of the span, first, last) and Undated (records). Under is a share under
// 0.1%; Comma writes the percent with a decimal comma. ExtentEnglish is
// the JSON's (extent_words); the site says the same in its languages.
type ExtentPhrases struct {
	Partial, Held, Statement, Only, Dates, Under string
	Day, Run, And, More, MoreDays, Gap, Undated  string
	Comma                                        bool
}

// ExtentEnglish are the English phrases of an extent.
var ExtentEnglish = ExtentPhrases{
	Partial:   "Built on %s of the %s %s at the source (%s%%)%s, from %s: a partial extract; the total is of what is held, not of the source.",
	Held:      "Built on the %s %s held here%s, from %s: an extract of the source, which holds more; the total is of what is held, not of the source.",
	Statement: "%s %s held here%s, from %s.",
	Only:      " dated %s only",
	Dates:     " first dated %s, last dated %s",
	Under:     "under 0.1",
	Day:       "%s dated %s",
	Run:       "%s dated each day from %s to %s",
	And:       " and ",
	More:      "%s more on %s other days",
	MoreDays:  "%s more on other days",
	Gap:       "none held on %s of the %s days from %s to %s",
	Undated:   "%s undated",
}

// Say is the extent in the phrases p, for a total of unit (as p's
// language names it): the one rule for its numbers, dates and name.
func (e Extent) Say(p ExtentPhrases, unit string) string {
	name, dates := e.name(), e.dates(p)
	if e.AtSource > e.Held {
		pct := percent(e.Held, e.AtSource, p.Under)
		if p.Comma {
			pct = strings.ReplaceAll(pct, ".", ",")
		}
		return fmt.Sprintf(p.Partial, Thousands(e.Held), Thousands(e.AtSource), unit, pct, dates, name)
	}
	return fmt.Sprintf(p.Held, Thousands(e.Held), unit, dates, name)
}

// State is the statement of what is held (Statement) in the phrases p.
func (e Extent) State(p ExtentPhrases, unit string) string {
	return fmt.Sprintf(p.Statement, Thousands(e.Held), unit, e.dates(p), e.name())
}

func (e Extent) name() string {
	if e.Label == "" {
		return e.Source
	}
	return e.Label
}

// dates is the rule for the days held: never a span that is not held
// every day, the undated apart, the days holding none said.
func (e Extent) dates(p ExtentPhrases) string {
	if !e.DaysKnown {
		switch {
		case e.First != "" && e.First == e.Last:
			return fmt.Sprintf(p.Only, e.First)
		case e.First != "":
			return fmt.Sprintf(p.Dates, e.First, e.Last)
		}
		return ""
	}
	runs := e.CoveredDays
	if e.Undated == 0 && e.RunsOmitted == 0 && len(runs) == 1 && runs[0].Days == 1 {
		return fmt.Sprintf(p.Only, runs[0].First)
	}
	if e.Held == 0 {
		return ""
	}
	said := slices.Clone(runs)
	slices.SortStableFunc(said, func(a, b DayRun) int { return b.Records - a.Records })
	said = said[:min(len(said), MaxSaidRuns)]
	var items []string
	dated, days := 0, 0
	for _, r := range said {
		dated, days = dated+r.Records, days+r.Days
		if r.Days == 1 {
			items = append(items, fmt.Sprintf(p.Day, Thousands(r.Records), r.First))
		} else {
			items = append(items, fmt.Sprintf(p.Run, Thousands(r.Records), r.First, r.Last))
		}
	}
	if rest := e.Held - e.Undated - dated; rest > 0 {
		// the days of the rest are known when every day of the span is
		// either held or a gap (not so when the count left days unlisted)
		if restDays := e.DaysHeld - days; restDays > 0 && e.GapDays+e.DaysHeld == daysFrom(e.First, e.Last) {
			items = append(items, fmt.Sprintf(p.More, Thousands(rest), Thousands(restDays)))
		} else {
			items = append(items, fmt.Sprintf(p.MoreDays, Thousands(rest)))
		}
	}
	var parts []string
	if len(items) > 0 {
		list := items[0]
		if n := len(items); n > 1 {
			list = strings.Join(items[:n-1], ", ") + p.And + items[n-1]
		}
		parts = append(parts, list)
	}
	if e.GapDays > 0 {
		parts = append(parts, fmt.Sprintf(p.Gap, Thousands(e.GapDays), Thousands(daysFrom(e.First, e.Last)), e.First, e.Last))
	}
	if e.Undated > 0 {
		parts = append(parts, fmt.Sprintf(p.Undated, Thousands(e.Undated)))
	}
	return " (" + strings.Join(parts, "; ") + ")"
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
	return ExtentsOfDays(cov, unit, nil)
}

// ExtentsOfDays is ExtentsOf with each source's days counted (days, when
// not nil and it answers ok: ExtentOfDays).
func ExtentsOfDays(cov []SourceCoverage, unit string, days func(SourceCoverage) (HeldDays, bool)) []Extent {
	out := []Extent{}
	for _, c := range cov {
		for _, rt := range ExtentKinds[unit] {
			if c.RecordType != rt || c.Records <= 0 {
				continue
			}
			noun := Extent{RecordType: rt, Held: c.Records}.Noun()
			if days != nil {
				if d, ok := days(c); ok {
					out = append(out, ExtentOfDays(c, noun, 0, d))
					continue
				}
			}
			out = append(out, ExtentOf(c, noun, 0))
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
