package entity

import (
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
		{"Award", "no printout line here", "", "no award_to phrase", false},
		{"Intent to Award", "Parks intends to enter into a Sole Source negotiation with Asphalt Green, Inc., a not-for-profit organization, to provide", "Asphalt Green, Inc.", "", false},
		{"Intent to Award", "The Department intends to enter into negotiation with its` incumbent vendor to continue", "", "names no vendor", false},
		{"Intent to Award", "HRA intends to extend the contract with the following vendors: 1. A Inc.", "", "not a name", false},
		{"Intent to Award", "ACS intends to enter into negotiations with Ferncliff Manor for the Retarded, Inc. and Woods Services, Inc. for care", "", "unsure where the name ends", false},
		{"Intent to Award", "DOC intends to enter into negotiations with Acme Inc. and Beta Corp. for the work", "", "several vendors", false},
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

// The count bar: only a pattern measured against a vendor field, on 30
// published rows or more, at precision 0.95 or above, is counted.
func TestVendorTextCountBar(t *testing.T) {
	defer func(saved map[string]VendorTextMeasure) { VendorTextMeasured = saved }(VendorTextMeasured)
	VendorTextMeasured = map[string]VendorTextMeasure{
		"a": {Rows: 100, Published: 100, Correct: 95, AgainstField: true},
		"b": {Rows: 100, Published: 100, Correct: 94, AgainstField: true},
		"c": {Rows: 29, Published: 29, Correct: 29, AgainstField: true},
		"d": {Rows: 100, Published: 100, Correct: 100},
	}
	if c := (VendorTextMeasure{Published: 368, Correct: 366}).Confidence(); c < 0.97 || c > 0.99 {
		t.Errorf("confidence of 366/368 = %v", c)
	}
	if c := (VendorTextMeasure{Published: 24, Correct: 24}).Confidence(); c < 0.85 || c > 0.87 {
		t.Errorf("confidence of 24/24 = %v", c)
	}
	for p, want := range map[string]bool{"a": true, "b": false, "c": false, "d": false, "e": false} {
		if VendorTextCounted(p) != want {
			t.Errorf("%s counted %v", p, !want)
		}
	}
}
