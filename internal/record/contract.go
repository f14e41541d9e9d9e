package record

import "time"

// Contract is one registered contract row (SPEC §2.6). ContractID is the
// exact contract ID a reader asks for; ID is the row's own identity within
// its source (a source may hold several rows of one contract ID: versions,
// sub-vendor lines), so several registrations sharing one PIN each keep
// their own row.
type Contract struct {
	ID         string `json:"id"`
	ContractID string `json:"contract_id"`

	// AgencyLabel is the agency as the source printed it; AgencyID its
	// canonical id (empty when the crosswalk does not know the label).
	AgencyLabel string `json:"agency_label,omitempty"`
	AgencyID    string `json:"agency_id,omitempty"`
	AgencyName  string `json:"agency_name,omitempty"`
	// VendorName is the vendor as printed; VendorStem its matching stem.
	VendorName string `json:"vendor_name,omitempty"`
	VendorStem string `json:"vendor_stem,omitempty"`

	// PIN is the PIN as the source wrote it; PINBase its 10-character
	// base.
	PIN     string `json:"pin,omitempty"`
	PINBase string `json:"pin_base,omitempty"`

	// RegisteredOn is the registration date (New York day); FiscalYear
	// derives from it (ContractFiscalYear) and is 0 without one.
	RegisteredOn time.Time `json:"registered_on,omitzero"`
	FiscalYear   int       `json:"fiscal_year,omitempty"`

	// Amount is the registered amount; it counts only when AmountValid
	// (placeholders, negatives and entry errors are not valid). AmountRaw
	// is the value as written.
	Amount      float64 `json:"amount,omitempty"`
	AmountValid bool    `json:"amount_valid"`
	AmountRaw   string  `json:"amount_raw,omitempty"`
	AmountLabel string  `json:"amount_label,omitempty"`

	Purpose string `json:"purpose,omitempty"`
	// Method is the procurement (award or selection) method, when the
	// source states it.
	Method string `json:"procurement_method,omitempty"`
	// Status is the source's state of the row ("registered", "active",
	// "pending" …).
	Status string `json:"status,omitempty"`
	// RequestID is a City Record notice the source itself joined.
	RequestID string `json:"request_id,omitempty"`

	Source      string        `json:"source"`
	SourceLabel string        `json:"source_label,omitempty"`
	Links       []ContractURL `json:"source_links,omitempty"`
	ObservedAt  time.Time     `json:"observed_at,omitzero"`
}

// ContractURL is a link to a source page of a contract.
type ContractURL struct {
	Label string `json:"label"`
	URL   string `json:"url"`
}

// ContractFiscalYear is the fiscal year of a registration date: July 1 to
// June 30 in New York, named for the year in which it ends (2026-06-30 is
// FY2026, 2026-07-01 FY2027); 0 for no date.
func ContractFiscalYear(registered time.Time) int {
	if registered.IsZero() {
		return 0
	}
	return FiscalYear(registered.In(NewYork))
}
