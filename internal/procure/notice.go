package procure

import (
	"context"
	"sort"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// NoticeJoin are the payments-dataset records a notice's PIN joins:
// registrations with the same PIN, a renewal of it or the same 10-character
// base, and the payments naming those contracts. Totals add only the
// same-procurement records; Apart sums those joined by base PIN alone.
type NoticeJoin struct {
	PIN, Prefix string
	Totals      RowTotals // same-procurement records only
	Apart       RowTotals // records joined by the base PIN alone
	Links       []JoinedRow
	Complete    bool // every joined record was read
	// Ledger is registered vs paid by fiscal year over the records of the
	// same procurement, with the coverage of the payments held.
	Ledger Ledger
}

// JoinedRow is one joined record and how it was linked.
type JoinedRow struct {
	Row  Row
	Link Link
}

// JoinNote says what a notice's joins hold.
const JoinNote = "Only the payments-dataset records held here were joined, when they were indexed (link records): by PIN (exact, renewal or 10-character base), by a registration's own request id and, for payments, by the exact contract id of a joined registration. Totals add only the same procurement (exact or renewal PIN, and payments naming those contracts); records sharing only the base PIN are summed apart. Other payments may exist at the source."

// NoticePayments reads the registrations and payments the link stage
// joined to a notice (link records from the notice; the vendor-at-agency
// leads are not among them). It returns nil and no error when the notice
// has no usable PIN or nothing joins.
//
// Errors: EUNAVAILABLE when the records cannot be read (or this
// deployment holds none).
func (s *Service) NoticePayments(ctx context.Context, n record.Notice) (*NoticeJoin, error) {
	if entity.JunkPIN(n.PIN) {
		return nil, nil
	}
	prefix := entity.PINBase(n.PIN)
	links, err := s.noticeLinks(ctx, n.RequestID)
	if err != nil {
		return nil, err
	}
	if len(links) == 0 {
		return nil, nil
	}
	var same, apart []string
	for id, l := range links {
		if l.SameProcurement {
			same = append(same, id)
		} else {
			apart = append(apart, id)
		}
	}
	sort.Strings(same)
	sort.Strings(apart)
	j := &NoticeJoin{PIN: n.PIN, Prefix: prefix, Links: []JoinedRow{}, Complete: true,
		Totals: Totals(RowPage{}, 0), Apart: Totals(RowPage{}, 0)}
	// totals over exactly the joined records of each kind of link
	for _, part := range []struct {
		ids []string
		to  *RowTotals
	}{{same, &j.Totals}, {apart, &j.Apart}} {
		if len(part.ids) == 0 {
			continue
		}
		res, err := s.Rows(ctx, RowQuery{IDs: part.ids, Totals: true, Limit: search.MaxRecordLimit})
		if err != nil {
			return nil, err
		}
		*part.to = Totals(res, 0)
		part.to.Rows, part.to.More = []Row{}, false
		if res.Total > len(res.Rows) {
			j.Complete = false
		}
		for _, e := range res.Rows {
			j.Links = append(j.Links, JoinedRow{Row: e, Link: links[e.ID]})
		}
	}
	var sameRows []Row
	for _, l := range j.Links {
		if l.Link.SameProcurement {
			sameRows = append(sameRows, l.Row)
		}
	}
	cov, err := s.PaymentsCoverage(ctx)
	if err != nil {
		return nil, err
	}
	j.Ledger = rowsLedger(sameRows, record.Notes{JoinedByContractIDKey}, cov)
	j.Totals.Extent = s.PaymentsExtent(ctx)
	j.Apart.Extent = j.Totals.Extent
	sort.SliceStable(j.Links, func(a, b int) bool {
		x, y := j.Links[a].Row, j.Links[b].Row
		if x.Date.IsZero() != y.Date.IsZero() {
			return !x.Date.IsZero()
		}
		if !x.Date.Equal(y.Date) {
			return x.Date.Before(y.Date)
		}
		return x.ID < y.ID
	})
	return j, nil
}

// noticeLinks reads the links of a notice to registrations and payments
// (not the vendor-at-agency leads), by the id of the record joined.
func (s *Service) noticeLinks(ctx context.Context, requestID string) (map[string]Link, error) {
	ls, _, err := s.Links(ctx, []record.Ref{{Kind: record.RefNotice, ID: requestID}}, "")
	if err != nil {
		return nil, err
	}
	out := map[string]Link{}
	for _, l := range ls {
		if l.From.Kind != record.RefNotice || (l.To.Kind != record.RefContract && l.To.Kind != record.RefPayment) ||
			l.Method == entity.JoinVendorAgency {
			continue
		}
		out[l.To.ID] = LinkOf(l)
	}
	return out, nil
}

// LinkOf is a link record as a page shows it: its method, confidence and
// evidence.
func LinkOf(l record.Link) Link {
	return Link{Method: l.Method, Note: l.Evidence, Confidence: l.Confidence, SameProcurement: l.SameProcurement}
}
