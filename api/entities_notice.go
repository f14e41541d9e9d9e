package api

import (
	"context"
	"net/url"

	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// NoticePayments are the payments-dataset records a notice's PIN joins:
// contracts with the same PIN, a renewal of it or the same 10-character
// base, and the payments naming those contracts. Each entry says how it was
// linked and how sure the link is. Totals add only the same procurement;
// records sharing only the base PIN are summed apart (apart).
type NoticePayments struct {
	PIN      string                `json:"pin"`
	Prefix   string                `json:"prefix_pin,omitempty"`
	Totals   *procure.PaymentsView `json:"totals"`
	Apart    *procure.PaymentsView `json:"related_by_prefix,omitempty"`
	Links    []NoticePaymentLink   `json:"linked"`
	Matter   string                `json:"matter"`
	Absence  string                `json:"absence_note"`
	Complete bool                  `json:"complete"`
}

// NoticePaymentLink is one joined entry and its link.
type NoticePaymentLink struct {
	Entry           procure.RowView `json:"entry"`
	Method          string          `json:"method"`
	Confidence      string          `json:"confidence"`
	SameProcurement bool            `json:"same_procurement"`
}

// noticePayments joins a notice to the payments dataset by PIN; nil when
// the notice has no usable PIN, the engine holds no entries or nothing
// joins (a failed read is left out rather than failing the notice view).
func (s *Server) noticePayments(ctx context.Context, n record.Notice) *NoticePayments {
	j, err := s.procure().NoticePayments(ctx, n)
	if err != nil {
		s.deps.Logger.Warn("notice payments", "request_id", n.RequestID, "err", err)
		return nil
	}
	if j == nil {
		return nil
	}
	p := &NoticePayments{PIN: j.PIN, Prefix: j.Prefix, Totals: s.paymentsView(j.Totals), Links: []NoticePaymentLink{},
		Matter: s.cfg.BaseURL + "/api/matters/" + url.PathEscape(j.PIN), Complete: j.Complete, Absence: procure.JoinNote}
	p.Totals.Ledger = &j.Ledger
	if j.Apart.Records > 0 {
		p.Apart = s.paymentsView(j.Apart)
	}
	for _, l := range j.Links {
		p.Links = append(p.Links, NoticePaymentLink{Entry: s.entryView(l.Row), Method: l.Link.Method,
			Confidence: l.Link.Confidence, SameProcurement: l.Link.SameProcurement})
	}
	return p
}

// priorCycle is a solicitation's or intent's earlier cycles (nil for other
// notices, and when the search fails: left out, not guessed).
func (s *Server) priorCycle(ctx context.Context, n record.Notice) *cycle.Result {
	return cycle.For(ctx, s.deps.Search, n, view.Links{Base: s.cfg.BaseURL, Form: s.cfg.Form})
}
