package entity

import "testing"

// Real PIN values from the City Record, Checkbook NYC and registered
// contract rows.
func TestPINs(t *testing.T) {
	junk := []string{"", " ", "N/A", "n/a", "NA", "NONE", "TBD", "0", "000", "-", "N / A", "X",
		// a sentence rather than a PIN, in any letter case
		"Please refer to attachment", "PLEASE SEE ATTACHED LIST", "See line 2 below", "pin not found", "Not Found", "PIN NOT FOUND",
		"pending", "Pending", "PIN pending", "pin # pending assignment", "Listed in Schedule A", "see attached list of 125 PINs",
		"Refer to the PIN listed above", "To follow"}
	for _, p := range junk {
		if !JunkPIN(p) {
			t.Errorf("JunkPIN(%q) = false", p)
		}
	}
	for _, p := range []string{"06815N0003", "8571500182", "2926", "517992", "ES#056-14-2026", "BBP MO 100114", "UCO - 560",
		"85715B0065 see attached", "PIN 06815N0003 (pending registration)", "RFP HRA 2019",
		// real identifiers of the park trusts' solicitations, not sentences
		"TGI-RED-AdaptiveReus", "BBP Pier 1 LED Insta", "TGI-OPS-GutterMainte"} {
		if JunkPIN(p) {
			t.Errorf("JunkPIN(%q) = true", p)
		}
	}
	bases := map[string]string{
		"06814L0041001N001":    "06814L0041",
		"85015B0065001C021":    "85015B0065",
		"85015B0065":           "85015B0065",
		"8571500182":           "8571500182",
		"06807N0007CNVN005":    "06807N0007",
		"2926":                 "",
		"ES#056-14-2026":       "",
		"BBP Pier 1 LED Insta": "",
	}
	for in, want := range bases {
		if got := PINBase(in); got != want {
			t.Errorf("PINBase(%q) = %q, want %q", in, got, want)
		}
	}
	renewals := map[string]string{
		"07219P0148001R002":     "07219P0148001",
		"01718P0191001R001R001": "01718P0191001",
		"84120P8912KXLR001":     "84120P8912KXL",
		"06815N0003":            "06815N0003",
	}
	for in, want := range renewals {
		if got := StripRenewal(in); got != want {
			t.Errorf("StripRenewal(%q) = %q, want %q", in, got, want)
		}
	}
	links := []struct{ a, b, method string }{
		{"85015B0065", "85015B0065", PINExact},
		{"07219P0148001R002", "07219P0148001R004", PINRenewal},
		{"85015B0065", "85015B0065001C021", PINPrefix},
		{"06814L0041", "06814l0041001n001", PINPrefix},
		{"N/A", "N/A", ""},
		{"2926", "29260", ""},
	}
	for _, l := range links {
		m, ok := PINLink(l.a, l.b)
		if m != l.method || ok != (l.method != "") {
			t.Errorf("PINLink(%q, %q) = %q %v, want %q", l.a, l.b, m, ok, l.method)
		}
	}
}

// Vendor names from the 2014 awards and Checkbook rows: suffix and case
// variants meet on one stem, and the stem survives its URL slug.
func TestVendorStemsAndSlugs(t *testing.T) {
	groups := [][]string{
		{"Williamsbridge NAACP Early Childhood Education Center", "Williamsbridge NAACP Early Childhood Education Center, Inc.",
			"WILLIAMSBRIDGE NAACP EARLY CHILDHOOD EDUCATION CENTER INC", "Williamsbridge NAACP Early Childhood Education Center Incorporated"},
		{"Securus Technologies, Inc.", "SECURUS TECHNOLOGIES INC", "Securus Technologies LLC"},
		{"TISHMAN CONSTRUCTION CORPORATION OF NY", "Tishman Construction Corp."},
	}
	for _, g := range groups {
		for _, name := range g[1:] {
			if VendorStem(name) != VendorStem(g[0]) {
				t.Errorf("%q → %q, %q → %q", g[0], VendorStem(g[0]), name, VendorStem(name))
			}
		}
	}
	for _, stem := range []string{"SKANSKA-TREVCON JV", "ACME CONSTRUCTION", "CDE AIR CONDITIONING"} {
		if got := StemFromSlug(StemSlug(stem)); got != stem {
			t.Errorf("%q → %q → %q", stem, StemSlug(stem), got)
		}
	}
	if StemSlug("SKANSKA-TREVCON JV") != "skanska~trevcon-jv" {
		t.Errorf("slug %q", StemSlug("SKANSKA-TREVCON JV"))
	}
}
