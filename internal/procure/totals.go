package procure

import (
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
)

// RowTotals sums payments-dataset records by kind and fiscal year.
// Contract totals are registered value, not spending.
type RowTotals struct {
	Records int
	// Contracts are the registered contract rows (a registration date,
	// so a fiscal year); Unregistered the contract rows without one
	// (pending or received), counted apart and never in registered value.
	Contracts    Sum
	Unregistered Sum
	Payments     Sum
	Payroll      *Sum // nil when no payroll record is held
	ByFiscalYear []YearTotal
	// Rows are the records read, at most the limit asked; More says when
	// more are held.
	Rows []Row
	More bool
	// NextCursor continues Rows (the same row query, by date) when the
	// page read was cut by its limit; empty when Rows are all.
	NextCursor string
	// Extent is how much of their sources the payments totals cover,
	// read with the answer (Service.PaymentsExtent).
	Extent TotalsExtent
}

// Totals reads the totals of a row page (asked with Totals) and keeps at
// most limit of its rows.
func Totals(res RowPage, limit int) RowTotals {
	t := RowTotals{Records: res.Total, ByFiscalYear: []YearTotal{}, Rows: []Row{},
		Contracts: Sum{Absent: NoContractsKey}, Unregistered: Sum{Absent: NoContractsKey}, Payments: Sum{Absent: NoPaymentsKey}}
	payroll := Sum{Absent: NoPayrollKey}
	for _, x := range res.Totals {
		var k *Sum
		switch x.Kind {
		case RowContract:
			k = &t.Contracts
			if x.FiscalYear == 0 { // no registration date: not registered value
				k = &t.Unregistered
			}
		case RowPayment:
			k = &t.Payments
		case RowPayroll:
			k = &payroll
		default:
			continue
		}
		k.Records += x.Count
		k.ValidAmounts += x.ValidAmounts
		k.Amount = search.RoundCents(k.Amount + x.Amount)
		t.ByFiscalYear = append(t.ByFiscalYear, x)
	}
	if payroll.Records > 0 {
		t.Payroll = &payroll
	}
	for i, e := range res.Rows {
		if i >= limit {
			t.More = true
			break
		}
		t.Rows = append(t.Rows, e)
	}
	if res.Total > len(res.Rows) {
		t.More = true
	}
	if t.More && len(t.Rows) == len(res.Rows) {
		t.NextCursor = res.NextCursor
	}
	return t
}

// Awards sums award and intent notices: valid amounts only.
type Awards struct {
	Total, ValidAmounts int
	Amount              float64
	First, Last         string // New York days
	ByFiscalYear        []FiscalYear
	TopVendors          []Group       // by vendor stem, when grouped so
	Agencies            []AgencyGroup // by agency id, when grouped so
}

// FiscalYear is a count and valid-amount sum of one fiscal year.
type FiscalYear struct {
	FiscalYear, Count, ValidAmounts int
	Amount                          float64
}

// Group is the awards of one value (a vendor stem).
type Group struct {
	Value               string
	Count, ValidAmounts int
	Amount              float64
}

// AgencyGroup is the awards of one agency.
type AgencyGroup struct {
	ID, Name            string
	Count, ValidAmounts int
	Amount              float64
}

// AwardSum is an award total as read: the valid amounts' sum, "no valid
// amounts held" when every award held has a placeholder or entry-error
// amount, "no awards held" when none is held — never $0.00 for absent data.
func AwardSum(count, valid int, amount float64) Sum {
	return Sum{Records: count, ValidAmounts: valid, Amount: amount, Absent: NoAwardsKey}
}

// AwardTotals reads notice totals (grouped by fiscal year, vendor stem or
// agency id) as award totals; agencies are named by the crosswalk.
func (s *Service) AwardTotals(t search.Totals) Awards {
	a := Awards{Total: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount, First: day(t.First), Last: day(t.Last),
		ByFiscalYear: []FiscalYear{}}
	for _, b := range t.Groups[search.GroupFiscalYear] {
		fy := 0
		for _, r := range b.Value {
			fy = fy*10 + int(r-'0')
		}
		a.ByFiscalYear = append(a.ByFiscalYear, FiscalYear{FiscalYear: fy, Count: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount})
	}
	for _, b := range mergeStems(t.Groups[search.GroupVendorStem]) {
		a.TopVendors = append(a.TopVendors, Group{Value: b.Value, Count: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount})
	}
	for _, b := range t.Groups[search.GroupAgencyID] {
		name := b.Value
		if s.Crosswalk != nil {
			if ag, ok := s.Crosswalk.Agency(b.Value); ok {
				name = ag.Name
			}
		}
		a.Agencies = append(a.Agencies, AgencyGroup{ID: b.Value, Name: name, Count: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount})
	}
	return a
}

// mergeStems joins vendor-stem buckets that are one vendor: records
// indexed before a stem rule changed keep the stem the earlier rule stored
// ("ABC INC", "HO-TRAN", "J P MORGAN CHASE BANK"), so one vendor can come
// back as two buckets. Each bucket's stem is read through the one rule,
// entity.VendorStem (which maps an earlier rule's stem to the current one,
// as entity.StemKeys relies on), and buckets of the same current stem are
// added together and ordered again as the engines order them.
func mergeStems(bs []search.Bucket) []search.Bucket {
	var out []search.Bucket
	at := map[string]int{}
	for _, b := range bs {
		stem := entity.VendorStem(b.Value)
		if stem == "" {
			stem = b.Value
		}
		i, ok := at[stem]
		if !ok {
			at[stem] = len(out)
			out = append(out, search.Bucket{Value: stem, Count: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount})
			continue
		}
		m := &out[i]
		m.Count += b.Count
		m.ValidAmounts += b.ValidAmounts
		m.Amount = search.RoundCents(m.Amount + b.Amount)
	}
	if len(out) < len(bs) {
		search.SortBuckets(search.GroupVendorStem, out)
	}
	return out
}
