package entity

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCrosswalkRealSpellings links spellings copied from the real sources
// (City Record 2014 and 2026 rows, citywide payroll, Checkbook NYC,
// PASSPort and cityscroll contract rows, the NYC governance crosswalk).
func TestCrosswalkRealSpellings(t *testing.T) {
	cw := DefaultCrosswalk()
	cases := []struct {
		raw, id, method string
	}{
		// the examples
		{"Police", "police-department", MethodShort},
		{"Police Department", "police-department", MethodExact},
		{"POLICE DEPARTMENT", "police-department", MethodKey},
		{"NEW YORK CITY POLICE DEPARTMENT", "police-department", MethodShort},
		{"DEPT OF PARKS & RECREATION", "parks-and-recreation", MethodShort},
		{"DEPARTMENT OF PARKS AND RECREATION", "parks-and-recreation", MethodShort},
		{"Parks and Recreation", "parks-and-recreation", MethodExact},
		{"ADMIN FOR CHILDREN'S SVCS", "administration-for-childrens-services", MethodShort},
		{"ADMIN FOR CHILDRENS SVCS", "administration-for-childrens-services", MethodShort},
		{"ADMINISTRATION FOR CHILDREN'S SERVICES", "administration-for-childrens-services", MethodKey},
		{"Administration for Children's Services", "administration-for-childrens-services", MethodExact},
		{"HOUSING PRESERVATION & DVLPMNT", "housing-preservation-and-development", MethodShort},
		{"DEPT OF INFO TECH & TELECOMM", "information-technology-and-telecommunications", MethodShort},
		{"HRA/DEPT OF SOCIAL SERVICES", "human-resources-administration", MethodShort},
		{"Human Resources Administration", "human-resources-administration", MethodExact},
		{"Dept. of Social Svcs/Human Resources Administration", "human-resources-administration", MethodShort},
		{"DEPT. OF HOMELESS SERVICES", "homeless-services", MethodShort},
		{"DEPARTMENT OF CORRECTION", "correction", MethodShort},
		{"Correction", "correction", MethodExact},
		// county and borough names of the same DA office
		{"District Attorney - New York County", "district-attorney-new-york-county", MethodExact},
		{"DISTRICT ATTORNEY-MANHATTAN   ", "district-attorney-new-york-county", MethodShort},
		{"Manhattan District Attorney's Office", "district-attorney-new-york-county", MethodShort},
		{"DISTRICT ATTORNEY KINGS COUNTY", "district-attorney-kings-county", MethodKey},
		{"District Attorney - Kings County", "district-attorney-kings-county", MethodExact},
		{"Brooklyn District Attorney's Office", "district-attorney-kings-county", MethodShort},
		{"District Attorney - Bronx County", "district-attorney-bronx-county", MethodExact},
		{"DISTRICT ATTORNEY RICHMOND COU", "district-attorney-richmond-county", MethodShort},
		// renames
		{"Consumer Affairs", "consumer-and-worker-protection", MethodShort},
		{"Consumer and Worker Protection", "consumer-and-worker-protection", MethodExact},
		{"Health and Hospitals Corporation", "nyc-health-hospitals", MethodShort},
		{"NYC Health + Hospitals", "nyc-health-hospitals", MethodExact},
		{"Design Commission", "public-design-commission", MethodShort},
		{"Office of Emergency Management", "emergency-management", MethodShort},
		{"OFFICE OF EMERGENCY MANAGEMENT", "emergency-management", MethodShort},
		{"Emergency Management", "emergency-management", MethodExact},
		// Checkbook NYC and PASSPort spellings
		{"Department of Design and Construction", "design-and-construction", MethodShort},
		{"DEPARTMENT OF DESIGN AND CONSTRUCTION", "design-and-construction", MethodShort},
		{"Queens Borough Public Library", "public-library-queens", MethodShort},
		{"Public Library - Queens", "public-library-queens", MethodExact},
		{"Department of Education", "education", MethodShort},
		{"DEPARTMENT OF HEALTH AND MENTAL HYGIENE", "health-and-mental-hygiene", MethodShort},
		{"DEPARTMENT OF YOUTH AND COMMUNITY DEVELOPMENT", "youth-and-community-development", MethodShort},
		{"DCASDIVISION OF MUNICIPAL SUPPLY SERVICE", "citywide-administrative-services", MethodShort},
		{"Veterans' Services", "department-of-veterans-services", MethodShort},
		// the retry without a leading DEPARTMENT OF / NYC
		{"DEPARTMENT OF RECORDS AND INFORMATION SERVICES", "records-and-information-services", MethodShort},
		{"NYC Department of Buildings", "buildings", MethodShort},
		{"Department of Probation", "probation", MethodShort},
		// families
		{"BROOKLYN COMMUNITY BOARD 18", "community-boards", MethodFamily},
		{"MANHATTAN COMMUNITY BOARD #1", "community-boards", MethodFamily},
		{"Community Boards", "community-boards", MethodExact},
		{"COMMUNITY COLLEGE (BRONX)", "city-university", MethodFamily},
		{"HUNTER COLLEGE", "city-university", MethodFamily},
		{"CUNY Central Office", "city-university", MethodFamily},
		{"City University", "city-university", MethodExact},
		{"BOARD OF ELECTION POLL WORKERS", "board-of-elections", MethodFamily},
		{"PUB ADMIN KINGS COUNTY", "public-administrator-kings-county", MethodFamily},
		{"PUBLIC ADMINISTRATOR-BRONX", "public-administrator-bronx-county", MethodShort},
		{"OFFICE OF THE BRONX PUBLIC ADMINISTRATOR", "public-administrator-bronx-county", MethodFamily},
		{"Public Administrator - Richmond County", "public-administrator-richmond-county", MethodExact},
		{"DEPT OF ED PEDAGOGICAL", "education", MethodFamily},
		// unknown spellings keep their own id
		{"Mayor's Office of Something New", "mayors-office-of-something-new", MethodOwn},
	}
	for _, c := range cases {
		got := cw.Resolve(c.raw)
		if got.ID != c.id || got.Method != c.method || got.Raw != c.raw {
			t.Errorf("Resolve(%q) = %s (%s, %s), want %s (%s)", c.raw, got.ID, got.Method, got.Note, c.id, c.method)
		}
	}
}

// TestDistinctAgenciesStayApart: offices that share words never share an id.
func TestDistinctAgenciesStayApart(t *testing.T) {
	cw := DefaultCrosswalk()
	groups := [][]string{
		{"District Attorney - New York County", "DISTRICT ATTORNEY-MANHATTAN", "District Attorney - Bronx County",
			"BRONX DISTRICT ATTORNEY", "District Attorney - Kings County", "District Attorney - Queens County",
			"District Attorney - Richmond County", "Office of the Special Narcotics Prosecutor"},
		{"Public Administrator - New York County", "Public Administrator - Bronx County", "Public Administrator - Kings County",
			"Public Administrator - Queens County", "Public Administrator - Richmond County"},
		{"Borough President - Manhattan", "Borough President - Bronx", "Borough President - Brooklyn",
			"Borough President - Queens", "Borough President - Staten Island"},
		{"City Planning", "City Planning Commission"},
		{"Board of Correction", "Correction"},
		{"Police Department", "New York City Police Pension Fund", "Civilian Complaint Review Board"},
		{"NYC Health + Hospitals", "Health and Mental Hygiene"},
		{"Housing Authority", "Housing Preservation and Development"},
		{"Public Library - Queens", "Public Library - Brooklyn", "New York Public Library"},
		{"Human Resources Administration", "Homeless Services"},
		{"City University", "City University Construction Fund"},
		{"Education", "School Construction Authority", "Board of Education Retirement System"},
	}
	for _, g := range groups {
		seen := map[string]string{}
		for _, raw := range g {
			l := cw.Resolve(raw)
			if l.Method == MethodOwn {
				t.Errorf("%q is not in the mapping", raw)
			}
			if other, ok := seen[l.ID]; ok && !sameOffice(other, raw) {
				t.Errorf("%q and %q share id %s", other, raw, l.ID)
			}
			seen[l.ID] = raw
		}
	}
}

// sameOffice: the two DA Manhattan spellings above are one office.
func sameOffice(a, b string) bool {
	k := func(s string) string { return strings.ToUpper(s) }
	return strings.Contains(k(a), "MANHATTAN") && strings.Contains(k(b), "NEW YORK COUNTY") ||
		strings.Contains(k(b), "MANHATTAN") && strings.Contains(k(a), "NEW YORK COUNTY") ||
		strings.Contains(k(a), "BRONX") && strings.Contains(k(b), "BRONX")
}

func TestEveryDCASAgencyIsCanonicalOrLinked(t *testing.T) {
	// agency_master.csv names (2014 DCAS lookup): each resolves without
	// falling back to its own id
	for _, raw := range []string{
		"Office of the Mayor", "Board of Elections", "Campaign Finance Board", "Office of the Actuary",
		"Employees' Retirement System", "Borough President - Manhattan", "Comptroller", "Office of Emergency Management",
		"Tax Commission", "Law Department", "Art Commission", "City Planning", "Investigation", "New York Public Library",
		"Public Library - Brooklyn", "Public Library - Queens", "Education", "Teachers' Retirement System",
		"School Construction Authority", "Civilian Complaint Review Board", "Police", "Fire Department",
		"Board of Standards and Appeals", "Administration for Children's Services", "Human Resources Administration",
		"Homeless Services", "Correction", "Board of Correction", "Supreme Court", "Public Advocate", "City Council",
		"City Clerk", "Aging", "Cultural Affairs", "Financial Information Services Agency", "Mayor's Office of Criminal Justice",
		"Juvenile Justice", "Office of Payroll Administration", "Independent Budget Office", "Equal Employment Practices Commission",
		"Civil Service Commission", "Landmarks Preservation Commission", "Districting Commission", "Taxi and Limousine Commission",
		"Office of Labor Relations", "Human Rights Commission", "New York City Police Pension Fund", "Youth and Community Development",
		"Conflicts of Interest Board", "Office of Collective Bargaining", "Brooklyn Museum", "Probation", "Small Business Services",
		"Housing Preservation and Development", "Buildings", "Health and Mental Hygiene", "Health and Hospitals Corporation",
		"Administrative Trials and Hearings", "Environmental Protection", "Sanitation", "Business Integrity Commission",
		"Finance", "Transportation", "Parks and Recreation", "Design and Construction", "Citywide Administrative Services",
		"Information Technology and Telecommunications", "Department of Records and Information Services", "Consumer Affairs",
		"Office of Special Narcotics Prose", "County Clerk- Bronx", "Housing Authority", "Brooklyn Bridge Park",
		"Board of Education Retirement System", "Build NYC Resource Corporation", "Criminal Justice Coordinator",
		"City Planning Commission", "Deferred Compensation Plan Board", "Environmental Control Board",
		"Industrial Development Agency", "Mayor's Fund to Advance New York City", "Mayor's Office of Environmental Coordination",
		"Mayor's Office of Operations", "Office of Administrative Tax Appeals", "Brooklyn Navy Yard Development Corp.",
		"Economic Development Corporation", "Triborough Bridge and Tunnel Authority", "Water Board", "City University",
		"Chief Medical Examiner", "Community Assistance Unit", "Office of Management and Budget", "Hudson River Park Trust",
		"NYC & Company", "Rent Guidelines Board", "Franchise And Concession Review Committee",
		"Mayor's Office of Environmental Remediation", "Banking Commission", "Board Meetings", "Community Boards",
		"Design Commission", "Loft Board", "Mayor's Office of Contract Services", "Procurement Policy Board", "City Record",
		"Trust for Governors Island",
	} {
		if l := DefaultCrosswalk().Resolve(raw); l.Method == MethodOwn {
			t.Errorf("%q fell back to its own id %s", raw, l.ID)
		}
	}
}

func TestIDsAreStableAndDerivedFromNames(t *testing.T) {
	// the same mapping loaded twice gives the same ids, whatever the
	// order spellings are resolved in
	a, err := LoadCrosswalk(MappingJSON())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := LoadCrosswalk(MappingJSON())
	raws := []string{"Police", "POLICE DEPARTMENT", "Consumer Affairs", "Unknown Office of Things", "HUNTER COLLEGE"}
	for i := range raws {
		x := a.Resolve(raws[i])
		y := b.Resolve(raws[len(raws)-1-i])
		_ = y
		if z := b.Resolve(raws[i]); z != x {
			t.Errorf("%q: %+v then %+v", raws[i], x, z)
		}
	}
	for _, ag := range a.Agencies() {
		if ag.ID != AgencyID(ag.Name) {
			t.Errorf("%s: id is not the name's id %s", ag.Name, AgencyID(ag.Name))
		}
	}
	if n := len(a.Agencies()); n < 300 {
		t.Errorf("only %d canonical agencies", n)
	}
}

func TestLoadRejectsConflicts(t *testing.T) {
	bad := []string{
		`{"agencies":[{"id":"police","name":"Police Department"}]}`,
		`{"agencies":[{"id":"a","name":"A"},{"id":"a","name":"A"}]}`,
		`{"agencies":[{"id":"a","name":"A","short_forms":["X"]},{"id":"b","name":"B","short_forms":["x."]}]}`,
	}
	for _, b := range bad {
		if _, err := LoadCrosswalk([]byte(b)); err == nil {
			t.Errorf("accepted %s", b)
		}
	}
}

func TestMappingFileIsReviewedShape(t *testing.T) {
	var f mappingFile
	if err := json.Unmarshal(MappingJSON(), &f); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.About, "not an official agency registry") || len(f.Sources) == 0 {
		t.Errorf("about/sources missing: %q", f.About)
	}
}

func TestZeroCrosswalk(t *testing.T) {
	var cw *Crosswalk
	l := cw.Resolve("DEPT OF PARKS & RECREATION")
	if l.ID != "dept-of-parks-and-recreation" || l.Method != MethodOwn {
		t.Errorf("nil crosswalk: %+v", l)
	}
	if l := cw.Resolve("  "); l.ID != "unknown-agency" {
		t.Errorf("blank: %+v", l)
	}
}
