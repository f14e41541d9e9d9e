package record

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// Contract is one registered contract row (SPEC §2.6). ContractID is the
// exact contract ID a reader asks for; ID is the row's own identity within
// its source (a source may hold several rows of one contract ID: versions,
// sub-vendor lines), so several registrations sharing one PIN each keep
// their own row.
type Contract struct {
	ID         string `json:"id"`
	ContractID string `json:"contract_id"`

	// AgencyLabel is the agency as the source printed it, served as
	// agency_as_printed so that it is never mistaken for an accepted
	// agency label (the agency_label filter); AgencyID its canonical id
	// (empty when the crosswalk does not know the spelling).
	AgencyLabel string `json:"agency_as_printed,omitempty"`
	// AgencyLabelDeprecated is AgencyLabel under its first published name
	// (agency_label, renamed agency_as_printed on 2026-11-27), kept for
	// older readers (SPEC §9): MarshalJSON sets it, nothing reads it.
	AgencyLabelDeprecated string `json:"agency_label,omitempty" deprecated:"agency_as_printed"`
	AgencyID              string `json:"agency_id,omitempty"`
	AgencyName            string `json:"agency_name,omitempty"`
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
	// ReceivedOn is the date a row without a registration (a pending
	// contract) was received, as the source states it; it never dates the
	// contract nor gives it a fiscal year.
	ReceivedOn time.Time `json:"received_on,omitzero"`

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
	// Raw keeps every field of the source row as read.
	Raw map[string]string `json:"raw,omitempty"`
}

// ContractURL is a link to a source page of a contract.
type ContractURL struct {
	Label string `json:"label"`
	// LabelKey is label as a note (key and arguments), stored with the
	// record; a record stored by an older index has none (its label is
	// then shown as the record says it).
	LabelKey Note   `json:"label_key,omitzero"`
	URL      string `json:"url"`
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

// ContractAmountBand is one band of registered amounts: valid amounts from
// Min (inclusive) up to Max (exclusive; 0 for no upper bound). The band
// "invalid" holds every row whose amount is not valid.
type ContractAmountBand struct {
	Key   string  `json:"key"`
	Label string  `json:"label"`
	Min   float64 `json:"min,omitempty"`
	Max   float64 `json:"max,omitempty"`
	// LabelKey is label as a note (key and arguments).
	LabelKey Note `json:"label_key"`
}

// BandInvalid is the amount band of rows without a valid amount
// (placeholders, negatives, entry errors, no amount): counted, never summed.
const BandInvalid = "invalid"

// ContractAmountBands is the fixed, documented list of amount bands, in
// order: decades of dollars from under $10,000 to $100 million and over
// (valid amounts are above $0 and below MaxValidAmount), then the rows with
// no valid amount. The list does not change with the data held.
var ContractAmountBands = func() []ContractAmountBand {
	bands := []ContractAmountBand{
		{Key: "under_10k", LabelKey: N("band.under_10k"), Max: 10_000},
		{Key: "10k_to_100k", LabelKey: N("band.10k_to_100k"), Min: 10_000, Max: 100_000},
		{Key: "100k_to_1m", LabelKey: N("band.100k_to_1m"), Min: 100_000, Max: 1_000_000},
		{Key: "1m_to_10m", LabelKey: N("band.1m_to_10m"), Min: 1_000_000, Max: 10_000_000},
		{Key: "10m_to_100m", LabelKey: N("band.10m_to_100m"), Min: 10_000_000, Max: 100_000_000},
		{Key: "100m_and_over", LabelKey: N("band.100m_and_over"), Min: 100_000_000},
		{Key: BandInvalid, LabelKey: N("band.invalid")},
	}
	for i := range bands {
		bands[i].Label = bands[i].LabelKey.String()
	}
	return bands
}()

// AmountBandOf is the key of the amount band of a registered amount.
func AmountBandOf(amount float64, valid bool) string {
	if !valid {
		return BandInvalid
	}
	for _, b := range ContractAmountBands {
		if b.Key != BandInvalid && amount >= b.Min && (b.Max == 0 || amount < b.Max) {
			return b.Key
		}
	}
	return BandInvalid
}

// AmountBand is the band of a key; ok false for a key not in the list.
func AmountBand(key string) (ContractAmountBand, bool) {
	for _, b := range ContractAmountBands {
		if b.Key == key {
			return b, true
		}
	}
	return ContractAmountBand{}, false
}

// Reasons an amount is excluded from registered-value sums.
const (
	ExcludedPlaceholder = "placeholder" // 0 or -1: a value standing for "not stated"
	ExcludedNegative    = "negative"    // below 0 (other than -1)
	ExcludedEntryError  = "entry_error" // at or above MaxValidAmount: a data-entry error
	ExcludedUnreadable  = "unreadable"  // not a number
	ExcludedNone        = "no_amount"   // the source states no amount
)

// ExcludedReasons describes each reason an amount is excluded.
var ExcludedReasons = map[string]string{
	ExcludedPlaceholder: "placeholder amount (0 or -1)",
	ExcludedNegative:    "negative amount",
	ExcludedEntryError:  "data-entry error ($10 billion or more)",
	ExcludedUnreadable:  "amount that is not a number",
	ExcludedNone:        "no amount stated",
}

// AmountExcludedReason is why a contract's amount is excluded from sums
// ("" when it is valid), read from the amount as written.
func AmountExcludedReason(c Contract) string {
	if c.AmountValid {
		return ""
	}
	if strings.TrimSpace(c.AmountRaw) == "" {
		return ExcludedNone
	}
	v, _ := ParseAmount(c.AmountRaw)
	s := strings.NewReplacer("$", "", ",", "", " ", "").Replace(strings.TrimSpace(c.AmountRaw))
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return ExcludedUnreadable
	}
	switch {
	case v == 0 || v == -1:
		return ExcludedPlaceholder
	case v < 0:
		return ExcludedNegative
	case v >= MaxValidAmount:
		return ExcludedEntryError
	}
	return ExcludedUnreadable
}

// MarshalJSON writes the contract with its deprecated agency_label beside
// agency_as_printed (the same value).
func (c Contract) MarshalJSON() ([]byte, error) {
	type plain Contract
	p := plain(c)
	p.AgencyLabelDeprecated = c.AgencyLabel
	return json.Marshal(p)
}
