package mcp

import (
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// NoticeRef is a notice in a tool result: enough to cite and to follow.
type NoticeRef struct {
	RequestID   string             `json:"request_id"`
	Title       string             `json:"title"`
	Section     string             `json:"section"`
	Lens        string             `json:"lens"`
	NoticeType  string             `json:"notice_type,omitempty"`
	Agency      string             `json:"agency"`
	AgencyID    string             `json:"agency_id"`
	Published   string             `json:"published,omitempty"`
	Deadline    *view.DeadlineView `json:"deadline,omitempty"`
	Amount      *view.AmountView   `json:"amount,omitempty"`
	Vendor      string             `json:"vendor,omitempty"`
	PIN         string             `json:"pin,omitempty"`
	EventDate   string             `json:"event_date,omitempty"`
	Summary     string             `json:"summary"`
	Flags       []view.Flag        `json:"flags"`
	Route       string             `json:"route"`
	Permalink   string             `json:"permalink"`
	OfficialURL string             `json:"official_url"`
}

func (d *Deps) ref(n record.Notice) NoticeRef {
	now := d.now()
	r := NoticeRef{
		RequestID: n.RequestID, Title: n.Title, Section: n.Section, Lens: n.Lens, NoticeType: n.NoticeType,
		Agency: n.AgencyName, AgencyID: n.AgencyID, Deadline: view.Deadline(n, now), Amount: view.Amount(n),
		Vendor: strings.TrimSpace(n.VendorName), PIN: n.PIN, Summary: view.Summary(n), Flags: view.Flags(n, now),
		Route: "/api/notices/" + n.RequestID, Permalink: view.Links{Base: d.BaseURL}.Notice(n.RequestID), OfficialURL: n.OfficialURL,
	}
	if !n.StartDate.IsZero() {
		r.Published = n.StartDate.In(record.NewYork).Format("2006-01-02")
	}
	if !n.EventDate.IsZero() {
		r.EventDate = n.EventDate.Format(time.RFC3339)
	}
	return r
}
