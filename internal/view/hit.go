package view

import (
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// NoticeHit is one notice in a result list, the one shape every surface
// renders (the API adds its links, MCP its route).
type NoticeHit struct {
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
	// VendorFromText is the vendor read from the text of an award or
	// intent without a vendor field (method text, its confidence, whether
	// profiles count it), or why none is read (VendorFromText).
	VendorFromText *entity.VendorReading `json:"vendor_from_text,omitempty"`
	PIN            string                `json:"pin,omitempty"`
	EventDate      *time.Time            `json:"event_date,omitempty"`
	Summary        string                `json:"summary"`
	Flags          []Flag                `json:"flags"`
	// Score is the engine's relevance score, absent under a date or
	// amount order (HitScore).
	Score       float64 `json:"score,omitempty"`
	Permalink   string  `json:"permalink"`
	OfficialURL string  `json:"official_url"`
}

// Hit is how one notice is shown in a result list at now, with its
// relevance score (0 for none).
func (l Links) Hit(n record.Notice, score float64, now time.Time) NoticeHit {
	h := NoticeHit{
		RequestID: n.RequestID, Title: n.Title, Section: n.Section, Lens: n.Lens, Lenses: n.Lenses,
		NoticeType: n.NoticeType, Agency: n.AgencyName, AgencyID: n.AgencyID, AgencyRaw: n.AgencyRaw,
		Deadline: Deadline(n, now), Amount: Amount(n), Vendor: strings.TrimSpace(n.VendorName), PIN: n.PIN,
		Summary: Summary(n), Flags: Flags(n, now), Score: score, VendorFromText: VendorFromText(n),
		Permalink: l.Notice(n.RequestID), OfficialURL: n.OfficialURL,
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

// HitScore is the score a search hit shows under the sort the query asked
// for: a score means nothing under a date or amount order, so it is 0
// unless relevance was asked.
func HitScore(h search.Hit, sort string) float64 {
	if sort != search.SortRelevance {
		return 0
	}
	return h.Score
}

// VendorFromText is the vendor read from the text of an award or intent
// that has no vendor field (nil for others).
func VendorFromText(n record.Notice) *entity.VendorReading {
	if strings.TrimSpace(n.VendorName) != "" || !entity.VendorTextTypes[strings.ToLower(strings.TrimSpace(n.NoticeType))] {
		return nil
	}
	r := entity.VendorFromText(n.NoticeType, n.Text)
	return &r
}
