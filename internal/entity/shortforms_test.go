package entity

import (
	"strings"
	"testing"
)

func TestAgencyShortFormsInKeywords(t *testing.T) {
	cw := DefaultCrosswalk()
	for _, c := range []struct {
		q    string
		want []string // inputs offered
	}{
		{"HPD roof repairs", []string{"HPD"}},
		{"hpd roof repairs", nil},
		{"DOT paving", []string{"DOT"}},
		{"dot matrix printer", nil},
		{"NYPD towing DCAS fleet", []string{"NYPD", "DCAS"}},
		{"roof repairs -HPD", nil},
		{`"HPD roof" repairs`, nil},
		{"HPD HPD", []string{"HPD"}},
		{"construction services", nil},
		{"parks", nil}, // a nickname but not a short form
		{"(FDNY),", []string{"FDNY"}},
		{"DEP ACS HRA NYCHA", []string{"DEP", "ACS", "HRA", "NYCHA"}},
		{"ROOF REPAIRS NOW", nil},
	} {
		var got []string
		for _, r := range cw.AgencyShortForms(c.q) {
			got = append(got, r.Input)
			if len(r.IDs) == 0 || r.Name == "" {
				t.Errorf("%q: %+v has no agency", c.q, r)
			}
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("AgencyShortForms(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}
