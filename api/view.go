package api

import (
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// HitView is one notice in a result list.
type HitView struct {
	RequestID  string             `json:"request_id"`
	Title      string             `json:"title"`
	Section    string             `json:"section"`
	Lens       string             `json:"lens"`
	Lenses     []string           `json:"lenses"`
	NoticeType string             `json:"notice_type,omitempty"`
	Agency     string             `json:"agency"`
	AgencyID   string             `json:"agency_id"`
	AgencyRaw  string             `json:"agency_raw"`
	Published  string             `json:"published,omitempty"`
	Deadline   *view.DeadlineView `json:"deadline,omitempty"`
	Amount     *view.AmountView   `json:"amount,omitempty"`
	Vendor     string             `json:"vendor,omitempty"`
	// VendorFromText is the vendor read from the text of an award or
	// intent without a vendor field (method text, its confidence, whether
	// profiles count it), or why none is read (vendorFromText).
	VendorFromText *entity.VendorReading `json:"vendor_from_text,omitempty"`
	PIN            string                `json:"pin,omitempty"`
	EventDate      *time.Time            `json:"event_date,omitempty"`
	Summary        string                `json:"summary"`
	Flags          []view.Flag           `json:"flags"`
	Score          float64               `json:"score,omitempty"`
	Links          view.NoticeLinks      `json:"links"`
}

// NoticeView is the notice view's JSON twin.
type NoticeView struct {
	Status   record.Availability `json:"status"`
	Summary  string              `json:"summary"`
	Flags    []view.Flag         `json:"flags"`
	Amount   *view.AmountView    `json:"amount,omitempty"`
	Deadline *view.DeadlineView  `json:"deadline,omitempty"`
	FullText string              `json:"full_text"`
	Notice   record.Notice       `json:"notice"`
	// VendorFromText: see HitView.
	VendorFromText *entity.VendorReading `json:"vendor_from_text,omitempty"`
	Links          view.NoticeLinks      `json:"links"`
	Freshness      Freshness             `json:"freshness"`
	Absence        []string              `json:"absence_rules"`
	// Payments are the payments-dataset dollars joined by PIN, present
	// only where a PIN joins (entities_notice.go).
	Payments *procure.NoticePayments `json:"payments,omitempty"`
	// PriorCycle are the earlier cycles of the same work, for a
	// solicitation or intent (entities_notice.go): each match with its
	// method, tier, confidence and evidence, or "no earlier cycle found in
	// the records held".
	PriorCycle *cycle.Result `json:"prior_cycle,omitempty"`
}

// Freshness says when the record's source was observed.
type Freshness struct {
	SourceObservedAt time.Time `json:"source_observed_at,omitzero"`
	Source           string    `json:"source"`
}

// permalinks is the one permalink rule at this server's base and form.
func (s *Server) permalinks() view.Links { return view.Links{Base: s.cfg.BaseURL, Form: s.cfg.Form} }

func (s *Server) links(n record.Notice) view.NoticeLinks { return s.permalinks().ForNotice(n) }

// vendorFromText is the vendor read from the text of an award or intent
// that has no vendor field (nil for others).
func vendorFromText(n record.Notice) *entity.VendorReading {
	if strings.TrimSpace(n.VendorName) != "" || !entity.VendorTextTypes[strings.ToLower(strings.TrimSpace(n.NoticeType))] {
		return nil
	}
	r := entity.VendorFromText(n.NoticeType, n.Text)
	return &r
}

func (s *Server) hitView(n record.Notice, score float64, now time.Time) HitView {
	h := HitView{
		RequestID: n.RequestID, Title: n.Title, Section: n.Section, Lens: n.Lens, Lenses: n.Lenses,
		NoticeType: n.NoticeType, Agency: n.AgencyName, AgencyID: n.AgencyID, AgencyRaw: n.AgencyRaw,
		Deadline: view.Deadline(n, now), Amount: view.Amount(n), Vendor: strings.TrimSpace(n.VendorName), PIN: n.PIN,
		Summary: view.Summary(n), Flags: view.Flags(n, now), Score: score, Links: s.links(n), VendorFromText: vendorFromText(n),
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
