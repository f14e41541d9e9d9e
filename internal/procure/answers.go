package procure

import (
	"strings"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// The answer types of the payments dataset and of award totals: the one
// shape the JSON API, the site and the MCP tools all render (a surface
// adds its links, never its own shape).

// KindTotal is the count and valid-amount sum of one kind of row (or of
// award notices); with none held, Amount reads "no contracts held" (or
// payments, payroll, awards).
type KindTotal struct {
	Count              int   `json:"count"`
	ValidAmounts       int   `json:"valid_amounts"`
	Amount             Money `json:"amount"`
	WithoutValidAmount int   `json:"without_valid_amount"`
}

// Total is the sum as a kind total.
func (s Sum) Total() KindTotal {
	return KindTotal{Count: s.Records, ValidAmounts: s.ValidAmounts, Amount: s.Money(), WithoutValidAmount: s.Records - s.ValidAmounts}
}

// FiscalYearTotal is a count and valid-amount sum of one fiscal year of
// award notices.
type FiscalYearTotal struct {
	FiscalYear   int   `json:"fiscal_year"`
	Count        int   `json:"count"`
	ValidAmounts int   `json:"valid_amounts"`
	Amount       Money `json:"amount"`
}

// FiscalYearTotals are award fiscal years as shown (never nil).
func FiscalYearTotals(ys []FiscalYear) []FiscalYearTotal {
	out := make([]FiscalYearTotal, 0, len(ys))
	for _, y := range ys {
		out = append(out, FiscalYearTotal{FiscalYear: y.FiscalYear, Count: y.Count, ValidAmounts: y.ValidAmounts,
			Amount: AwardSum(y.Count, y.ValidAmounts, y.Amount).Money()})
	}
	return out
}

// InvalidAmountNote says why an amount a row states is not summed.
const InvalidAmountNote = "not a valid amount (a placeholder such as 0, or an entry error); excluded from totals"

// RowView is one row of the payments dataset or one registered contract
// as shown. VendorProfile is the link a surface adds (empty where the
// surface links none).
type RowView struct {
	ID            string           `json:"id"`
	Source        string           `json:"source"`
	Kind          string           `json:"kind"`
	Agency        string           `json:"agency,omitempty"`
	AgencyID      string           `json:"agency_id,omitempty"`
	AgencyRaw     string           `json:"agency_raw,omitempty"`
	Vendor        string           `json:"vendor,omitempty"`
	VendorProfile string           `json:"vendor_profile,omitempty"`
	ContractID    string           `json:"contract_id,omitempty"`
	PIN           string           `json:"pin,omitempty"`
	RequestID     string           `json:"request_id,omitempty"`
	Title         string           `json:"title,omitempty"`
	Status        string           `json:"status,omitempty"`
	Date          string           `json:"date,omitempty"`
	DateLabel     string           `json:"date_label,omitempty"`
	FiscalYear    int              `json:"fiscal_year,omitempty"`
	Amount        *view.AmountView `json:"amount,omitempty"`
	URL           string           `json:"url,omitempty"`
}

// View is the row as shown: its amount with its validity (an invalid
// amount keeps its source text and the reason it is not summed), its date
// as a New York day.
func (r Row) View() RowView {
	v := RowView{ID: r.ID, Source: r.Source, Kind: r.Kind, Agency: r.AgencyName, AgencyID: r.AgencyID, AgencyRaw: r.AgencyRaw,
		Vendor: strings.TrimSpace(r.VendorName), ContractID: r.ContractID, PIN: r.PIN, RequestID: r.RequestID, Title: r.Title,
		Status: r.Status, DateLabel: r.DateLabel, FiscalYear: r.FiscalYear, URL: r.URL}
	if !r.Date.IsZero() {
		v.Date = r.Date.In(record.NewYork).Format("2006-01-02")
	}
	switch {
	case r.AmountValid:
		a := r.Amount
		v.Amount = &view.AmountView{Valid: true, Value: &a, Display: view.Money(a), SourceText: r.AmountRaw, Note: r.AmountLabel}
	case r.AmountRaw != "":
		v.Amount = &view.AmountView{Valid: false, SourceText: r.AmountRaw, Note: InvalidAmountNote}
	}
	return v
}

// PaymentsNote says what the payments totals measure.
var (
	PaymentsKey  = record.N("procure.payments.note")
	PaymentsNote = PaymentsKey.String()
)

// PaymentsView sums the payments-dataset rows of an answer (a vendor, an
// agency, a PIN) by kind and fiscal year. Contract totals are registered
// value, not spending.
type PaymentsView struct {
	Records   int       `json:"records"`
	Contracts KindTotal `json:"contracts"`
	// ContractsNotRegistered are the contract rows without a registration
	// date (pending, received): counted apart, never in the registered
	// value of contracts.
	ContractsNotRegistered *KindTotal  `json:"contracts_not_registered,omitempty"`
	Payments               KindTotal   `json:"payments"`
	Payroll                *KindTotal  `json:"payroll,omitempty"`
	ByFiscalYear           []YearTotal `json:"by_fiscal_year"`
	Entries                []RowView   `json:"entries"`
	More                   bool        `json:"more,omitempty"`
	// NextCursor continues Entries in the row list of the same filter (GET
	// /api/rows, by date) when More; Rows is that list's address, its
	// next page (Next) and its CSV twin (CSV), where a surface links them.
	NextCursor string `json:"next_cursor,omitempty"`
	Rows       string `json:"rows,omitempty"`
	Next       string `json:"next,omitempty"`
	CSV        string `json:"csv,omitempty"`
	Note       string `json:"note"`
	// NoteKey is note as a note (key and arguments).
	NoteKey record.Note `json:"note_key"`
	// Ledger is registered vs paid by fiscal year with the coverage of the
	// payments held ("no_payments_held" when none), where the answer has
	// one.
	Ledger *Ledger `json:"registered_vs_paid,omitempty"`
	// Extent says how much of their sources these totals cover, in words
	// (ExtentWords) to show next to them: read by the service with the
	// answer (Service.PaymentsExtent).
	Extent      []record.Extent `json:"extent"`
	ExtentWords string          `json:"extent_words"`
}

// View is the totals as shown, with their extent.
func (t RowTotals) View() PaymentsView {
	p := PaymentsView{Records: t.Records, Contracts: t.Contracts.Total(), Payments: t.Payments.Total(),
		ByFiscalYear: t.ByFiscalYear, Entries: make([]RowView, 0, len(t.Rows)), More: t.More, NextCursor: t.NextCursor, Note: PaymentsNote, NoteKey: PaymentsKey,
		Extent: t.Extent.Extent, ExtentWords: t.Extent.ExtentWords}
	if p.Extent == nil {
		p.Extent = []record.Extent{}
	}
	if t.Payroll != nil {
		k := t.Payroll.Total()
		p.Payroll = &k
	}
	if t.Unregistered.Records > 0 {
		k := t.Unregistered.Total()
		p.ContractsNotRegistered = &k
	}
	for _, r := range t.Rows {
		p.Entries = append(p.Entries, r.View())
	}
	return p
}

// NoticePayments are the payments-dataset records a notice's PIN joins:
// contracts with the same PIN, a renewal of it or the same 10-character
// base, and the payments naming those contracts. Each entry says how it was
// linked and how sure the link is. Totals add only the same procurement
// (with registered vs paid by fiscal year); records sharing only the base
// PIN are summed apart (related_by_prefix). Matter is the link a surface
// adds to the procurement matter of the PIN.
type NoticePayments struct {
	PIN      string              `json:"pin"`
	Prefix   string              `json:"prefix_pin,omitempty"`
	Totals   *PaymentsView       `json:"totals"`
	Apart    *PaymentsView       `json:"related_by_prefix,omitempty"`
	Links    []NoticePaymentLink `json:"linked"`
	Matter   string              `json:"matter"`
	Absence  string              `json:"absence_note"`
	Complete bool                `json:"complete"`

	// The shape of MCP get_notice's payments before 2026-11-27, kept for
	// older readers (SPEC §9): the joined payments alone, their count and
	// registered vs paid, each the same value as in Links and Totals.
	PaymentsDeprecated []PaymentDeprecated `json:"payments" deprecated:"linked"`
	TotalDeprecated    int                 `json:"total" deprecated:"totals.payments.count"`
	LedgerDeprecated   *Ledger             `json:"registered_vs_paid,omitempty" deprecated:"totals.registered_vs_paid"`
}

// PaymentDeprecated is one joined payment as MCP get_notice and
// get_contract listed it before 2026-11-27 (deprecated: read the entry or
// payment and its link).
type PaymentDeprecated struct {
	ID         string `json:"id" deprecated:"payment.id"`
	ContractID string `json:"contract_id,omitempty" deprecated:"payment.contract_id"`
	Payee      string `json:"payee,omitempty" deprecated:"payment.vendor_name"`
	IssueDate  string `json:"issue_date,omitempty" deprecated:"payment.date"`
	FiscalYear int    `json:"fiscal_year,omitempty" deprecated:"payment.fiscal_year"`
	// Amount is the amount in words ("$1,234.00", or why it is not summed).
	Amount     string `json:"amount" deprecated:"payment.amount"`
	Method     string `json:"method" deprecated:"link.method"`
	Confidence string `json:"confidence" deprecated:"link.confidence"`
	Evidence   string `json:"evidence,omitempty" deprecated:"link.note"`
}

// paymentDeprecated is a joined payment row in its deprecated flat shape.
func paymentDeprecated(r Row, method, confidence, evidence string) PaymentDeprecated {
	return PaymentDeprecated{ID: r.ID, ContractID: r.ContractID, Payee: r.VendorName, IssueDate: day(r.Date),
		FiscalYear: r.FiscalYear, Amount: rowAmount(r), Method: method, Confidence: confidence, Evidence: evidence}
}

// NoticePaymentLink is one joined entry and its link.
type NoticePaymentLink struct {
	Entry           RowView `json:"entry"`
	Method          string  `json:"method"`
	Confidence      string  `json:"confidence"`
	SameProcurement bool    `json:"same_procurement"`
	// Evidence is what the link rests on, where the link stage states it.
	Evidence string `json:"evidence,omitempty"`
}

// View is the join as shown (nil when the notice joins nothing), without
// the surface's links (Matter, vendor profiles) and extents.
func (j *NoticeJoin) View() *NoticePayments {
	if j == nil {
		return nil
	}
	totals := j.Totals.View()
	totals.Ledger = &j.Ledger
	p := &NoticePayments{PIN: j.PIN, Prefix: j.Prefix, Totals: &totals, Links: make([]NoticePaymentLink, 0, len(j.Links)),
		Complete: j.Complete, Absence: JoinNote}
	if j.Apart.Records > 0 {
		apart := j.Apart.View()
		p.Apart = &apart
	}
	p.PaymentsDeprecated, p.LedgerDeprecated = []PaymentDeprecated{}, &j.Ledger
	for _, l := range j.Links {
		p.Links = append(p.Links, NoticePaymentLink{Entry: l.Row.View(), Method: l.Link.Method, Confidence: l.Link.Confidence,
			SameProcurement: l.Link.SameProcurement, Evidence: l.Link.Note})
		if l.Row.Kind == RowPayment {
			p.TotalDeprecated++
			p.PaymentsDeprecated = append(p.PaymentsDeprecated, paymentDeprecated(l.Row, l.Link.Method, l.Link.Confidence, l.Link.Note))
		}
	}
	return p
}

// AwardSummary is what award and intent notices add up to, as shown:
// valid amounts only, the others counted apart (without_valid_amount),
// by fiscal year. A dossier's awards embed it and add their groups and
// notices.
type AwardSummary struct {
	Total              int               `json:"total"`
	ValidAmounts       int               `json:"valid_amounts"`
	WithoutValidAmount int               `json:"without_valid_amount"`
	Amount             Money             `json:"amount"`
	First              string            `json:"first,omitempty"`
	Last               string            `json:"last,omitempty"`
	ByFiscalYear       []FiscalYearTotal `json:"by_fiscal_year"`
}

// Summary is the awards as shown.
func (a Awards) Summary() AwardSummary {
	return AwardSummary{Total: a.Total, ValidAmounts: a.ValidAmounts, WithoutValidAmount: a.Total - a.ValidAmounts,
		Amount: AwardSum(a.Total, a.ValidAmounts, a.Amount).Money(), First: a.First, Last: a.Last, ByFiscalYear: FiscalYearTotals(a.ByFiscalYear)}
}

// rowAmount is a row's amount in words, as a sum of that one row.
func rowAmount(r Row) string {
	s := Sum{Records: 1, Absent: record.N("sum.no_valid_amount")}
	if r.AmountValid {
		s.ValidAmounts, s.Amount = 1, r.Amount
	}
	return s.Display()
}
