package entity

import (
	"slices"
	"testing"
)

// Short vendor names keep one identity for every legal-suffix variant:
// before, the suffix was kept when 3 characters or fewer remained, so
// "ABC INC" and "ABC CORP" were two vendors. Initials written with periods
// ("A.B.C.") meet the plain form. Names copied from the City Record award
// rows and Checkbook NYC vendor columns.
func TestVendorStemShortNamesOneIdentity(t *testing.T) {
	for _, tc := range []struct {
		want  string
		names []string
	}{
		{"ABC", []string{"ABC Inc.", "ABC Corp", "A.B.C. LLC", "ABC, L.L.C.", "A B C Corporation", "ABC CO", "abc incorporated"}},
		{"CDE", []string{"CDE INC", "CDE Corp.", "C.D.E. Company"}},
		{"EEG", []string{"EEG, Inc.", "E.E.G. CORP", "EEG LLC"}},
		{"JP MORGAN CHASE BANK", []string{"J.P. Morgan Chase Bank", "JP Morgan Chase Bank", "J P MORGAN CHASE BANK"}},
		{"ÉÉÉ", []string{"ÉÉÉ Inc.", "ÉÉÉ LLC"}},
	} {
		for _, n := range tc.names {
			if got := VendorStem(n); got != tc.want {
				t.Errorf("VendorStem(%q) = %q, want %q", n, got, tc.want)
			}
		}
	}
}

// A hyphen inside a name is a space for identity: "Ho-Tran Inc" and
// "HO TRAN INC" are one vendor, found by either spelling and by slug.
func TestVendorStemHyphenInsideWord(t *testing.T) {
	for _, tc := range []struct {
		want  string
		names []string
	}{
		{"HO TRAN", []string{"Ho-Tran Inc", "HO TRAN INC", "HO-TRAN", "ho-tran"}},
		{"SKANSKA TREVCON JV", []string{"Skanska-Trevcon JV", "SKANSKA TREVCON JV", "skanska~trevcon-jv", "skanska-trevcon-jv"}},
		{"A 1 CONTRACTING", []string{"A-1 Contracting Corp.", "A 1 CONTRACTING"}},
	} {
		for _, n := range tc.names {
			if got := VendorStem(StemFromSlug(n)); got != tc.want {
				t.Errorf("VendorStem(StemFromSlug(%q)) = %q, want %q", n, got, tc.want)
			}
		}
		if got := StemSlug(tc.want); VendorStem(StemFromSlug(got)) != tc.want {
			t.Errorf("slug %q does not come back to %q", got, tc.want)
		}
	}
}

// StemKeys lets a stem written by the new rule find records indexed under
// the old one: the old stems were kept as record keys.
func TestStemKeysMatchLegacyStems(t *testing.T) {
	for _, tc := range []struct {
		stem   string
		legacy []string // stems the old rule stored for the same vendor
		not    []string // other vendors' stems
	}{
		{"ABC", []string{"ABC", "ABC INC", "ABC CORP", "A B C", "ABC L L C", "ABC CO"}, []string{"ABCD", "ABC CONSTRUCTION", "AB"}},
		{"ABC INC", []string{"ABC", "ABC INC", "ABC CORP"}, nil}, // an old stem asked for reads as its new one
		{"HO TRAN", []string{"HO TRAN", "HO-TRAN"}, []string{"HOTRAN"}},
		{"SKANSKA TREVCON JV", []string{"SKANSKA-TREVCON JV"}, nil},
		{"CDW GOVERNMENT", []string{"CDW - GOVERNMENT", "CDW-GOVERNMENT"}, nil},
		{"JP MORGAN CHASE BANK", []string{"J P MORGAN CHASE BANK"}, nil},
		{"TISHMAN CONSTRUCTION", []string{"TISHMAN CONSTRUCTION"}, []string{"TISHMAN CONSTRUCTION CORP"}},
	} {
		keys := StemKeys(tc.stem)
		for _, l := range tc.legacy {
			if !slices.Contains(keys, l) {
				t.Errorf("StemKeys(%q) lacks legacy stem %q: %q", tc.stem, l, keys)
			}
		}
		for _, l := range tc.not {
			if slices.Contains(keys, l) {
				t.Errorf("StemKeys(%q) holds another vendor's stem %q", tc.stem, l)
			}
		}
		if len(keys) > 200 {
			t.Errorf("StemKeys(%q): %d keys", tc.stem, len(keys))
		}
	}
	if !SameVendor("HO-TRAN", "HO TRAN") || !SameVendor("ABC INC", "ABC CORP") || SameVendor("ABC", "ABD") {
		t.Error("SameVendor")
	}
}

// Every placeholder a clerk types in the PIN field is junk: it never forms
// a matter. Values seen in City Record and Checkbook rows.
func TestJunkPINPlaceholders(t *testing.T) {
	for _, p := range []string{"none", "N/A", "n.a.", "NA.", "TBD", "T.B.D.", "tba", "various", "Various PINs", "VARIOUS PIN'S",
		"see below", "See Below.", "SEE ATTACHED", "see attached list", "Multiple", "multiple PINs", "MULTIPLE PIN #S",
		"0", "00000", "0000000000", "000-00-0000", "NONE.", "N/A - N/A", "not applicable", "Pending", "to be determined",
		"see list", "See Attachment", "see above", "various - see below", "PIN: N/A", "PIN# TBD", "#", "n/a n/a", "na",
		"1234567890", "9999999999", "xxxxxxxxxx", "various, see attached",
		".VARIOUS.", "BELOW ........", "12345.", "PIN"} { // the last four as printed in 2014 City Record rows
		if !JunkPIN(p) {
			t.Errorf("JunkPIN(%q) = false", p)
		}
	}
	for _, p := range []string{"06815N0003", "8571500182", "2926", "517992", "ES#056-14-2026", "BBP MO 100114", "UCO - 560",
		"20140001", "85015B0065001C021", "07219P0148001R002", "NONE123"} {
		if JunkPIN(p) {
			t.Errorf("JunkPIN(%q) = true", p)
		}
	}
}

// A renewal suffix is removed whatever the length of the base.
func TestStripRenewalShortBase(t *testing.T) {
	for in, want := range map[string]string{
		"2926R001":              "2926",
		"BBP100R001R001":        "BBP100",
		"ES#056-14R01":          "ES#056-14",
		"07219P0148001R002":     "07219P0148001",
		"01718P0191001R001R001": "01718P0191001",
		"R001":                  "R001", // nothing is left: not a renewal
		"2926":                  "2926",
	} {
		if got := StripRenewal(in); got != want {
			t.Errorf("StripRenewal(%q) = %q, want %q", in, got, want)
		}
	}
	if m, ok := PINLink("2926R001", "2926"); !ok || m != PINRenewal {
		t.Errorf("PINLink(2926R001, 2926) = %q %v", m, ok)
	}
}

// The R of a standard PIN's method letter is not a renewal.
func TestStripRenewalKeepsStandardBase(t *testing.T) {
	for _, p := range []string{"85715R0065", "06815R0003", "82714RR00007", "100912R099"} {
		if got := StripRenewal(p); got != p {
			t.Errorf("StripRenewal(%q) = %q", p, got)
		}
	}
	if got := StripRenewal("85715R0065R001"); got != "85715R0065" {
		t.Errorf("StripRenewal(85715R0065R001) = %q", got)
	}
}

// Spellings of the NYC Governance Organizations roster (t3jq-9nkf v1.8.43:
// former names and alternate acronyms) and its name crosswalk that got
// their own id, or no agency, before they were mapped.
func TestRosterSpellingsMapped(t *testing.T) {
	cw := DefaultCrosswalk()
	for _, tc := range []struct{ spelling, id string }{
		{"World Trade Center Memorial Foundation", "national-september-11-memorial-and-museum"},
		{"Law Dept.", "law-department"},
		{"Office of M/WBE", "mayors-office-of-minority-and-women-owned-business-enterprises"},
		{"DOH", "health-and-mental-hygiene"},
		{"IGA", "office-of-intergovernmental-affairs"},
		{"MOE", "mayors-office-of-equity-and-racial-justice"},
		{"NYCTAAC", "new-york-city-transit-riders-council"},
		{"NYC TLC", "taxi-and-limousine-commission"},
		{"NYC3", "cyber-command"},
		{"MODA", "office-of-data-analytics"},
		{"MOIP", "office-of-information-privacy"},
		{"OIGNYPD", "office-of-the-inspector-general-for-the-nypd"},
	} {
		r, err := cw.ResolveName("agency", tc.spelling)
		if err != nil || !slices.Equal(r.IDs, []string{tc.id}) {
			t.Errorf("ResolveName(%q) = %v %v, want %s", tc.spelling, r.IDs, err, tc.id)
		}
	}
	// payroll spellings of the bundled sample (citywide payroll FY2016)
	for raw, id := range map[string]string{
		"DISTRICT ATTORNEY-MANHATTAN   ": "district-attorney-new-york-county",
		"DISTRICT ATTORNEY KINGS COUNTY": "district-attorney-kings-county",
		"POLICE DEPARTMENT":              "police-department",
	} {
		if l := cw.Resolve(raw); l.ID != id || l.Method == MethodOwn {
			t.Errorf("Resolve(%q) = %s (%s)", raw, l.ID, l.Method)
		}
	}
}

// Mentions of a stem that joined initials also ask for them spelled apart,
// as "C.A.C. Industries" is read by the analyzers.
func TestMentionQuery(t *testing.T) {
	for stem, want := range map[string]string{
		"CAC INDUSTRIES":         `"cac industries" "c a c industries"`,
		"IBM":                    `ibm "i b m"`,
		"DENVILLE LINE PAINTING": `"denville line painting"`,
		"THE NEW SCHOOL":         `"the new school"`,
		"MAKE IT ZESTY":          `"make it zesty"`,
	} {
		if got := MentionQuery(stem); got != want {
			t.Errorf("MentionQuery(%q) = %s, want %s", stem, got, want)
		}
	}
}
