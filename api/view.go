package api

import (
	"fmt"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
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

// Links are the addresses of a record.
type Links struct {
	Permalink string `json:"permalink"`
	JSON      string `json:"json"`
	Official  string `json:"official"`
	OpenData  string `json:"open_data"`
	Vendor    string `json:"vendor,omitempty"`
	Agency    string `json:"agency,omitempty"`
	Matter    string `json:"matter,omitempty"`
}

// HitView is one notice in a result list.
type HitView struct {
	RequestID  string        `json:"request_id"`
	Title      string        `json:"title"`
	Section    string        `json:"section"`
	Lens       string        `json:"lens"`
	Lenses     []string      `json:"lenses"`
	NoticeType string        `json:"notice_type,omitempty"`
	Agency     string        `json:"agency"`
	AgencyID   string        `json:"agency_id"`
	AgencyRaw  string        `json:"agency_raw"`
	Published  string        `json:"published,omitempty"`
	Deadline   *DeadlineView `json:"deadline,omitempty"`
	Amount     *AmountView   `json:"amount,omitempty"`
	Vendor     string        `json:"vendor,omitempty"`
	PIN        string        `json:"pin,omitempty"`
	EventDate  *time.Time    `json:"event_date,omitempty"`
	Summary    string        `json:"summary"`
	Flags      []Flag        `json:"flags"`
	Score      float64       `json:"score,omitempty"`
	Links      Links         `json:"links"`
}

// NoticeView is the notice view's JSON twin.
type NoticeView struct {
	Status    record.Availability `json:"status"`
	Summary   string              `json:"summary"`
	Flags     []Flag              `json:"flags"`
	Amount    *AmountView         `json:"amount,omitempty"`
	Deadline  *DeadlineView       `json:"deadline,omitempty"`
	FullText  string              `json:"full_text"`
	Notice    record.Notice       `json:"notice"`
	Links     Links               `json:"links"`
	Freshness Freshness           `json:"freshness"`
	Absence   []string            `json:"absence_rules"`
}

// Freshness says when the record's source was observed.
type Freshness struct {
	SourceObservedAt time.Time `json:"source_observed_at,omitzero"`
	Source           string    `json:"source"`
}

func money(v float64) string {
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

func amountView(n record.Notice) *AmountView {
	if n.AmountRaw == "" && !n.AmountValid {
		return nil
	}
	if n.AmountValid {
		v := n.Amount
		return &AmountView{Valid: true, Value: &v, Display: money(v), SourceText: n.AmountRaw}
	}
	return &AmountView{Valid: false, SourceText: n.AmountRaw,
		Note: "not a valid amount (a placeholder or data-entry error); excluded from amount filters and totals"}
}

func deadlineView(n record.Notice, now time.Time) *DeadlineView {
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
	return &DeadlineView{Date: &d, Display: disp, Passed: d.Before(now)}
}

func flags(n record.Notice, now time.Time) []Flag {
	fs := []Flag{}
	if n.DueRolling {
		fs = append(fs, Flag{"rolling_deadline", "Rolling deadline: " + record.RollingLabel})
	}
	if !n.AmountValid && n.AmountRaw != "" {
		fs = append(fs, Flag{"invalid_amount", fmt.Sprintf("Amount %q is a placeholder or entry error and is not counted", n.AmountRaw)})
	}
	if !n.DueDate.IsZero() && n.DueDate.Before(now) {
		fs = append(fs, Flag{"deadline_passed", "The due date has passed"})
	}
	if !n.DueDate.IsZero() && !n.DueDate.Before(now) {
		fs = append(fs, Flag{"open", "Open: the due date has not passed"})
	}
	if !n.EndDate.IsZero() && !n.StartDate.IsZero() && n.EndDate.After(n.StartDate.Add(24*time.Hour)) {
		fs = append(fs, Flag{"multi_day", "Published over several days"})
	}
	if n.Body != "" && strings.Contains(n.Body, "<") && n.Text != n.Body {
		fs = append(fs, Flag{"source_html", "The source text held HTML markup; it is shown as text"})
	}
	if n.Body == "" {
		fs = append(fs, Flag{"no_full_text", "The source row carries no full text"})
	}
	return fs
}

func summary(n record.Notice) string {
	parts := []string{}
	if n.NoticeType != "" {
		parts = append(parts, n.NoticeType)
	} else {
		parts = append(parts, n.Section)
	}
	parts = append(parts, "by "+n.AgencyName)
	if n.AmountValid {
		s := money(n.Amount)
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

func (s *Server) links(n record.Notice) Links {
	l := Links{
		Permalink: s.cfg.BaseURL + "/#notice/" + n.RequestID,
		JSON:      s.cfg.BaseURL + "/api/notices/" + n.RequestID,
		Official:  n.OfficialURL,
		OpenData:  n.OpenDataURL,
	}
	if n.VendorStem != "" {
		if s.cfg.Form == 1 {
			l.Vendor = s.cfg.BaseURL + "/vendors/" + entity.StemSlug(n.VendorStem) + "/"
		} else {
			l.Vendor = s.cfg.BaseURL + "/#vendor/" + pathEscape(strings.TrimSpace(n.VendorName))
		}
	}
	if s.cfg.Form == 1 {
		l.Agency = s.cfg.BaseURL + "/agencies/" + n.AgencyID + "/"
	} else {
		l.Agency = s.cfg.BaseURL + "/#agency/" + pathEscape(n.AgencyName)
	}
	if n.PIN != "" {
		l.Matter = s.cfg.BaseURL + "/#matter/" + pathEscape(n.PIN)
	}
	return l
}

func (s *Server) hitView(n record.Notice, score float64, now time.Time) HitView {
	h := HitView{
		RequestID: n.RequestID, Title: n.Title, Section: n.Section, Lens: n.Lens, Lenses: n.Lenses,
		NoticeType: n.NoticeType, Agency: n.AgencyName, AgencyID: n.AgencyID, AgencyRaw: n.AgencyRaw,
		Deadline: deadlineView(n, now), Amount: amountView(n), Vendor: strings.TrimSpace(n.VendorName), PIN: n.PIN,
		Summary: summary(n), Flags: flags(n, now), Score: score, Links: s.links(n),
	}
	if !n.StartDate.IsZero() {
		h.Published = n.StartDate.In(record.NewYork).Format("2006-01-02")
	}
	if !n.EventDate.IsZero() {
		e := n.EventDate
		h.EventDate = &e
	}
	return h
}
