package entity

import (
	"slices"
	"strings"
	"testing"
)

func TestVendorFromTextShapes(t *testing.T) {
	for _, c := range []struct {
		typ, text, name, reason string
		counted                 bool
	}{
		{"Award", "DEBRIS CONTAINER RENTAL - Emergency Purchase - PIN# 8571400068 - AMT: $628,119.16 - TO: Filco Carting Corp. 111 Gardener Avenue, Brooklyn, NY  11237", "Filco Carting Corp.", "", true},
		{"Award", "X - AMT: $1.00 - TO: Woods Services, Inc., P.O. Box 36, Langhorne, PA 19047.", "Woods Services, Inc.", "", true},
		{"Award", "X - TO: CARDINAL HEALTH 411 INC. 7000 Cardinal Place, Dublin, OH 43017", "CARDINAL HEALTH 411 INC.", "", true},
		{"Award", "X - TO: MIVILA CORP. DBA MIVILA FOODS 123 Main Street, Bronx, NY 10451", "MIVILA CORP. DBA MIVILA FOODS", "", true},
		{"Award", "X - TO: Video Corporation of America, 7 Delaware Drive, Secaucus, NJ 07094", "Video Corporation of America", "", true},
		{"Award", "X - TO: Thomas Balsley Associates, New York, NY 10001.", "Thomas Balsley Associates", "", true},
		{"Award", "X - TO: Bank Of New York Mellon, BNY Mellon Center, Rm 3210, Pittsburgh, PA 15258.", "", "runs into an address", false},
		{"Award", "X - TO: Acme Paving Inc., 1 Main St - TO: Other Builders LLC, 2 Side St", "", "several vendors", false},
		{"Award", "no printout line here", "", "no award_to or concession_to phrase", false},
		{"Intent to Award", "Parks intends to enter into a Sole Source negotiation with Asphalt Green, Inc., a not-for-profit organization, to provide", "Asphalt Green, Inc.", "", true},
		{"Intent to Award", "The Department intends to enter into negotiation with its` incumbent vendor to continue", "", "names no vendor", false},
		{"Intent to Award", "HRA intends to extend the contract with the following vendors: 1. A Inc.", "", "not followed by a name", false},
		{"Intent to Award", "ACS intends to enter into negotiations with Ferncliff Manor for the Retarded, Inc. and Woods Services, Inc. for care", "", "unsure where the name ends", false},
		{"Intent to Award", "DOC intends to enter into negotiations with Acme Inc. and Beta Corp. for the work", "", "several vendors", false},
		{"Intent to Award", "NYPD intends to award a contract to Cleer Medical LLC through a Sole Source procurement method", "Cleer Medical LLC", "", true},
		{"Intent to Award", "NYPD intends to award a contract to Foster Miller, Inc. dba QinetiQ, North America through a Sole Source", "Foster Miller, Inc. dba QinetiQ, North America", "", true},
		{"Intent to Award", "this is Intent to Award (RENEWAL) for Computer services for the Queens Borough President’s Office to eMTee, Inc. The contract shall run", "eMTee, Inc.", "", true},
		{"Intent to Award", "DEP intends to enter into a Sole Source Agreement with the Catskill Watershed Corporation, for CAT-442", "Catskill Watershed Corporation", "", true},
		{"Intent to Award", "DFTA intends to enter into a two year contract, including an option to renew, with The New York Academy of Medicine (NYAM) to expand", "The New York Academy of Medicine", "", true},
		{"Intent to Award", "It is the intent of the Law Department (“Department”) to enter into a six-month extension contract with the firm of Atlantic Imaging Group IPA, LLC (“Atlantic Imaging”), pursuant", "Atlantic Imaging Group IPA, LLC", "", true},
		{"Intent to Award", "Courier Messenger Services contract with Deluxe Delivery Service to be extended for an additional period", "Deluxe Delivery Service", "", true},
		{"Intent to Award", "This negotiation is between Capital One Bank and the New York City Department of Finance", "Capital One Bank", "", false},
		{"Award", "The City of New York Department of Parks and Recreation (”Parks”) has awarded a concession to Paerdegat Squadron, Inc. (“Paerdegat Squadron”) of 1330 Paerdegat Avenue North", "Paerdegat Squadron, Inc.", "", true},
		{"Award", "Parks has awarded a concession to Freetime, Inc., d/b/a Wheel Fun Rentals, whose address is 4526 Telephone Road", "Freetime, Inc., d/b/a Wheel Fun Rentals", "", true},
		{"Award", "Parks has entered into License Agreement (“Agreement”) with the Council on the Environment, Inc. D B A “GrowNYC” of 51 Chambers Street", "Council on the Environment, Inc. D B A GrowNYC", "", true},
		{"Solicitation", "TO: Acme Inc. 1 Main St", "", "awards and intents only", false},
		{"Award", "", "", "no text", false},
	} {
		r := VendorFromText(c.typ, c.text)
		if r.Name != c.name || !strings.Contains(r.Reason, c.reason) || r.Counted != c.counted || r.Method != VendorMethodText {
			t.Errorf("%s %q:\n got %+v\nwant name %q reason ~%q counted %v", c.typ, c.text, r, c.name, c.reason, c.counted)
		}
		if r.Name != "" && (r.Evidence == "" || r.Stem != VendorStem(r.Name)) {
			t.Errorf("%q: no evidence or stem: %+v", c.text, r)
		}
		if r.Name != "" && (r.Confidence <= 0 || r.Confidence >= 1) {
			t.Errorf("%q: confidence %v", c.text, r.Confidence)
		}
	}
}

func TestVendorFromTextLists(t *testing.T) {
	for _, c := range []struct {
		text   string
		names  []string
		reason string
	}{
		{"HRA intends to extend the contract with the following vendors: 1. Acme Housing, Inc. PIN:14EH01 Contract Amount:$455,213.00 2. Bowery Residents Committee (Pitt Street), PIN:14EH02 Contract Amount:$264,988.00 3. Acme Housing Inc PIN:14EH03", []string{"Acme Housing, Inc.", "Bowery Residents Committee"}, ""},
		{"HRA intends to extend the 3 contracts with vendors listed below: 1 Association For Services For the Aged $5,874,948 2 Best Care, Inc. D/B/A All City Care $566,132 3 Project O.H.R., Inc.(Office of HC Referral) $3,996,463 Total $1", []string{"Association For Services For the Aged", "Best Care, Inc. D/B/A All City Care", "Project O.H.R., Inc."}, ""},
		{"The provider’s name, address PIN and amounts is as follows: PIN - 26015400009A Amount - $406,590 The After-School Corporation 1440 Broadway, New York, NY 10018 PIN - 26015400007A Amount - $526,997 Development without Limits (DWL) 244 5th Avenue, New York, NY 10001", []string{"The After-School Corporation", "Development without Limits"}, ""},
		{"1) New York Foundling 2) Palladia Inc. 3) The Child Center of New York In accordance with Section 3-04", nil, "last vendor ends"},
		{"the following vendors: 1. Acme Inc. PIN:1 2. Beta 12345 Main PIN:2", nil, "not a clear name"},
	} {
		r := VendorFromText("Intent to Award", c.text)
		if !slices.Equal(r.Names, c.names) || r.Name != "" || !strings.Contains(r.Reason, c.reason) || r.Counted {
			t.Errorf("%q:\n got %+v\nwant names %q reason ~%q", c.text, r, c.names, c.reason)
		}
		if c.names != nil && (r.Pattern != VendorPatternList || !strings.Contains(r.UncountedReason, "several vendors") || r.Evidence == "") {
			t.Errorf("%q: a list reading: %+v", c.text, r)
		}
	}
}

// The count bar: a pattern is counted when measured on the labelled set
// at precision 0.98 or above, on at least VendorTextMinPublished readings;
// an uncounted reading says why.
func TestVendorTextCountBar(t *testing.T) {
	defer func(saved map[string]VendorTextMeasure) { VendorTextMeasured = saved }(VendorTextMeasured)
	VendorTextMeasured = map[string]VendorTextMeasure{
		"a": {Published: 100, Correct: 98},
		"b": {Published: 100, Correct: 97},
		"c": {Published: 2, Correct: 2},
		"d": {Published: 3, Correct: 3},
	}
	if c := (VendorTextMeasure{Published: 368, Correct: 366}).Confidence(); c < 0.97 || c > 0.99 {
		t.Errorf("confidence of 366/368 = %v", c)
	}
	if c := (VendorTextMeasure{Published: 24, Correct: 24}).Confidence(); c < 0.85 || c > 0.87 {
		t.Errorf("confidence of 24/24 = %v", c)
	}
	for p, want := range map[string]string{"a": "", "b": "under the 0.98 bar", "c": "read only 2", "d": "", "e": "not measured"} {
		if got := vendorTextUncounted(p); VendorTextCounted(p) != (want == "") || !strings.Contains(got, want) || (want == "") != (got == "") {
			t.Errorf("%s: counted %v, reason %q, want ~%q", p, VendorTextCounted(p), got, want)
		}
	}
	VendorTextMeasured["intent_with"] = VendorTextMeasure{Published: 100, Correct: 90}
	r := VendorFromText("Intent to Award", "DOC intends to enter into negotiations with Teltronics, Inc. for the maintenance")
	if r.Name != "Teltronics, Inc." || r.Counted || !strings.Contains(r.UncountedReason, "under the 0.98 bar") || r.Precision == nil || *r.Precision != 0.9 {
		t.Errorf("a reading of a rule under the bar: %+v", r)
	}
}

// Whatever the text, the reader does not panic, and a reading holds
// together: a name has its stem and evidence, a list is never counted, no
// reading has a reason.
func FuzzVendorFromText(f *testing.F) {
	for _, s := range []string{
		"NYPD intends to award a contract to Cleer Medical LLC through a Sole Source",
		"the following vendors: 1. Acme Inc. PIN:1 2. Beta Corp. PIN:2",
		"1) A 2) B",
		"as follows: PIN - 1 Amount - $1 X Inc 1 Main St PIN - 2 Amount - $2 Y LLC 2 Main St",
		"has awarded a concession to Freetime, Inc., d/b/a Wheel Fun Rentals, whose address is",
		"X - AMT: $1.00 - TO: Woods Services, Inc., P.O. Box 36",
		"contract with ÉÉ to be extended", "\xff\xfe1) \xc3", "",
	} {
		f.Add("Intent to Award", s)
		f.Add("Award", s)
	}
	f.Fuzz(func(t *testing.T, typ, text string) {
		r := VendorFromText(typ, text)
		switch {
		case r.Name != "" && (r.Stem != VendorStem(r.Name) || r.Evidence == "" || r.Reason != "" || len(r.Names) != 0):
			t.Errorf("name reading %+v", r)
		case len(r.Names) > 0 && (len(r.Names) < 2 || r.Counted || r.Pattern != VendorPatternList || r.Reason != ""):
			t.Errorf("list reading %+v", r)
		case r.Name == "" && len(r.Names) == 0 && (r.Reason == "" || r.Counted):
			t.Errorf("no reading without a reason %+v", r)
		}
	})
}
