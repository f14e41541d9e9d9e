// Package view is how records are shown to people and to machines: the
// at-a-glance summary, flags, amounts with their validity and deadlines
// (rolling placeholders never as dates). The API, feeds, mail and MCP tools
// all render through it, so they say the same thing.
package view

import (
	"fmt"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Flag is a warning or property of a record shown at a glance.
type Flag struct {
	Code  string `json:"code"`
	Label string `json:"label"`
}

// AmountView is how an amount is shown: a valid value, or the source text
// with the reason it does not count.
type AmountView struct {
	Valid      bool     `json:"valid"`
	Value      *float64 `json:"value,omitempty"`
	Display    string   `json:"display,omitempty"`
	SourceText string   `json:"source_text,omitempty"`
	Note       string   `json:"note,omitempty"`
}

// DeadlineView is a due date or the rolling label, never a placeholder date.
type DeadlineView struct {
	Rolling bool       `json:"rolling"`
	Date    *time.Time `json:"date,omitempty"`
	Display string     `json:"display"`
	Passed  bool       `json:"passed,omitempty"`
}

func Money(v float64) string {
	s := fmt.Sprintf("%.2f", v)
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, r := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return "$" + b.String() + "." + frac
}

func Amount(n record.Notice) *AmountView {
	if n.AmountRaw == "" && !n.AmountValid {
		return nil
	}
	if n.AmountValid {
		v := n.Amount
		return &AmountView{Valid: true, Value: &v, Display: Money(v), SourceText: n.AmountRaw}
	}
	return &AmountView{Valid: false, SourceText: n.AmountRaw,
		Note: "not a valid amount (a placeholder or data-entry error); excluded from amount filters and totals"}
}

func Deadline(n record.Notice, now time.Time) *DeadlineView {
	if n.DueRolling {
		return &DeadlineView{Rolling: true, Display: record.RollingLabel}
	}
	if n.DueDate.IsZero() {
		return nil
	}
	d := n.DueDate
	disp := d.In(record.NewYork).Format("Mon, Jan 2, 2006")
	if h, m, _ := d.In(record.NewYork).Clock(); h != 0 || m != 0 {
		disp += d.In(record.NewYork).Format(" at 3:04 PM")
	}
	return &DeadlineView{Date: &d, Display: disp, Passed: d.Before(OpenFrom(now))}
}

func Flags(n record.Notice, now time.Time) []Flag {
	fs := []Flag{}
	if n.DueRolling {
		fs = append(fs, Flag{"rolling_deadline", "Rolling deadline: " + record.RollingLabel})
	}
	if !n.AmountValid && n.AmountRaw != "" {
		fs = append(fs, Flag{"invalid_amount", fmt.Sprintf("Amount %q is a placeholder or entry error and is not counted", n.AmountRaw)})
	}
	if !n.DueDate.IsZero() && n.DueDate.Before(OpenFrom(now)) {
		fs = append(fs, Flag{"deadline_passed", "The due date has passed"})
	}
	if IsOpen(n, now) {
		fs = append(fs, Flag{"open", "Open: a solicitation due today or later, or with a rolling deadline"})
	}
	if !n.EndDate.IsZero() && !n.StartDate.IsZero() && n.EndDate.After(n.StartDate.Add(24*time.Hour)) {
		fs = append(fs, Flag{"multi_day", "Published over several days"})
	}
	if n.SourceHTML() {
		fs = append(fs, Flag{"source_html", "The source text held HTML markup; it is shown as text"})
	}
	if !n.HasFullText() {
		fs = append(fs, Flag{"no_full_text", "The source row carries no full text"})
	}
	if record.FutureDated(n.StartDate, now) {
		fs = append(fs, Flag{"future_dated", "Dated past tomorrow: held as the source gave it, but it moves no source's newest date or observation"})
	}
	return fs
}

func Summary(n record.Notice) string {
	parts := []string{}
	if n.NoticeType != "" {
		parts = append(parts, n.NoticeType)
	} else {
		parts = append(parts, n.Section)
	}
	parts = append(parts, "by "+n.AgencyName)
	if n.AmountValid {
		s := Money(n.Amount)
		if n.VendorName != "" {
			s += " to " + strings.TrimSpace(n.VendorName)
		}
		parts = append(parts, s)
	} else if n.VendorName != "" {
		parts = append(parts, "vendor "+strings.TrimSpace(n.VendorName))
	}
	if !n.StartDate.IsZero() {
		parts = append(parts, "published "+n.StartDate.In(record.NewYork).Format("Jan 2, 2006"))
	}
	if n.DueRolling {
		parts = append(parts, record.RollingLabel)
	} else if !n.DueDate.IsZero() {
		parts = append(parts, "due "+n.DueDate.In(record.NewYork).Format("Jan 2, 2006"))
	}
	if !n.EventDate.IsZero() {
		parts = append(parts, "event "+n.EventDate.In(record.NewYork).Format("Jan 2, 2006 3:04 PM"))
	}
	return strings.Join(parts, " · ")
}

// OpenNoticeType is the one type of notice that can be open. In the City
// Record only solicitations invite bids or proposals; a due date on any
// other notice (a hearing's comment date, an award's) is not an invitation.
const OpenNoticeType = "Solicitation"

// OpenFrom is the first instant a due date still counts: the start of
// today in New York. A due date counts through its whole day (the source's
// time of day is often missing or a placeholder), so a solicitation due
// today stays open all day and its deadline has not passed.
func OpenFrom(now time.Time) time.Time {
	y, m, d := now.In(record.NewYork).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, record.NewYork)
}

// IsOpen is the one meaning of "open" for one notice (README, "One rule,
// one place"): a solicitation whose due date is from the start of today
// (New York) or whose deadline is rolling. watch.Open narrows a query to
// the same notices; the "open" flag says it of one.
func IsOpen(n record.Notice, now time.Time) bool {
	if !strings.EqualFold(n.NoticeType, OpenNoticeType) {
		return false
	}
	return n.DueRolling || !n.DueDate.IsZero() && !n.DueDate.Before(OpenFrom(now))
}
