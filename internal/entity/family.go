package entity

import (
	"regexp"
	"strings"
)

// A family is an administrative group whose members the crosswalk links to
// one canonical agency by rule rather than one spelling at a time: every
// community board to Community Boards, every CUNY college to City
// University, Board of Elections poll workers to the Board of Elections,
// each Public Administrator to its county's office, the Council's committees
// to the City Council, and the Department of Education's payroll groups to
// Education. Rules see the comparison key
// (AgencyKey) of a spelling that matched nothing in the mapping file.
type familyRule struct {
	name    string
	targets []string // canonical names the rule links to (checked at load)
	match   func(key string) (target string, ok bool)
}

var (
	communityBoardRE = regexp.MustCompile(`\bCOMMUNITY (BOARD|BD)\b|^(MANHATTAN|BRONX|BROOKLYN|QUEENS|STATEN ISLAND|STATEN IS|RICHMOND) CB\b|^CB \d+\b`)
	cunyRE           = regexp.MustCompile(`\bCUNY\b|\bCITY UNIVERSITY\b|\bCOMMUNITY COLLEGE\b`)
	electionsRE      = regexp.MustCompile(`\bBOARD OF ELECTIONS?\b`)
	publicAdminRE    = regexp.MustCompile(`\bPUBLIC ADMINISTRATORS?\b|\bPUB ADMIN\b`)
	educationRE      = regexp.MustCompile(`^(DEPT OF ED|DEPARTMENT OF ED|DEPARTMENT OF EDUCATION|DEPT OF EDUCATION|DOE|BOARD OF ED) [A-Z0-9 ]+$`)
	// the Council's committees as Legistar names them ("Committee on
	// Finance", "Subcommittee on Zoning and Franchises"); "Committee on
	// Parks and Recreation" is the Council's, never the Parks department
	councilCommitteeRE = regexp.MustCompile(`^(SUBCOMMITTEE|COMMITTEE) ON [A-Z]`)
)

// cunyColleges are the colleges and schools of the City University whose
// names do not say CUNY.
var cunyColleges = map[string]bool{
	"BARUCH COLLEGE": true, "BROOKLYN COLLEGE": true, "CITY COLLEGE": true, "CITY COLLEGE OF NEW YORK": true,
	"COLLEGE OF STATEN ISLAND": true, "HUNTER COLLEGE": true, "JOHN JAY COLLEGE": true,
	"JOHN JAY COLLEGE OF CRIMINAL JUSTICE": true, "LEHMAN COLLEGE": true, "MEDGAR EVERS COLLEGE": true,
	"NEW YORK CITY COLLEGE OF TECHNOLOGY": true, "NYC COLLEGE OF TECHNOLOGY": true, "QUEENS COLLEGE": true,
	"YORK COLLEGE": true, "GRADUATE CENTER": true, "MACAULAY HONORS COLLEGE": true,
	"GUTTMAN COMMUNITY COLLEGE": true, "BOROUGH OF MANHATTAN COMMUNITY COLLEGE": true,
	"BRONX COMMUNITY COLLEGE": true, "HOSTOS COMMUNITY COLLEGE": true, "KINGSBOROUGH COMMUNITY COLLEGE": true,
	"LAGUARDIA COMMUNITY COLLEGE": true, "QUEENSBOROUGH COMMUNITY COLLEGE": true,
}

// counties maps the words that name a county or borough to the county.
var counties = []struct {
	words  []string
	county string
}{
	{[]string{"NEW YORK", "MANHATTAN", "NY"}, "New York"},
	{[]string{"BRONX", "BX"}, "Bronx"},
	{[]string{"KINGS", "BROOKLYN", "BKLYN"}, "Kings"},
	{[]string{"QUEENS", "QNS"}, "Queens"},
	{[]string{"RICHMOND", "STATEN ISLAND", "STATEN IS", "SI"}, "Richmond"},
}

// countyOf finds the one county a key names; ok is false when it names none
// or several.
func countyOf(key string) (string, bool) {
	found := ""
	padded := " " + key + " "
	for _, c := range counties {
		for _, w := range c.words {
			if strings.Contains(padded, " "+w+" ") {
				if found != "" && found != c.county {
					return "", false
				}
				found = c.county
			}
		}
	}
	return found, found != ""
}

var families = []familyRule{
	{
		name:    "community boards",
		targets: []string{"Community Boards"},
		match: func(key string) (string, bool) {
			return "Community Boards", communityBoardRE.MatchString(key)
		},
	},
	{
		name:    "City University colleges and central office",
		targets: []string{"City University"},
		match: func(key string) (string, bool) {
			return "City University", cunyRE.MatchString(key) || cunyColleges[key]
		},
	},
	{
		name:    "Board of Elections (poll workers and units)",
		targets: []string{"Board of Elections"},
		match: func(key string) (string, bool) {
			return "Board of Elections", electionsRE.MatchString(key)
		},
	},
	{
		name: "Public Administrators, one per county",
		targets: []string{"Public Administrator - New York County", "Public Administrator - Bronx County",
			"Public Administrator - Kings County", "Public Administrator - Queens County", "Public Administrator - Richmond County"},
		match: func(key string) (string, bool) {
			if !publicAdminRE.MatchString(key) {
				return "", false
			}
			county, ok := countyOf(publicAdminRE.ReplaceAllString(key, " "))
			if !ok {
				return "", false
			}
			return "Public Administrator - " + county + " County", true
		},
	},
	{
		name:    "City Council committees and subcommittees (as Legistar names them)",
		targets: []string{"City Council"},
		match: func(key string) (string, bool) {
			return "City Council", councilCommitteeRE.MatchString(key)
		},
	},
	{
		name:    "Department of Education payroll groups",
		targets: []string{"Education"},
		match: func(key string) (string, bool) {
			return "Education", educationRE.MatchString(key)
		},
	},
}

// family applies the family rules to a comparison key.
func family(key string) (name, note string, ok bool) {
	for _, f := range families {
		if target, ok := f.match(key); ok {
			return target, "family rule: " + f.name, true
		}
	}
	return "", "", false
}
