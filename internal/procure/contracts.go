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

// Contract reads (SPEC §2.6): one contract by exact ID, and bounded pages
// of contracts. Both read ContractKind through the Records seam.

// Contract read bounds.
const (
	DefaultContractLimit = 20
	MaxContractLimit     = 100
	// MaxContractRows bounds the rows one exact contract ID returns.
	MaxContractRows = 50
)

// ContractMeasure is what contract totals measure (SPEC §2.6).
var (
	ContractMeasureKey = record.N("procure.contract.measure")
	ContractMeasure    = ContractMeasureKey.String()
)

// ContractRead is one contract by exact ID: the row asked for (or, asked
// by contract ID, the first of its rows by id) and every row held under
// the same exact contract ID (versions, sub-vendor lines, other sources),
// bounded by MaxContractRows.
type ContractRead struct {
	Contract record.Contract   `json:"contract"`
	Rows     []record.Contract `json:"rows"`
	// RowsTotal counts every row held under the contract ID.
	RowsTotal int `json:"rows_total"`
	// Payments are the payments joined to these rows at index time (link
	// records, exact contract id), with registered vs paid by fiscal year
	// and the coverage of the payments held ("no payments held" when none).
	Payments ContractPayments `json:"payments"`
	// MatterPIN is the PIN whose procurement matter holds this contract
	// (Service.Matter); empty when the contract states no usable PIN.
	MatterPIN string `json:"matter_pin,omitempty"`
	// Sources are the sources the answer is built from (the rows' own
	// sources and every payments source), each with its coverage and
	// freshness as every scope states them (search.SourcesBehind).
	Sources []record.SourceCoverage `json:"sources"`
	// Registration is RegistrationHeld when a registered contract row is
	// held under the ID, RegistrationNotHeld when none is but payments
	// name the contract ID (then Contract holds only the ID, Rows is empty
	// and RegistrationNote says so: "registration not held; 39 payments
	// name this contract").
	Registration     string `json:"registration"`
	RegistrationNote string `json:"registration_note,omitempty"`
	// RegistrationKey is registration_note as a note (key and arguments).
	RegistrationKey *record.Note `json:"registration_note_key,omitempty"`
	// Payees are the vendors the payments naming the contract pay, by name
	// stem (the vendor of a contract whose registration is not held).
	Payees []Payee `json:"payees"`
}

// Registration states of a contract read.
const (
	RegistrationHeld    = "held"
	RegistrationNotHeld = "not_held"
)

// Payee is one vendor the payments of a contract pay: its name as the
// payments print it, its stem, and their count and valid-amount sum.
type Payee struct {
	Name string `json:"name"`
	// NameKey is name as a note when the service names the payee (one
	// redacted for privacy); absent for a payee as the payments name it.
	NameKey  *record.Note `json:"name_key,omitempty"`
	Stem     string       `json:"stem,omitempty"`
	Payments int          `json:"payments"`
	Paid     Money        `json:"paid"`
}

// ContractFilter narrows a browse: every set field must match. Agency is a
// label, name or canonical id (the crosswalk's one rule); Vendor a name,
// matched by its stem; PIN an exact PIN, or a 10-character base PIN
// matching every PIN of that base; FiscalYear a July–June fiscal year of
// the registration date.
//
// The exact filters follow an analysis group (AnalyzeContracts): each is
// one key, as written, so a group's browse total is its count.
// AgencyLabel is an accepted agency label (AgencyLabels, same letter
// case); AgencyID a canonical id as groups carry it (no resolution);
// VendorStem a vendor stem as written; AmountBand a key of
// record.ContractAmountBands; Undated keeps only the rows with no
// registration date (no fiscal year).
type ContractFilter struct {
	Agency     string
	Vendor     string
	PIN        string
	FiscalYear int

	AgencyLabel string
	AgencyID    string
	VendorStem  string
	AmountBand  string
	Undated     bool
}

// ContractTotals sum the registered value of every contract a browse
// matched (not only its page).
type ContractTotals struct {
	Count        int      `json:"count"`
	ValidAmounts int      `json:"valid_amounts"`
	Registered   *float64 `json:"registered_value"` // nil: no valid amount held
	Display      string   `json:"display"`
	Measure      string   `json:"measure"`
}

// ContractPage is a page of contracts with the scope of the read.
type ContractPage struct {
	Contracts  []record.Contract `json:"contracts"`
	Total      int               `json:"total"`
	NextCursor string            `json:"next_cursor,omitempty"`
	Totals     ContractTotals    `json:"totals"`
	TotalsExtent
	Scope record.Scope `json:"scope"`
}

// TotalsExtent says how much of their sources the totals beside it cover
// (record.ExtentsOf), in words (ExtentWords) shown next to them.
type TotalsExtent struct {
	Extent      []record.Extent `json:"extent"`
	ExtentWords string          `json:"extent_words"`
}

// totalsExtent is the extent of the totals of unit (record.Extent*) over
// the records held.
func totalsExtent(ctx context.Context, rs Records, unit string) TotalsExtent {
	es, words := search.Extents(ctx, rs, unit)
	return TotalsExtent{Extent: es, ExtentWords: words}
}

// PaymentsExtent is the extent of payments totals over the records held
// (none when this deployment holds no records): read once with the answer
// whose totals it qualifies, so every surface shows the same.
func (s *Service) PaymentsExtent(ctx context.Context) TotalsExtent {
	return s.extentOf(ctx, record.ExtentPayments)
}

// extentOf is the extent of unit's totals over the records held (none
// said when the engine holds no records).
func (s *Service) extentOf(ctx context.Context, unit string) TotalsExtent {
	rs, err := s.RecordReader()
	if err != nil {
		return TotalsExtent{Extent: []record.Extent{}}
	}
	return totalsExtent(ctx, rs, unit)
}

// Contract reads one contract by exact ID: a row id or a contract ID
// (matched exactly, as written). Errors: ENOTFOUND when no row is held
// under it, EUNAVAILABLE when the engine cannot answer, EINVALID for an
// empty id.
func (s *Service) Contract(ctx context.Context, id string) (ContractRead, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return ContractRead{}, record.InvalidNote("id", "param.id.contract")
	}
	rs, err := s.RecordReader()
	if err != nil {
		return ContractRead{}, err
	}
	var out ContractRead
	contractID := id
	c, err := search.Get(ctx, rs, ContractKind, id)
	switch {
	case err == nil:
		out.Contract, contractID = c, c.ContractID
	case record.ErrorCode(err) != record.ENOTFOUND:
		return out, err
	}
	if out.Contract.ID != "" && contractID == "" { // a row whose source states no contract ID
		out.Rows, out.RowsTotal = []record.Contract{out.Contract}, 1
		return s.withPayments(ctx, out)
	}
	p, err := search.Find(ctx, rs, ContractKind, search.RecordQuery{
		Keys: map[string][]string{search.KeyContractID: {contractID}}, Sort: search.RecordSortID, Limit: MaxContractRows})
	if err != nil {
		return out, err
	}
	if out.Contract.ID == "" {
		if len(p.Items) == 0 {
			return s.contractByPayments(ctx, id)
		}
		out.Contract = p.Items[0]
	}
	out.Rows, out.RowsTotal = p.Items, p.Total
	if out.RowsTotal == 0 { // a row whose contract ID key is not held
		out.Rows, out.RowsTotal = []record.Contract{out.Contract}, 1
	}
	return s.withPayments(ctx, out)
}

// contractByPayments is the read of a contract ID no registration held
// carries: the payments naming it (exact contract id, the payments' own
// field), their ledger by fiscal year and their payees. ENOTFOUND when no
// payment names it either.
func (s *Service) contractByPayments(ctx context.Context, id string) (ContractRead, error) {
	out := ContractRead{Contract: record.Contract{ContractID: id}, Rows: []record.Contract{}, Registration: RegistrationNotHeld}
	var err error
	if out.Payments, err = s.paymentsNaming(ctx, id); err != nil {
		return out, err
	}
	if out.Payments.Total == 0 {
		return out, record.NoteError(record.ENOTFOUND, "", record.N("error.contract_unknown", strconv.Quote(id)))
	}
	reg := record.N("procure.registration_not_held.many", out.Payments.Total)
	if out.Payments.Total == 1 {
		reg = record.N("procure.registration_not_held.one")
	}
	out.RegistrationNote, out.RegistrationKey = reg.String(), &reg
	rs, err := s.RecordReader()
	if err != nil {
		return out, err
	}
	t, err := search.TotalsOf(ctx, rs, PaymentKind, search.RecordQuery{Kinds: []string{KindPayment},
		Keys: map[string][]string{search.KeyContractID: {id}}}, []string{search.KeyVendorStem}, 0)
	if err != nil {
		return out, err
	}
	named := map[string]string{}
	for _, jp := range out.Payments.Payments {
		if named[jp.Payment.VendorStem] == "" {
			named[jp.Payment.VendorStem] = strings.TrimSpace(jp.Payment.VendorName)
		}
	}
	out.Payees = []Payee{}
	rest := Sum{Records: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount}
	for _, b := range t.Groups[search.KeyVendorStem] {
		sum := Sum{Records: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount, Absent: NoPaymentsKey}
		out.Payees = append(out.Payees, Payee{Name: named[b.Value], Stem: b.Value, Payments: b.Count, Paid: sum.Money()})
		rest.Records -= b.Count
		rest.ValidAmounts -= b.ValidAmounts
		rest.Amount = search.RoundCents(rest.Amount - b.Amount)
	}
	if rest.Records > 0 { // payees redacted for privacy: no name, no stem
		rest.Absent = NoPaymentsKey
		out.Payees = append(out.Payees, Payee{Name: PayeeNotNamed, NameKey: &PayeeNotNamedKey, Payments: rest.Records, Paid: rest.Money()})
	}
	if len(out.Payments.Payments) > 0 {
		p := out.Payments.Payments[0].Payment
		out.Contract.AgencyID, out.Contract.AgencyName, out.Contract.AgencyLabel = p.AgencyID, p.AgencyName, p.AgencyRaw
		if pin := strings.TrimSpace(p.PIN); pin != "" && !entity.JunkPIN(pin) && len(pin) <= MaxPIN {
			out.MatterPIN = pin
		}
	}
	out.Sources, err = search.SourcesBehind(ctx, rs, s.Search, search.Behind{Kind: KindPayment})
	return out, err
}

// The payee of payments whose payee is redacted, as a note and in
// English.
var (
	PayeeNotNamedKey = record.N("procure.payee_not_named")
	PayeeNotNamed    = PayeeNotNamedKey.String()
)

// paymentsNaming reads the payments whose own contract id is id (at most
// MaxContractPayments listed, by issue date; Total counts all), with
// their ledger by fiscal year.
func (s *Service) paymentsNaming(ctx context.Context, id string) (ContractPayments, error) {
	out := ContractPayments{Payments: []JoinedPayment{}, Complete: true}
	rs, err := s.RecordReader()
	if err != nil {
		return out, err
	}
	q := search.RecordQuery{Kinds: []string{KindPayment}, Keys: map[string][]string{search.KeyContractID: {id}},
		Sort: search.RecordSortDate, Limit: MaxContractPayments}
	p, err := search.Find(ctx, rs, PaymentKind, q)
	if err != nil {
		return out, err
	}
	out.Total, out.Complete = p.Total, p.Total <= len(p.Items)
	for _, pay := range p.Items {
		out.Payments = append(out.Payments, JoinedPayment{Payment: pay, Link: record.Link{
			From: record.Ref{Kind: record.RefContract, ID: id}, To: record.Ref{Kind: record.RefPayment, ID: pay.ID},
			Method: entity.JoinContractIDField, Confidence: entity.ConfidenceHigh, SameProcurement: true,
			Evidence: "the payment's own contract id field is " + id}})
	}
	years, err := yearTotals(ctx, rs, q)
	if err != nil {
		return out, err
	}
	cov, err := s.PaymentsCoverage(ctx)
	if err != nil {
		return out, err
	}
	out.Ledger = ledgerOf(years, record.Notes{JoinedByContractIDKey}, cov)
	out.LedgerAlias = out.Ledger
	return out, nil
}

// withPayments adds a contract read's joined payments and its matter PIN.
func (s *Service) withPayments(ctx context.Context, out ContractRead) (ContractRead, error) {
	var err error
	out.Registration, out.Payees = RegistrationHeld, []Payee{}
	if out.Payments, err = s.contractPayments(ctx, out.Rows); err != nil {
		return out, err
	}
	if !entity.JunkPIN(out.Contract.PIN) && len(strings.TrimSpace(out.Contract.PIN)) <= MaxPIN {
		out.MatterPIN = strings.TrimSpace(out.Contract.PIN)
	}
	behind := []search.Behind{{Kind: ContractKind.Name, Source: out.Contract.Source}}
	for _, r := range out.Rows {
		behind = append(behind, search.Behind{Kind: ContractKind.Name, Source: r.Source})
	}
	rs, err := s.RecordReader()
	if err != nil {
		return out, err
	}
	out.Sources, err = search.SourcesBehind(ctx, rs, s.Search, append(behind, search.Behind{Kind: KindPayment})...)
	return out, err
}

// BrowseContracts reads a bounded page of contracts (registration date,
// oldest first, undated last, then row id: a stable order a cursor walks
// without gaps or repeats) with the totals of every match and the scope.
// Errors: EINVALID for a bad filter, limit or cursor; EUNAVAILABLE when
// the engine cannot answer.
func (s *Service) BrowseContracts(ctx context.Context, f ContractFilter, cursor string, limit int) (ContractPage, error) {
	if limit == 0 {
		limit = DefaultContractLimit
	}
	if limit < 1 || limit > MaxContractLimit {
		return ContractPage{}, record.InvalidNote("limit", "param.limit", "limit", MaxContractLimit)
	}
	q, err := s.contractQuery(f)
	if err != nil {
		return ContractPage{}, err
	}
	rs, err := s.RecordReader()
	if err != nil {
		return ContractPage{}, err
	}
	q.Sort, q.Limit, q.Cursor = search.RecordSortDate, limit, cursor
	var notices search.CoverageReader
	if s.Search != nil {
		notices = s.Search
	}
	p, err := search.Find(ctx, search.WithScope(rs, notices), ContractKind, q)
	if err != nil {
		return ContractPage{}, err
	}
	t, err := search.TotalsOf(ctx, rs, ContractKind, q, nil, 0)
	if err != nil {
		return ContractPage{}, err
	}
	out := ContractPage{Contracts: p.Items, Total: p.Total, NextCursor: p.NextCursor, Scope: p.Scope}
	out.Scope.Searched.Kind = "contracts"
	sum := Sum{Records: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount, Absent: NoContractsKey}
	out.Totals = ContractTotals{Count: t.Count, ValidAmounts: t.ValidAmounts, Registered: sum.Value(), Display: sum.Display(), Measure: ContractMeasure}
	out.TotalsExtent = totalsExtent(ctx, rs, record.ExtentContracts)
	return out, nil
}

// contractQuery is the record query of a filter: the agency by the
// crosswalk's one rule, the vendor by stem, the PIN exact (or by base),
// the fiscal year as written.
func (s *Service) contractQuery(f ContractFilter) (search.RecordQuery, error) {
	keys := map[string][]string{}
	if a := strings.TrimSpace(f.Agency); a != "" {
		ids, _, err := s.Crosswalk.ResolveNames("agency", []string{a})
		if err != nil {
			return search.RecordQuery{}, err
		}
		keys[search.KeyAgencyID] = ids
	}
	if l := f.AgencyLabel; l != "" {
		id, err := s.agencyLabelID(l)
		if err != nil {
			return search.RecordQuery{}, err
		}
		keys[search.KeyAgencyID] = intersect(keys[search.KeyAgencyID], id)
	}
	if id := strings.TrimSpace(f.AgencyID); id != "" {
		keys[search.KeyAgencyID] = intersect(keys[search.KeyAgencyID], id)
	}
	if stem := strings.TrimSpace(f.VendorStem); stem != "" {
		keys[search.KeyVendorStem] = intersect(keys[search.KeyVendorStem], stem)
	}
	if b := strings.TrimSpace(f.AmountBand); b != "" {
		if _, ok := record.AmountBand(b); !ok {
			return search.RecordQuery{}, record.InvalidNote("amount_band", "param.unknown.amount_band", strconv.Quote(b), strings.Join(AmountBandKeys(), ", "))
		}
		keys[KeyAmountBand] = []string{b}
	}
	if f.Undated {
		if f.FiscalYear != 0 {
			return search.RecordQuery{}, record.InvalidNote("undated", "param.undated")
		}
		keys[KeyRegistration] = []string{RegistrationUndated}
	}
	if v := strings.TrimSpace(f.Vendor); v != "" {
		stem := entity.VendorStem(v)
		if !entity.StemLongEnough(stem) {
			return search.RecordQuery{}, record.InvalidNote("vendor", "param.vendor.short", strconv.Quote(v), entity.MinStemChars)
		}
		keys[search.KeyVendorStem] = intersect(keys[search.KeyVendorStem], stem)
	}
	if p := entity.NormalizePIN(f.PIN); p != "" {
		if entity.JunkPIN(p) {
			return search.RecordQuery{}, record.InvalidNote("pin", "param.pin", strconv.Quote(f.PIN))
		}
		if len(p) == 10 && entity.PINBase(p+"001") == p {
			keys[search.KeyPINBase] = []string{p}
		} else {
			keys[search.KeyPIN] = []string{p}
		}
	}
	if f.FiscalYear != 0 {
		if f.FiscalYear < 1990 || f.FiscalYear > 2100 {
			return search.RecordQuery{}, record.InvalidNote("fiscal_year", "param.fiscal_year", f.FiscalYear)
		}
		keys[search.KeyFiscalYear] = []string{strconv.Itoa(f.FiscalYear)}
	}
	q := search.RecordQuery{}
	if len(keys) > 0 {
		q.Keys = keys
	}
	return q, nil
}

// intersect narrows the values a key filter already holds (nil: none yet)
// to v: a value no other filter allows matches nothing (an empty-string
// value no record holds), never everything.
func intersect(held []string, v string) []string {
	if held == nil || slices.Contains(held, v) {
		return []string{v}
	}
	return []string{"none:no-match"}
}
