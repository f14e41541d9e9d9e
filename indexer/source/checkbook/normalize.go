package checkbook

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Rows are what transactions normalize into: registered contract rows
// (record.Contract, procure.ContractKind) and payments (procure.Payment,
// procure.PaymentKind).
type Rows struct {
	Contracts []record.Contract `json:"contracts"`
	Payments  []procure.Payment `json:"payments"`
}

// Len is how many rows r holds.
func (r Rows) Len() int { return len(r.Contracts) + len(r.Payments) }

// add appends the rows of o.
func (r *Rows) add(o Rows) {
	r.Contracts = append(r.Contracts, o.Contracts...)
	r.Payments = append(r.Payments, o.Payments...)
}

// Link runs the link stage over every row (agency id, vendor stem, base
// PIN; indexer/link), for callers outside the pipeline. cw may be nil.
func (r Rows) Link(cw *entity.Crosswalk) {
	l := link.Linker{Crosswalk: cw}
	l.Contracts(r.Contracts)
	l.Payments(r.Payments)
}

// NormalizeRaw maps one transaction of an answer for typeOfData to one
// row with the fields as the source gives them; the derived keys (agency
// id and name, vendor stem, base PIN) are the link stage's. It is a pure
// function of its arguments.
//
//   - Contracts become a record.Contract: id "checkbook:contract:<contract
//     id>:v<version>" (":sub:<reference>" added for a sub-vendor line), the
//     prime vendor, the purpose, the current amount (0 is not a valid
//     amount), the registration date (pending contracts: the received
//     date, which never dates the contract) and the PIN. The fiscal year
//     of a contract derives from its registration date only; the
//     procurement method is the award method, when stated.
//   - Spending becomes a procure.Payment: id "checkbook:payment:<document
//     id>", payee, check amount, issue date, fiscal year, contract id.
//   - Payroll becomes a payroll Payment: gross pay on a pay date; payroll
//     rows carry no id, so the id is a hash of every field.
//
// status is the request's status criterion ("active", "pending" …). Raw
// keeps every field as given, "-" included; a repeated element keeps all
// its values, joined by " | ".
func NormalizeRaw(typeOfData, status string, tx Transaction, observed time.Time) (Rows, error) {
	raw := map[string]string{}
	for _, k := range tx.Order {
		raw[k] = tx.Fields[k]
		if vs := tx.Repeated[k]; len(vs) > 1 {
			raw[k] = strings.Join(vs, " | ")
		}
	}
	agency := tx.Value("prime_contracting_agency", "agency", "contracting_agency")
	amount := func(raw string) (float64, bool) {
		if v, ok := record.ParseAmount(raw); ok {
			return v, true
		}
		return 0, false
	}
	switch strings.ToLower(strings.TrimSpace(typeOfData)) {
	case "contracts":
		c := record.Contract{Source: Source, SourceLabel: SourceLabel, ObservedAt: observed, Status: status, Raw: raw, AgencyLabel: agency}
		c.ContractID = tx.Value("prime_contract_id", "contract_id")
		if c.ContractID == "" {
			return Rows{}, fmt.Errorf("checkbook: contract transaction at line %d has no contract id", tx.Line)
		}
		version := tx.Value("prime_contract_version", "version")
		c.ID = "checkbook:contract:" + c.ContractID
		if version != "" {
			c.ID += ":v" + version
		}
		if ref := tx.Value("sub_contract_reference_id"); ref != "" {
			c.ID += ":sub:" + ref
		}
		c.VendorName = tx.Value("prime_vendor", "vendor", "vendor_name")
		c.Purpose = tx.Value("prime_contract_purpose", "purpose", "contract_purpose")
		c.PIN = tx.Value("prime_contract_pin", "pin")
		c.AmountRaw, c.AmountLabel = tx.Value("prime_contract_current_amount", "current_amount"), "current amount"
		c.Amount, c.AmountValid = amount(c.AmountRaw)
		if reg := tx.Value("prime_contract_registration_date", "registration_date"); reg != "" {
			if t := record.ParseDate(reg); !t.IsZero() {
				c.RegisteredOn, c.FiscalYear = t, record.ContractFiscalYear(t)
			}
		} else if t := record.ParseDate(tx.Value("received_date")); !t.IsZero() {
			c.ReceivedOn = t
		}
		for _, k := range []string{"prime_contract_award_method", "award_method", "selection_method_description"} {
			if v := raw[k]; v != "" && v != "-" {
				c.Method = v
				break
			}
		}
		return Rows{Contracts: []record.Contract{c}}, nil
	case "spending", "payroll":
	default:
		return Rows{}, fmt.Errorf("checkbook: type of data %q is not read (contracts, spending and payroll are)", typeOfData)
	}
	p := procure.Payment{Source: Source, SourceLabel: SourceLabel, ObservedAt: observed, Status: status, Raw: raw, AgencyRaw: agency}
	date := func(raw, label string) {
		if t := record.ParseDate(raw); !t.IsZero() {
			p.Date, p.DateLabel = t, label
		}
	}
	if strings.EqualFold(strings.TrimSpace(typeOfData), "payroll") {
		p.Payroll = true
		p.ID = "checkbook:payroll:" + hashID(tx)
		p.Title = tx.Value("title")
		p.AmountRaw, p.AmountLabel = tx.Value("gross_pay"), "gross pay"
		date(tx.Value("pay_date"), "paid")
	} else {
		doc := tx.Value("document_id")
		if doc == "" {
			doc = hashID(tx)
		}
		p.ID = "checkbook:payment:" + doc
		p.VendorName = tx.Value("payee_name", "vendor")
		p.ContractID = tx.Value("contract_id", "contract_ID") // contract_ID in 2018 answers
		// a spending row that states a PIN joins a matter directly
		p.PIN = tx.Value("pin", "contract_pin", "prime_contract_pin")
		p.Title = tx.Value("expense_category", "budget_code", "department")
		p.AmountRaw, p.AmountLabel = tx.Value("check_amount"), "check amount"
		date(tx.Value("issue_date"), "issued")
	}
	p.Amount, p.AmountValid = amount(p.AmountRaw)
	if fy, err := strconv.Atoi(strings.TrimSpace(tx.Value("fiscal_year"))); err == nil && fy > 1900 {
		p.FiscalYear = fy
	} else if !p.Date.IsZero() {
		p.FiscalYear = record.FiscalYear(p.Date)
	}
	return Rows{Payments: []procure.Payment{p}}, nil
}

// hashID is a stable id for a row without one: the first 16 hex digits of
// the SHA-256 of its fields in document order.
func hashID(tx Transaction) string {
	h := sha256.New()
	for _, k := range tx.Order {
		fmt.Fprintf(h, "%s=%s\n", k, tx.Fields[k])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// NormalizeResponse is ReadResponse with the link stage applied, for
// callers outside the pipeline.
func NormalizeResponse(res *Response, file string, cw *entity.Crosswalk, observed time.Time) (Rows, []error) {
	out, errs := ReadResponse(res, file, observed)
	out.Link(cw)
	return out, errs
}

// ReadResponse normalizes every transaction of an answer (NormalizeRaw).
// Transactions that could not be read (Response.Rejected) and rows that
// cannot be normalized are returned as errors naming the file, line and
// transaction, never dropped silently.
func ReadResponse(res *Response, file string, observed time.Time) (Rows, []error) {
	var out Rows
	var errs []error
	for _, r := range res.Rejected {
		errs = append(errs, fmt.Errorf("%s:%d: checkbook: %w", file, r.Line, r))
	}
	status := strings.ToLower(res.Request.Criterion("status"))
	for _, tx := range res.Transactions {
		r, err := NormalizeRaw(res.Request.TypeOfData, status, tx, observed)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", file, tx.Line, err))
			continue
		}
		out.add(r)
	}
	numberRepeatedPayments(out.Payments)
	return out, errs
}

// numberRepeatedPayments gives the payments of one answer that share a
// document id distinct ids: one payment document has several lines (the
// 2018 spending page holds 41 lines of one document, some identical), and
// each line is a payment. Every line of a repeated document gets
// ":<n>", n its 1-based order among that document's lines in the answer;
// a document with one line keeps its plain id.
func numberRepeatedPayments(ps []procure.Payment) {
	count := map[string]int{}
	for _, p := range ps {
		count[p.ID]++
	}
	seen := map[string]int{}
	for i := range ps {
		id := ps[i].ID
		if count[id] > 1 {
			seen[id]++
			ps[i].ID = fmt.Sprintf("%s:%d", id, seen[id])
		}
	}
}
