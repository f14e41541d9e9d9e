package record

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"time"
)

// PayrollRow is one row of the Citywide Payroll dataset (NYC Open Data
// k397-673e): one person's pay in one agency, title and fiscal year. Names,
// agency, title, borough, leave status and pay basis are kept as the
// dataset prints them (trimmed of its fixed-width padding); nothing is
// inferred about the person. Rows with blank names (redacted at the
// source), negative values or an agency start date after the fiscal year
// are kept and carry Flags; they are never dropped.
type PayrollRow struct {
	// ID is the row's identity in this service: the source's row id when
	// the source gives one (":id" of the live API), else a hash of the
	// row's fields with the rank of identical rows in its file.
	ID string `json:"id"`

	FiscalYear int `json:"fiscal_year"`
	// PayrollNumber is the agency's payroll number (later exports only).
	PayrollNumber string `json:"payroll_number,omitempty"`

	// AgencyPrinted is the agency as the source printed it (served as
	// agency_as_printed, like a contract's: never to be mistaken for an
	// accepted analysis label, the agency_label argument); AgencyID and
	// AgencyName are its canonical agency (entity.Crosswalk) and
	// AgencyMethod how it was resolved.
	AgencyPrinted string `json:"agency_as_printed"`
	// AgencyLabelDeprecated is AgencyPrinted under its first published
	// name (agency_label, renamed agency_as_printed on 2026-11-27), kept
	// for older readers (SPEC §9): MarshalJSON sets it, nothing reads it.
	AgencyLabelDeprecated string `json:"agency_label" deprecated:"agency_as_printed"`
	AgencyID              string `json:"agency_id,omitempty"`
	AgencyName            string `json:"agency_name,omitempty"`
	AgencyMethod          string `json:"agency_method,omitempty"`

	LastName  string `json:"last_name"`
	FirstName string `json:"first_name"`
	MidInit   string `json:"mid_init,omitempty"`

	AgencyStart    time.Time `json:"agency_start_date,omitzero"`
	AgencyStartRaw string    `json:"agency_start_date_raw,omitempty"`
	WorkBorough    string    `json:"work_location_borough,omitempty"`
	Title          string    `json:"title"`
	LeaveStatus    string    `json:"leave_status,omitempty"`
	PayBasis       string    `json:"pay_basis,omitempty"`

	BaseSalary   PayValue `json:"base_salary"`
	RegularHours PayValue `json:"regular_hours"`
	RegularGross PayValue `json:"regular_gross_paid"`
	OTHours      PayValue `json:"ot_hours"`
	OTPaid       PayValue `json:"total_ot_paid"`
	OtherPay     PayValue `json:"total_other_pay"`

	// Flags are what is odd about a row that is nevertheless kept.
	Flags []PayrollFlag `json:"flags,omitempty"`

	Source      string    `json:"source"`
	SourceLabel string    `json:"source_label,omitempty"`
	File        string    `json:"file,omitempty"`
	Line        int       `json:"line,omitempty"`
	ObservedAt  time.Time `json:"observed_at,omitzero"`
}

// PayValue is a payroll amount or hour count: the value as printed, and the
// number when it is one that counts (a finite number, zero or more).
type PayValue struct {
	Raw   string  `json:"raw"`
	Value float64 `json:"value,omitempty"`
	Valid bool    `json:"valid"`
}

// Payroll flags.
const (
	FlagNameBlank        = "name_blank"
	FlagNegative         = "negative_value"
	FlagStartAfterFY     = "start_after_fiscal_year"
	FlagUnreadableAmount = "unreadable_value"
)

// PayrollFlag is one flag of a kept row, with what it refers to.
type PayrollFlag struct {
	Code string `json:"code"`
	Note string `json:"note"`
}

// ParsePayValue reads a payroll amount or hour count. Zero is a valid
// value here (no overtime is 0, not absent); a negative or unreadable value
// is kept as printed and is not valid; blank is absent.
func ParsePayValue(raw string) PayValue {
	s := strings.TrimSpace(raw)
	p := PayValue{Raw: s}
	if s == "" {
		return p
	}
	v, err := strconv.ParseFloat(strings.NewReplacer("$", "", ",", "").Replace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return p
	}
	p.Value = v
	p.Valid = v >= 0 && v < MaxValidAmount
	return p
}

// Negative reports whether the printed value is a negative number.
func (p PayValue) Negative() bool { return p.Raw != "" && p.Value < 0 }

// Unreadable reports whether a printed value is not a number.
func (p PayValue) Unreadable() bool {
	if p.Raw == "" {
		return false
	}
	_, err := strconv.ParseFloat(strings.NewReplacer("$", "", ",", "").Replace(p.Raw), 64)
	return err != nil
}

// PayrollFiscalYearEnd is the last day of a fiscal year (June 30, New
// York).
func PayrollFiscalYearEnd(fy int) time.Time {
	if fy <= 0 {
		return time.Time{}
	}
	return time.Date(fy, time.June, 30, 0, 0, 0, 0, NewYork)
}

// FlagPayroll sets the flags of a row from its fields: a blank last or first
// name, a negative value, an unreadable value, an agency start date after
// the end of its fiscal year.
func FlagPayroll(r *PayrollRow) {
	r.Flags = nil
	if strings.TrimSpace(r.LastName) == "" || strings.TrimSpace(r.FirstName) == "" {
		r.Flags = append(r.Flags, PayrollFlag{Code: FlagNameBlank,
			Note: "the last or first name is blank as printed (the dataset redacts some names); the row is kept"})
	}
	for _, f := range r.Values() {
		switch {
		case f.Value.Negative():
			r.Flags = append(r.Flags, PayrollFlag{Code: FlagNegative,
				Note: f.Name + " is negative (" + f.Value.Raw + "): kept as printed, never added to sums"})
		case f.Value.Unreadable():
			r.Flags = append(r.Flags, PayrollFlag{Code: FlagUnreadableAmount,
				Note: f.Name + " is not a number (" + strconv.Quote(f.Value.Raw) + "): kept as printed, never added to sums"})
		}
	}
	if end := PayrollFiscalYearEnd(r.FiscalYear); !r.AgencyStart.IsZero() && !end.IsZero() && r.AgencyStart.After(end) {
		r.Flags = append(r.Flags, PayrollFlag{Code: FlagStartAfterFY,
			Note: "the agency start date " + r.AgencyStart.Format("2006-01-02") + " is after the end of fiscal year " +
				strconv.Itoa(r.FiscalYear) + " (" + end.Format("2006-01-02") + ")"})
	}
}

// NamedPayValue is one value of a row with its dataset column name.
type NamedPayValue struct {
	Name  string
	Value PayValue
}

// Values are the row's amounts and hours with their column names.
func (r PayrollRow) Values() []NamedPayValue {
	return []NamedPayValue{
		{"base salary", r.BaseSalary}, {"regular hours", r.RegularHours}, {"regular gross paid", r.RegularGross},
		{"OT hours", r.OTHours}, {"total OT paid", r.OTPaid}, {"total other pay", r.OtherPay},
	}
}

// HasFlag reports whether the row carries the flag code.
func (r PayrollRow) HasFlag(code string) bool {
	for _, f := range r.Flags {
		if f.Code == code {
			return true
		}
	}
	return false
}

// PayrollNameTokens are the words of a name as a search key: upper case,
// apostrophes and periods removed, split at any other character that is not
// a letter or digit.
func PayrollNameTokens(s string) []string {
	s = strings.ToUpper(strings.NewReplacer("'", "", "’", "", ".", "").Replace(s))
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 127 && r != '’')
	})
}

// PayrollNameKey is a name as asked for, in the form of the name keys: its
// tokens joined by one space ("" when it has none).
func PayrollNameKey(s string) string { return strings.Join(PayrollNameTokens(s), " ") }

// PayrollNameKeys are the name keys of a row: every word of the last and
// first names, and the full name in the orders "LAST FIRST", "FIRST LAST",
// with and without the middle initial. A name is asked for as one word or
// as a full name in either order.
func (r PayrollRow) PayrollNameKeys() []string {
	last, first, mid := PayrollNameKey(r.LastName), PayrollNameKey(r.FirstName), PayrollNameKey(r.MidInit)
	seen := map[string]bool{}
	var out []string
	add := func(parts ...string) {
		var ps []string
		for _, p := range parts {
			if p != "" {
				ps = append(ps, p)
			}
		}
		k := strings.Join(ps, " ")
		if k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, t := range PayrollNameTokens(r.LastName + " " + r.FirstName) {
		add(t)
	}
	if last != "" && first != "" {
		add(last, first)
		add(first, last)
		if mid != "" {
			add(last, first, mid)
			add(first, mid, last)
		}
	}
	return out
}

// PayrollText is a key form of a printed label (title, borough, pay basis):
// upper case, spaces collapsed.
func PayrollText(s string) string { return strings.ToUpper(strings.Join(strings.Fields(s), " ")) }

// MarshalJSON writes the row with its deprecated agency_label beside
// agency_as_printed (the same value).
func (r PayrollRow) MarshalJSON() ([]byte, error) {
	type plain PayrollRow
	p := plain(r)
	p.AgencyLabelDeprecated = r.AgencyPrinted
	return json.Marshal(p)
}
