package procure

import (
	"regexp"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The record kinds of the procurement datasets, each declared here once:
// registered contract rows (record.Contract, ContractKind) and Checkbook
// NYC payments (Payment, PaymentKind). Sources write them through the
// indexer's one record path; this service reads them through
// search.RecordReader.

// ContractKind is the typed kind of registered contracts: one record per
// contract row (record.Contract), whatever source wrote it (Checkbook NYC,
// the contracts read model). The row id is the record id; the exact
// contract ID is a key. Version 2: the amount band, excluded-amount and
// registration keys, and the received date, source link and raw fields.
// Version 3: vendor stems under the current rule only (the engines stopped
// widening a stem filter to earlier rules' stems; records of version 2 are
// re-linked, indexer.Relink).
var ContractKind = search.Kind[record.Contract]{
	Name:    "contract",
	Index:   contractRecord,
	Version: 3,
	// /api/contracts/<id> reads one path segment
	ID: regexp.MustCompile(`^[^/]+$`),
}

// Contract keys beside the shared ones (contract_id, pin_key, pin_base,
// agency_id, agency_raw, vendor_stem, fiscal_year, status, request_id):
// every contract has an amount band (record.AmountBandOf, "invalid" for an
// amount not valid) and a registration state, so an analysis group
// (contracts_analysis.go) is always one exact key filter a browse can
// follow.
const (
	// KeyAmountBand is the key of record.ContractAmountBands.
	KeyAmountBand = "amount_band"
	// KeyAmountExcluded is why an amount is not summed
	// (record.AmountExcludedReason); absent for a valid amount.
	KeyAmountExcluded = "amount_excluded"
	// KeyRegistration is "dated" for a row with a registration date (it
	// has a fiscal year) and "undated" for one without (pending rows).
	KeyRegistration = "registration"
)

// Values of KeyRegistration.
const (
	RegistrationDated   = "dated"
	RegistrationUndated = "undated"
)

// Date labels of contract rows, and the label of a contract's link to its
// source row.
const (
	DateRegistered = "registered"
	DateReceived   = "received"
	LinkSourceRow  = "source row"
)

// keySet collects the keys of a record envelope, leaving out empty values.
type keySet map[string][]string

func (k keySet) set(name, v string) {
	if v != "" {
		k[name] = []string{v}
	}
}

func (k keySet) year(fy int) {
	if fy != 0 {
		k.set(search.KeyFiscalYear, strconv.Itoa(fy))
	}
}

// contractRecord is the envelope of a contract: its keys (contract_id,
// pin_key in entity.NormalizePIN's form, pin_base, agency_id, agency_raw,
// vendor_stem, fiscal_year, status, request_id, amount_band,
// amount_excluded, registration), the registration date and the
// registered amount.
func contractRecord(c record.Contract) search.Record {
	keys := keySet{}
	keys.set(search.KeyAgencyRaw, c.AgencyLabel)
	keys.set(search.KeyStatus, c.Status)
	keys.set(search.KeyRequestID, c.RequestID)
	keys.set(search.KeyContractID, c.ContractID)
	keys.set(search.KeyPIN, entity.NormalizePIN(c.PIN))
	keys.set(search.KeyPINBase, c.PINBase)
	keys.set(search.KeyAgencyID, c.AgencyID)
	keys.set(search.KeyVendorStem, c.VendorStem)
	keys.year(c.FiscalYear)
	keys.set(KeyAmountBand, record.AmountBandOf(c.Amount, c.AmountValid))
	keys.set(KeyAmountExcluded, record.AmountExcludedReason(c))
	if c.RegisteredOn.IsZero() {
		keys.set(KeyRegistration, RegistrationUndated)
	} else {
		keys.set(KeyRegistration, RegistrationDated)
	}
	r := search.Record{
		ID: c.ID, Source: c.Source, SourceLabel: c.SourceLabel, ObservedAt: c.ObservedAt, Keys: keys,
		Date: c.RegisteredOn, AmountValid: c.AmountValid, Title: c.Purpose,
	}
	if !c.RegisteredOn.IsZero() {
		r.DateLabel = DateRegistered
	}
	if c.AmountValid {
		r.Amount = c.Amount
	}
	return r
}

// Payment is one Checkbook NYC payment transaction: a spending row (a
// check to a payee) or, when Payroll, a payroll row (a pay date's gross pay
// for one title). ID is stable ("checkbook:payment:<document id>",
// "checkbook:payroll:<hash>"), so loading a source again replaces its
// payments. Raw keeps every source field as read; Amount counts only when
// AmountValid (record.ParseAmount).
type Payment struct {
	ID      string `json:"id"`
	Source  string `json:"source"`
	Payroll bool   `json:"payroll,omitempty"`

	AgencyRaw  string `json:"agency_raw,omitempty"`
	AgencyID   string `json:"agency_id,omitempty"`
	AgencyName string `json:"agency_name,omitempty"`

	VendorName string `json:"vendor_name,omitempty"`
	VendorStem string `json:"vendor_stem,omitempty"`

	// ContractID is the contract a spending row pays; PIN a PIN it states
	// itself, PINBase that PIN's 10-character base (entity.PINBase).
	ContractID string `json:"contract_id,omitempty"`
	PIN        string `json:"pin,omitempty"`
	PINBase    string `json:"pin_base,omitempty"`

	// Title is the expense category (spending) or the title (payroll).
	Title  string `json:"title,omitempty"`
	Status string `json:"status,omitempty"`

	// Date is the check issue or pay date; DateLabel says which.
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

// NoticeKind is the record type of City Record notices in a scope, and
// JoinedKinds the kinds a vendor, agency or matter joins (notices,
// registrations, payments): the sources a by-id read of one of them that
// finds nothing is typed by (search.RecordAbsence).
const NoticeKind = "notice"

var JoinedKinds = []string{NoticeKind, ContractKind.Name, KindPayment}

// Record kinds of payments: spending and payroll payments are one family
// (PaymentKind), apart in their kind so coverage counts each.
const (
	KindPayment = "payment"
	KindPayroll = "payment.payroll"
)

// PaymentKind is the typed kind of Checkbook NYC payments. Version 1: the
// first layout of payments as their own kind (they were "entry.payment"
// and "entry.payroll" records before; a data directory holding those is
// reloaded, indexer.RetiredKinds). Version 2: vendor stems under the
// current rule only, none for a redacted payee (records of version 1 are
// re-linked, indexer.Relink).
var PaymentKind = search.Kind[Payment]{
	Name:    KindPayment,
	Members: []string{KindPayment, KindPayroll},
	Index:   paymentRecord,
	Version: 2,
}

// paymentRecord is the envelope of a payment: keys agency_raw, agency_id,
// vendor_stem, contract_id, pin_key (entity.NormalizePIN), pin_base,
// status and fiscal_year; the issue or pay date; the valid amount.
func paymentRecord(p Payment) search.Record {
	keys := keySet{}
	keys.set(search.KeyAgencyRaw, p.AgencyRaw)
	keys.set(search.KeyAgencyID, p.AgencyID)
	keys.set(search.KeyVendorStem, p.VendorStem)
	keys.set(search.KeyContractID, p.ContractID)
	keys.set(search.KeyPIN, entity.NormalizePIN(p.PIN))
	keys.set(search.KeyPINBase, p.PINBase)
	keys.set(search.KeyStatus, p.Status)
	keys.year(p.FiscalYear)
	kind := KindPayment
	if p.Payroll {
		kind = KindPayroll
	}
	r := search.Record{
		Kind: kind, ID: p.ID, Source: p.Source, SourceLabel: p.SourceLabel, ObservedAt: p.ObservedAt,
		Keys: keys, Date: p.Date, DateLabel: p.DateLabel, AmountValid: p.AmountValid, Title: p.Title,
	}
	if p.AmountValid {
		r.Amount = p.Amount
	}
	return r
}

var (
	_ = search.DescribeKind(ContractKind.Name, search.KindDescription{
		RecordType:   "registered contract row",
		CountingRule: "one per contract row held (a version or sub-vendor line of one contract ID is its own row; several registrations sharing a PIN each count); each row is held once, whatever source wrote it",
		EvidenceRule: "the latest registration date among the rows counted (rows without a registration date, such as pending contracts, are counted but do not date the set)",
		API:          "/api/contracts",
	})
	_ = search.DescribeKind(KindPayment, search.KindDescription{
		RecordType:   "payment",
		CountingRule: "one per spending transaction held (a Checkbook NYC check or payment line), by its document id (a transaction without one by a hash of its fields); joined to registrations by exact contract id only (link records), never by payee name",
		EvidenceRule: "the latest check issue date among the payments counted",
	})
	_ = search.DescribeKind(KindPayroll, search.KindDescription{
		RecordType:   "payroll payment (payments dataset transaction)",
		CountingRule: "one per payroll transaction held (a pay date's gross pay for one title), by a hash of its fields",
		EvidenceRule: "the latest pay date among the transactions counted",
	})
)
