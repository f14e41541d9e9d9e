package record

import (
	"strings"
	"testing"
	"time"
)

func TestParsePayValue(t *testing.T) {
	for _, c := range []struct {
		raw   string
		want  PayValue
		neg   bool
		unred bool
	}{
		{"47678", PayValue{Raw: "47678", Value: 47678, Valid: true}, false, false},
		{"0", PayValue{Raw: "0", Valid: true}, false, false}, // no overtime is 0, not absent
		{" -2.5", PayValue{Raw: "-2.5", Value: -2.5}, true, false},
		{"", PayValue{}, false, false},
		{"n/a", PayValue{Raw: "n/a"}, false, true},
		{"$1,200.50", PayValue{Raw: "$1,200.50", Value: 1200.5, Valid: true}, false, false},
	} {
		got := ParsePayValue(c.raw)
		if got != c.want || got.Negative() != c.neg || got.Unreadable() != c.unred {
			t.Errorf("%q: %+v (negative %v, unreadable %v)", c.raw, got, got.Negative(), got.Unreadable())
		}
	}
}

// Flags are set from the fields; a row is never dropped for them.
func TestFlagPayroll(t *testing.T) {
	r := PayrollRow{FiscalYear: 2016, FirstName: "YENA", OTHours: ParsePayValue("-2.5"), BaseSalary: ParsePayValue("x"),
		AgencyStart: time.Date(2016, 7, 1, 0, 0, 0, 0, NewYork)}
	FlagPayroll(&r)
	var codes []string
	for _, f := range r.Flags {
		codes = append(codes, f.Code)
	}
	if strings.Join(codes, ",") != "name_blank,unreadable_value,negative_value,start_after_fiscal_year" {
		t.Errorf("flags %v", r.Flags)
	}
	ok := PayrollRow{FiscalYear: 2016, LastName: "A", FirstName: "B", AgencyStart: time.Date(2016, 6, 30, 0, 0, 0, 0, NewYork)}
	FlagPayroll(&ok)
	if len(ok.Flags) != 0 {
		t.Errorf("a start on the last day of the fiscal year is flagged: %v", ok.Flags)
	}
}

func TestPayrollNameKeys(t *testing.T) {
	r := PayrollRow{LastName: "ABA'AHMID", FirstName: "RAHASHEEM", MidInit: "E"}
	got := strings.Join(r.PayrollNameKeys(), "|")
	if got != "ABAAHMID|RAHASHEEM|ABAAHMID RAHASHEEM|RAHASHEEM ABAAHMID|ABAAHMID RAHASHEEM E|RAHASHEEM E ABAAHMID" {
		t.Errorf("keys %s", got)
	}
	if PayrollNameKey("Rahasheem  Aba'ahmid") != "RAHASHEEM ABAAHMID" || PayrollNameKey("abaahmid,") != "ABAAHMID" {
		t.Error("asked names do not take the keys' form")
	}
	if len((PayrollRow{}).PayrollNameKeys()) != 0 {
		t.Error("a blank name has name keys")
	}
}
