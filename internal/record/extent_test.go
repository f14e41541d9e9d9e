package record

import (
	"strings"
	"testing"
)

func TestExtentWords(t *testing.T) {
	c := SourceCoverage{Source: "checkbook", Label: "Checkbook NYC", RecordType: "payment", Records: 1001, FirstSourceDate: "2018-05-02", LastSourceDate: "2018-05-02"}
	e := ExtentOf(c, "payments", 0)
	if e.Held != 1001 || !strings.Contains(e.Words, "Built on the 1,001 payments held here dated 2018-05-02 only, from Checkbook NYC: an extract of the source, which holds more") {
		t.Errorf("%+v", e)
	}
	e = ExtentOf(SourceCoverage{Source: "checkbook", Label: "Checkbook NYC", Records: 1000, FirstSourceDate: "2023-07-01", LastSourceDate: "2024-06-30"}, "payments", 3227410)
	if e.AtSource != 3227410 || !strings.Contains(e.Words, "Built on 1,000 of the 3,227,410 payments at the source (under 0.1%) dated 2023-07-01 to 2024-06-30") {
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
