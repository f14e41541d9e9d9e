package entity

import "strings"

// agencyNickname is one agency as people name it: everyday short forms
// ("Parks", "DOT", "HPD") and full names the reviewed mapping does not list
// yet. Spellings are the agency names as the City Record prints them; each
// goes through the crosswalk (Resolve), so a nickname always yields the
// crosswalk's ids, whatever the mapping later learns. ResolveName is the
// only reader.
type agencyNickname struct {
	name      string   // how an explanation names the agency
	spellings []string // as printed in City Record rows
	aliases   []string // lower case; acronyms marked in acronymWords
}

var agencyNicknames = []agencyNickname{
	{"Department of Parks and Recreation", []string{"Parks and Recreation", "Department of Parks and Recreation"},
		[]string{"parks", "nyc parks", "parks department", "parks dept", "dpr", "parks and recreation", "parks & recreation", "department of parks", "department of parks and recreation", "parks and rec"}},
	{"Department of Transportation", []string{"Transportation", "Department of Transportation"},
		[]string{"dot", "nyc dot", "nycdot", "department of transportation", "dept of transportation", "transportation department"}},
	{"Department of Housing Preservation and Development", []string{"Housing Preservation and Development", "Department of Housing Preservation and Development"},
		[]string{"hpd", "housing preservation", "housing preservation and development", "department of housing preservation and development"}},
	{"Department of Citywide Administrative Services", []string{"Citywide Administrative Services", "Department of Citywide Administrative Services"},
		[]string{"dcas", "citywide administrative services", "department of citywide administrative services"}},
	{"Police Department", []string{"Police Department", "Police", "POLICE DEPARTMENT"},
		[]string{"nypd", "police department", "police dept", "new york police department", "the police"}},
	{"Fire Department", []string{"Fire Department", "FIRE DEPARTMENT"},
		[]string{"fdny", "fire department", "fire dept", "the fire department"}},
	{"Department of Sanitation", []string{"Sanitation", "Department of Sanitation"},
		[]string{"dsny", "sanitation", "department of sanitation", "sanitation department", "sanitation dept"}},
	{"Department of Design and Construction", []string{"Design and Construction", "Department of Design and Construction"},
		[]string{"ddc", "design and construction", "department of design and construction"}},
	{"Department of Environmental Protection", []string{"Environmental Protection", "Department of Environmental Protection"},
		[]string{"dep", "nyc dep", "environmental protection", "department of environmental protection"}},
	{"Department of Education", []string{"Education", "Department of Education"},
		[]string{"doe", "nyc doe", "department of education", "dept of education", "board of education"}},
	{"Department of Health and Mental Hygiene", []string{"Health and Mental Hygiene", "Department of Health and Mental Hygiene"},
		[]string{"dohmh", "health department", "department of health", "health and mental hygiene", "department of health and mental hygiene"}},
	{"Department of Homeless Services", []string{"Homeless Services", "DEPT. OF HOMELESS SERVICES", "Department of Homeless Services"},
		[]string{"dhs", "homeless services", "department of homeless services"}},
	{"Human Resources Administration", []string{"Human Resources Administration", "HRA/DEPT OF SOCIAL SERVICES", "Department of Social Services"},
		[]string{"hra", "human resources administration", "social services", "department of social services", "dss"}},
	{"Administration for Children's Services", []string{"Administration for Children's Services", "ADMIN FOR CHILDREN'S SVCS"},
		[]string{"acs", "childrens services", "children's services", "administration for childrens services", "administration for children's services"}},
	{"Department of Correction", []string{"Correction", "DEPARTMENT OF CORRECTION", "Department of Correction"},
		[]string{"doc", "department of correction", "correction department", "dept of correction"}},
	{"New York City Housing Authority", []string{"Housing Authority", "New York City Housing Authority"},
		[]string{"nycha", "housing authority", "new york city housing authority"}},
	{"Office of Technology and Innovation", []string{"Information Technology and Telecommunications", "Office of Technology and Innovation"},
		[]string{"doitt", "oti", "information technology and telecommunications", "office of technology and innovation"}},
	{"Department of Finance", []string{"Finance", "Department of Finance"},
		[]string{"dof", "department of finance", "finance department"}},
	{"Department of Buildings", []string{"Buildings", "Department of Buildings"},
		[]string{"dob", "department of buildings", "buildings department"}},
	{"Department of City Planning", []string{"City Planning", "Department of City Planning"},
		[]string{"dcp", "department of city planning", "city planning department"}},
	{"City Planning Commission", []string{"City Planning Commission"},
		[]string{"cpc", "city planning commission", "planning commission"}},
	{"Landmarks Preservation Commission", []string{"Landmarks Preservation Commission"},
		[]string{"lpc", "landmarks", "landmarks commission", "landmarks preservation commission"}},
	{"Board of Standards and Appeals", []string{"Board of Standards and Appeals"},
		[]string{"bsa", "board of standards and appeals"}},
	{"Department of Small Business Services", []string{"Small Business Services", "Department of Small Business Services"},
		[]string{"sbs", "small business services", "department of small business services"}},
	{"Department of Youth and Community Development", []string{"Youth and Community Development", "Department of Youth and Community Development"},
		[]string{"dycd", "youth and community development"}},
	{"Economic Development Corporation", []string{"Economic Development Corporation", "NYC Economic Development Corporation"},
		[]string{"edc", "nycedc", "economic development corporation"}},
	{"NYC Health + Hospitals", []string{"Health and Hospitals Corporation", "NYC Health + Hospitals"},
		[]string{"h+h", "hhc", "health hospitals", "nyc health hospitals", "health and hospitals", "nyc health + hospitals", "health and hospitals corporation"}},
	{"School Construction Authority", []string{"School Construction Authority"},
		[]string{"sca", "school construction authority"}},
	{"Taxi and Limousine Commission", []string{"Taxi and Limousine Commission"},
		[]string{"tlc", "taxi and limousine commission", "taxi commission"}},
	{"Department of Consumer and Worker Protection", []string{"Consumer Affairs", "Consumer and Worker Protection"},
		[]string{"dca", "dcwp", "consumer affairs", "consumer and worker protection", "department of consumer affairs"}},
	{"Department for the Aging", []string{"Aging", "Department for the Aging"},
		[]string{"dfta", "nyc aging", "department for the aging", "department of aging"}},
	{"Mayor's Office of Contract Services", []string{"Mayor's Office of Contract Services"},
		[]string{"mocs", "mayors office of contract services", "mayor's office of contract services"}},
	{"Comptroller", []string{"Comptroller"},
		[]string{"comptroller", "comptrollers office", "comptroller's office", "the comptroller"}},
	{"Law Department", []string{"Law Department"},
		[]string{"law department", "corporation counsel"}},
	{"Office of Chief Medical Examiner", []string{"Chief Medical Examiner"},
		[]string{"ocme", "medical examiner", "chief medical examiner"}},
	{"Emergency Management", []string{"Office of Emergency Management", "Emergency Management"},
		[]string{"oem", "nycem", "emergency management", "office of emergency management"}},
	{"Department of Probation", []string{"Probation", "Department of Probation"},
		[]string{"probation department", "department of probation"}},
	{"Office of Management and Budget", []string{"Office of Management and Budget"},
		[]string{"omb", "office of management and budget"}},
	{"City Council", []string{"City Council"},
		[]string{"city council", "the council"}},
	{"Office of the Mayor", []string{"Office of the Mayor"},
		[]string{"mayors office", "mayor's office", "office of the mayor"}},
	{"Community Boards", []string{"Community Boards"},
		[]string{"community board", "community boards"}},
	{"Queens Public Library", []string{"Public Library - Queens"},
		[]string{"queens library", "queens public library"}},
	{"City University of New York", []string{"City University"},
		[]string{"cuny", "city university"}},
	{"Business Integrity Commission", []string{"Business Integrity Commission"},
		[]string{"bic", "business integrity commission"}},
}

// acronymWords are short forms that are also everyday English words: they
// name an agency only when written in capitals ("DOT", not "dot").
var acronymWords = map[string]bool{"dot": true, "doe": true, "doc": true, "dep": true, "dob": true, "dof": true,
	"bic": true, "sca": true, "dss": true, "oem": true, "dca": true, "edc": true}

var nicknameIndex = func() map[string]*agencyNickname {
	m := map[string]*agencyNickname{}
	for i := range agencyNicknames {
		for _, a := range agencyNicknames[i].aliases {
			m[nicknameKey(a)] = &agencyNicknames[i]
		}
	}
	return m
}()

// nicknameKey folds a phrase for the nickname table: lower case, apostrophes
// and periods dropped, "&" as "and".
var nicknameFold = strings.NewReplacer("'", "", "’", "", ".", "", "&", " and ")

func nicknameKey(s string) string {
	s = strings.ToLower(s)
	s = nicknameFold.Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

// WordAcronym says whether a short form is also an everyday English word
// ("dot", "doe"): in running text it names an agency only when written in
// capitals.
func WordAcronym(s string) bool { return acronymWords[strings.ToLower(s)] }
