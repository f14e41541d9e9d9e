package record

import (
	"errors"
	"testing"
	"time"
)

func TestParseDayBounds(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" when refused
	}{
		{"", "0001-01-01"},
		{"2024-03-05", "2024-03-05"},
		{FirstDay, FirstDay},
		{LastDay, LastDay},
		{"1677-12-31", ""},
		{"1600-01-01", ""},
		{"2262-01-01", ""},
		{"2300-01-01", ""},
		{"9999-12-31", ""},
		{"0000-01-01", ""},
		{"2024-02-30", ""},
		{"2024-1-05", ""},
		{"-100-01-01", ""},
		{"+2024-01-01", ""},
		{" 2024-01-05", ""},
	} {
		got, err := ParseDay("due_from", tc.in)
		if tc.want == "" {
			var re *Error
			if !errors.As(err, &re) || re.Code != EINVALID || re.Param != "due_from" {
				t.Errorf("ParseDay(%q) = %v, %v; want an invalid error naming due_from", tc.in, got, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseDay(%q): %v", tc.in, err)
			continue
		}
		if tc.in == "" {
			if !got.IsZero() {
				t.Errorf("ParseDay(\"\") = %v, want zero", got)
			}
			continue
		}
		if got.Location() != NewYork || got.Format("2006-01-02") != tc.want {
			t.Errorf("ParseDay(%q) = %v", tc.in, got)
		}
	}
}

func TestCheckDay(t *testing.T) {
	ok := []time.Time{{}, time.Date(2024, 1, 1, 0, 0, 0, 0, NewYork), mustDay(FirstDay),
		mustDay(LastDay).AddDate(0, 0, 1).Add(-time.Nanosecond)}
	for _, tm := range ok {
		if err := CheckDay("to", tm); err != nil {
			t.Errorf("CheckDay(%v): %v", tm, err)
		}
	}
	bad := []time.Time{mustDay(FirstDay).Add(-time.Nanosecond), mustDay(LastDay).AddDate(0, 0, 1),
		time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, tm := range bad {
		err := CheckDay("to", tm)
		var re *Error
		if !errors.As(err, &re) || re.Code != EINVALID || re.Param != "to" {
			t.Errorf("CheckDay(%v) = %v", tm, err)
		}
	}
}
