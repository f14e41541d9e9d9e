package procure

import (
	"context"
	"fmt"
	"sort"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Registered vs paid: the one answer every surface shows for "was it
// paid?" — a contract, a matter, a vendor, an agency — with the coverage of
// the payments held, so a reader never takes "no payments held" for "not
// paid".

// NoPaymentsHeld is the state of a ledger without any payment.
const (
	PaymentsHeld   = "payments_held"
	NoPaymentsHeld = "no_payments_held"
)

// YearLedger is one fiscal year (July–June; 0: undated) of registered value
// and payments held.
type YearLedger struct {
	FiscalYear int   `json:"fiscal_year"`
	Registered Money `json:"registered"`
	Paid       Money `json:"paid"`
	// Contracts and Payments count the records of the year.
	Contracts int `json:"contracts"`
	Payments  int `json:"payments"`
	// Both is true when the year holds both registered value and
	// payments: only such years compare paid with registered.
	Both bool `json:"both_held"`
}

// PaymentCoverage is what the payments held cover: how many payments of
// which sources, issued between which days. The payments held are an
// extract of Checkbook NYC, never all of the city's spending.
type PaymentCoverage struct {
	Payments int      `json:"payments"`
	Sources  []string `json:"sources"`
	First    string   `json:"first_issue_date,omitempty"`
	Last     string   `json:"last_issue_date,omitempty"`
	Note     string   `json:"note"`
	// NoteKey is note as a note (key and arguments).
	NoteKey record.Note `json:"note_key"`
	// sentence is the note as a sentence of its own (capitalized), as a
	// ledger's note ends with it.
	sentence record.Note
}

// Ledger is registered vs paid by fiscal year, with the state
// (payments_held or no_payments_held), the totals, what the payments are
// joined by, and the coverage of the payments held.
type Ledger struct {
	State      string          `json:"state"`
	Note       string          `json:"note"`
	ByYear     []YearLedger    `json:"by_fiscal_year"`
	Registered Money           `json:"registered"`
	Paid       Money           `json:"paid"`
	JoinedBy   string          `json:"joined_by"`
	Coverage   PaymentCoverage `json:"coverage"`
	// NoteKeys, JoinedByKeys and BothNoteKey are note (its sentences),
	// joined_by (its clauses) and both_note as notes (key and arguments).
	NoteKeys     record.Notes `json:"note_keys"`
	JoinedByKeys record.Notes `json:"joined_by_keys"`
	BothNoteKey  record.Note  `json:"both_note_key"`
	// ContractsNotRegistered counts the contract rows without a
	// registration date: never in registered value, so in no year.
	ContractsNotRegistered int `json:"contracts_not_registered,omitempty"`
	// BothNote says which years compare (Both).
	BothNote string `json:"both_note"`
}

// LedgerBothNote says which years of a ledger compare paid with registered.
var (
	LedgerBothKey  = record.N("procure.ledger.both")
	LedgerBothNote = LedgerBothKey.String()
)

// Ways a ledger's payments are found, as notes and in English.
var (
	JoinedByContractIDKey = record.N("procure.joined.contract_id")
	JoinedByPayeeKey      = record.N("procure.joined.payee")
	JoinedByAgencyKey     = record.N("procure.joined.agency")
	// joinedByPINItself is a matter's second way: payments stating its PIN.
	joinedByPINItself = record.N("procure.joined.pin_itself")

	JoinedByContractID = JoinedByContractIDKey.String()
	JoinedByPayee      = JoinedByPayeeKey.String()
	JoinedByAgency     = JoinedByAgencyKey.String()
)

// ledgerOf builds a ledger from year totals (RowTotals.ByFiscalYear: rows of
// kinds contract and payment).
func ledgerOf(years []YearTotal, joinedBy record.Notes, cov PaymentCoverage) Ledger {
	byYear := map[int]*struct{ reg, paid Sum }{}
	var reg, paid Sum
	reg.Absent, paid.Absent = NoContractsKey, NoPaymentsKey
	unregistered := 0
	for _, y := range years {
		if y.Kind != RowContract && y.Kind != RowPayment {
			continue
		}
		if y.Kind == RowContract && y.FiscalYear == 0 { // no registration date: not registered value
			unregistered += y.Count
			continue
		}
		e := byYear[y.FiscalYear]
		if e == nil {
			e = &struct{ reg, paid Sum }{Sum{Absent: NoContractsKey}, Sum{Absent: NoPaymentsKey}}
			byYear[y.FiscalYear] = e
		}
		s, tot := &e.reg, &reg
		if y.Kind == RowPayment {
			s, tot = &e.paid, &paid
		}
		for _, x := range []*Sum{s, tot} {
			x.Records += y.Count
			x.ValidAmounts += y.ValidAmounts
			x.Amount = search.RoundCents(x.Amount + y.Amount)
		}
	}
	l := Ledger{ByYear: []YearLedger{}, Registered: reg.Money(), Paid: paid.Money(), JoinedBy: joinedBy.Clauses("en"), Coverage: cov,
		ContractsNotRegistered: unregistered, BothNote: LedgerBothNote, JoinedByKeys: joinedBy, BothNoteKey: LedgerBothKey}
	for fy, e := range byYear {
		l.ByYear = append(l.ByYear, YearLedger{FiscalYear: fy, Registered: e.reg.Money(), Paid: e.paid.Money(),
			Contracts: e.reg.Records, Payments: e.paid.Records, Both: fy != 0 && e.reg.Held() && e.paid.Held()})
	}
	sort.Slice(l.ByYear, func(i, j int) bool {
		a, b := l.ByYear[i].FiscalYear, l.ByYear[j].FiscalYear
		if (a == 0) != (b == 0) {
			return b == 0 // undated last
		}
		return a < b
	})
	switch {
	case paid.Records == 0:
		l.State = NoPaymentsHeld
		l.NoteKeys = record.Notes{record.N("procure.ledger.none")}
	case paid.Records == 1:
		l.State = PaymentsHeld
		l.NoteKeys = record.Notes{record.N("procure.ledger.one")}
	default:
		l.State = PaymentsHeld
		l.NoteKeys = record.Notes{record.N("procure.ledger.many", paid.Records)}
	}
	if !cov.sentence.IsZero() {
		l.NoteKeys = append(l.NoteKeys, cov.sentence)
	}
	l.Note = l.NoteKeys.String()
	return l
}

// rowsLedger builds a ledger from rows (a contract's registrations and its
// joined payments, a matter's steps).
func rowsLedger(rows []Row, joinedBy record.Notes, cov PaymentCoverage) Ledger {
	type key struct {
		kind string
		fy   int
	}
	agg := map[key]*YearTotal{}
	for _, r := range rows {
		if r.Kind != RowContract && r.Kind != RowPayment {
			continue
		}
		if r.Kind == RowContract && r.DateLabel != DateRegistered {
			continue // a pending or received row is not registered value
		}
		k := key{r.Kind, r.FiscalYear}
		y := agg[k]
		if y == nil {
			y = &YearTotal{Kind: r.Kind, FiscalYear: r.FiscalYear}
			agg[k] = y
		}
		y.Count++
		if r.AmountValid {
			y.ValidAmounts++
			y.Amount = search.RoundCents(y.Amount + r.Amount)
		}
	}
	var years []YearTotal
	for _, y := range agg {
		years = append(years, *y)
	}
	return ledgerOf(years, joinedBy, cov)
}

// PaymentsCoverage reports what the payments held cover (spending
// payments, not payroll). Errors: EUNAVAILABLE.
func (s *Service) PaymentsCoverage(ctx context.Context) (PaymentCoverage, error) {
	cov, err := s.coverage(ctx, []string{KindPayment})
	if err != nil {
		return PaymentCoverage{}, err
	}
	out := PaymentCoverage{Sources: []string{}}
	for _, c := range cov {
		out.Payments += c.Records
		out.Sources = append(out.Sources, c.Source)
		if c.FirstSourceDate != "" && (out.First == "" || c.FirstSourceDate < out.First) {
			out.First = c.FirstSourceDate
		}
		if c.LastSourceDate > out.Last {
			out.Last = c.LastSourceDate
		}
	}
	switch {
	case out.Payments == 0:
		out.NoteKey, out.sentence = record.N("procure.payments.none_at_all"), record.N("procure.payments.none_at_all.sentence")
	case out.First == out.Last && out.Payments == 1:
		out.NoteKey, out.sentence = record.N("procure.payments.extract_day.one", out.First), record.N("procure.payments.extract_day.one.sentence", out.First)
	case out.First == out.Last:
		out.NoteKey, out.sentence = record.N("procure.payments.extract_day.many", out.Payments, out.First), record.N("procure.payments.extract_day.many.sentence", out.Payments, out.First)
	default:
		out.NoteKey, out.sentence = record.N("procure.payments.extract", out.Payments, out.First, out.Last), record.N("procure.payments.extract.sentence", out.Payments, out.First, out.Last)
	}
	out.Note = out.NoteKey.String()
	return out, nil
}

// JoinedPayment is a payment joined to a registration, with the link
// record that joins them.
type JoinedPayment struct {
	Payment Payment     `json:"payment"`
	Link    record.Link `json:"link"`
	// the flat shape get_contract gave each payment before 2026-11-27,
	// kept for older readers (deprecated: read payment and link)
	PaymentDeprecated
}

// ContractPayments are the payments joined to a contract's registrations
// (link records), at most MaxContractPayments, with the ledger of the
// contract: registered vs paid by fiscal year, and the coverage of the
// payments held.
type ContractPayments struct {
	Payments []JoinedPayment `json:"payments"`
	Total    int             `json:"total"`
	Complete bool            `json:"complete"`
	Ledger   Ledger          `json:"registered_vs_paid"`
	// LedgerAlias is Ledger under the name GET /api/contracts/{id} gave it
	// before 2026-11-27.
	//
	// Deprecated: read registered_vs_paid (docs/api.md, Change log).
	LedgerAlias Ledger `json:"ledger" deprecated:"registered_vs_paid"`
}

// MaxContractPayments bounds the payments listed for one contract.
const MaxContractPayments = 100

// contractPayments reads the payments joined to the contract rows.
func (s *Service) contractPayments(ctx context.Context, rows []record.Contract) (ContractPayments, error) {
	var refs []record.Ref
	var all []Row
	for _, c := range rows {
		refs = append(refs, record.Ref{Kind: record.RefContract, ID: c.ID})
		all = append(all, RowOfContract(c))
	}
	out := ContractPayments{Payments: []JoinedPayment{}, Complete: true}
	links, complete, err := s.Links(ctx, refs, record.RefContract+"-"+record.RefPayment)
	if err != nil {
		return out, err
	}
	out.Complete = complete
	byPayment := map[string]record.Link{}
	ids := map[string][]string{}
	for _, l := range links {
		if _, ok := byPayment[l.To.ID]; !ok {
			byPayment[l.To.ID] = l
			ids[l.To.ID] = nil
		}
	}
	rs, err := s.RecordReader()
	if err != nil {
		return out, err
	}
	var want []string
	for id := range ids {
		want = append(want, id)
	}
	sort.Strings(want)
	for start := 0; start < len(want); start += search.MaxKeyValues {
		p, err := search.Find(ctx, rs, PaymentKind, search.RecordQuery{IDs: want[start:min(start+search.MaxKeyValues, len(want))],
			Sort: search.RecordSortDate, Limit: search.MaxRecordLimit})
		if err != nil {
			return out, err
		}
		for _, pay := range p.Items {
			all = append(all, RowOfPayment(pay))
			out.Total++
			if len(out.Payments) < MaxContractPayments {
				l := byPayment[pay.ID]
				out.Payments = append(out.Payments, JoinedPayment{Payment: pay, Link: l,
					PaymentDeprecated: paymentDeprecated(RowOfPayment(pay), l.Method, l.Confidence, l.Evidence)})
			} else {
				out.Complete = false
			}
		}
	}
	cov, err := s.PaymentsCoverage(ctx)
	if err != nil {
		return out, err
	}
	out.Ledger = rowsLedger(all, record.Notes{JoinedByContractIDKey}, cov)
	out.LedgerAlias = out.Ledger
	return out, nil
}

// Ledger is registered vs paid by fiscal year of row totals (a vendor's, an
// agency's), with the coverage of the payments held. Errors: EUNAVAILABLE.
func (s *Service) Ledger(ctx context.Context, t RowTotals, joinedBy record.Note) (Ledger, error) {
	cov, err := s.PaymentsCoverage(ctx)
	if err != nil {
		return Ledger{}, err
	}
	return ledgerOf(t.ByFiscalYear, record.Notes{joinedBy}, cov), nil
}

// PaymentsWord is "1 Checkbook NYC payment", "3 Checkbook NYC payments".
func PaymentsWord(n int) string {
	if n == 1 {
		return "1 Checkbook NYC payment"
	}
	return fmt.Sprintf("%d Checkbook NYC payments", n)
}
