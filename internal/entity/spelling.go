package entity

import (
	"sort"
	"strings"
)

// Spelling rules: how a reviewed spelling (a short form in agencies.json)
// is tied to its agency, stated per spelling in the mapping file
// (spelling_rules) and checked against the strings (SpellingRuleHolds), so
// that no merge rests on a weaker rule than the one stated.
const (
	// RuleAbbreviation: the same words once reviewed abbreviations are
	// expanded ("ADMIN FOR CHILDREN'S SVCS"), or the initials ("DCAS").
	RuleAbbreviation = "abbreviation"
	// RuleWordOrder: the same words in another order ("Aging, Department
	// for the").
	RuleWordOrder = "word_order"
	// RuleShortForm: the name with words dropped or added ("Office of
	// Administrative Trials and Hearings", "CIG - Brooklyn Museum").
	RuleShortForm = "short_form"
	// RuleRosterName: a name the city's governance-organizations roster
	// (NYCGO t3jq-9nkf and its name crosswalk) gives the same organization
	// ("NYC Parks", "City Hall").
	RuleRosterName = "roster_name"
	// RuleFamily: a division or unit named for its agency ("DCAS Division
	// of Municipal Supply Services"): reviewed knowledge.
	RuleFamily = "family"
	// RuleFormerName: a former name or a renamed agency ("Consumer
	// Affairs"): reviewed knowledge the strings cannot show.
	RuleFormerName = "former_name"
)

// SpellingRules lists the rules, strongest first.
var SpellingRules = []string{RuleAbbreviation, RuleWordOrder, RuleShortForm, RuleRosterName, RuleFamily, RuleFormerName}

// RuleStrength ranks a rule (0 strongest; -1 not a rule).
func RuleStrength(rule string) int {
	for i, r := range SpellingRules {
		if r == rule {
			return i
		}
	}
	return -1
}

// abbreviations are the reviewed word abbreviations of agency spellings.
var abbreviations = map[string]string{
	"ADMIN": "ADMINISTRATION", "ADMN": "ADMINISTRATION", "SVCS": "SERVICES", "SVC": "SERVICE", "SERV": "SERVICES", "SERVS": "SERVICES",
	"DEPT": "DEPARTMENT", "DEP": "DEPARTMENT", "ED": "EDUCATION", "EDUC": "EDUCATION", "BORO": "BOROUGH", "IS": "ISLAND", "CORP": "CORPORATION",
	"COMMN": "COMMISSION", "MGMT": "MANAGEMENT", "MGT": "MANAGEMENT", "DEV": "DEVELOPMENT", "DEVEL": "DEVELOPMENT",
	"DEVELOP": "DEVELOPMENT", "ENVIRON": "ENVIRONMENTAL", "ENV": "ENVIRONMENTAL", "PROT": "PROTECTION", "PRES": "PRESERVATION",
	"HSG": "HOUSING", "INFO": "INFORMATION", "TECH": "TECHNOLOGY", "TELECOMM": "TELECOMMUNICATIONS", "TELECOM": "TELECOMMUNICATIONS",
	"OFF": "OFFICE", "OFC": "OFFICE", "AUTH": "AUTHORITY", "ATTY": "ATTORNEY", "DIST": "DISTRICT", "DA": "DISTRICT ATTORNEY",
	"GEN": "GENERAL", "GOVT": "GOVERNMENT", "HOSP": "HOSPITALS", "HOSPS": "HOSPITALS", "HLTH": "HEALTH", "MENT": "MENTAL",
	"HYG": "HYGIENE", "SANIT": "SANITATION", "TRANS": "TRANSPORTATION", "TRANSP": "TRANSPORTATION", "TRANSPORT": "TRANSPORTATION",
	"TRANSIT": "TRANSIT", "CONST": "CONSTRUCTION", "CONSTR": "CONSTRUCTION", "REC": "RECREATION", "ADMINISTR": "ADMINISTRATION",
	"ADMINSTRATION": "ADMINISTRATION", "ASSN": "ASSOCIATION", "ASSOC": "ASSOCIATION", "CTR": "CENTER", "CNTR": "CENTER",
	"COORD": "COORDINATION", "CRIM": "CRIMINAL", "JUST": "JUSTICE", "EMERG": "EMERGENCY", "EMPL": "EMPLOYMENT", "EMP": "EMPLOYEES",
	"RET": "RETIREMENT", "RETIRE": "RETIREMENT", "SYS": "SYSTEM", "SYST": "SYSTEM", "FIN": "FINANCE", "FINL": "FINANCIAL",
	"PLNG": "PLANNING", "PLAN": "PLANNING", "AFF": "AFFAIRS", "AFFS": "AFFAIRS", "CULT": "CULTURAL", "INVEST": "INVESTIGATION",
	"PUB": "PUBLIC", "ADV": "ADVOCATE", "LIB": "LIBRARY", "NYC": "NEW YORK CITY", "NY": "NEW YORK", "CUNY": "CITY UNIVERSITY OF NEW YORK",
	"AND": "AND", "ST": "STREET", "PK": "PARK", "PKS": "PARKS", "RES": "RESOURCES", "RESRCS": "RESOURCES", "SM": "SMALL", "BUS": "BUSINESS",
	"YTH": "YOUTH", "BD": "BOARD", "SRVS": "SERVICES", "MAYORALTY": "OFFICE OF THE MAYOR", "COMMUN": "COMMUNITY", "CMTY": "COMMUNITY", "COMMTY": "COMMUNITY", "CHILD": "CHILDRENS", "PRESIDENT": "PRESIDENT",
}

// fillerWords carry no identity in a comparison of words.
var fillerWords = map[string]bool{"OF": true, "THE": true, "FOR": true, "AND": true, "ON": true, "IN": true, "TO": true, "A": true}

// spellingWords are the words of a spelling's key, abbreviations
// expanded when expand is set, a plural s folded, filler words dropped.
func spellingWords(s string, expand bool) []string {
	var out []string
	for _, w := range strings.Fields(AgencyKey(s)) {
		if expand {
			if e, ok := abbreviations[w]; ok {
				out = append(out, spellingWords(e, false)...)
				continue
			}
		}
		if fillerWords[w] {
			continue
		}
		if len(w) > 3 && strings.HasSuffix(w, "S") {
			w = strings.TrimSuffix(w, "S")
		}
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

func sameWords(a, b []string) bool {
	if len(a) != len(b) || len(a) == 0 {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// subWords reports whether every word of a is in b (a non-empty).
func subWords(a, b []string) bool {
	if len(a) == 0 {
		return false
	}
	have := map[string]int{}
	for _, w := range b {
		have[w]++
	}
	for _, w := range a {
		if have[w] == 0 {
			// a cut word ("COMM", "DEV") stands for the one word it starts
			found := ""
			for h, n := range have {
				if n > 0 && min(len(w), len(h)) >= 3 && (strings.HasPrefix(h, w) || strings.HasPrefix(w, h)) {
					if found != "" {
						return false
					}
					found = h
				}
			}
			if found == "" {
				return false
			}
			w = found
		}
		have[w]--
	}
	return true
}

// initials are the first letters of a spelling's words, with and without
// its filler words.
func initials(s string) []string {
	var all, content strings.Builder
	for _, w := range strings.Fields(AgencyKey(s)) {
		all.WriteByte(w[0])
		if !fillerWords[w] {
			content.WriteByte(w[0])
		}
	}
	return []string{all.String(), content.String()}
}

// SpellingRuleHolds reports whether the strings bear out rule between a
// spelling and the names of its agency (its name and its other reviewed
// spellings). A former name is reviewed knowledge and always holds.
func SpellingRuleHolds(rule, spelling string, anchors, roster []string) bool {
	switch rule {
	case RuleFormerName, RuleFamily:
		return true
	case RuleRosterName:
		for _, r := range roster {
			if AgencyKey(r) == AgencyKey(spelling) {
				return true
			}
		}
	case RuleAbbreviation:
		key := AgencyKey(spelling)
		for _, a := range anchors {
			if AgencyKey(a) == key {
				continue
			}
			if sameWords(spellingWords(spelling, true), spellingWords(a, true)) && !sameWords(spellingWords(spelling, false), spellingWords(a, false)) {
				return true
			}
			if truncates(key, AgencyKey(a)) {
				return true
			}
			if ak := strings.ReplaceAll(AgencyKey(a), " ", ""); !strings.Contains(AgencyKey(a), " ") || len(ak) <= 8 {
				if k := strings.ReplaceAll(key, " ", ""); k == ak || k == "NYC"+ak || "NYC"+k == ak {
					return true
				}
			}
			if !strings.Contains(key, " ") && len(key) >= 2 {
				for _, in := range initials(a) {
					if in == key {
						return true
					}
				}
			}
		}
	case RuleWordOrder:
		for _, a := range anchors {
			if AgencyKey(a) != AgencyKey(spelling) && sameWords(spellingWords(spelling, false), spellingWords(a, false)) {
				return true
			}
		}
	case RuleShortForm:
		sw := looseWords(spelling)
		for _, a := range anchors {
			aw := looseWords(a)
			if subWords(sw, aw) || subWords(aw, sw) {
				return true
			}
		}
	}
	return false
}

// StrongestSpellingRule is the strongest rule the strings bear out for a
// spelling of an agency ("" when none: a former name, or a spelling to
// review).
func StrongestSpellingRule(spelling string, anchors, roster []string) string {
	for _, r := range SpellingRules {
		if r != RuleFormerName && r != RuleFamily && SpellingRuleHolds(r, spelling, anchors, roster) {
			return r
		}
	}
	return ""
}

// truncates reports a spelling whose words, in order, each shorten the
// name's words (a cut word, "BARGAININ"; its consonants, "DVLPMNT", "BD")
// with at least one word shortened, and every content word of the name
// accounted for. "&" is AND (AgencyKey).
func truncates(short, name string) bool {
	sw, nw := strings.Fields(short), strings.Fields(name)
	if len(sw) == 0 {
		return false
	}
	i, cut := 0, false
	for _, w := range sw {
		for i < len(nw) && fillerWords[nw[i]] && nw[i] != w {
			i++
		}
		if i >= len(nw) {
			return false
		}
		n := nw[i]
		switch {
		case w == n:
		case len(w) >= 2 && strings.HasPrefix(n, w), len(w) >= 2 && w[0] == n[0] && skeleton(n) == w,
			abbreviations[w] == n:
			cut = true
		default:
			return false
		}
		i++
	}
	for ; i < len(nw); i++ {
		if !fillerWords[nw[i]] {
			return false
		}
	}
	return cut
}

// skeleton is a word without its vowels after the first letter.
func skeleton(w string) string {
	var b strings.Builder
	for i, r := range w {
		if i > 0 && strings.ContainsRune("AEIOU", r) {
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// asCounty reads a borough as its county (the district attorneys and public
// administrators are named either way), by the family rules' county words.
func asCounty(key string) string {
	padded := " " + key + " "
	for _, c := range counties {
		for _, w := range c.words {
			padded = strings.ReplaceAll(padded, " "+w+" ", " "+strings.ToUpper(c.county)+" ")
		}
	}
	return strings.TrimSpace(padded)
}

// looseWords are a spelling's words for the short-form rule: abbreviations
// expanded, boroughs read as counties, and the words that only say what
// kind of body it is (office, department, county, corporation) dropped.
func looseWords(s string) []string {
	var out []string
	for _, w := range spellingWords(asCounty(AgencyKey(s)), true) {
		switch w {
		case "OFFICE", "DEPARTMENT", "COUNTY", "CORPORATION":
			continue
		}
		out = append(out, w)
	}
	return out
}
