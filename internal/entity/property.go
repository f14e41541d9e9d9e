package entity

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Boroughs by borough code (the first digit of a BBL).
var Boroughs = map[int]string{1: "Manhattan", 2: "Bronx", 3: "Brooklyn", 4: "Queens", 5: "Staten Island"}

// SiteAddress is a street address given as (part of) a property's site.
type SiteAddress struct {
	Text    string `json:"text"`
	Borough string `json:"borough,omitempty"`
}

// TaxLot is a tax block and lot named as (part of) a site. BBL is set when
// the text gives it, or when exactly one borough is in scope.
type TaxLot struct {
	Borough   string `json:"borough,omitempty"`
	Block     int    `json:"block"`
	Lot       int    `json:"lot"`
	PartOfLot bool   `json:"part_of_lot,omitempty"`
	BBL       string `json:"bbl,omitempty"`
	// Method says where the lot came from: "explicit BBL" or "block and
	// lot" (with the borough in scope).
	Method string `json:"method"`
}

// SetAside is an address or lot the text names that is not the site: a
// hearing venue, an office to contact, privately owned neighbours.
type SetAside struct {
	Text   string `json:"text"`
	Reason string `json:"reason"`
}

// Places is what a property notice says about where its property is.
type Places struct {
	Addresses []SiteAddress `json:"addresses"`
	Boroughs  []string      `json:"boroughs"`
	TaxLots   []TaxLot      `json:"tax_lots"`
	BBLs      []string      `json:"bbls"`
	SetAside  []SetAside    `json:"set_aside"`
	// Note explains what could not be resolved (a block and lot without
	// exactly one borough in scope).
	Notes []string `json:"notes,omitempty"`
}

var (
	dashRE      = strings.NewReplacer("\u2013", "-", "\u2014", "-", "\u2012", "-", "\u00a0", " ", "“", "\"", "”", "\"", "’", "'")
	ordinalRE   = regexp.MustCompile(`\b(\d+)\s+(st|nd|rd|th)\b`)
	spaceRE     = regexp.MustCompile(`[ \t]+`)
	phoneRE     = regexp.MustCompile(`\(?\b\d{3}\)?[ .-]\d{3}[ .-]\d{4}\b`)
	venueRE     = regexp.MustCompile(`(?i)\b(hearing|held at|will be held|shall be held|examination|examine|inspect(ed|ion)?|contact(ing)?|inquir(y|ies|e)|call\b|telephone|phone|fax|e-?mail|tdd|submit(ted)?|received by|opened at|deliver(ed)?|offices? of\b|room\s+\S+|\bfloor\b|suite|interpreters?|sign language|showings?|register|bids? (must|shall|will)|obtain(ed)?|pick(ed)? ?up|copies|available at|available for|following (office|location)s?|storehouse|precinct|property clerk|auto pound)`)
	privateRE   = regexp.MustCompile(`(?i)privately[- ]owned|adjacent privately|not (part of|included in) the (site|disposition)`)
	streetRE    = regexp.MustCompile(`\b(\d+[A-Z]?(?:-\d+[A-Z]?)?(?:\s?-\s?\d+[A-Z]?(?:-\d+)?)?)\s+((?:(?:East|West|North|South|E\.|W\.|N\.|S\.)\s+)?(?:\d+(?:st|nd|rd|th)?|[A-Z][A-Za-z'.]*(?:\s+[A-Z][A-Za-z'.]*){0,3}))\s+(Street|St\.|Avenue|Ave\.?|Road|Rd\.|Place|Pl\.|Boulevard|Blvd\.?|Parkway|Pkwy\.?|Drive|Dr\.|Lane|Court|Terrace|Way|Plaza|Square|Highway|Turnpike|Expressway|Concourse|Loop|Walk|Row|Slip|Alley|Crescent|Circle|Oval|Path|Promenade|Esplanade)\b`)
	namedRE     = regexp.MustCompile(`\b(\d+[A-Z]?(?:\s?-\s?\d+[A-Z]?)?)\s+(Broadway|Bowery)\b`)
	boroughRE   = regexp.MustCompile(`(?i)\b(?:borough of\s+)?(manhattan|the bronx|bronx|brooklyn|queens|staten island|new york county|kings county|richmond county|bronx county|queens county)\b`)
	explicitRE  = regexp.MustCompile(`(?i)\bBBLs?\b\s*(?:No\.?|#|:)?\s*([1-5])\s*[-/ ]?\s*(\d{5})\s*[-/ ]?\s*(\d{4})\b`)
	explicit2RE = regexp.MustCompile(`(?i)\bBBLs?\b\s*(?:No\.?|#|:)?\s*([1-5])-(\d{1,5})-(\d{1,4})\b`)
	blockLotRE  = regexp.MustCompile(`(?i)\b(?:tax\s+)?block\s*(?:no\.?|#|:)?\s*(\d{1,5})\s*[,;]?\s*(?:and\s+)?((?:a\s+)?part\s+of\s+)?(?:tax\s+)?lots?\s*(?:no\.?|#|:)?\s*(\d{1,4}(?:\s*(?:,|and|&|through|thru|to|-)\s*\d{1,4})*)`)
	slashLotRE  = regexp.MustCompile(`(?:^|[^\d/])(\d{1,5})\s*/\s*(part\s+of\s+)?(\d{1,4})(?:[^\d/]|$)`)
	lotListRE   = regexp.MustCompile(`\d{1,4}|through|thru|to|-`)
)

var countyBorough = map[string]string{
	"manhattan": "Manhattan", "new york county": "Manhattan", "bronx": "Bronx", "the bronx": "Bronx", "bronx county": "Bronx",
	"brooklyn": "Brooklyn", "kings county": "Brooklyn", "queens": "Queens", "queens county": "Queens",
	"staten island": "Staten Island", "richmond county": "Staten Island",
}

func boroughCode(name string) int {
	for c, b := range Boroughs {
		if b == name {
			return c
		}
	}
	return 0
}

// FormatBBL is the 10-digit BBL of a borough code, block and lot.
func FormatBBL(borough, block, lot int) string {
	return fmt.Sprintf("%d%05d%04d", borough, block, lot)
}

// normalizePlaceText folds dashes and quotes and joins split ordinals
// ("53 rd" → "53rd").
func normalizePlaceText(s string) string {
	s = dashRE.Replace(s)
	s = ordinalRE.ReplaceAllString(s, "$1$2")
	return s
}

var abbrevs = map[string]bool{"st": true, "ave": true, "no": true, "rd": true, "blvd": true, "inc": true, "mr": true, "ms": true,
	"dr": true, "pl": true, "e": true, "w": true, "n": true, "s": true, "a.m": true, "p.m": true, "jr": true, "co": true, "corp": true}

// sentences splits a paragraph at ". " before a capital, a digit or a quote,
// unless the word before the period is a common abbreviation.
func sentences(p string) []string {
	var out []string
	start := 0
	for i := 0; i+2 < len(p); i++ {
		if p[i] != '.' && p[i] != ';' || p[i+1] != ' ' {
			continue
		}
		next := p[i+2]
		if !(next >= 'A' && next <= 'Z' || next == '"' || next == '(') {
			continue
		}
		j := strings.LastIndexAny(p[:i], " (") + 1
		if abbrevs[strings.ToLower(p[j:i])] {
			continue
		}
		out = append(out, strings.TrimSpace(p[start:i+1]))
		start = i + 2
	}
	if rest := strings.TrimSpace(p[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// ExtractPlaces reads the site of a Property Disposition notice from its
// plain text: street addresses, boroughs, tax blocks and lots and BBLs.
// Sentences about where to attend, inspect, ask or submit (hearing venues,
// agency offices and contacts) are never the site, nor are privately owned
// neighbours; what they name is returned in SetAside with the reason. A
// list introduced by such a sentence (ending in ":") is set aside too. A
// BBL comes from an explicit BBL in the text, or from a block and lot when
// exactly one borough is in scope.
func ExtractPlaces(text string) Places {
	pl := Places{Addresses: []SiteAddress{}, Boroughs: []string{}, TaxLots: []TaxLot{}, BBLs: []string{}, SetAside: []SetAside{}}
	text = normalizePlaceText(text)
	slashTable := regexp.MustCompile(`(?i)block\s*/\s*lots?`).MatchString(text)
	type sent struct {
		text   string
		reason string // "" for a site sentence
	}
	var ss []sent
	for _, para := range strings.Split(text, "\n\n") {
		para = spaceRE.ReplaceAllString(strings.ReplaceAll(para, "\n", " "), " ")
		para = strings.TrimSpace(para)
		if para == "" {
			continue
		}
		// a list after a venue or contact sentence ending in ":" is venues too
		if len(ss) > 0 && ss[len(ss)-1].reason != "" && strings.HasSuffix(ss[len(ss)-1].text, ":") && len(para) < 200 &&
			!blockLotRE.MatchString(para) && !explicitRE.MatchString(para) {
			ss = append(ss, sent{para, ss[len(ss)-1].reason})
			continue
		}
		for _, s := range sentences(para) {
			reason := ""
			switch {
			case privateRE.MatchString(s):
				reason = "privately owned property named for context"
			case phoneRE.MatchString(s):
				reason = "an office or contact (the sentence gives a telephone number)"
			case venueRE.MatchString(s):
				reason = "a hearing venue, office or contact, not the site"
			}
			ss = append(ss, sent{s, reason})
		}
	}
	seenB := map[string]bool{}
	for _, s := range ss {
		if s.reason != "" {
			continue
		}
		for _, m := range boroughRE.FindAllStringSubmatch(s.text, -1) {
			b := countyBorough[strings.ToLower(m[1])]
			if b != "" && !seenB[b] {
				seenB[b] = true
				pl.Boroughs = append(pl.Boroughs, b)
			}
		}
	}
	sort.Strings(pl.Boroughs)
	single := ""
	if len(pl.Boroughs) == 1 {
		single = pl.Boroughs[0]
	}
	seenA := map[string]bool{}
	seenL := map[string]bool{}
	addLot := func(tl TaxLot) {
		key := fmt.Sprintf("%s/%d/%d", tl.BBL, tl.Block, tl.Lot)
		if seenL[key] {
			return
		}
		seenL[key] = true
		pl.TaxLots = append(pl.TaxLots, tl)
	}
	for _, s := range ss {
		addrs := append(streetRE.FindAllStringIndex(s.text, -1), namedRE.FindAllStringIndex(s.text, -1)...)
		sort.Slice(addrs, func(i, j int) bool { return addrs[i][0] < addrs[j][0] })
		for _, loc := range addrs {
			a := strings.TrimSpace(spaceRE.ReplaceAllString(s.text[loc[0]:loc[1]], " "))
			if s.reason != "" {
				pl.SetAside = append(pl.SetAside, SetAside{Text: a, Reason: s.reason})
				continue
			}
			if seenA[a] {
				continue
			}
			seenA[a] = true
			b := single
			if m := boroughRE.FindStringSubmatch(s.text[loc[1]:min(len(s.text), loc[1]+40)]); m != nil {
				b = countyBorough[strings.ToLower(m[1])]
			}
			pl.Addresses = append(pl.Addresses, SiteAddress{Text: a, Borough: b})
		}
		if s.reason != "" {
			for _, m := range blockLotRE.FindAllString(s.text, -1) {
				pl.SetAside = append(pl.SetAside, SetAside{Text: strings.TrimSpace(m), Reason: s.reason})
			}
			continue
		}
		for _, re := range []*regexp.Regexp{explicitRE, explicit2RE} {
			for _, m := range re.FindAllStringSubmatch(s.text, -1) {
				bc, _ := strconv.Atoi(m[1])
				block, _ := strconv.Atoi(m[2])
				lot, _ := strconv.Atoi(m[3])
				switch {
				case block == 0 || lot == 0:
					pl.note(fmt.Sprintf("%q: not published, a block or lot 0 is no tax lot", strings.TrimSpace(m[0])))
				case len(pl.Boroughs) > 0 && !contains(pl.Boroughs, Boroughs[bc]):
					pl.note(fmt.Sprintf("%q: not published, its borough (%s) is not the one the notice names (%s)", strings.TrimSpace(m[0]), Boroughs[bc], strings.Join(pl.Boroughs, ", ")))
				default:
					addLot(TaxLot{Borough: Boroughs[bc], Block: block, Lot: lot, BBL: FormatBBL(bc, block, lot), Method: "explicit BBL"})
				}
			}
		}
		blockLots := func(block int, part bool, lots []int) {
			for _, lot := range lots {
				if block == 0 || lot == 0 {
					pl.note(fmt.Sprintf("block %d lot %d: not published, a block or lot 0 is no tax lot", block, lot))
					continue
				}
				tl := TaxLot{Block: block, Lot: lot, PartOfLot: part, Method: "block and lot"}
				if single != "" {
					tl.Borough = single
					tl.BBL = FormatBBL(boroughCode(single), block, lot)
				}
				addLot(tl)
			}
		}
		for _, m := range blockLotRE.FindAllStringSubmatch(s.text, -1) {
			block, _ := strconv.Atoi(m[1])
			lots, unsure := lotList(m[3])
			for _, u := range unsure {
				pl.note(fmt.Sprintf("block %d lots %s: not published, %s", block, u, "a range of lots this parser does not expand (reversed, or more than 100 lots)"))
			}
			blockLots(block, m[2] != "", lots)
		}
		if slashTable {
			for _, m := range slashLotRE.FindAllStringSubmatch(s.text, -1) {
				block, _ := strconv.Atoi(m[1])
				lot, _ := strconv.Atoi(m[3])
				blockLots(block, m[2] != "", []int{lot})
			}
		}
	}
	for _, tl := range pl.TaxLots {
		if tl.BBL != "" && !contains(pl.BBLs, tl.BBL) {
			pl.BBLs = append(pl.BBLs, tl.BBL)
		}
		if tl.BBL == "" {
			note := fmt.Sprintf("block %d lot %d: no BBL, because %d boroughs are in scope (a BBL needs exactly one)", tl.Block, tl.Lot, len(pl.Boroughs))
			pl.Notes = append(pl.Notes, note)
		}
	}
	return pl
}

// note keeps a reason once.
func (pl *Places) note(s string) {
	if !contains(pl.Notes, s) {
		pl.Notes = append(pl.Notes, s)
	}
}

// lotList reads "1", "1, 2 and 5", "1001 through 1008" (ranges of at most
// 100 lots are expanded). A range it does not expand (reversed, or longer)
// is returned in unsure and yields no lot: precision first, neither end
// is read as a lot of its own.
func lotList(s string) (out []int, unsure []string) {
	toks := lotListRE.FindAllString(strings.ToLower(s), -1)
	for i := 0; i < len(toks); i++ {
		n, err := strconv.Atoi(toks[i])
		if err != nil {
			continue
		}
		if i+2 < len(toks) && (toks[i+1] == "through" || toks[i+1] == "thru" || toks[i+1] == "to" || toks[i+1] == "-") {
			if m, err := strconv.Atoi(toks[i+2]); err == nil {
				if m >= n && m-n <= 100 {
					for k := n; k <= m; k++ {
						out = append(out, k)
					}
				} else {
					unsure = append(unsure, toks[i]+" "+toks[i+1]+" "+toks[i+2])
				}
				i += 2
				continue
			}
		}
		out = append(out, n)
	}
	return out, unsure
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
