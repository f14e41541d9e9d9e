package web

import (
	"time"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The meetings calendar: the meetings of a page laid out as month grids
// (Monday first), weekends and evening meetings (starting at 5 PM or
// later) marked, each meeting with its four facts' states. The list below
// the grid holds the same meetings in words.

// CalMonth is one month of the grid.
type CalMonth struct {
	Year  int
	Month time.Month
	Weeks [][]CalDay
}

// CalDay is one cell: a day of the month (Day 0 for the padding before
// the first and after the last).
type CalDay struct {
	Date     string
	Day      int
	Weekend  bool
	Meetings []meeting.Meeting
}

// Evening reports whether a meeting starts at 5 PM or later, New York
// time (false when the start is unknown).
func Evening(m meeting.Meeting) bool {
	return m.When.StartKnown && m.When.Start != nil && m.When.Start.In(record.NewYork).Hour() >= 17
}

// Months lays the meetings out as month grids, from the first meeting's
// month to the last's (at most 3 months; a page holds at most a few
// hundred meetings). Meetings with no date are left out (the list says
// so).
func Months(ms []meeting.Meeting) []CalMonth {
	byDate := map[string][]meeting.Meeting{}
	var first, last time.Time
	for _, m := range ms {
		d, err := time.ParseInLocation("2006-01-02", m.When.Date, record.NewYork)
		if err != nil {
			continue
		}
		byDate[m.When.Date] = append(byDate[m.When.Date], m)
		if first.IsZero() || d.Before(first) {
			first = d
		}
		if d.After(last) {
			last = d
		}
	}
	if first.IsZero() {
		return nil
	}
	var out []CalMonth
	for mo := time.Date(first.Year(), first.Month(), 1, 12, 0, 0, 0, record.NewYork); !mo.After(last) && len(out) < 3; mo = mo.AddDate(0, 1, 0) {
		cm := CalMonth{Year: mo.Year(), Month: mo.Month()}
		week := make([]CalDay, (int(mo.Weekday())+6)%7) // Monday first
		for d := mo; d.Month() == mo.Month(); d = d.AddDate(0, 0, 1) {
			date := d.Format("2006-01-02")
			week = append(week, CalDay{Date: date, Day: d.Day(), Weekend: d.Weekday() == time.Saturday || d.Weekday() == time.Sunday, Meetings: byDate[date]})
			if len(week) == 7 {
				cm.Weeks = append(cm.Weeks, week)
				week = nil
			}
		}
		if len(week) > 0 {
			for len(week) < 7 {
				week = append(week, CalDay{})
			}
			cm.Weeks = append(cm.Weeks, week)
		}
		out = append(out, cm)
	}
	return out
}
