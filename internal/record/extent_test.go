package record

import (
	"strings"
	"testing"
	"time"
)

func TestExtentWords(t *testing.T) {
	c := SourceCoverage{Source: "checkbook", Label: "Checkbook NYC", RecordType: "payment", Records: 1001, FirstSourceDate: "2018-05-02", LastSourceDate: "2018-05-02"}
	e := ExtentOf(c, "payments", 0)
	if e.Held != 1001 || !strings.Contains(e.Words, "Built on the 1,001 payments held here dated 2018-05-02 only, from Checkbook NYC: an extract of the source, which holds more") {
		t.Errorf("%+v", e)
	}
	e = ExtentOf(SourceCoverage{Source: "checkbook", Label: "Checkbook NYC", Records: 1000, FirstSourceDate: "2023-07-01", LastSourceDate: "2024-06-30"}, "payments", 3227410)
	if e.AtSource != 3227410 || !strings.Contains(e.Words, "Built on 1,000 of the 3,227,410 payments at the source (under 0.1%) first dated 2023-07-01, last dated 2024-06-30") {
		t.Errorf("%+v", e)
	}
	if w := ExtentOf(SourceCoverage{Source: "x", Records: 5}, "rows", 56).Words; !strings.Contains(w, "5 of the 56 rows at the source (8.9%), from x") {
		t.Errorf("%q", w)
	}
	cov := []SourceCoverage{{Source: "payroll", RecordType: "payroll", Records: 1800}, {Source: "checkbook", RecordType: "payment", Records: 2}, {Source: "z", RecordType: "payroll"}}
	if es := ExtentsOf(cov, ExtentPayroll); len(es) != 1 || es[0].Source != "payroll" {
		t.Errorf("payroll extents %+v", es)
	}
	if es := ExtentsOf(nil, ExtentPayroll); es == nil || len(es) != 0 || ExtentWords(es) != "" {
		t.Errorf("nothing held: %+v", es)
	}
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -4200: "-4,200"} {
		if got := Thousands(n); got != want {
			t.Errorf("Thousands(%d) = %q", n, got)
		}
	}
}

// The days held (issue 46, item 3): an extent names the days its records
// are dated, as runs of consecutive days, says the days between that hold
// none, counts the undated apart, and never states a span it does not
// hold every day of.
func TestExtentDays(t *testing.T) {
	c := SourceCoverage{Source: "checkbook", Label: "Checkbook NYC", RecordType: "payment", Records: 1001, FirstSourceDate: "2017-07-17", LastSourceDate: "2018-05-02"}
	// without the days counted: the first and last dates, no span
	if w := ExtentOf(c, "payments", 0).Words; !strings.Contains(w, "held here first dated 2017-07-17, last dated 2018-05-02, from") || strings.Contains(w, "dated 2017-07-17 to") {
		t.Errorf("days not counted: %q", w)
	}
	// two days far apart: both named, the gap said
	e := ExtentOfDays(c, "payments", 0, HeldDays{Days: []DayCount{{"2018-05-02", 1000}, {"2017-07-17", 1}}})
	if want := "Built on the 1,001 payments held here (1,000 dated 2018-05-02 and 1 dated 2017-07-17; none held on 288 of the 290 days from 2017-07-17 to 2018-05-02), from Checkbook NYC:"; !strings.HasPrefix(e.Words, want) {
		t.Errorf("gap: %q", e.Words)
	}
	if want := "1,001 payments held here (1,000 dated 2018-05-02 and 1 dated 2017-07-17; none held on 288 of the 290 days from 2017-07-17 to 2018-05-02), from Checkbook NYC."; e.Statement != want {
		t.Errorf("statement %q", e.Statement)
	}
	if !e.DaysKnown || e.DaysHeld != 2 || e.GapDays != 288 || len(e.Gaps) != 1 || e.Gaps[0] != (DaySpan{"2017-07-18", "2018-05-01", 288}) ||
		len(e.CoveredDays) != 2 || e.CoveredDays[0] != (DayRun{"2017-07-17", "2017-07-17", 1, 1}) {
		t.Errorf("gap fields %+v", e)
	}
	// one day, nothing undated: "only"
	one := ExtentOfDays(SourceCoverage{Source: "s", Records: 1000, FirstSourceDate: "2018-05-02", LastSourceDate: "2018-05-02"}, "payments", 0, HeldDays{Days: []DayCount{{"2018-05-02", 1000}}})
	if !strings.Contains(one.Words, "held here dated 2018-05-02 only, from s") || one.GapDays != 0 || len(one.Gaps) != 0 {
		t.Errorf("one day: %+v", one)
	}
	// one day and undated records: both said, the undated apart
	und := ExtentOfDays(SourceCoverage{Source: "s", Records: 6, FirstSourceDate: "2015-07-20", LastSourceDate: "2015-07-20"}, "contract records", 0, HeldDays{Days: []DayCount{{"2015-07-20", 1}}, Undated: 5})
	if !strings.Contains(und.Words, "the 6 contract records held here (1 dated 2015-07-20; 5 undated), from s") || und.Undated != 5 {
		t.Errorf("undated: %+v", und)
	}
	// nothing dated at all
	if w := ExtentOfDays(SourceCoverage{Source: "s", Records: 1800}, "payroll rows", 0, HeldDays{Undated: 1800}).Words; !strings.Contains(w, "the 1,800 payroll rows held here (1,800 undated), from s") {
		t.Errorf("all undated: %q", w)
	}
	// a run of consecutive days is said as held each day; runs apart are
	// each named (the largest first), the rest counted, the days between
	// said
	days := []DayCount{{"2026-06-03", 10}, {"2026-06-04", 10}, {"2026-06-05", 10}, // run of 3: 30
		{"2026-06-08", 50},                   // one day: 50
		{"2026-06-10", 5}, {"2026-06-11", 5}, // run of 2: 10
		{"2026-06-20", 1}, {"2026-06-30", 2}} // two more runs: 3
	r := ExtentOfDays(SourceCoverage{Source: "s", Records: 100}, "contract records", 0, HeldDays{Days: days, Undated: 7})
	if want := "(50 dated 2026-06-08, 30 dated each day from 2026-06-03 to 2026-06-05 and 10 dated each day from 2026-06-10 to 2026-06-11 and 3 more on 2 other days; none held on 20 of the 28 days from 2026-06-03 to 2026-06-30; 7 undated)"; !strings.Contains(r.Words, strings.Replace(want, " and 10", ", 10", 1)) {
		t.Errorf("runs: %q", r.Words)
	}
	if r.DaysHeld != 8 || len(r.CoveredDays) != 5 || r.CoveredDays[0] != (DayRun{"2026-06-03", "2026-06-05", 3, 30}) || r.GapDays != 20 || len(r.Gaps) != 4 ||
		r.First != "2026-06-03" || r.Last != "2026-06-30" {
		t.Errorf("run fields %+v", r)
	}
	// every day of a span held: no gap claimed
	full := ExtentOfDays(SourceCoverage{Source: "s", Records: 3}, "rows", 0, HeldDays{Days: []DayCount{{"2024-02-28", 1}, {"2024-02-29", 1}, {"2024-03-01", 1}}})
	if !strings.Contains(full.Words, "(3 dated each day from 2024-02-28 to 2024-03-01)") || full.GapDays != 0 {
		t.Errorf("a full span: %q", full.Words)
	}
	// days the count did not list: the rest is not placed on known days,
	// and no gap is claimed
	cut := ExtentOfDays(SourceCoverage{Source: "s", Records: 12}, "rows", 0, HeldDays{Days: []DayCount{{"2020-01-01", 5}, {"2020-03-01", 5}}, Unlisted: 2})
	if !strings.Contains(cut.Words, "(5 dated 2020-01-01, 5 dated 2020-03-01 and 2 more on other days)") || cut.GapDays != 0 || len(cut.Gaps) != 0 {
		t.Errorf("unlisted: %+v", cut)
	}
	// many runs: the JSON lists the MaxExtentRuns largest, in date order
	var many []DayCount
	total := 0
	for i := range 120 {
		d := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, 2*i).Format(time.DateOnly)
		many = append(many, DayCount{d, i + 1})
		total += i + 1
	}
	m := ExtentOfDays(SourceCoverage{Source: "s", Records: total}, "rows", 0, HeldDays{Days: many})
	if len(m.CoveredDays) != MaxExtentRuns || m.RunsOmitted != 120-MaxExtentRuns || m.CoveredDays[0].Records != 71 || m.CoveredDays[MaxExtentRuns-1].Records != 120 ||
		len(m.Gaps) != MaxExtentRuns || m.GapDays != 119 || m.DaysHeld != 120 {
		t.Errorf("many runs: %d runs (%d omitted), first %+v, %d gaps of %d days", len(m.CoveredDays), m.RunsOmitted, m.CoveredDays[0], len(m.Gaps), m.GapDays)
	}
	if !strings.Contains(m.Words, "(120 dated "+many[119].Day+", 119 dated "+many[118].Day+", 118 dated "+many[117].Day+" and "+Thousands(total-357)+" more on 117 other days; none held on 119 of the 239 days from 2020-01-01 to ") {
		t.Errorf("many runs: %q", m.Words)
	}
	// the Spanish phrases through the same rule
	es := ExtentPhrases{Held: "Calculado sobre los %s %s guardados aquí%s, de %s.", Only: " con fecha %s únicamente", Day: "%s con fecha %s", Run: "%s con fecha de cada día del %s al %s",
		And: " y ", More: "%s más en otros %s días", Gap: "nada guardado en %s de los %s días del %s al %s", Undated: "%s sin fecha"}
	if got := e.Say(es, "pagos"); got != "Calculado sobre los 1,001 pagos guardados aquí (1,000 con fecha 2018-05-02 y 1 con fecha 2017-07-17; nada guardado en 288 de los 290 días del 2017-07-17 al 2018-05-02), de Checkbook NYC." {
		t.Errorf("es: %q", got)
	}
}
