package entity

import "testing"

// Real PINs of the bundled sample: the 2026 solicitation 81626W0043001 and
// its award, the 2015 DDC registration 85015B0065001C021 and the base
// 85015B0065 of its solicitation, a renewal chain of 07219P0148001.
func TestJoins(t *testing.T) {
	cases := []struct {
		name, a, b string
		want       Join
		ok         bool
	}{
		{"exact", "81626W0043001", "81626w0043001 ", Join{PINExact, ConfidenceHigh, true}, true},
		{"renewal", "07219P0148001R002", "07219P0148001R004", Join{PINRenewal, ConfidenceHigh, true}, true},
		{"base only", "85015B0065", "85015B0065001C021", Join{PINPrefix, ConfidenceLow, false}, true},
		{"junk", "N/A", "N/A", Join{}, false},
		{"other PIN", "81626W0043001", "85015B0065001C021", Join{}, false},
	}
	for _, c := range cases {
		got, ok := JoinPINs(c.a, c.b)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: JoinPINs(%q, %q) = %+v %v, want %+v %v", c.name, c.a, c.b, got, ok, c.want, c.ok)
		}
		if ok && got.Note() == "" {
			t.Errorf("%s: method %q has no note", c.name, got.Method)
		}
	}
	reg, _ := JoinPINs("85015B0065", "85015B0065001C021")
	if p := JoinByContract(reg); p != (Join{JoinContractID, ConfidenceLow, false}) {
		t.Errorf("payment through a base-only registration: %+v", p)
	}
	reg, _ = JoinPINs("81626W0043001", "81626W0043001")
	if p := JoinByContract(reg); p != (Join{JoinContractID, ConfidenceHigh, true}) {
		t.Errorf("payment through an exact registration: %+v", p)
	}
	if j, ok := JoinVendorAtAgency("SKANSKA-TREVCON JV", "design-and-construction", "SKANSKA-TREVCON JV", "design-and-construction"); !ok || j != (Join{JoinVendorAgency, ConfidenceLow, false}) {
		t.Errorf("vendor at agency: %+v %v", j, ok)
	}
	for _, c := range [][4]string{
		{"SKANSKA-TREVCON JV", "design-and-construction", "SKANSKA-TREVCON JV", "parks-and-recreation"},
		{"AB", "design-and-construction", "AB", "design-and-construction"},
		{"", "", "", ""},
	} {
		if j, ok := JoinVendorAtAgency(c[0], c[1], c[2], c[3]); ok {
			t.Errorf("JoinVendorAtAgency%q = %+v", c, j)
		}
	}
	if k, b := PINKeys(" 85015b0065001C021"); k != "85015B0065001C021" || b != "85015B0065" {
		t.Errorf("PINKeys: %q %q", k, b)
	}
}
