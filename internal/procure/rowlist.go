package procure

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Every row listed: one paged list of the rows behind a vendor, an agency,
// a contract ID or a PIN (payments, registered contract rows, payroll
// rows), in a stable order a cursor walks to the end, with the totals of
// every match (not only the page), the extent of the sources they cover
// and the scope. The JSON list, its CSV twin and the site's tables read
// this one answer.

// Row list bounds.
const (
	DefaultRowListLimit = 50
	MaxRowListLimit     = 500
	// MaxRowExport bounds the rows one CSV export streams; past it the
	// export ends with the cursor that continues it.
	MaxRowExport = 10000
)

// Row list sorts (search.RecordSort*), by their names in a request.
var RowListSorts = map[string]string{
	"date":        search.RecordSortDate,
	"date_desc":   search.RecordSortDateDesc,
	"amount_desc": search.RecordSortAmount,
}

// RowListSortNames lists the accepted sorts in a stable order.
var RowListSortNames = []string{"date", "date_desc", "amount_desc"}

// RowListRequest asks for a page of rows. At least one of the filters is
// required (a list of every row held is not a question anyone asked);
// every filter set must match. Kind is RowPayment, RowContract or
// RowPayroll (empty: every kind). Vendor is a name read by its stem;
// Agency a label, name or canonical id (the crosswalk's one rule); PIN an
// exact PIN, or a 10-character base PIN matching every PIN of that base;
// ContractID exact, as written.
type RowListRequest struct {
	Kind       string
	VendorStem string
	Vendor     string
	Agency     string
	AgencyID   string
	PIN        string
	ContractID string
	Sort       string
	Cursor     string
	Limit      int
}

// RowList is a page of rows with the totals of every match.
type RowList struct {
	// Filters are the filters applied, as read (the vendor as its stem, the
	// agency as its canonical id).
	Filters    map[string]string `json:"filters"`
	Sort       string            `json:"sort"`
	Rows       []RowView         `json:"rows"`
	Total      int               `json:"total"`
	NextCursor string            `json:"next_cursor,omitempty"`
	// Totals are of every row matched, by kind: contract totals are
	// registered value (registered rows only; rows not registered are
	// counted apart in Unregistered), payment totals checks issued.
	Contracts    KindTotal   `json:"contracts"`
	Unregistered *KindTotal  `json:"contracts_not_registered,omitempty"`
	Payments     KindTotal   `json:"payments"`
	Payroll      *KindTotal  `json:"payroll,omitempty"`
	ByFiscalYear []YearTotal `json:"by_fiscal_year"`
	Note         string      `json:"note"`
	// NoteKey is note as a note (key and arguments).
	NoteKey record.Note `json:"note_key"`
	TotalsExtent
	Scope record.Scope `json:"scope"`
}

// RowListNote says what a row list's totals add.
var (
	RowListKey  = record.N("procure.row_list.note")
	RowListNote = RowListKey.String()
)

// ListRows reads a page of rows. Errors: EINVALID for no filter, a bad
// kind, sort, limit, PIN, vendor or cursor; EUNAVAILABLE when the engine
// cannot answer.
func (s *Service) ListRows(ctx context.Context, req RowListRequest) (RowList, error) {
	q, filters, err := s.rowListQuery(req)
	if err != nil {
		return RowList{}, err
	}
	if req.Limit == 0 {
		req.Limit = DefaultRowListLimit
	}
	if req.Limit < 1 || req.Limit > MaxRowListLimit {
		return RowList{}, record.InvalidNote("limit", "param.limit", "limit", MaxRowListLimit)
	}
	q.Limit, q.Cursor = req.Limit, req.Cursor
	page, err := s.Rows(ctx, q)
	if err != nil {
		return RowList{}, err
	}
	out := RowList{Filters: filters, Sort: req.Sort, Rows: make([]RowView, 0, len(page.Rows)), Total: page.Total,
		NextCursor: page.NextCursor, Note: RowListNote, NoteKey: RowListKey}
	if out.Sort == "" {
		out.Sort = "date"
	}
	for _, r := range page.Rows {
		out.Rows = append(out.Rows, r.View())
	}
	if err := s.rowListTotals(ctx, q, &out); err != nil {
		return out, err
	}
	out.TotalsExtent = s.RowsExtent(ctx, q)
	kinds := JoinedKinds[1:]
	if req.Kind != "" {
		kinds = []string{rowRecordKind[req.Kind]}
	}
	cov, err := s.coverage(ctx, kinds)
	if err != nil {
		return out, err
	}
	out.Scope = record.NewScope(record.Searched{Kind: "rows", Filters: filters, Lenses: []string{"all"}}, cov, out.Total)
	return out, nil
}

// rowListTotals adds the totals of every match: by kind and fiscal year,
// registered value apart from rows not registered.
func (s *Service) rowListTotals(ctx context.Context, q RowQuery, out *RowList) error {
	rs, err := s.RecordReader()
	if err != nil {
		return err
	}
	rq, _ := q.recordQuery()
	years, err := yearTotals(ctx, rs, rq)
	if err != nil {
		return err
	}
	contracts, payments, payroll := Sum{Absent: NoContractsKey}, Sum{Absent: NoPaymentsKey}, Sum{Absent: NoPayrollKey}
	out.ByFiscalYear = []YearTotal{}
	for _, y := range years {
		k := map[string]*Sum{RowContract: &contracts, RowPayment: &payments, RowPayroll: &payroll}[y.Kind]
		if k == nil {
			continue
		}
		k.Records += y.Count
		k.ValidAmounts += y.ValidAmounts
		k.Amount = search.RoundCents(k.Amount + y.Amount)
		out.ByFiscalYear = append(out.ByFiscalYear, y)
	}
	if contracts.Records > 0 { // registered value counts registered rows only
		uq := rq
		uq.Kinds = []string{ContractKind.Name}
		uq.Keys = mapsWith(rq.Keys, KeyRegistration, RegistrationUndated)
		t, err := rs.RecordTotals(ctx, uq, nil, 0)
		if err != nil {
			return err
		}
		if t.Count > 0 {
			un := Sum{Records: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount, Absent: NoContractsKey}
			contracts.Records -= un.Records
			contracts.ValidAmounts -= un.ValidAmounts
			contracts.Amount = search.RoundCents(contracts.Amount - un.Amount)
			ut := un.Total()
			out.Unregistered = &ut
		}
	}
	out.Contracts, out.Payments = contracts.Total(), payments.Total()
	if payroll.Records > 0 {
		pt := payroll.Total()
		out.Payroll = &pt
	}
	return nil
}

// mapsWith is keys with one more exact key.
func mapsWith(keys map[string][]string, k, v string) map[string][]string {
	out := map[string][]string{k: {v}}
	for name, vs := range keys {
		out[name] = vs
	}
	return out
}

// rowListQuery reads a request's filters into a row query, with the
// filters as applied.
func (s *Service) rowListQuery(req RowListRequest) (RowQuery, map[string]string, error) {
	q := RowQuery{Totals: false}
	filters := map[string]string{}
	if k := req.Kind; k != "" {
		if !slices.Contains(RowKinds, k) {
			return q, nil, record.InvalidNote("kind", "param.unknown.row_kind", strconv.Quote(k), strings.Join(RowKinds, ", "))
		}
		q.Kinds, filters["kind"] = []string{k}, k
	}
	if req.Sort != "" {
		sort, ok := RowListSorts[req.Sort]
		if !ok {
			return q, nil, record.InvalidNote("sort", "param.unknown.sort", strconv.Quote(req.Sort), strings.Join(RowListSortNames, ", "))
		}
		q.Sort = sort
	}
	stem := strings.TrimSpace(req.VendorStem)
	if v := strings.TrimSpace(req.Vendor); v != "" {
		vs := entity.VendorStem(v)
		if !entity.StemLongEnough(vs) {
			return q, nil, record.InvalidNote("vendor", "param.vendor.short", strconv.Quote(v), entity.MinStemChars)
		}
		if stem != "" && stem != vs {
			return q, nil, record.InvalidNote("vendor", "param.vendor.two", "vendor", "vendor_stem")
		}
		stem = vs
	}
	if stem != "" {
		q.VendorStems, filters["vendor_stem"] = []string{stem}, stem
	}
	agency := strings.TrimSpace(req.AgencyID)
	if a := strings.TrimSpace(req.Agency); a != "" {
		ids, _, err := s.Crosswalk.ResolveNames("agency", []string{a})
		if err != nil {
			return q, nil, err
		}
		if len(ids) != 1 {
			return q, nil, record.InvalidNote("agency", "param.agency.many", strconv.Quote(a), len(ids))
		}
		agency = ids[0]
	}
	if agency != "" {
		q.AgencyIDs, filters["agency_id"] = []string{agency}, agency
	}
	if p := entity.NormalizePIN(req.PIN); p != "" {
		if entity.JunkPIN(p) || len(p) > MaxPIN {
			return q, nil, record.InvalidNote("pin", "param.pin", strconv.Quote(req.PIN))
		}
		if len(p) == 10 && entity.PINBase(p+"001") == p {
			q.PINBases, filters["pin_base"] = []string{p}, p
		} else {
			q.PINs, filters["pin"] = []string{p}, p
		}
	}
	if id := strings.TrimSpace(req.ContractID); id != "" {
		q.ContractIDs, filters["contract_id"] = []string{id}, id
	}
	if len(q.Kinds) == 0 && agency == "" { // payroll rows have an agency, never a vendor, PIN or contract ID
		q.Kinds = []string{RowContract, RowPayment}
	}
	if len(filters) == 0 || (len(filters) == 1 && filters["kind"] != "") {
		return q, nil, record.InvalidNote("vendor", "param.rows.unbounded")
	}
	return q, filters, nil
}

// RowsExtent is the extent of the totals of the rows q matches: the
// extents of payments totals (PaymentsExtent) kept to the record types q
// asks for (q.Kinds; a vendor's never payroll) and, of a type some rows
// match, to the sources those rows come from, so an answer never states
// the extent of a source it does not use. A type no row matches keeps
// every source of that type: they qualify its absence ("no payments
// held" among the payments held here), except payroll, whose totals are
// shown only when some are held.
func (s *Service) RowsExtent(ctx context.Context, q RowQuery) TotalsExtent {
	out := TotalsExtent{Extent: []record.Extent{}}
	rs, err := s.RecordReader()
	if err != nil {
		return out
	}
	rq, ok := q.recordQuery()
	if !ok {
		return out
	}
	all := s.extentOf(ctx, record.ExtentPayments)
	used := map[[2]string]bool{}
	matched := map[string]bool{}
	for _, kind := range rq.Kinds {
		kq := rq
		kq.Kinds = []string{kind}
		t, err := rs.RecordTotals(ctx, kq, []string{search.GroupBySource}, 0)
		if err != nil {
			return all // cannot say which: every source, as before
		}
		for _, b := range t.Groups[search.GroupBySource] {
			used[[2]string{b.Value, kind}] = true
			matched[kind] = true
		}
	}
	for _, e := range all.Extent {
		if !slices.Contains(rq.Kinds, e.RecordType) {
			continue
		}
		// payroll totals are shown only when some are held: no figure, no extent
		if (!matched[e.RecordType] && e.RecordType != KindPayroll) || used[[2]string{e.Source, e.RecordType}] {
			out.Extent = append(out.Extent, e)
		}
	}
	out.ExtentWords = record.ExtentWords(out.Extent)
	return out
}

// RowSums are the totals of every row a query matches, as a row list
// gives them (registered value of registered rows only; rows not
// registered apart), without rows, extent or scope.
type RowSums struct {
	Records      int         `json:"records"`
	Contracts    KindTotal   `json:"contracts"`
	Unregistered *KindTotal  `json:"contracts_not_registered,omitempty"`
	Payments     KindTotal   `json:"payments"`
	Payroll      *KindTotal  `json:"payroll,omitempty"`
	ByFiscalYear []YearTotal `json:"by_fiscal_year"`
}

// SumRows sums the rows q matches. Errors: EUNAVAILABLE.
func (s *Service) SumRows(ctx context.Context, q RowQuery) (RowSums, error) {
	var l RowList
	if err := s.rowListTotals(ctx, q, &l); err != nil {
		return RowSums{}, err
	}
	out := RowSums{Contracts: l.Contracts, Unregistered: l.Unregistered, Payments: l.Payments, Payroll: l.Payroll, ByFiscalYear: l.ByFiscalYear}
	out.Records = l.Contracts.Count + l.Payments.Count
	if l.Unregistered != nil {
		out.Records += l.Unregistered.Count
	}
	if l.Payroll != nil {
		out.Records += l.Payroll.Count
	}
	return out, nil
}
