package api

import (
	"context"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// NoticePayments are the payments-dataset records a notice's PIN joins:
// contracts with the same PIN or the same 10-character base, and the
// payments naming those contracts. Each entry says how it was linked.
type NoticePayments struct {
	PIN      string              `json:"pin"`
	Prefix   string              `json:"prefix_pin,omitempty"`
	Totals   *PaymentsView       `json:"totals"`
	Links    []NoticePaymentLink `json:"linked"`
	Matter   string              `json:"matter"`
	Absence  string              `json:"absence_note"`
	Complete bool                `json:"complete"`
}

// NoticePaymentLink is one joined entry and its link method.
type NoticePaymentLink struct {
	Entry  EntryView `json:"entry"`
	Method string    `json:"method"`
}

// noticePayments joins a notice to the payments dataset by PIN; nil when
// the notice has no usable PIN, the engine holds no entries or nothing
// joins (a failed read is left out rather than failing the notice view).
func (s *Server) noticePayments(ctx context.Context, n record.Notice) *NoticePayments {
	if entity.JunkPIN(n.PIN) {
		return nil
	}
	er, err := s.entityReader()
	if err != nil {
		return nil
	}
	norm := entity.NormalizePIN(n.PIN)
	prefix := entity.PINBase(n.PIN)
	byID := map[string]search.Entry{}
	queries := []search.EntryQuery{{PINs: uniqueNonEmpty([]string{n.PIN, norm}), Kinds: []string{search.EntryContract}, Limit: search.MaxEntryLimit}}
	if prefix != "" {
		queries = append(queries, search.EntryQuery{PINBases: []string{prefix}, Kinds: []string{search.EntryContract}, Limit: search.MaxEntryLimit})
	}
	for _, q := range queries {
		res, err := er.Entries(ctx, q)
		if err != nil {
			s.deps.Logger.Warn("notice payments", "request_id", n.RequestID, "err", err)
			return nil
		}
		for _, e := range res.Entries {
			if _, ok := entity.PINLink(n.PIN, e.PIN); ok {
				byID[e.ID] = e
			}
		}
	}
	if len(byID) == 0 {
		return nil
	}
	var contracts []string
	for _, e := range byID {
		if e.ContractID != "" {
			contracts = append(contracts, e.ContractID)
		}
	}
	if len(contracts) > 0 {
		res, err := er.Entries(ctx, search.EntryQuery{ContractIDs: uniqueNonEmpty(contracts), Kinds: []string{search.EntryPayment}, Limit: search.MaxEntryLimit})
		if err == nil {
			for _, e := range res.Entries {
				byID[e.ID] = e
			}
		}
	}
	ids := make([]string, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	// totals over exactly the joined entries
	all, err := er.Entries(ctx, search.EntryQuery{IDs: ids, Totals: true, Limit: search.MaxEntryLimit})
	if err != nil {
		return nil
	}
	p := &NoticePayments{PIN: n.PIN, Prefix: prefix, Totals: s.paymentsView(all, 0), Links: []NoticePaymentLink{},
		Matter: s.cfg.BaseURL + "/api/matters/" + pathEscape(n.PIN), Complete: all.NextCursor == "",
		Absence: "Only the payments-dataset records held here were joined, by PIN (exact, renewal or 10-character base) and, for payments, by the contract id of a joined registration. Other payments may exist at the source."}
	p.Totals.Entries, p.Totals.More = []EntryView{}, false
	for _, e := range all.Entries {
		method, ok := entity.PINLink(n.PIN, e.PIN)
		if !ok {
			method = "contract"
		}
		p.Links = append(p.Links, NoticePaymentLink{Entry: s.entryView(e), Method: strings.TrimSpace(method)})
	}
	return p
}
