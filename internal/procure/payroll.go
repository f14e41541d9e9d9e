package procure

import (
	"context"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Payroll reads (SPEC §2.6 sources): one Citywide Payroll row by id, and
// bounded pages of rows by name, agency, fiscal year and title, read
// through the Records seam (PayrollKind).

// Payroll read bounds.
const (
	DefaultPayrollLimit = 20
	MaxPayrollLimit     = 100
)

// PayrollMeasure is what payroll totals measure.
var (
	PayrollMeasureKey = record.N("procure.payroll.measure")
	PayrollMeasure    = PayrollMeasureKey.String()
)

// PayrollFlagsNote says how odd rows are treated.
const PayrollFlagsNote = "Rows with a blank name (redacted at the source), a negative value or an agency start date after their fiscal year are kept and flagged, not dropped; names are shown only as the dataset prints them."

// PayrollFilter narrows a browse: every set field must match. Name is one
// name word or a full name in either order ("ABENSUR", "Margaret Abensur");
// Agency a label, name or canonical id (the crosswalk's one rule); Title a
// title as printed (letter case and spacing do not matter); FiscalYear a
// July–June fiscal year.
type PayrollFilter struct {
	Name       string
	Agency     string
	FiscalYear int
	Title      string
}

// PayrollTotals sum every row a browse matched (not only its page).
type PayrollTotals struct {
	Count        int            `json:"count"`
	ValidAmounts int            `json:"valid_amounts"`
	Excluded     int            `json:"excluded_amounts"`
	GrossPaid    *float64       `json:"regular_gross_paid"` // nil: no valid amount held
	Display      string         `json:"display"`
	Measure      string         `json:"measure"`
	Flagged      map[string]int `json:"flagged"`
}

// PayrollPage is a page of payroll rows with the totals of every match and
// the scope of the read.
type PayrollPage struct {
	Rows       []record.PayrollRow `json:"rows"`
	Total      int                 `json:"total"`
	NextCursor string              `json:"next_cursor,omitempty"`
	Totals     PayrollTotals       `json:"totals"`
	TotalsExtent
	FlagsNote string       `json:"flags_note"`
	Scope     record.Scope `json:"scope"`
}

// PayrollRead is one payroll row with the sources it is read from.
type PayrollRead struct {
	Row record.PayrollRow `json:"row"`
	// Sources is the row's source with its coverage and freshness as
	// every scope states them (search.SourcesBehind).
	Sources []record.SourceCoverage `json:"sources"`
}

// PayrollRow reads one payroll row by its id, with its source's
// freshness. Errors: EINVALID for an empty id, ENOTFOUND when no row is
// held under it, EUNAVAILABLE when the engine cannot answer.
func (s *Service) PayrollRow(ctx context.Context, id string) (PayrollRead, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return PayrollRead{}, record.InvalidNote("id", "param.id.payroll")
	}
	rs, err := s.RecordReader()
	if err != nil {
		return PayrollRead{}, err
	}
	r, err := search.Get(ctx, rs, PayrollKind, id)
	if record.ErrorCode(err) == record.ENOTFOUND {
		return PayrollRead{}, record.Errorf(record.ENOTFOUND, "no payroll row with id %q is held", id)
	}
	if err != nil {
		return PayrollRead{}, err
	}
	out := PayrollRead{Row: r}
	out.Sources, err = search.SourcesBehind(ctx, rs, s.Search, search.Behind{Kind: PayrollKind.Name, Source: r.Source})
	return out, err
}

// BrowsePayroll reads a bounded page of payroll rows (fiscal year, oldest
// first, then row id: a stable order a cursor walks without gaps or
// repeats) with the totals of every match and the scope. Errors: EINVALID
// for a bad filter, limit or cursor; EUNAVAILABLE when the engine cannot
// answer.
func (s *Service) BrowsePayroll(ctx context.Context, f PayrollFilter, cursor string, limit int) (PayrollPage, error) {
	if limit == 0 {
		limit = DefaultPayrollLimit
	}
	if limit < 1 || limit > MaxPayrollLimit {
		return PayrollPage{}, record.InvalidNote("limit", "param.limit", "limit", MaxPayrollLimit)
	}
	q, filters, err := s.payrollQuery(f)
	if err != nil {
		return PayrollPage{}, err
	}
	rs, err := s.RecordReader()
	if err != nil {
		return PayrollPage{}, err
	}
	q.Sort, q.Limit, q.Cursor = search.RecordSortDate, limit, cursor
	var notices search.CoverageReader
	if s.Search != nil {
		notices = s.Search
	}
	p, err := search.Find(ctx, search.WithScope(rs, notices), PayrollKind, q)
	if err != nil {
		return PayrollPage{}, err
	}
	t, err := search.TotalsOf(ctx, rs, PayrollKind, q, []string{KeyPayrollFlag}, 0)
	if err != nil {
		return PayrollPage{}, err
	}
	out := PayrollPage{Rows: p.Items, Total: p.Total, NextCursor: p.NextCursor, Scope: p.Scope, FlagsNote: PayrollFlagsNote}
	if out.Rows == nil {
		out.Rows = []record.PayrollRow{}
	}
	out.Scope.Searched.Kind = "payroll"
	out.Scope.Searched.Filters = filters
	sum := Sum{Records: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount, Absent: NoPayrollKey}
	out.Totals = PayrollTotals{Count: t.Count, ValidAmounts: t.ValidAmounts, Excluded: t.Count - t.ValidAmounts,
		GrossPaid: sum.Value(), Display: sum.Display(), Measure: PayrollMeasure, Flagged: map[string]int{}}
	for _, b := range t.Groups[KeyPayrollFlag] {
		out.Totals.Flagged[b.Value] = b.Count
	}
	out.TotalsExtent = totalsExtent(ctx, rs, record.ExtentPayroll)
	return out, nil
}

// payrollQuery is the record query of a filter, and the filters as the
// scope states them.
func (s *Service) payrollQuery(f PayrollFilter) (search.RecordQuery, map[string]string, error) {
	keys := map[string][]string{}
	filters := map[string]string{}
	if n := strings.TrimSpace(f.Name); n != "" {
		k := record.PayrollNameKey(n)
		if k == "" {
			return search.RecordQuery{}, nil, record.InvalidNote("name", "param.name.empty", strconv.Quote(n))
		}
		keys[KeyPayrollName] = []string{k}
		filters["name"] = k
	}
	if a := strings.TrimSpace(f.Agency); a != "" {
		ids, _, err := s.Crosswalk.ResolveNames("agency", []string{a})
		if err != nil {
			return search.RecordQuery{}, nil, err
		}
		keys[search.KeyAgencyID] = ids
		filters["agency"] = a
	}
	if t := record.PayrollText(f.Title); t != "" {
		keys[KeyPayrollTitle] = []string{t}
		filters["title"] = t
	}
	if f.FiscalYear != 0 {
		if f.FiscalYear < 1990 || f.FiscalYear > 2100 {
			return search.RecordQuery{}, nil, record.InvalidNote("fiscal_year", "param.fiscal_year", f.FiscalYear)
		}
		keys[search.KeyFiscalYear] = []string{strconv.Itoa(f.FiscalYear)}
		filters["fiscal_year"] = strconv.Itoa(f.FiscalYear)
	}
	q := search.RecordQuery{}
	if len(keys) > 0 {
		q.Keys = keys
	}
	return q, filters, nil
}
