package record

import (
	"regexp"
	"time"
)

// The calendar days a caller may ask about. The embedded index keeps
// instants as int64 nanoseconds since 1970 (late 1677 to early 2262), so a
// bound outside these whole years cannot be represented and would fail in
// the engine instead of being refused as bad input. Every surface that
// takes a day (API query parameters, feeds, tool arguments, search.Query
// validation) goes through ParseDay or CheckDay.
const (
	FirstDay = "1678-01-01"
	LastDay  = "2261-12-31"
)

var (
	firstDay = mustDay(FirstDay)
	lastDay  = mustDay(LastDay).AddDate(0, 0, 1).Add(-time.Nanosecond)
	dayRE    = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
)

func mustDay(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02", s, NewYork)
	if err != nil {
		panic(err)
	}
	return t
}

// ParseDay reads a YYYY-MM-DD calendar day in New York time for the
// parameter param. "" gives the zero time (no bound). A malformed day or a
// day outside FirstDay..LastDay is an EINVALID error naming param.
func ParseDay(param, s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if !dayRE.MatchString(s) {
		return time.Time{}, InvalidNote(param, "param.date", param)
	}
	t, err := time.ParseInLocation("2006-01-02", s, NewYork)
	if err != nil {
		return time.Time{}, InvalidNote(param, "param.date", param)
	}
	if err := CheckDay(param, t); err != nil {
		return time.Time{}, err
	}
	return t, nil
}

// CheckDay refuses a non-zero time outside FirstDay..LastDay (New York
// days) with an EINVALID error naming param. The zero time (no bound)
// passes.
func CheckDay(param string, t time.Time) error {
	if t.IsZero() || (!t.Before(firstDay) && !t.After(lastDay)) {
		return nil
	}
	return InvalidNote(param, "param.date.range", param, FirstDay, LastDay)
}

// NewYorkDay is t's New York calendar day as YYYY-MM-DD: the day counters
// and daily ceilings key on.
func NewYorkDay(t time.Time) string { return t.In(NewYork).Format("2006-01-02") }
