package procure

import (
	"context"
	"maps"
	"slices"
	"sort"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Records is what the service reads besides the notice search: the
// records of the procurement kinds (search.RecordReader) and the notice
// aggregations. Both engines are one.
type Records interface {
	search.RecordReader
	search.NoticeAggregates
}

// Row kinds: what a Row is (the record kind as a scope names it).
const (
	RowContract = "contract"
	RowPayment  = "payment"
	RowPayroll  = "payroll"
)

// RowKinds lists the row kinds in display order.
var RowKinds = []string{RowContract, RowPayment, RowPayroll}

// rowRecordKind is the record kind a row kind is stored as.
var rowRecordKind = map[string]string{RowContract: ContractKind.Name, RowPayment: KindPayment, RowPayroll: KindPayroll}

// rowRecordKinds are the record kinds rows are read from, in RowKinds
// order.
func rowRecordKinds() []string {
	out := make([]string, 0, len(RowKinds))
	for _, k := range RowKinds {
		out = append(out, rowRecordKind[k])
	}
	return out
}

// Row is one record of the procurement datasets as the views list it: a
// registered contract row (RowOfContract) or a payment (RowOfPayment),
// with the fields every surface renders. It is read, never stored.
type Row struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Kind   string `json:"kind"`

	AgencyRaw  string `json:"agency_raw,omitempty"`
	AgencyID   string `json:"agency_id,omitempty"`
	AgencyName string `json:"agency_name,omitempty"`

	VendorName string `json:"vendor_name,omitempty"`
	VendorStem string `json:"vendor_stem,omitempty"`

	ContractID string `json:"contract_id,omitempty"`
	PIN        string `json:"pin,omitempty"`
	PINBase    string `json:"pin_base,omitempty"`
	// RequestID is a City Record notice the source itself joined to.
	RequestID string `json:"request_id,omitempty"`

	Title  string `json:"title,omitempty"`
	Status string `json:"status,omitempty"`

	// Date is the row's own date; DateLabel says which ("registered",
	// "received", "issued", "paid").
	Date       time.Time `json:"date,omitzero"`
	DateLabel  string    `json:"date_label,omitempty"`
	FiscalYear int       `json:"fiscal_year,omitempty"`

	Amount      float64 `json:"amount,omitempty"`
	AmountValid bool    `json:"amount_valid"`
	AmountRaw   string  `json:"amount_raw,omitempty"`
	AmountLabel string  `json:"amount_label,omitempty"`

	URL         string            `json:"url,omitempty"`
	SourceLabel string            `json:"source_label,omitempty"`
	ObservedAt  time.Time         `json:"observed_at,omitzero"`
	Raw         map[string]string `json:"raw,omitempty"`
}

// RowOfContract is the row of a contract: dated by its registration, or
// else by the date it was received, with the label that says which.
func RowOfContract(c record.Contract) Row {
	r := Row{
		ID: c.ID, Source: c.Source, Kind: RowContract,
		AgencyRaw: c.AgencyLabel, AgencyID: c.AgencyID, AgencyName: c.AgencyName,
		VendorName: c.VendorName, VendorStem: c.VendorStem,
		ContractID: c.ContractID, PIN: c.PIN, PINBase: c.PINBase, RequestID: c.RequestID,
		Title: c.Purpose, Status: c.Status, FiscalYear: c.FiscalYear,
		AmountValid: c.AmountValid, AmountRaw: c.AmountRaw, AmountLabel: c.AmountLabel,
		SourceLabel: c.SourceLabel, ObservedAt: c.ObservedAt, Raw: maps.Clone(c.Raw),
	}
	if c.AmountValid {
		r.Amount = c.Amount
	}
	switch {
	case !c.RegisteredOn.IsZero():
		r.Date, r.DateLabel = c.RegisteredOn, DateRegistered
	case !c.ReceivedOn.IsZero():
		r.Date, r.DateLabel = c.ReceivedOn, DateReceived
	}
	for _, l := range c.Links {
		if l.Label == LinkSourceRow {
			r.URL = l.URL
			break
		}
	}
	return r
}

// RowOfPayment is the row of a payment.
func RowOfPayment(p Payment) Row {
	r := Row{
		ID: p.ID, Source: p.Source, Kind: RowPayment,
		AgencyRaw: p.AgencyRaw, AgencyID: p.AgencyID, AgencyName: p.AgencyName,
		VendorName: p.VendorName, VendorStem: p.VendorStem,
		ContractID: p.ContractID, PIN: p.PIN, PINBase: p.PINBase,
		Title: p.Title, Status: p.Status, Date: p.Date, DateLabel: p.DateLabel, FiscalYear: p.FiscalYear,
		AmountValid: p.AmountValid, AmountRaw: p.AmountRaw, AmountLabel: p.AmountLabel,
		URL: p.URL, SourceLabel: p.SourceLabel, ObservedAt: p.ObservedAt, Raw: maps.Clone(p.Raw),
	}
	if p.Payroll {
		r.Kind = RowPayroll
	}
	if p.AmountValid {
		r.Amount = p.Amount
	}
	return r
}

// rowOf decodes the row a record of rowRecordKinds holds.
func rowOf(r search.Record) (Row, error) {
	if r.Kind == ContractKind.Name {
		c, err := ContractKind.Decode(r)
		return RowOfContract(c), err
	}
	p, err := PaymentKind.Decode(r)
	return RowOfPayment(p), err
}

// RowQuery narrows rows; every non-empty filter must match (values within
// one filter are alternatives). PINs match as entity.NormalizePIN forms,
// PINBases the 10-character base.
type RowQuery struct {
	Kinds       []string // RowKinds; none: every kind
	Sources     []string
	IDs         []string
	PINs        []string
	PINBases    []string
	ContractIDs []string
	VendorStems []string
	AgencyIDs   []string
	// Limit is the page size (search.DefaultRecordLimit when 0); Totals
	// asks for counts and valid-amount sums by kind and fiscal year over
	// every match.
	Limit  int
	Totals bool
	// Sort is a search.RecordSort* (search.RecordSortDate when empty);
	// Cursor continues a page of the same query and sort (RowPage.NextCursor).
	Sort   string
	Cursor string
}

// YearTotal is the count and valid-amount sum of one row kind in one
// fiscal year (0: undated).
type YearTotal struct {
	Kind         string  `json:"kind"`
	FiscalYear   int     `json:"fiscal_year"`
	Count        int     `json:"count"`
	ValidAmounts int     `json:"valid_amounts"`
	Amount       float64 `json:"amount"`
}

// RowPage is a page of rows (by date, oldest first, undated last, then
// id) with, when asked, totals over every match.
type RowPage struct {
	Rows   []Row       `json:"rows"`
	Total  int         `json:"total"`
	Totals []YearTotal `json:"totals,omitempty"`
	// NextCursor continues the same query and sort where this page ends
	// (empty on the last page).
	NextCursor string `json:"next_cursor,omitempty"`
}

// recordQuery is the record query of a row query; ok is false when it can
// match nothing (only unknown kinds asked for).
func (q RowQuery) recordQuery() (search.RecordQuery, bool) {
	rq := search.RecordQuery{Sources: q.Sources, IDs: q.IDs, Sort: search.RecordSortDate, Limit: q.Limit, Cursor: q.Cursor}
	if q.Sort != "" {
		rq.Sort = q.Sort
	}
	if len(q.Kinds) == 0 {
		rq.Kinds = rowRecordKinds()
	}
	for _, k := range q.Kinds {
		if kind, ok := rowRecordKind[k]; ok {
			rq.Kinds = append(rq.Kinds, kind)
		}
	}
	if len(rq.Kinds) == 0 {
		return rq, false
	}
	keys := map[string][]string{}
	set := func(k string, vs []string) {
		if len(vs) > 0 {
			keys[k] = vs
		}
	}
	if len(q.PINs) > 0 {
		pins := make([]string, 0, len(q.PINs))
		for _, p := range q.PINs {
			pins = append(pins, entity.NormalizePIN(p))
		}
		keys[search.KeyPIN] = pins
	}
	set(search.KeyPINBase, q.PINBases)
	set(search.KeyContractID, q.ContractIDs)
	set(search.KeyVendorStem, q.VendorStems)
	set(search.KeyAgencyID, q.AgencyIDs)
	if len(keys) > 0 {
		rq.Keys = keys
	}
	return rq, true
}

// Rows reads a page of rows and, when asked, totals by kind and fiscal
// year. A contract is ordered by its record's date, the registration
// date: a pending row keeps its received date but is ordered with the
// undated rows. Errors: EUNAVAILABLE when the engine cannot answer,
// EINVALID for a bad limit.
func (s *Service) Rows(ctx context.Context, q RowQuery) (RowPage, error) {
	rs, err := s.RecordReader()
	if err != nil {
		return RowPage{}, err
	}
	rq, ok := q.recordQuery()
	if !ok {
		out := RowPage{Rows: []Row{}}
		if q.Totals {
			out.Totals = []YearTotal{}
		}
		return out, nil
	}
	p, err := rs.FindRecords(ctx, rq)
	if err != nil {
		return RowPage{}, err
	}
	out := RowPage{Rows: make([]Row, 0, len(p.Records)), Total: p.Total, NextCursor: p.NextCursor}
	for _, r := range p.Records {
		row, err := rowOf(r)
		if err != nil {
			return out, err
		}
		out.Rows = append(out.Rows, row)
	}
	if q.Totals {
		if out.Totals, err = yearTotals(ctx, rs, rq); err != nil {
			return out, err
		}
	}
	return out, nil
}

// yearTotals counts and sums valid amounts by kind and fiscal year (0:
// rows without one), one RecordTotals per kind grouped by the fiscal_year
// key.
func yearTotals(ctx context.Context, rs search.RecordReader, rq search.RecordQuery) ([]YearTotal, error) {
	out := []YearTotal{}
	for _, kind := range rq.Kinds {
		q := rq
		q.Kinds = []string{kind}
		t, err := rs.RecordTotals(ctx, q, []string{search.KeyFiscalYear}, 0)
		if err != nil {
			return nil, err
		}
		if t.Count == 0 {
			continue
		}
		rest := YearTotal{Kind: search.ScopeType(kind), Count: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount}
		for _, b := range t.Groups[search.KeyFiscalYear] {
			fy, err := strconv.Atoi(b.Value)
			if err != nil {
				continue // not a year: counted with the undated
			}
			out = append(out, YearTotal{Kind: rest.Kind, FiscalYear: fy, Count: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount})
			rest.Count -= b.Count
			rest.ValidAmounts -= b.ValidAmounts
			rest.Amount -= b.Amount
		}
		if rest.Count > 0 {
			rest.Amount = search.RoundCents(rest.Amount)
			out = append(out, rest)
		}
	}
	sortYearTotals(out)
	return out, nil
}

// sortYearTotals orders totals by kind (RowKinds order), then fiscal year.
func sortYearTotals(ts []YearTotal) {
	rank := func(k string) int {
		if i := slices.Index(RowKinds, k); i >= 0 {
			return i
		}
		return len(RowKinds)
	}
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Kind != ts[j].Kind {
			if rank(ts[i].Kind) != rank(ts[j].Kind) {
				return rank(ts[i].Kind) < rank(ts[j].Kind)
			}
			return ts[i].Kind < ts[j].Kind
		}
		return ts[i].FiscalYear < ts[j].FiscalYear
	})
}

// RowCoverage reports, per source and row kind, the rows held, their first
// and last dates and the latest observation. Errors: EUNAVAILABLE.
func (s *Service) RowCoverage(ctx context.Context) ([]record.SourceCoverage, error) {
	return s.coverage(ctx, rowRecordKinds())
}

// scopeKinds are the record kinds the scope of an entity view lists: the
// rows and the lot locations the property view places BBLs with.
func scopeKinds() []string { return append(rowRecordKinds(), land.LotKind.Name) }

// coverage is the record coverage of the given kinds, each reported as
// its scope type.
func (s *Service) coverage(ctx context.Context, kinds []string) ([]record.SourceCoverage, error) {
	rs, err := s.RecordReader()
	if err != nil {
		return nil, err
	}
	cov, err := rs.RecordCoverage(ctx)
	if err != nil {
		return nil, err
	}
	out := []record.SourceCoverage{}
	for _, c := range cov {
		if slices.Contains(kinds, c.RecordType) {
			c.RecordType = search.ScopeType(c.RecordType)
			out = append(out, c)
		}
	}
	search.SortRecordCoverage(out)
	return out, nil
}

// AgencyNames lists every distinct raw agency string of the notices
// (search.NoticeAggregates) and of the procurement rows (RecordTotals
// grouped by agency_raw, per source), ordered by source, then string.
// Errors: EUNAVAILABLE.
func (s *Service) AgencyNames(ctx context.Context) ([]search.AgencyName, error) {
	rs, err := s.RecordReader()
	if err != nil {
		return nil, err
	}
	out, err := rs.NoticeAgencyNames(ctx)
	if err != nil {
		return nil, err
	}
	out = slices.Clone(out)
	cov, err := s.RowCoverage(ctx)
	if err != nil {
		return nil, err
	}
	var sources []string
	for _, c := range cov {
		if !slices.Contains(sources, c.Source) {
			sources = append(sources, c.Source)
		}
	}
	for _, src := range sources {
		t, err := rs.RecordTotals(ctx, search.RecordQuery{Kinds: rowRecordKinds(), Sources: []string{src}}, []string{search.KeyAgencyRaw}, 0)
		if err != nil {
			return nil, err
		}
		for _, b := range t.Groups[search.KeyAgencyRaw] {
			out = append(out, search.AgencyName{Raw: b.Value, Source: src, Records: b.Count})
		}
	}
	// the other records whose printed agency drives a join, one group per kind
	for _, k := range AgencyRawKinds {
		t, err := rs.RecordTotals(ctx, search.RecordQuery{Kinds: []string{k}}, []string{search.KeyAgencyRaw}, 0)
		if err != nil {
			return nil, err
		}
		for _, b := range t.Groups[search.KeyAgencyRaw] {
			out = append(out, search.AgencyName{Raw: b.Value, Source: k, Records: b.Count})
		}
	}
	search.SortAgencyNames(out)
	return out, nil
}

// AgencyRawKinds are the record kinds besides notices and procurement rows
// whose printed agency (key agency_raw) drives an agency join: payroll
// rows (the agency name), meetings (the body) and the roster's
// organizations (their name). Their names are the kinds' own
// (PayrollKind, meeting.Kind, people.KindOrganization; checked in tests).
var AgencyRawKinds = []string{PayrollKind.Name, "meeting", "people.organization"}
