package procure_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Every contract, with or without a contract ID, has an amount band and a
// registration state, so each analysis group is one key; only a
// registration date gives a fiscal year. (Moved from
// internal/search/contracts_test.go.)
func TestContractKindKeys(t *testing.T) {
	reg := time.Date(2026, 7, 1, 0, 0, 0, 0, record.NewYork)
	for _, tc := range []struct {
		name       string
		c          record.Contract
		band, regd string
		fy         string
		excluded   string
	}{
		{"registered", record.Contract{ID: "x:1", Source: "contracts", ContractID: "CT1", RegisteredOn: reg, FiscalYear: record.ContractFiscalYear(reg),
			Amount: 43844, AmountValid: true, AmountRaw: "43844"}, "10k_to_100k", procure.RegistrationDated, "2027", ""},
		{"pending, no contract ID", record.Contract{ID: "x:2", Source: "contracts", ReceivedOn: reg, AmountRaw: "-1"},
			record.BandInvalid, procure.RegistrationUndated, "", record.ExcludedPlaceholder},
		{"entry error", record.Contract{ID: "x:3", Source: "checkbook", ContractID: "CT3", AmountRaw: "12000000000"},
			record.BandInvalid, procure.RegistrationUndated, "", record.ExcludedEntryError},
		{"negative", record.Contract{ID: "x:4", Source: "checkbook", ContractID: "CT4", AmountRaw: "-250.00"},
			record.BandInvalid, procure.RegistrationUndated, "", record.ExcludedNegative},
	} {
		r, err := procure.ContractKind.Encode(tc.c)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		one := func(k string) string {
			if v := r.Keys[k]; len(v) == 1 {
				return v[0]
			}
			return ""
		}
		if one(procure.KeyAmountBand) != tc.band || one(procure.KeyRegistration) != tc.regd || one(search.KeyFiscalYear) != tc.fy || one(procure.KeyAmountExcluded) != tc.excluded {
			t.Errorf("%s: keys %v", tc.name, r.Keys)
		}
		if _, has := r.Keys[search.KeyContractID]; has != (tc.c.ContractID != "") {
			t.Errorf("%s: contract_id key %v", tc.name, r.Keys[search.KeyContractID])
		}
		// a received date never dates the record
		if !tc.c.ReceivedOn.IsZero() && (!r.Date.IsZero() || r.DateLabel != "") {
			t.Errorf("%s: a pending row is dated %v %q", tc.name, r.Date, r.DateLabel)
		}
		if one(search.KeyKindVersion) != procure.ContractKind.VersionKey() {
			t.Errorf("%s: kind version %v", tc.name, r.Keys[search.KeyKindVersion])
		}
	}
}

// A contract's row is dated by its registration, or else by the date it
// was received, with the label that says which; it keeps the source link,
// the joined notice and the raw source fields. (Moved from the round trip
// of contract entries, internal/search/contracts_test.go.)
func TestRowOfContract(t *testing.T) {
	day := func(s string) time.Time {
		d, _ := time.ParseInLocation("2006-01-02", s, record.NewYork)
		return d
	}
	observed := time.Date(2026, 4, 21, 0, 0, 0, 0, time.UTC)
	registered := record.Contract{ID: "checkbook:contract:CT185020151429177:v1", Source: "checkbook", ContractID: "CT185020151429177",
		AgencyLabel: "Department of Design and Construction", AgencyID: "design-and-construction", AgencyName: "Design and Construction",
		VendorName: "CDE AIR CONDITIONING CO INC", VendorStem: "CDE AIR CONDITIONING", PIN: "85015B0065001C021", PINBase: "85015B0065",
		Purpose: "HVAC", Status: "active", RegisteredOn: day("2015-07-20"), FiscalYear: 2016, RequestID: "20150101001",
		AmountRaw: "0", AmountLabel: "current amount", SourceLabel: "Checkbook NYC", ObservedAt: observed,
		Links: []record.ContractURL{{Label: procure.LinkSourceRow, URL: "https://www.checkbooknyc.com/x"}},
		Raw:   map[string]string{"prime_contract_award_method": "Competitive Sealed Bid"}}
	want := procure.Row{ID: registered.ID, Source: "checkbook", Kind: procure.RowContract,
		AgencyRaw: "Department of Design and Construction", AgencyID: "design-and-construction", AgencyName: "Design and Construction",
		VendorName: "CDE AIR CONDITIONING CO INC", VendorStem: "CDE AIR CONDITIONING", ContractID: "CT185020151429177",
		PIN: "85015B0065001C021", PINBase: "85015B0065", RequestID: "20150101001", Title: "HVAC", Status: "active",
		Date: day("2015-07-20"), DateLabel: procure.DateRegistered, FiscalYear: 2016, AmountRaw: "0", AmountLabel: "current amount",
		URL: "https://www.checkbooknyc.com/x", SourceLabel: "Checkbook NYC", ObservedAt: observed,
		Raw: map[string]string{"prime_contract_award_method": "Competitive Sealed Bid"}}
	if got := procure.RowOfContract(registered); !reflect.DeepEqual(got, want) {
		t.Errorf("registered row\n got %+v\nwant %+v", got, want)
	}
	pending := record.Contract{ID: "p", Source: "checkbook", ReceivedOn: day("2021-08-13"), Amount: 209938022.91, AmountValid: true}
	if got := procure.RowOfContract(pending); !got.Date.Equal(pending.ReceivedOn) || got.DateLabel != procure.DateReceived || got.FiscalYear != 0 || got.Amount != 209938022.91 {
		t.Errorf("pending row %+v", got)
	}
	pay := procure.Payment{ID: "checkbook:payroll:1", Source: "checkbook", Payroll: true, Amount: 5, AmountValid: false}
	if got := procure.RowOfPayment(pay); got.Kind != procure.RowPayroll || got.Amount != 0 {
		t.Errorf("payroll row %+v", got)
	}
	if r, err := procure.PaymentKind.Encode(pay); err != nil || r.Kind != procure.KindPayroll || r.AmountValid {
		t.Errorf("payroll record %+v %v", r, err)
	}
}
