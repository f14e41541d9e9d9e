package search

import (
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Every contract entry is a contract, with or without a contract ID; its
// record always has an amount band and a registration state, so each
// analysis group is one key; only a registration date gives a fiscal year.
func TestContractOfAndItsKeys(t *testing.T) {
	reg := time.Date(2026, 7, 1, 0, 0, 0, 0, record.NewYork)
	for _, tc := range []struct {
		name       string
		e          Entry
		band, regd string
		fy         string
		excluded   string
	}{
		{"registered", Entry{ID: "x:1", Source: "contracts", Kind: EntryContract, ContractID: "CT1", Date: reg, DateLabel: "registered",
			Amount: 43844, AmountValid: true, AmountRaw: "43844"}, "10k_to_100k", RegistrationDated, "2027", ""},
		{"pending, no contract ID", Entry{ID: "x:2", Source: "contracts", Kind: EntryContract, Date: reg, DateLabel: "received",
			AmountRaw: "-1"}, record.BandInvalid, RegistrationUndated, "", record.ExcludedPlaceholder},
		{"entry error", Entry{ID: "x:3", Source: "checkbook", Kind: EntryContract, ContractID: "CT3", AmountRaw: "12000000000"},
			record.BandInvalid, RegistrationUndated, "", record.ExcludedEntryError},
		{"negative", Entry{ID: "x:4", Source: "checkbook", Kind: EntryContract, ContractID: "CT4", AmountRaw: "-250.00"},
			record.BandInvalid, RegistrationUndated, "", record.ExcludedNegative},
	} {
		c, ok := ContractOf(tc.e)
		if !ok || c.ID != tc.e.ID {
			t.Fatalf("%s: not a contract", tc.name)
		}
		r, err := ContractKind.Encode(c)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		one := func(k string) string {
			if v := r.Keys[k]; len(v) == 1 {
				return v[0]
			}
			return ""
		}
		if one(KeyAmountBand) != tc.band || one(KeyRegistration) != tc.regd || one(KeyFiscalYear) != tc.fy || one(KeyAmountExcluded) != tc.excluded {
			t.Errorf("%s: keys %v", tc.name, r.Keys)
		}
		if _, has := r.Keys[KeyContractID]; has != (tc.e.ContractID != "") {
			t.Errorf("%s: contract_id key %v", tc.name, r.Keys[KeyContractID])
		}
	}
	if _, ok := ContractOf(Entry{ID: "p", Kind: EntryPayment, ContractID: "CT1"}); ok {
		t.Error("a payment is not a contract")
	}
}
