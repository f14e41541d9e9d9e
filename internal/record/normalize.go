package record

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxValidAmount: amounts at or above this are data-entry errors (the largest
// real award is about $6.7 billion).
const MaxValidAmount = 10_000_000_000

// ParseAmount reads a source amount. It returns the value and whether it is a
// valid amount: after removing "$", "," and spaces it must be a finite number
// above 0 and below $10,000,000,000. Placeholders (-1, 0) and entry errors are
// invalid; they stay in the source record but never count as amounts.
func ParseAmount(raw string) (float64, bool) {
	s := strings.NewReplacer("$", "", ",", "", " ", "", "\u00a0", "").Replace(strings.TrimSpace(raw))
	if s == "" {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	if v <= 0 || v >= MaxValidAmount {
		return v, false
	}
	return v, true
}

// RollingYear: due dates in this year or later are rolling placeholders
// (pre-qualified lists with no fixed deadline).
const RollingYear = 2090

// RollingLabel is how a rolling deadline is shown to people.
const RollingLabel = "no fixed deadline (rolling)"

// NewYork is the time zone of every City Record date.
var NewYork = loadNY()

func loadNY() *time.Location {
	loc, err := time.LoadLocation("America/New_York")
	if err != nil {
		return time.FixedZone("EST", -5*3600)
	}
	return loc
}

// DateLayouts are the date and timestamp shapes the sources use.
var DateLayouts = []string{
	"2006-01-02T15:04:05.000",
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04:05.000",
	"2006-01-02",
	"01/02/2006 03:04:05 PM",
	"01/02/2006 15:04:05",
	"01/02/2006 15:04",
	"01/02/2006",
	"1/2/2006",
	time.RFC3339,
}

// ParseDate reads a source date or timestamp (floating, New York time). It
// returns the zero time for empty or malformed values.
func ParseDate(raw string) time.Time {
	s := strings.TrimSpace(raw)
	if s == "" {
		return time.Time{}
	}
	for _, l := range DateLayouts {
		if t, err := time.ParseInLocation(l, s, NewYork); err == nil {
			if t.Year() < 1800 {
				return time.Time{}
			}
			return t
		}
	}
	return time.Time{}
}

// ParseDue reads a due date. A date in 2090 or later is a rolling placeholder:
// it returns the zero time and rolling=true. Malformed or empty dates are not
// rolling.
func ParseDue(raw string) (due time.Time, rolling bool) {
	t := ParseDate(raw)
	if t.IsZero() {
		return time.Time{}, false
	}
	if t.Year() >= RollingYear {
		return time.Time{}, true
	}
	return t, false
}

// FiscalYear returns the NYC fiscal year of t: July 1 to June 30, named for
// the year in which it ends (2026-06-30 → 2026, 2026-07-01 → 2027).
func FiscalYear(t time.Time) int {
	if t.Month() >= time.July {
		return t.Year() + 1
	}
	return t.Year()
}
