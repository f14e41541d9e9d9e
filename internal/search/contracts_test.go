package search

import (
	"reflect"
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

// A contract entry and its contract record are one row: EntryOf reads back
// exactly the entry ContractOf stored, dates with their labels, the source
// link, the joined notice and the raw source fields included.
func TestEntryOfInvertsContractOf(t *testing.T) {
	day := func(s string) time.Time {
		d, _ := time.ParseInLocation("2006-01-02", s, record.NewYork)
		return d
	}
	observed := time.Date(2026, 4, 21, 0, 0, 0, 0, time.UTC)
	for _, e := range []Entry{
		{ID: "checkbook:contract:CT185020151429177:v1", Source: "checkbook", Kind: EntryContract, ContractID: "CT185020151429177",
			AgencyRaw: "Department of Design and Construction", AgencyID: "design-and-construction", AgencyName: "Design and Construction",
			VendorName: "CDE AIR CONDITIONING CO INC", VendorStem: "CDE AIR CONDITIONING", PIN: "85015B0065001C021", PINBase: "85015B0065",
			Title: "HVAC", Status: "active", Date: day("2015-07-20"), DateLabel: "registered", FiscalYear: 2016,
			AmountRaw: "0", AmountLabel: "current amount", SourceLabel: "Checkbook NYC", ObservedAt: observed,
			URL: "https://www.checkbooknyc.com/x", Raw: map[string]string{"prime_contract_award_method": "Competitive Sealed Bid", "prime_contract_current_amount": "0"}},
		{ID: "checkbook:contract:CTR85020131408259:v239", Source: "checkbook", Kind: EntryContract, ContractID: "CTR85020131408259",
			Status: "pending", Date: day("2021-08-13"), DateLabel: "received", Amount: 209938022.91, AmountValid: true,
			AmountRaw: "209938022.91", Raw: map[string]string{"received_date": "2021-08-13"}},
		{ID: "contracts:procurement:x", Source: "contracts", Kind: EntryContract, RequestID: "20260616001", AmountRaw: "-1"},
	} {
		c, ok := ContractOf(e)
		if !ok {
			t.Fatalf("%s: not a contract", e.ID)
		}
		if got := EntryOf(c); !reflect.DeepEqual(got, e) {
			t.Errorf("%s: read back\n got %+v\nwant %+v", e.ID, got, e)
		}
		if r, err := EncodeEntry(e); err != nil || r.Kind != ContractKind.Name {
			t.Errorf("%s: stored as %q (%v), not as a contract record", e.ID, r.Kind, err)
		}
	}
	// a received date never dates the contract
	pending, _ := ContractOf(Entry{ID: "p", Source: "checkbook", Kind: EntryContract, Date: day("2021-08-13"), DateLabel: "received"})
	if r, _ := ContractKind.Encode(pending); !r.Date.IsZero() || pending.FiscalYear != 0 || r.Keys[KeyRegistration][0] != RegistrationUndated {
		t.Errorf("a pending row is dated: %+v %+v", pending, r)
	}
	// a date a contract cannot keep is refused, not dropped
	if _, err := EncodeEntry(Entry{ID: "q", Source: "checkbook", Kind: EntryContract, Date: day("2021-08-13"), DateLabel: "issued"}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("a contract dated %q: %v", "issued", err)
	}
}

// A versioned kind writes its layout version as a key on every record; an
// unversioned kind writes none, and the envelope Index built is not
// changed.
func TestKindVersionKey(t *testing.T) {
	c, _ := ContractOf(Entry{ID: "x:1", Source: "contracts", Kind: EntryContract, ContractID: "CT1"})
	r, err := ContractKind.Encode(c)
	if err != nil || ContractKind.Version != 2 || len(r.Keys[KeyKindVersion]) != 1 || r.Keys[KeyKindVersion][0] != "2" {
		t.Fatalf("contract record keys %v %v", r.Keys, err)
	}
	keys := map[string][]string{"k": {"v"}}
	plain := Kind[Entry]{Name: "plain", Index: func(Entry) Record { return Record{ID: "1", Source: "s", Keys: keys} }}
	r, err = plain.Encode(Entry{})
	if err != nil || len(r.Keys) != 1 {
		t.Errorf("unversioned kind keys %v %v", r.Keys, err)
	}
	v3 := plain
	v3.Version = 3
	if r, _ = v3.Encode(Entry{}); r.Keys[KeyKindVersion][0] != "3" || len(keys) != 1 {
		t.Errorf("version 3 keys %v, Index's map %v", r.Keys, keys)
	}
}
