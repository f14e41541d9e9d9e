package search

import (
	"maps"
	"strconv"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Contracts are records of the kind "contract": one per registered
// contract row (record.Contract). They are the one store of contract rows:
// the contract entries of the entity views (EntryContract) are these
// records read as entries (EntryOf), and a contract entry written is
// stored as its contract (ContractOf). The row id is the entry's; the
// exact contract ID is a key.

// ContractKind is the typed kind of registered contracts, declared once.
// Version 2: the amount band, excluded-amount and registration keys, and
// the received date, source link and raw fields the entry views read.
var ContractKind = Kind[record.Contract]{
	Name:    "contract",
	Index:   contractRecord,
	Version: 2,
}

// Contract keys beside the entry keys (contract_id, pin_key, pin_base,
// agency_id, vendor_stem, fiscal_year): every contract has an amount band
// (record.AmountBandOf, "invalid" for an amount not valid) and a
// registration state, so an analysis group (contracts.go in
// internal/procure) is always one exact key filter a browse can follow.
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

// contractRecord is the envelope of a contract: its keys (contract_id,
// pin_key in entity.NormalizePIN's form, pin_base, agency_id, vendor_stem,
// fiscal_year, amount_band, amount_excluded, registration, and the keys a
// contract entry has: agency_raw, status, request_id), the registration
// date and the registered amount.
func contractRecord(c record.Contract) Record {
	keys := map[string][]string{}
	set := func(k, v string) {
		if v != "" {
			keys[k] = []string{v}
		}
	}
	set(KeyAgencyRaw, c.AgencyLabel)
	set(KeyStatus, c.Status)
	set(KeyRequestID, c.RequestID)
	set(KeyContractID, c.ContractID)
	set(KeyPIN, entity.NormalizePIN(c.PIN))
	set(KeyPINBase, c.PINBase)
	set(KeyAgencyID, c.AgencyID)
	set(KeyVendorStem, c.VendorStem)
	if c.FiscalYear != 0 {
		set(KeyFiscalYear, strconv.Itoa(c.FiscalYear))
	}
	set(KeyAmountBand, record.AmountBandOf(c.Amount, c.AmountValid))
	set(KeyAmountExcluded, record.AmountExcludedReason(c))
	if c.RegisteredOn.IsZero() {
		set(KeyRegistration, RegistrationUndated)
	} else {
		set(KeyRegistration, RegistrationDated)
	}
	r := Record{
		ID: c.ID, Source: c.Source, SourceLabel: c.SourceLabel, ObservedAt: c.ObservedAt, Keys: keys,
		Date: c.RegisteredOn, AmountValid: c.AmountValid, Title: c.Purpose,
	}
	if !c.RegisteredOn.IsZero() {
		r.DateLabel = dateRegistered
	}
	if c.AmountValid {
		r.Amount = c.Amount
	}
	return r
}

// ContractOf is the contract a linked contract entry holds (ok false for
// an entry of another kind), and EntryOf its inverse: the two are the one
// conversion between contract entries and contract records, and
// EntryOf(ContractOf(e)) is e. Every contract entry is one: a row without
// a contract ID (the source states none yet) keeps its own row id and is
// browsed, analysed and deleted with the rest, it only cannot be read by
// contract ID. Only a registration date dates a contract: a pending row's
// received date is kept as ReceivedOn, and the fiscal year is the
// registration date's (never the source's). The procurement method is the
// source's award or selection method when it states one.
func ContractOf(e Entry) (record.Contract, bool) {
	if e.Kind != EntryContract || e.ID == "" {
		return record.Contract{}, false
	}
	c := record.Contract{
		ID: e.ID, ContractID: e.ContractID,
		AgencyLabel: e.AgencyRaw, AgencyID: e.AgencyID, AgencyName: e.AgencyName,
		VendorName: e.VendorName, VendorStem: e.VendorStem,
		PIN: e.PIN, PINBase: e.PINBase,
		AmountValid: e.AmountValid, AmountRaw: e.AmountRaw, AmountLabel: e.AmountLabel,
		Purpose: e.Title, Status: e.Status, RequestID: e.RequestID,
		Source: e.Source, SourceLabel: e.SourceLabel, ObservedAt: e.ObservedAt,
		Raw: maps.Clone(e.Raw),
	}
	if e.AmountValid {
		c.Amount = e.Amount
	}
	switch {
	case e.Date.IsZero():
	case e.DateLabel == dateRegistered:
		c.RegisteredOn = e.Date
		c.FiscalYear = record.ContractFiscalYear(e.Date)
	case e.DateLabel == dateReceived:
		c.ReceivedOn = e.Date
	}
	for _, k := range []string{"prime_contract_award_method", "award_method", "selection_method_description"} {
		if v := e.Raw[k]; v != "" && v != "-" {
			c.Method = v
			break
		}
	}
	if e.URL != "" {
		c.Links = append(c.Links, record.ContractURL{Label: linkSourceRow, URL: e.URL})
	}
	if e.RequestID != "" {
		c.Links = append(c.Links, record.ContractURL{Label: "City Record notice joined by the source", URL: record.OfficialURL(e.RequestID)})
	}
	return c, true
}

// The date labels of contract entries, and the label of a contract's
// link to its source row.
const (
	dateRegistered = "registered"
	dateReceived   = "received"
	linkSourceRow  = "source row"
)

// EntryOf is the contract entry of a contract (ContractOf's inverse): its
// date is the registration date, or else the received date, with its
// label.
func EntryOf(c record.Contract) Entry {
	e := Entry{
		ID: c.ID, Source: c.Source, Kind: EntryContract,
		AgencyRaw: c.AgencyLabel, AgencyID: c.AgencyID, AgencyName: c.AgencyName,
		VendorName: c.VendorName, VendorStem: c.VendorStem,
		ContractID: c.ContractID, PIN: c.PIN, PINBase: c.PINBase, RequestID: c.RequestID,
		Title: c.Purpose, Status: c.Status, FiscalYear: c.FiscalYear,
		AmountValid: c.AmountValid, AmountRaw: c.AmountRaw, AmountLabel: c.AmountLabel,
		SourceLabel: c.SourceLabel, ObservedAt: c.ObservedAt, Raw: maps.Clone(c.Raw),
	}
	if c.AmountValid {
		e.Amount = c.Amount
	}
	switch {
	case !c.RegisteredOn.IsZero():
		e.Date, e.DateLabel = c.RegisteredOn, dateRegistered
	case !c.ReceivedOn.IsZero():
		e.Date, e.DateLabel = c.ReceivedOn, dateReceived
	}
	for _, l := range c.Links {
		if l.Label == linkSourceRow {
			e.URL = l.URL
			break
		}
	}
	return e
}

// ContractsOf are the contracts of the contract entries among es.
func ContractsOf(es []Entry) []record.Contract {
	var out []record.Contract
	for _, e := range es {
		if c, ok := ContractOf(e); ok {
			out = append(out, c)
		}
	}
	return out
}
