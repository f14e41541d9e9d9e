package people_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/people"
)

// olderRelease is the bundled roster as an earlier release (file renamed
// to an earlier date) in which the ACS row prints no principal officer:
// its name, first, last name and title fields are blanked, so that the
// newer real release changes the ACS leader.
func olderRelease(t *testing.T) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile("../../testdata/sample/leaders/" + rosterCSV)
	if err != nil {
		t.Fatal(err)
	}
	const row = "Rebecca Jones Gaston,Rebecca,Jones Gaston,Commissioner,"
	if strings.Count(string(data), row) != 1 {
		t.Fatal("the ACS row is not in the sample as expected")
	}
	return map[string][]byte{"t3jq-9nkf_NYCGovernanceOrganizations_v1.7.0_2025-12-01.csv": []byte(strings.Replace(string(data), row, ",,,,", 1))}
}

// The roster half of the people lens: an agency whose newer release
// prints another principal officer than the release before has one dated
// leader change with a stable id; an agency whose releases agree has none;
// an agency no release prints reads unknown.
func TestRosterLeaderChanges(t *testing.T) {
	ctx := context.Background()
	svc := loaded(t, olderRelease(t))
	var unrostered string
	named := rosterIDs(t)
	for _, a := range svc.Crosswalk.Agencies() {
		if !named[a.NYCGOID] {
			unrostered = a.ID
			break
		}
	}
	as, err := svc.Roster(ctx, []string{"administration-for-childrens-services", "police-department", unrostered})
	if err != nil || len(as) != 3 {
		t.Fatalf("roster: %+v %v", as, err)
	}
	acs := as[0]
	if acs.State != people.Published || acs.RecordID != "NYC_GOID_000002" || len(acs.Releases) != 2 || acs.Releases[0] != "2026-06-12" ||
		acs.Newest == nil || acs.Newest.Name != "Rebecca Jones Gaston" || len(acs.Changes) != 1 || acs.Page != "/organizations/NYC_GOID_000002/" {
		t.Fatalf("ACS: %+v", acs)
	}
	c := acs.Changes[0]
	if c.ID != "roster:NYC_GOID_000002@2026-06-12" || c.Leader.Name != "Rebecca Jones Gaston" || c.Previous.NameState != people.Empty ||
		c.AsOf != "as of 2026-06-12" || !strings.Contains(c.Summary, "as of 2025-12-01 printed no principal officer name") ||
		strings.Contains(strings.ToLower(c.Summary), "current") {
		t.Fatalf("ACS change: %+v", c)
	}
	if p := as[1]; p.State != people.Published || len(p.Releases) != 2 || len(p.Changes) != 0 || p.Changes == nil {
		t.Fatalf("police (releases agree): %+v", p)
	}
	if u := as[2]; u.State != people.Unknown || len(u.Changes) != 0 || !strings.Contains(u.Note, "unknown, not empty") {
		t.Fatalf("%s (no roster row): %+v", unrostered, u)
	}
	if ids := people.Changes(as); len(ids) != 1 || ids[0].ID != c.ID {
		t.Fatalf("changes: %+v", ids)
	}
}
