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
}

// JoinedRow is one joined record and how it was linked.
type JoinedRow struct {
	Row  Row
	Link Link
}

// JoinNote says what a notice's joins hold.
const JoinNote = "Only the payments-dataset records held here were joined, by PIN (exact, renewal or 10-character base) and, for payments, by the contract id of a joined registration. Totals add only the same procurement (exact or renewal PIN, and payments naming those contracts); records sharing only the base PIN are summed apart. Other payments may exist at the source."

// NoticePayments joins a notice to the payments dataset by PIN. It returns
// nil and no error when the notice has no usable PIN or nothing joins.
//
// Errors: EUNAVAILABLE when the records cannot be read (or this
// deployment holds none).
func (s *Service) NoticePayments(ctx context.Context, n record.Notice) (*NoticeJoin, error) {
	if entity.JunkPIN(n.PIN) {
		return nil, nil
	}
	norm := entity.NormalizePIN(n.PIN)
	prefix := entity.PINBase(n.PIN)
	byID := map[string]Row{}
	links := map[string]Link{}
	queries := []RowQuery{{PINs: UniqueNonEmpty([]string{n.PIN, norm}), Kinds: []string{RowContract}, Limit: search.MaxRecordLimit}}
	if prefix != "" {
		queries = append(queries, RowQuery{PINBases: []string{prefix}, Kinds: []string{RowContract}, Limit: search.MaxRecordLimit})
	}
	regByContract := map[string]Link{}
	for _, q := range queries {
		res, err := s.Rows(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, e := range res.Rows {
			if l, ok := PINLink(n.PIN, e.PIN); ok {
				byID[e.ID], links[e.ID] = e, l
				if prev, ok := regByContract[e.ContractID]; e.ContractID != "" && (!ok || (!prev.SameProcurement && l.SameProcurement)) {
					regByContract[e.ContractID] = l
				}
			}
		}
	}
	if len(byID) == 0 {
		return nil, nil
	}
	var contracts []string
	for c := range regByContract {
		contracts = append(contracts, c)
	}
	sort.Strings(contracts)
	if len(contracts) > 0 {
		res, err := s.Rows(ctx, RowQuery{ContractIDs: contracts, Kinds: []string{RowPayment}, Limit: search.MaxRecordLimit})
		if err != nil {
			return nil, err
		}
		for _, e := range res.Rows {
			if _, ok := byID[e.ID]; !ok {
				byID[e.ID], links[e.ID] = e, contractLink(e.ContractID, regByContract[e.ContractID])
			}
		}
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
