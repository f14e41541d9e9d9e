package watch

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Procurement categories a watch may name. The City Record files each
// procurement notice under one category (CategoryDescription); a watch
// category keeps the notices filed under the categories it covers, and a
// notice filed under none when its title or text uses the category's words.
const (
	CategoryConstruction = "construction"
	CategoryGoods        = "goods"
	CategoryServices     = "services"
	CategoryProfessional = "professional services"
	CategoryHuman        = "human services"
)

// Special requirements a watch may name; a notice meets one when its text
// says so (the City Record has no field for them).
const (
	RequirementMWBE          = "mwbe"
	RequirementSmallBusiness = "small_business"
)

type categoryRule struct {
	// cityRecord are the City Record categories it covers, as comparison
	// keys (categoryKey).
	cityRecord []string
	// label says which City Record categories, for notes and emails.
	label string
	// words find the category in a notice filed under no category.
	words *regexp.Regexp
}

// categoryRules: the City Record's categories are Goods; Goods and
// Services; Construction/Construction Services; Construction Related
// Services; Human Services/Client Services; Services (other than human
// services). It has no category of its own for professional services
// (PPB Rules 1-01: architecture, engineering, legal, consulting …), which
// are filed under Services (other than human services); so that category
// is the one professional services follows, with the notice's words.
var categoryRules = map[string]categoryRule{
	CategoryConstruction: {[]string{"constructionconstructionservices", "constructionrelatedservices"},
		"Construction/Construction Services or Construction Related Services",
		regexp.MustCompile(`(?i)\b(construction|reconstruction|rehabilitation|renovation)\b`)},
	CategoryGoods: {[]string{"goods", "goodsandservices"}, "Goods or Goods and Services",
		regexp.MustCompile(`(?i)\b(goods|supplies|equipment|commodities)\b`)},
	CategoryServices: {[]string{"servicesotherthanhumanservices", "goodsandservices"},
		"Services (other than human services) or Goods and Services", regexp.MustCompile(`(?i)\bservices?\b`)},
	CategoryProfessional: {[]string{"servicesotherthanhumanservices"},
		"Services (other than human services), where the City Record files professional services",
		regexp.MustCompile(`(?i)\b(professional services?|consult\w*|architect\w*|engineering|legal services)\b`)},
	CategoryHuman: {[]string{"humanservicesclientservices"}, "Human Services/Client Services",
		regexp.MustCompile(`(?i)\b(human services?|client services?)\b`)},
}

// CategoryNames lists the categories a filter may name.
var CategoryNames = []string{CategoryConstruction, CategoryGoods, CategoryServices, CategoryProfessional, CategoryHuman}

// RequirementNames lists the special requirements a filter may name.
var RequirementNames = []string{RequirementMWBE, RequirementSmallBusiness}

// requirementWords find a requirement in a notice's text: the City Record's
// own phrasings ("Minority and Women Owned Business Enterprises (M/WBE) are
// strongly encouraged", "MWBE Utilization Plan", "small businesses").
var requirementWords = map[string]*regexp.Regexp{
	RequirementMWBE: regexp.MustCompile(`(?i)(\bm\s*/\s*w\s*/?\s*d?\s*bes?\b|\bmwbes?\b|\bminority[\s-]+(?:and[\s-]+)?women[\s-]+owned|` +
		`\bwomen[\s-]+owned|\bminority[\s-]+owned|\bminority[\s-]+and[\s-]+women[\s-]+business)`),
	RequirementSmallBusiness: regexp.MustCompile(`(?i)(\bsmall[\s-]+business(?:es)?\b|\bSBEs?\b)`),
}

// CategoryName reads a category a client names, case, spaces, hyphens
// and underscores aside ("Professional_Services" → "professional
// services"); "" when it is none of CategoryNames.
func CategoryName(s string) string {
	k := categoryKey(s)
	for _, c := range CategoryNames {
		if k != "" && categoryKey(c) == k {
			return c
		}
	}
	return ""
}

// RequirementName reads a special requirement a client names by its name
// or label, case and punctuation aside ("M/WBE" → "mwbe", "small business"
// → "small_business"); "" when it is none of RequirementNames.
func RequirementName(s string) string {
	k := categoryKey(s)
	for _, r := range RequirementNames {
		if k != "" && (categoryKey(r) == k || categoryKey(RequirementLabel(r)) == k) {
			return r
		}
	}
	return ""
}

// RequirementLabel names a requirement in plain words.
func RequirementLabel(r string) string {
	switch r {
	case RequirementMWBE:
		return "M/WBE"
	case RequirementSmallBusiness:
		return "small business"
	}
	return r
}

func categoryKey(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) {
			return unicode.ToLower(r)
		}
		return -1
	}, s)
}

// keepCategory: the notice is filed under one of the categories, or under
// none and its words say one.
func keepCategory(cats []string, n record.Notice) bool {
	if len(cats) == 0 {
		return true
	}
	k := categoryKey(n.Category)
	for _, c := range cats {
		r, ok := categoryRules[c]
		if !ok {
			continue
		}
		if k != "" && slices.Contains(r.cityRecord, k) {
			return true
		}
		if k == "" && r.words.MatchString(n.Title+"\n"+n.Text) {
			return true
		}
	}
	return false
}

func keepRequirement(reqs []string, n record.Notice) bool {
	if len(reqs) == 0 {
		return true
	}
	text := n.Title + "\n" + n.Text
	for _, r := range reqs {
		if re := requirementWords[r]; re != nil && re.MatchString(text) {
			return true
		}
	}
	return false
}

// Time windows.

var windowRE = regexp.MustCompile(`^([1-9][0-9]{0,2}) (day|week|month|year)s?$`)

// windowEnd is the last day a window that starts today reaches.
func windowEnd(today time.Time, within string) (time.Time, bool) {
	m := windowRE.FindStringSubmatch(within)
	if m == nil {
		return time.Time{}, false
	}
	var n int
	fmt.Sscan(m[1], &n)
	switch m[2] {
	case "day":
		return today.AddDate(0, 0, n), true
	case "week":
		return today.AddDate(0, 0, 7*n), true
	case "month":
		return today.AddDate(0, n, 0), true
	}
	return today.AddDate(n, 0, 0), true
}

// maxWindowDays bounds a moving window.
const maxWindowDays = 3 * 366

func parseDay(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	d, err := time.ParseInLocation("2006-01-02", s, record.NewYork)
	return d, err == nil
}

// dayWords writes a day as "December 31, 2026".
func dayWords(s string) string {
	if d, ok := parseDay(s); ok {
		return d.Format("January 2, 2006")
	}
	return s
}

// dateField is the date a filter's window bounds: "due" for open
// solicitations, "held" for hearings and meetings, "published" otherwise.
func (f Filter) dateField() string {
	switch {
	case f.Lens == record.LensMoney && !f.awardsFollowed():
		return "due"
	case f.Lens == record.LensMeetings:
		return "held"
	}
	return "published"
}

// awardsFollowed: the money lens follows awards when asked, or when an
// amount bounds it and Bids does not keep it on solicitations.
func (f Filter) awardsFollowed() bool {
	return f.Awards || (!f.Bids && (f.MinAmount != nil || f.MaxAmount != nil))
}

// windowText states a filter's window ("due within 3 months of each
// digest day", "published from January 1, 2026 to December 31, 2026").
func (f Filter) windowText() string {
	w, ok := f.windowPart()
	if !ok {
		return ""
	}
	return strings.TrimPrefix(w.Note().String(), ", ")
}

// windowPart is the window as a clause of the scope (", due …"): the
// date field's key and its bounds run on.
func (f Filter) windowPart() (record.Part, bool) {
	var parts []record.Part
	if f.Within != "" {
		parts = append(parts, record.Part{Key: "watch.scope.within", Inner: []record.Part{spanPart(f.Within)}, Join: record.JoinArgs})
	}
	if f.From != "" || f.Until != "" {
		if len(parts) > 0 {
			parts = append(parts, record.P("watch.scope.comma"))
		}
		var p record.Part
		switch {
		case f.From != "" && f.Until != "":
			p = record.Part{Key: "watch.scope.from_to", Inner: []record.Part{dayPart(f.From), dayPart(f.Until)}, Join: record.JoinArgs}
		case f.From != "":
			p = record.Part{Key: "watch.scope.from_day", Inner: []record.Part{dayPart(f.From)}, Join: record.JoinArgs}
		default:
			p = record.Part{Key: "watch.scope.by_day", Inner: []record.Part{dayPart(f.Until)}, Join: record.JoinArgs}
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return record.Part{}, false
	}
	return record.Part{Key: "watch.scope.window." + f.dateField(), Inner: parts, Join: record.JoinRun}, true
}

// FilterLines states a filter one filter at a time, as the confirmation
// mail lists them: kind of record, agency, vendor, amount, category,
// special requirement, dates, keywords, phrases, exclusions, boroughs.
// Values the requester chose are PlainValue'd, as in Describe.
func FilterLines(f Filter, agencies map[string]string) []string {
	var out []string
	kind := LensLabel(f.Lens)
	if f.Lens == record.LensMoney {
		if f.awardsFollowed() {
			kind = "contract awards and intents to award (newest first)"
		} else {
			kind = "open procurement solicitations (due today or later, rolling deadlines included)"
		}
	}
	out = append(out, "Kind of record: "+kind)
	plural := func(one, many string, n int) string {
		if n > 1 {
			return many
		}
		return one
	}
	if len(f.AgencyIDs) > 0 {
		var names []string
		for _, id := range f.AgencyIDs {
			n := agencies[id]
			if n == "" {
				n = id
			}
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		out = append(out, plural("Agency: ", "Agencies: ", len(names))+strings.Join(names, " or "))
	}
	if vs := plainValues(f.Vendors); len(vs) > 0 {
		out = append(out, plural("Vendor: ", "Vendors: ", len(vs))+strings.Join(vs, " or ")+" (by name stem: suffix and case variants count)")
	}
	if f.MinAmount != nil || f.MaxAmount != nil {
		a := ""
		switch {
		case f.MinAmount != nil && f.MaxAmount != nil:
			a = Dollars(*f.MinAmount) + " to " + Dollars(*f.MaxAmount)
		case f.MinAmount != nil:
			a = "at least " + Dollars(*f.MinAmount)
		default:
			a = "at most " + Dollars(*f.MaxAmount)
		}
		if f.Lens == record.LensMoney && !f.awardsFollowed() {
			a += " (solicitations that state a valid amount)"
		}
		out = append(out, "Amount: "+a)
	}
	for _, c := range f.Categories {
		if r, ok := categoryRules[c]; ok {
			out = append(out, "Category: "+c+" (City Record category "+r.label+"; a notice filed under no category counts when its words say "+c+")")
		}
	}
	for _, r := range f.Requirements {
		out = append(out, "Special requirement: "+RequirementLabel(r)+" (notices whose text mentions "+RequirementLabel(r)+")")
	}
	if w := f.windowText(); w != "" {
		field, rest, _ := strings.Cut(w, " ")
		out = append(out, strings.ToUpper(field[:1])+field[1:]+": "+rest)
	}
	if ws := plainValues(f.AnyOf); len(ws) > 0 {
		out = append(out, "Keywords: any of "+strings.Join(ws, ", "))
	}
	if ps := plainValues(f.Phrases); len(ps) > 0 {
		out = append(out, plural("Exact phrase: ", "Exact phrases: ", len(ps))+`"`+strings.Join(ps, `", "`)+`"`)
	}
	if ex := plainValues(f.Exclude); len(ex) > 0 {
		out = append(out, "Left out: "+strings.Join(ex, ", "))
	}
	if bs := plainValues(f.Boroughs); len(bs) > 0 {
		out = append(out, plural("Borough: ", "Boroughs: ", len(bs))+strings.Join(bs, " or "))
	}
	return out
}

// categoryPhrases are how a request names a category, longest first.
var categoryPhrases = []struct {
	words []string
	cats  []string
}{
	{[]string{"goods", "and", "services"}, []string{CategoryGoods, CategoryServices}},
	{[]string{"construction", "related", "services"}, []string{CategoryConstruction}},
	{[]string{"construction", "services"}, []string{CategoryConstruction}},
	{[]string{"professional", "services"}, []string{CategoryProfessional}},
	{[]string{"professional", "service"}, []string{CategoryProfessional}},
	{[]string{"human", "services"}, []string{CategoryHuman}},
	{[]string{"human", "service"}, []string{CategoryHuman}},
	{[]string{"client", "services"}, []string{CategoryHuman}},
	{[]string{"construction"}, []string{CategoryConstruction}},
	{[]string{"goods"}, []string{CategoryGoods}},
	{[]string{"services"}, []string{CategoryServices}},
}

// requirementPhrases are how a request names a special requirement.
var requirementPhrases = []struct {
	words []string
	req   string
}{
	{[]string{"minority", "and", "women-owned", "business", "enterprises"}, RequirementMWBE},
	{[]string{"minority", "and", "women", "owned", "business"}, RequirementMWBE},
	{[]string{"minority", "and", "women", "owned", "businesses"}, RequirementMWBE},
	{[]string{"minority", "and", "women-owned", "businesses"}, RequirementMWBE},
	{[]string{"minority", "and", "women-owned", "business"}, RequirementMWBE},
	{[]string{"minority", "and", "women", "owned"}, RequirementMWBE},
	{[]string{"minority", "and", "women-owned"}, RequirementMWBE},
	{[]string{"women-owned", "businesses"}, RequirementMWBE},
	{[]string{"women-owned", "business"}, RequirementMWBE},
	{[]string{"minority-owned", "businesses"}, RequirementMWBE},
	{[]string{"minority-owned", "business"}, RequirementMWBE},
	{[]string{"women-owned"}, RequirementMWBE},
	{[]string{"minority-owned"}, RequirementMWBE},
	{[]string{"m/wbe"}, RequirementMWBE},
	{[]string{"m/wbes"}, RequirementMWBE},
	{[]string{"m/wbe's"}, RequirementMWBE},
	{[]string{"mwbe"}, RequirementMWBE},
	{[]string{"mwbes"}, RequirementMWBE},
	{[]string{"m/w/be"}, RequirementMWBE},
	{[]string{"m/w/dbe"}, RequirementMWBE},
	{[]string{"small", "business", "enterprises"}, RequirementSmallBusiness},
	{[]string{"small", "businesses"}, RequirementSmallBusiness},
	{[]string{"small", "business"}, RequirementSmallBusiness},
	{[]string{"sbe"}, RequirementSmallBusiness},
	{[]string{"sbes"}, RequirementSmallBusiness},
}

func requirementAt(p *parser, i int) (int, string) {
	for _, r := range requirementPhrases {
		if p.matchSeq(i, r.words) {
			return len(r.words), r.req
		}
	}
	return 0, ""
}

// categoryAt reads a category at i. A lone "services" is a category only
// at the head of a phrase ("services bids"), not after a word it
// qualifies ("janitorial services" stays keywords).
func categoryAt(p *parser, i int) (int, []string) {
	for _, c := range categoryPhrases {
		if !p.matchSeq(i, c.words) {
			continue
		}
		if len(c.words) == 1 && c.words[0] == "services" {
			if prev := p.word(i - 1); prev != "" && !stopwords[prev] && lensWords[prev] == "" {
				return 0, nil
			}
		}
		return len(c.words), c.cats
	}
	return 0, nil
}

func (p *parser) addRequirement(req string, i, n int) {
	ph, _ := p.phrase(i, n)
	if !slices.Contains(p.f.Requirements, req) {
		p.f.Requirements = append(p.f.Requirements, req)
		p.note("watch.read.requirement", []any{q(PlainValue(ph))}, RequirementPart(req), RequirementPart(req))
	}
}

func (p *parser) addCategories(cats []string, i, n int) {
	ph, _ := p.phrase(i, n)
	for _, c := range cats {
		if slices.Contains(p.f.Categories, c) {
			continue
		}
		p.f.Categories = append(p.f.Categories, c)
		p.note("watch.read.category", []any{q(PlainValue(ph)), categoryRules[c].label}, categoryPart(c), categoryPart(c))
	}
}
