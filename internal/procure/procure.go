// Package procure answers questions about procurements: a procurement
// matter (every notice, registration and payment one PIN joins, as a
// timeline, or a blanket chain of awards), the payments-dataset records a
// notice joins, and award and contract totals. Its values are typed and
// carry no addresses: the API, the site, MCP and the mailer render them.
//
// Every join says its method and confidence (Link). A sum adds only records
// that belong to the same procurement (an exact or renewal PIN link, or a
// payment naming the contract of such a registration); records joined by
// the 10-character base PIN alone are kept apart, never summed in. Absent
// data reads as absent: a Sum with nothing held has no value.
//
// Errors carry the codes of internal/record: each method's comment names
// the ones it returns.
package procure

import (
	"context"
	"slices"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// AwardTypes are the notice types that name a vendor as awarded (award and
// intent notices).
var AwardTypes = []string{"Award", "Intent to Award", "Intent to Negotiate"}

// Service reads procurements through the search seam.
type Service struct {
	// Search reads notices and coverage.
	Search search.Reader
	// Records reads the registered contracts and payments (ContractKind,
	// PaymentKind) and the notice aggregations; nil answers EUNAVAILABLE
	// where they are needed.
	Records Records
	// Crosswalk names agencies.
	Crosswalk *entity.Crosswalk
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Engine is what the service reads of a search engine: notices and
// coverage, records and the notice aggregations.
type Engine interface {
	search.Reader
	Records
}

// New builds a service over an engine.
func New(e Engine, cw *entity.Crosswalk, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{Search: e, Records: e, Crosswalk: cw, Now: now}
}

// RecordReader is the reader of records. Errors: EUNAVAILABLE when this
// deployment holds none.
func (s *Service) RecordReader() (Records, error) {
	if s.Records != nil {
		return s.Records, nil
	}
	return nil, &record.Error{Code: record.EUNAVAILABLE, Message: "this deployment's search engine does not hold payments, contracts or lots"}
}

// Scope is the scope of an entity view: what was asked, the notice
// coverage and the coverage of the payments dataset, registered contracts
// and lot locations. Errors: those of the coverage reads (EUNAVAILABLE).
func (s *Service) Scope(ctx context.Context, kind string, filters map[string]string, matched int) (record.Scope, error) {
	ecov, err := s.coverage(ctx, scopeKinds())
	if err != nil {
		return record.Scope{}, err
	}
	cov, err := s.Search.Coverage(ctx)
	if err != nil {
		return record.Scope{}, err
	}
	all := append(slices.Clone(cov), ecov...)
	return record.NewScope(record.Searched{Kind: kind, Filters: filters, Lenses: []string{"all"}}, all, matched), nil
}

// Sum is the valid-amount sum of the records of one kind that belong
// together. A Sum with no valid amount held has no value: Held is false and
// Display says what is absent ("no payments held"), never $0.00.
type Sum struct {
	Records      int     // records of this kind held
	ValidAmounts int     // of which carry a valid amount
	Amount       float64 // sum of the valid amounts, to the cent
	// Absent is what to read when no record is held ("no payments held").
	Absent record.Note
}

// Held reports whether the sum has a value: at least one valid amount.
func (s Sum) Held() bool { return s.ValidAmounts > 0 }

// Value is the sum, or nil when none is held.
func (s Sum) Value() *float64 {
	if !s.Held() {
		return nil
	}
	v := search.RoundCents(s.Amount)
	return &v
}

// Money is a sum as every surface shows it (JSON twins, pages, MCP): Value
// is null when nothing is held, and Display then says what is absent ("no
// payments held"), never $0.00.
type Money struct {
	Value   *float64 `json:"value"`
	Display string   `json:"display"`
	// DisplayKey is display as a note (key and arguments) when it says
	// what is absent; absent when display is an amount.
	DisplayKey *record.Note `json:"display_key,omitempty"`
}

// Money is the sum as shown.
func (s Sum) Money() Money {
	m := Money{Value: s.Value(), Display: s.Display()}
	if n, ok := s.absentNote(); ok {
		m.DisplayKey = &n
	}
	return m
}

// Display is the sum as read: a dollar amount, or what is absent.
func (s Sum) Display() string {
	if n, ok := s.absentNote(); ok {
		return n.String()
	}
	return view.Money(search.RoundCents(s.Amount))
}

// absentNote is what the sum says is absent, when it holds no valid
// amount.
func (s Sum) absentNote() (record.Note, bool) {
	switch {
	case s.Held():
		return record.Note{}, false
	case s.Records > 0:
		return NoValidAmountsKey, true
	case !s.Absent.IsZero():
		return s.Absent, true
	}
	return NoneHeldKey, true
}

func (s *Sum) add(valid bool, amount float64) {
	s.Records++
	if valid {
		s.ValidAmounts++
		s.Amount = search.RoundCents(s.Amount + amount)
	}
}

// Absence labels of sums, as notes and in English.
var (
	NoContractsKey = record.N("sum.no_contracts")
	NoPaymentsKey  = record.N("sum.no_payments")
	NoPayrollKey   = record.N("sum.no_payroll")
	NoAwardsKey    = record.N("sum.no_awards")
	NoContracts    = NoContractsKey.String()
	NoPayments     = NoPaymentsKey.String()
	NoPayroll      = NoPayrollKey.String()
	NoAwards       = NoAwardsKey.String()
)

// What a sum reads when it has records but no valid amount, and when
// nothing at all is held and no absence is named.
var (
	NoValidAmountsKey = record.N("sum.no_valid_amounts")
	NoneHeldKey       = record.N("sum.none_held")
	NoValidAmounts    = NoValidAmountsKey.String()
	NoneHeld          = NoneHeldKey.String()
)

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(record.NewYork).Format("2006-01-02")
}

// UniqueNonEmpty is list without empty strings and repeats, in order.
func UniqueNonEmpty(list []string) []string {
	var out []string
	for _, s := range list {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
