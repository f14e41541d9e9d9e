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
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Normalize is NormalizeRaw with the link stage applied (agency id, vendor
// stem, base PIN; indexer/link), for callers outside the pipeline. cw may
// be nil.
func Normalize(typeOfData, status string, tx Transaction, cw *entity.Crosswalk, observed time.Time) (search.Entry, error) {
	e, err := NormalizeRaw(typeOfData, status, tx, observed)
	if err == nil {
		link.Linker{Crosswalk: cw}.Entry(&e)
	}
	return e, err
}

// NormalizeRaw maps one transaction of an answer for typeOfData to an
// entry with the fields as the source gives them; the derived keys (agency
// id and name, vendor stem, base PIN) are the link stage's. It is a pure
// function of its arguments.
//
//   - Contracts become EntryContract: id "checkbook:contract:<contract
//     id>:v<version>" (":sub:<reference>" added for a sub-vendor line), the
//     prime vendor, the purpose as title, the current amount (0 is not a
//     valid amount), the registration date (pending contracts: the received
//     date) and the PIN. The fiscal year of a
//     contract derives from its registration date only.
//   - Spending becomes EntryPayment: id "checkbook:payment:<document id>",
//     payee, check amount, issue date, fiscal year, contract id.
//   - Payroll becomes EntryPayroll: gross pay on a pay date; payroll rows
//     carry no id, so the id is a hash of every field.
//
// status is the request's status criterion ("active", "pending" …). Raw
// keeps every field as given, "-" included; a repeated element keeps all
// its values, joined by " | ".
func NormalizeRaw(typeOfData, status string, tx Transaction, observed time.Time) (search.Entry, error) {
	e := search.Entry{Source: Source, SourceLabel: SourceLabel, ObservedAt: observed, Status: status, Raw: map[string]string{}}
	for _, k := range tx.Order {
		e.Raw[k] = tx.Fields[k]
		if vs := tx.Repeated[k]; len(vs) > 1 {
			e.Raw[k] = strings.Join(vs, " | ")
		}
	}
	e.AgencyRaw = tx.Value("prime_contracting_agency", "agency", "contracting_agency")
	amount := func(raw, label string) {
		e.AmountRaw, e.AmountLabel = raw, label
		if v, ok := record.ParseAmount(raw); ok {
			e.Amount, e.AmountValid = v, true
		}
	}
	date := func(raw, label string) {
		if t := record.ParseDate(raw); !t.IsZero() {
			e.Date, e.DateLabel = t, label
		}
	}
	fiscal := func(raw string) {
		if fy, err := strconv.Atoi(strings.TrimSpace(raw)); err == nil && fy > 1900 {
			e.FiscalYear = fy
		} else if !e.Date.IsZero() {
			e.FiscalYear = record.FiscalYear(e.Date)
		}
	}
	switch strings.ToLower(strings.TrimSpace(typeOfData)) {
	case "contracts":
		e.Kind = search.EntryContract
		e.ContractID = tx.Value("prime_contract_id", "contract_id")
		if e.ContractID == "" {
			return e, fmt.Errorf("checkbook: contract transaction at line %d has no contract id", tx.Line)
		}
		version := tx.Value("prime_contract_version", "version")
		e.ID = "checkbook:contract:" + e.ContractID
		if version != "" {
			e.ID += ":v" + version
		}
		if ref := tx.Value("sub_contract_reference_id"); ref != "" {
			e.ID += ":sub:" + ref
		}
		e.VendorName = tx.Value("prime_vendor", "vendor", "vendor_name")
		e.Title = tx.Value("prime_contract_purpose", "purpose", "contract_purpose")
		e.PIN = tx.Value("prime_contract_pin", "pin")
		amount(tx.Value("prime_contract_current_amount", "current_amount"), "current amount")
		if reg := tx.Value("prime_contract_registration_date", "registration_date"); reg != "" {
			date(reg, "registered")
			if !e.Date.IsZero() {
				e.FiscalYear = record.FiscalYear(e.Date)
			}
		} else {
			date(tx.Value("received_date"), "received")
		}
	case "spending":
		e.Kind = search.EntryPayment
		doc := tx.Value("document_id")
		if doc == "" {
			doc = hashID(tx)
		}
		e.ID = "checkbook:payment:" + doc
		e.VendorName = tx.Value("payee_name", "vendor")
		e.ContractID = tx.Value("contract_id")
		// a spending row that states a PIN joins a matter directly
		e.PIN = tx.Value("pin", "contract_pin", "prime_contract_pin")
		e.Title = tx.Value("expense_category", "budget_code", "department")
		amount(tx.Value("check_amount"), "check amount")
		date(tx.Value("issue_date"), "issued")
		fiscal(tx.Value("fiscal_year"))
	case "payroll":
		e.Kind = search.EntryPayroll
		e.ID = "checkbook:payroll:" + hashID(tx)
		e.Title = tx.Value("title")
		amount(tx.Value("gross_pay"), "gross pay")
		date(tx.Value("pay_date"), "paid")
		fiscal(tx.Value("fiscal_year"))
	default:
		return e, fmt.Errorf("checkbook: type of data %q is not read (contracts, spending and payroll are)", typeOfData)
	}
	if !e.AmountValid {
		e.Amount = 0
	}
	return e, nil
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
func NormalizeResponse(res *Response, file string, cw *entity.Crosswalk, observed time.Time) ([]search.Entry, []error) {
	out, errs := ReadResponse(res, file, observed)
	link.Linker{Crosswalk: cw}.Entries(out)
	return out, errs
}

// ReadResponse normalizes every transaction of an answer (NormalizeRaw).
// Transactions that could not be read (Response.Rejected) and rows that
// cannot be normalized are returned as errors naming the file, line and
// transaction, never dropped silently.
func ReadResponse(res *Response, file string, observed time.Time) ([]search.Entry, []error) {
	var out []search.Entry
	var errs []error
	for _, r := range res.Rejected {
		errs = append(errs, fmt.Errorf("%s:%d: checkbook: %w", file, r.Line, r))
	}
	status := strings.ToLower(res.Request.Criterion("status"))
	for _, tx := range res.Transactions {
		e, err := NormalizeRaw(res.Request.TypeOfData, status, tx, observed)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s:%d: %w", file, tx.Line, err))
			continue
		}
		out = append(out, e)
	}
	return out, errs
}
