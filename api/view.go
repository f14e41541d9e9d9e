package api

import (
	"time"

	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// NoticeView is the notice view's JSON twin.
type NoticeView struct {
	Status   record.Availability `json:"status"`
	Summary  string              `json:"summary"`
	Flags    []view.Flag         `json:"flags"`
	Amount   *view.AmountView    `json:"amount,omitempty"`
	Deadline *view.DeadlineView  `json:"deadline,omitempty"`
	FullText string              `json:"full_text"`
	Notice   record.Notice       `json:"notice"`
	// VendorFromText: see view.NoticeHit.
	VendorFromText *entity.VendorReading `json:"vendor_from_text,omitempty"`
	Links          view.NoticeLinks      `json:"links"`
	Freshness      view.Freshness        `json:"freshness"`
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

// permalinks is the one permalink rule at this server's base and form.
func (s *Server) permalinks() view.Links { return view.Links{Base: s.cfg.BaseURL, Form: s.cfg.Form} }

func (s *Server) links(n record.Notice) view.NoticeLinks { return s.permalinks().ForNotice(n) }

func (s *Server) hitView(n record.Notice, score float64, now time.Time) view.LinkedHit {
	return s.permalinks().LinkedHit(n, score, now)
}
