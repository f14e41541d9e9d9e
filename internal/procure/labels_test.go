package procure_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
)

// Accepted analysis labels are agencies only: the City Record sections the
// DCAS agency list carries as agencies are never labels nor suggestions;
// an unknown label always gets at least one suggestion.
func TestAnalysisLabelsAreAgencies(t *testing.T) {
	s := &procure.Service{Crosswalk: entity.DefaultCrosswalk()}
	labels := s.AgencyLabels().Labels
	for _, bad := range []string{"Board Meetings", "Changes in Personnel"} {
		if slices.Contains(labels, bad) {
			t.Errorf("%q is an accepted label", bad)
		}
	}
	if !slices.Contains(labels, "Police Department") || !slices.Contains(labels, "Parks and Recreation") {
		t.Errorf("labels %d", len(labels))
	}
	for in, want := range map[string]string{
		"NYPD": "Police Department", "Parks": "Parks and Recreation", "DEPT OF PARKS & RECREATION": "Parks and Recreation",
		"police department": "Police Department", "Changes in Personnel": "", "xqzzyv": "", strings.Repeat("zz ", 80): "",
	} {
		sg := s.SuggestLabels(in)
		if len(sg) == 0 || want != "" && !slices.Contains(sg, want) {
			t.Errorf("%q: suggestions %v, want %q among them", in, sg, want)
		}
		for _, l := range sg {
			if !slices.Contains(labels, l) {
				t.Errorf("%q: suggested %q, not an accepted label", in, l)
			}
		}
	}
}

// The kinds whose printed agency /agencies lists are the kinds' own names.
func TestAgencyRawKindsAreKinds(t *testing.T) {
	want := []string{procure.PayrollKind.Name, meeting.Kind.Name, people.KindOrganization}
	if !slices.Equal(procure.AgencyRawKinds, want) {
		t.Errorf("AgencyRawKinds %v, want %v", procure.AgencyRawKinds, want)
	}
}
