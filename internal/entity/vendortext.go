package entity

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/record"
)

// VendorMethodText is the method of a vendor read from a notice's text
// (VendorFromText), never from a vendor field.
const VendorMethodText = "text"

// Patterns (rules) of VendorFromText. Each has its own precision, measured
// on the labelled set (VendorTextMeasured); a pattern is counted in
// profiles only at VendorTextCountBar or above (VendorTextCounted).
const (
	// VendorPatternAwardTo is the award printout's "- TO: <vendor>
	// <address>" line.
	VendorPatternAwardTo = "award_to"
	// VendorPatternConcessionTo is a Parks award's "has awarded a
	// concession to <vendor>" or "has entered into License Agreement with
	// <vendor>".
	VendorPatternConcessionTo = "concession_to"
	// VendorPatternIntentWith is an intent's "intends to enter into … with
	// <vendor>" and kin ("seeks to enter into negotiations with", "it is
	// the intent of … to enter into … with the firm of", "intends to
	// negotiate a contract with", "seeks to renew its current contract
	// with"): negotiation, sole source, negotiated acquisition, extension,
	// renewal, agreement.
	VendorPatternIntentWith = "intent_with"
	// VendorPatternIntentAwardTo is "intends to award a contract to
	// <vendor>" and "Intent to Award (RENEWAL) for … to <vendor>".
	VendorPatternIntentAwardTo = "intent_award_to"
	// VendorPatternExtendedWith is "<service> contract with <vendor> to be
	// extended".
	VendorPatternExtendedWith = "extended_with"
	// VendorPatternBetween is "this negotiation is between <vendor> and
	// the <agency>".
	VendorPatternBetween = "between"
	// VendorPatternList is a list of several vendors: numbered ("1. X PIN:
	// …", "1 X $5,874,948", "1) X 2) Y") or one "PIN: … Amount: $… X
	// <address>" line each, after a cue ("the following vendors", "listed
	// below", "as follows"). Its readings name several vendors (Names) and
	// are never counted: a notice carries one vendor stem.
	VendorPatternList = "list"
)

// VendorTextCountBar is the precision a pattern must have been measured
// at, on the labelled set, for its vendors to be counted in profiles,
// batch totals and relationships; below it a vendor read from the text is
// shown (marked as read from the text, with why it is not counted) but not
// counted.
const VendorTextCountBar = 0.98

// VendorTextMinPublished is how many readings of a pattern the labelled
// set must hold for its precision to count at all: a pattern seen once or
// twice is shown, not counted.
const VendorTextMinPublished = 3

// VendorTextMeasure is a pattern's measurement on the labelled set
// (indexer/source/crol/testdata/vendortext_labels.jsonl: the awards and
// intents of the bundled 2013 and 2014 exports, gold vendors from the
// vendor field where the row has one, hand labels by written rules where
// it does not; see docs/data-sources.md, "Vendors read from the text").
type VendorTextMeasure struct {
	Pattern string
	// Published is how many rows of the set the pattern published a
	// reading for; Correct how many of those name exactly the gold
	// vendors (by stem).
	Published, Correct int
	// Rows is how many rows of the set name their vendor in this phrasing
	// (by the labels); Found how many of those are read right (by any
	// pattern).
	Rows, Found int
	// Labels says where the gold vendors of the pattern's rows come from
	// ("vendor field", "hand", "vendor field and hand").
	Labels string
}

// Precision is Correct/Published (0 when nothing was published).
func (m VendorTextMeasure) Precision() float64 {
	if m.Published == 0 {
		return 0
	}
	return float64(m.Correct) / float64(m.Published)
}

// Confidence is the lower bound of the 95% Wilson interval of the
// precision: how sure the measure lets one be, smaller the fewer rows
// were measured (366 of 368: 0.98; 24 of 24: 0.86).
func (m VendorTextMeasure) Confidence() float64 {
	n := float64(m.Published)
	if n == 0 {
		return 0
	}
	const z = 1.96
	p := float64(m.Correct) / n
	centre := p + z*z/(2*n)
	margin := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n))
	return math.Round((centre-margin)/(1+z*z/n)*1000) / 1000
}

// Recall is Found/Rows: of the rows naming their vendor in this phrasing,
// the share read right.
func (m VendorTextMeasure) Recall() float64 {
	if m.Rows == 0 {
		return 0
	}
	return float64(m.Found) / float64(m.Rows)
}

// VendorTextMeasured are the measured figures, one per pattern: the test
// TestVendorFromTextMeasured (indexer/source/crol) recomputes them from
// the labelled set and fails when they differ, and checks the table in
// docs/data-sources.md, so these figures are the ones published.
var VendorTextMeasured = map[string]VendorTextMeasure{
	VendorPatternAwardTo:       {Pattern: VendorPatternAwardTo, Published: 368, Correct: 366, Rows: 374, Found: 366, Labels: "vendor field"},
	VendorPatternConcessionTo:  {Pattern: VendorPatternConcessionTo, Published: 10, Correct: 10, Rows: 10, Found: 10, Labels: "hand"},
	VendorPatternIntentWith:    {Pattern: VendorPatternIntentWith, Published: 29, Correct: 29, Rows: 34, Found: 29, Labels: "hand"},
	VendorPatternIntentAwardTo: {Pattern: VendorPatternIntentAwardTo, Published: 3, Correct: 3, Rows: 3, Found: 3, Labels: "hand"},
	VendorPatternExtendedWith:  {Pattern: VendorPatternExtendedWith, Published: 3, Correct: 3, Rows: 3, Found: 3, Labels: "hand"},
	VendorPatternBetween:       {Pattern: VendorPatternBetween, Published: 1, Correct: 1, Rows: 1, Found: 1, Labels: "hand"},
	VendorPatternList:          {Pattern: VendorPatternList, Published: 4, Correct: 3, Rows: 7, Found: 3, Labels: "hand"},
}

// VendorTextCounted reports whether vendors read by pattern are counted:
// measured on the labelled set at a precision of VendorTextCountBar or
// above, on at least VendorTextMinPublished readings.
func VendorTextCounted(pattern string) bool {
	return vendorTextUncounted(pattern) == ""
}

// vendorTextUncounted says why a pattern's readings are not counted (""
// when they are).
func vendorTextUncounted(pattern string) string {
	m, ok := VendorTextMeasured[pattern]
	switch {
	case pattern == VendorPatternList:
		return "the notice names several vendors: a notice is counted under one vendor only, so under none of these"
	case !ok:
		return "the " + pattern + " rule is not measured"
	case m.Published < VendorTextMinPublished:
		return fmt.Sprintf("the %s rule read only %d of the labelled notices (%d needed to measure it)", pattern, m.Published, VendorTextMinPublished)
	case m.Precision() < VendorTextCountBar:
		return fmt.Sprintf("the %s rule was right on %d of %d labelled notices (precision %.3f, under the %.2f bar)", pattern, m.Correct, m.Published, m.Precision(), VendorTextCountBar)
	}
	return ""
}

// VendorReading is a vendor read from a notice's text, or why none is
// published.
type VendorReading struct {
	Name string `json:"name,omitempty"`
	// Names are the vendors a list names (pattern list, two or more, one
	// per vendor stem); Name is then absent.
	Names []string `json:"names,omitempty"`
	// Stem is VendorStem(Name).
	Stem    string `json:"stem,omitempty"`
	Method  string `json:"method"`
	Pattern string `json:"pattern,omitempty"`
	// Confidence is the pattern's measured confidence
	// (VendorTextMeasure.Confidence: the lower bound of its precision's
	// 95% interval); Counted whether profiles count it (VendorTextCounted).
	Confidence float64 `json:"confidence"`
	Counted    bool    `json:"counted"`
	// Precision is the pattern's measured precision on the labelled set
	// (VendorTextMeasure.Precision), absent when none was read.
	Precision *float64 `json:"precision,omitempty"`
	// UncountedReason says why a vendor read is not counted ("" when it
	// is counted or none was read).
	UncountedReason string `json:"uncounted_reason,omitempty"`
	// Evidence is the text the name was read from.
	Evidence string `json:"evidence,omitempty"`
	// Reason says why no vendor is published ("" when one is).
	Reason string `json:"reason,omitempty"`
}

var (
	awardToRE = regexp.MustCompile(`(?:^|\s-\s|\n)\s*TO:\s+`)
	// the start of an address after a vendor's name: a street number
	// ("111 Gardener", "47-20 …"), a P.O. Box, "One <Name> <street word>",
	// or ", <City>, <state>"
	addressStartRE = regexp.MustCompile(`(?:,?\s+|,)(?:\d+[A-Z]?(?:\s?-\s?\d+)?\s+[A-Za-z0-9]|(?i:P\.?\s?O\.?\s?BOX)\b)|,\s*(?i:one)\s+[A-Z]|\s+ONE\s+[A-Z]+\s+(?:WAY|ROAD|PLAZA|STREET|AVENUE|PLACE|CENTER|BOULEVARD)\b|,\s+[A-Z][A-Za-z.]+(?:\s[A-Z][A-Za-z.]+)?,\s+(?:[A-Z]{2}|N\.Y\.)\s*\d{5}`)
	// a run of corporate suffixes ("Inc.", "Co., Inc.", "LLC", "L.P."):
	// a name ends after it
	suffixRunRE = regexp.MustCompile(`(?i)(?:,?\s*\b(?:INC|CORP|CORPORATION|LLC|L\.L\.C|LP|L\.P|LTD|LLP|PC|P\.C|CO)\b\.?)+`)
	// "intends to enter into … with <vendor>" and kin; the vendor runs to
	// a clause boundary (group 1); "with the <Name>" drops the article
	intentWithRE = regexp.MustCompile(`(?i)(?:\b(?:intends?|seeks?|approval)|\bintent\s+of\s+[^.]{0,80}?)\s+to\s+(?:enter\s+into|negotiate|renew|extend)\b[^.]{0,120}?\bwith\s+(?:the\s+firm\s+of\s+)?(?:its\S?\s+(?:incumbent|current)\s+\w+|the\s+(?:current|incumbent|existing)\s+\w+|(?-i:the\s+)?(?-i:([A-Za-z0-9][^\n]{2,140})))`)
	// "intends to award a contract to <vendor>", "Intent to Award
	// (RENEWAL) for … to <vendor>"
	intentAwardToRE = regexp.MustCompile(`(?i)(?:\bintends?\s+to\s+award\s+(?:a|an|the)\s+(?:[a-z-]+\s+){0,3}?contract\s+to|\bIntent\s+to\s+Award\s+\([A-Za-z ]+\)\s+for\s+[^.]{0,200}?\s+to)\s+(?-i:([A-Za-z0-9][^\n]{2,140}))`)
	// Parks: "has awarded a concession to <vendor>", "has entered into
	// License Agreement (…) with the <vendor>"
	concessionToRE = regexp.MustCompile(`(?i)\bhas\s+(?:awarded\s+an?\s+concession\s+to|entered\s+into\s+(?:an?\s+)?License\s+Agreement\s*(?:\([^)]{0,30}\)\s*)?with)\s+(?-i:(?:the\s+)?([A-Za-z0-9][^\n]{2,160}))`)
	// "<service> contract with <vendor> to be extended": the end is the
	// phrase itself
	extendedWithRE = regexp.MustCompile(`\bcontract\s+(?:[a-z][^.]{0,60}?\s)?with\s+([A-Z][^\n]{2,100}?)\s+to\s+be\s+extended\b`)
	// "this negotiation is between <vendor> and the …"
	betweenRE = regexp.MustCompile(`(?i)\bnegotiation\s+is\s+between\s+(?-i:([A-Z][^\n]{2,100}?))\s+and\s+the\s`)
	// where an intent's vendor name ends when no suffix ends it
	intentEndRE = regexp.MustCompile(`(?:,\s+(?:a|an|the|to|for|which|who|located|location|in|as|of|whose)\b|\s+(?:to|for|in\s+order|which|who|located|pursuant|in\s+the\s+amount|through|in\s+connection)\b|,?\s+of\s+(?:\d|One\b)|\s*\(|[.;:]\s|\s-\s)`)
	// a short form after a name: "(NYAM)", "(“Coffeed”)"
	shortFormRE  = regexp.MustCompile(`\s*\(\s*[“"”]?[A-Za-z0-9.&' -]{1,24}[”"“]?\s*\)\s*$`)
	quotesRE     = strings.NewReplacer("“", "", "”", "", "\"", "")
	continuesRE  = regexp.MustCompile(`^(?:\s+of\b|\s*[-/]\s*\S)`)
	forTheNameRE = regexp.MustCompile(`^\s+for\s+the\s+[A-Z]`)
	andNameRE    = regexp.MustCompile(`^,?\s+and\s+[A-Z]`)
	dbaRE        = regexp.MustCompile(`^,?\s*(?i:dba\.?|d/b/a|d\s?b\s?a)\s`)
	// a list's cue, its numbered items ("1. ", "2) ", "3 " before a name)
	// and its "PIN: … Amount: $…" lines; where a listed name ends
	listCueRE     = regexp.MustCompile(`(?i)\b(?:following|listed\s+below|below\s+are|as\s+follows|the\s+above)\b`)
	listItemRE    = regexp.MustCompile(`(?:^|\s)(\d{1,2})(?:[.)]\s*|\s+)([A-Z])`)
	listPINLineRE = regexp.MustCompile(`\bPIN\s*[-:]\s*\S+\s+Amount\s*[-:]\s*\$[\d,.]+\s+`)
	listEndRE     = regexp.MustCompile(`,?\s+PIN\b|\s+\(|\s*\$|\s+Contract\s+Amount|\s{2,}|\n`)
	dbaAnyRE      = regexp.MustCompile(`,?\s+(?i:dba\.?|d/b/a|d\s?b\s?a)\s`)
	digitsRE      = regexp.MustCompile(`\d{3,}`)
)

// nameEnd is where a vendor's name ends in text that runs on into an
// address or a clause (end): after the first run of corporate suffixes
// when it comes before end or only a number token separates them
// ("CARDINAL HEALTH 411 INC."), else at end, else the whole text.
//
// A suffix followed by "of", "-" or "/" is inside the name ("Video
// Corporation of America", "URS Corporation-New York"), and a "DBA …"
// after the suffix belongs to the name, up to the first end after the
// suffix. ends are the places a name may end, in order (end is the first).
func nameEnd(text string, ends [][]int) string {
	var end []int
	if len(ends) > 0 {
		end = ends[0]
	}
	for _, s := range suffixRunRE.FindAllStringIndex(text, -1) {
		if s[0] == 0 || continuesRE.MatchString(text[s[1]:]) {
			continue
		}
		if end != nil && s[0] > end[0] && len(strings.Fields(text[end[0]:s[0]])) > 1 {
			break
		}
		if dbaRE.MatchString(text[s[1]:]) {
			for _, e := range ends {
				if e[0] > s[1] {
					return text[:e[0]]
				}
			}
			return text
		}
		return text[:s[1]]
	}
	if end != nil {
		return text[:end[0]]
	}
	return text
}

// VendorFromText reads the vendor a notice's text names, for a notice
// without a vendor field. Precision first: it publishes a name only when
// the phrases its patterns find all name one vendor, and otherwise returns
// the reason with no name.
//
//   - Awards: the printout's "- TO: <vendor> <address>" (DCAS writes the
//     vendor and address after the amount); the name ends where the
//     street number or P.O. Box begins. Parks concession awards: "has
//     awarded a concession to <vendor>", "has entered into License
//     Agreement with <vendor>".
//   - Intents to award: "intends to enter into (a sole source
//     negotiation, negotiations, an extension …) with <vendor>" and kin,
//     "intends to award a contract to <vendor>", "<service> contract with
//     <vendor> to be extended", "negotiation is between <vendor> and the
//     …", the name ending at its legal suffix, a short form in
//     parentheses, an address or the clause after it ("to provide", ", a
//     not-for-profit", "for the …"). "with its incumbent vendor" names
//     none.
//
// Several different names, a list of vendors, a name that starts with a
// lower-case word or is shorter than MinStemChars of stem are not
// published. A name read is counted (Counted) only when its pattern was
// measured at VendorTextCountBar or above (VendorTextCounted); otherwise
// UncountedReason says why.
func VendorFromText(noticeType, text string) VendorReading {
	r := VendorReading{Method: VendorMethodText}
	typ := strings.ToLower(strings.TrimSpace(noticeType))
	if !record.VendorTextTypes[typ] {
		r.Reason = "vendors are read from the text of awards and intents only"
		return r
	}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if strings.TrimSpace(text) == "" {
		r.Reason = "the notice has no text"
		return r
	}
	type found struct{ pattern, name, evidence string }
	var reads []found
	add := func(pattern, name, evidence string) {
		reads = append(reads, found{pattern, strings.TrimRight(strings.TrimSpace(name), ",;"), evidence})
	}
	// clause reads the vendor of a phrase rule from its group 1 (the text
	// after the phrase), or says why none is read
	clause := func(pattern string, re *regexp.Regexp, fixedEnd bool) string {
		for _, m := range re.FindAllStringSubmatch(text, -1) {
			if m[1] == "" {
				return "the text names no vendor (\"" + clip(strings.TrimSpace(m[0]), 120) + "\")"
			}
			name := m[1]
			if !fixedEnd {
				name = nameEnd(m[1], intentEndRE.FindAllStringIndex(m[1], -1))
				switch rest := m[1][len(name):]; {
				case forTheNameRE.MatchString(rest):
					return "unsure where the name ends: \"" + clip(strings.TrimSpace(m[1]), 100) + "\" (a name may go on \"for the …\")"
				case andNameRE.MatchString(rest):
					return "the text names several vendors: \"" + clip(strings.TrimSpace(m[1]), 100) + "\""
				}
			}
			name = quotesRE.Replace(shortFormRE.ReplaceAllString(strings.TrimRight(strings.TrimSpace(name), ",;"), ""))
			if !startsWithName(name) {
				return "the phrase is not followed by a name: " + clip(name, 80)
			}
			add(pattern, name, clip(strings.TrimSpace(m[0]), 200))
		}
		return ""
	}
	var why string
	switch typ {
	case "award":
		ms := awardToRE.FindAllStringIndex(text, -1)
		for i, m := range ms {
			line := text[m[1]:]
			if i+1 < len(ms) {
				line = text[m[1]:ms[i+1][0]]
			}
			if nl := strings.IndexByte(line, '\n'); nl >= 0 {
				line = line[:nl]
			}
			line = strings.TrimSpace(line)
			add(VendorPatternAwardTo, nameEnd(line, addressStartRE.FindAllStringIndex(line, -1)), "TO: "+clip(line, 160))
		}
		if len(reads) == 0 {
			why = clause(VendorPatternConcessionTo, concessionToRE, false)
		}
	default: // intents
		if names, evidence, why, ok := readList(text); ok {
			if why != "" {
				r.Reason = why
				return r
			}
			r.Pattern, r.Names, r.Evidence = VendorPatternList, names, evidence
			if m, ok := VendorTextMeasured[VendorPatternList]; ok && m.Published > 0 {
				r.Confidence = m.Confidence()
				p := math.Round(m.Precision()*1000) / 1000
				r.Precision = &p
			}
			r.UncountedReason = vendorTextUncounted(VendorPatternList)
			return r
		}
		for _, rule := range []struct {
			pattern  string
			re       *regexp.Regexp
			fixedEnd bool
		}{
			{VendorPatternIntentWith, intentWithRE, false},
			{VendorPatternIntentAwardTo, intentAwardToRE, false},
			{VendorPatternExtendedWith, extendedWithRE, true},
			{VendorPatternBetween, betweenRE, true},
		} {
			if w := clause(rule.pattern, rule.re, rule.fixedEnd); w != "" && why == "" {
				why = w
			}
		}
	}
	if why != "" {
		r.Reason = why
		return r
	}
	if len(reads) == 0 {
		// pattern names the type's first phrase rule, as it did when each
		// type had one (a published field: existing reads keep working)
		r.Pattern, r.Reason = VendorPatternIntentWith, "no phrase naming a vendor in the text"
		if typ == "award" {
			r.Pattern, r.Reason = VendorPatternAwardTo, "no award_to or concession_to phrase in the text"
		}
		return r
	}
	names := make([]string, len(reads))
	for i, f := range reads {
		names[i] = f.name
	}
	if !sameStems(names) {
		r.Reason = "the text names several vendors: " + strings.Join(names, "; ")
		return r
	}
	name, pattern := reads[0].name, reads[0].pattern
	r.Pattern = pattern
	switch {
	case strings.Contains(strings.ToLower(name), "following"), strings.Contains(name, " and the "):
		r.Reason = "the text names a list of vendors or a party pair: " + clip(name, 80)
		return r
	case len(name) > 100:
		r.Reason = "no clear end to the name: " + clip(name, 80)
		return r
	case digitsRE.MatchString(name) && !suffixRunRE.MatchString(name):
		r.Reason = "the name read runs into an address or amount: " + clip(name, 80)
		return r
	case pattern != VendorPatternExtendedWith && pattern != VendorPatternBetween && commaOutsideSuffix(name):
		r.Reason = "the name read runs on past a comma: " + clip(name, 80)
		return r
	}
	stem := VendorStem(name)
	if !StemLongEnough(stem) {
		r.Reason = "the name read is too short to be a vendor: " + name
		return r
	}
	r.Name, r.Stem, r.Evidence = name, stem, reads[0].evidence
	if m, ok := VendorTextMeasured[pattern]; ok && m.Published > 0 {
		r.Confidence = m.Confidence()
		p := math.Round(m.Precision()*1000) / 1000
		r.Precision = &p
	}
	r.UncountedReason = vendorTextUncounted(pattern)
	r.Counted = r.UncountedReason == ""
	return r
}

// readList reads a list of several vendors (VendorPatternList): after a
// cue, numbered items 1, 2, … each within 300 characters of the last, or
// "PIN: … Amount: $… <vendor> <address>" lines. ok is false when the text
// holds no list of two vendors or more; why says why a list found is not
// read (an item that is not a clear name). names are one per vendor stem,
// as first printed.
func readList(text string) (names []string, evidence, why string, ok bool) {
	cue := listCueRE.FindStringIndex(text)
	if cue == nil && !strings.HasPrefix(strings.TrimSpace(text), "1)") {
		return nil, "", "", false
	}
	var items []string
	from := 0
	if cue != nil {
		from = cue[0]
	}
	if pins := listPINLineRE.FindAllStringIndex(text[from:], -1); len(pins) >= 2 {
		for i, m := range pins {
			item := text[from+m[1]:]
			if i+1 < len(pins) {
				item = text[from+m[1] : from+pins[i+1][0]]
			}
			item = clipRunes(item, 200)
			items = append(items, shortFormRE.ReplaceAllString(strings.TrimSpace(nameEnd(item, addressStartRE.FindAllStringIndex(item, -1))), ""))
		}
	} else {
		marks := listItemRE.FindAllStringSubmatchIndex(text[from:], -1)
		var starts [][2]int // the name's start and the marker's start
		for _, m := range marks {
			n, _ := strconv.Atoi(text[from+m[2] : from+m[3]])
			if n != len(starts)+1 {
				continue
			}
			if len(starts) > 0 && from+m[0]-starts[len(starts)-1][1] > 300 {
				break
			}
			starts = append(starts, [2]int{from + m[4], from + m[0]})
		}
		if len(starts) < 2 {
			return nil, "", "", false
		}
		for i, st := range starts {
			item := text[st[0]:]
			if i+1 < len(starts) {
				item = text[st[0]:starts[i+1][1]]
			}
			item = clipRunes(item, 200)
			end := listEndRE.FindAllStringIndex(item, -1)
			if end == nil && i+1 == len(starts) {
				return nil, "", "unsure where the list's last vendor ends: " + clip(item, 80), true
			}
			items = append(items, shortFormRE.ReplaceAllString(strings.TrimRight(strings.TrimSpace(nameEnd(item, end)), ",;"), ""))
		}
	}
	for _, name := range items {
		switch {
		case !startsWithName(name), len(name) > 100, digitsRE.MatchString(name) && !suffixRunRE.MatchString(name),
			commaOutsideSuffix(name), !StemLongEnough(VendorStem(name)):
			return nil, "", "a list of vendors with an item that is not a clear name: " + clip(name, 80), true
		}
		if !slices.ContainsFunc(names, func(n string) bool { return VendorStem(n) == VendorStem(name) }) {
			names = append(names, name)
		}
	}
	if len(names) < 2 {
		return nil, "", "", false
	}
	return names, clip(strings.Join(names, "; "), 200), "", true
}

// clipRunes cuts s to at most n bytes on a rune boundary.
func clipRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// startsWithName reports whether text starts with a word holding an upper
// case letter or a digit ("eMTee, Inc.", "106 Amsterdam"), not a lower
// case word ("the following vendors").
func startsWithName(text string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(text), " ")
	return strings.IndexFunc(w, func(c rune) bool { return unicode.IsUpper(c) || unicode.IsDigit(c) }) >= 0
}

// commaOutsideSuffix reports whether a name holds a comma that does not
// introduce a corporate suffix ("Woods Services, Inc." holds none; "Bank
// Of New York Mellon, BNY Mellon Center" does).
//
// What follows a "d/b/a" is the trade name, commas and all ("Foster
// Miller, Inc. dba QinetiQ, North America").
func commaOutsideSuffix(name string) bool {
	if loc := dbaAnyRE.FindStringIndex(name); loc != nil {
		name = name[:loc[0]]
	}
	for i := strings.IndexByte(name, ','); i >= 0; {
		if loc := suffixRunRE.FindStringIndex(name[i:]); loc == nil || loc[0] != 0 {
			return true
		}
		j := strings.IndexByte(name[i+1:], ',')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// sameStems reports whether every name has the same vendor stem.
func sameStems(names []string) bool {
	for _, n := range names[1:] {
		if VendorStem(n) != VendorStem(names[0]) {
			return false
		}
	}
	return true
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
