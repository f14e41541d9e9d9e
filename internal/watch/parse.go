package watch

import (
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// maxKeywords bounds the words a parsed request keeps.
const maxKeywords = 10

// LensPrecedence is the fixed order in which a lens is chosen when a
// request names several kinds of record (people only in Form 1); a request
// that names none follows money.
var LensPrecedence = []string{record.LensLand, record.LensMeetings, record.LensRules, record.LensProperty, record.LensPeople, record.LensMoney}

// ParseOptions are what the parser reads besides the request.
type ParseOptions struct {
	// Crosswalk resolves agency names and short forms; it is asked before
	// the parser's own small nickname table.
	Crosswalk *entity.Crosswalk
	// Form 2 offers no people lens.
	Form int
	// Now is when the request is read: time windows ("this year", "next
	// month") are days from it (zero: the clock).
	Now time.Time
}

// Understanding is a parsed request: the structured filter and how the
// request was read, in plain words.
type Understanding struct {
	Filter Filter `json:"filter"`
	// Agencies names the filter's agency ids (id → name).
	Agencies map[string]string `json:"agencies,omitempty"`
	// Scope is the filter in one plain sentence, as the emails state it.
	Scope string `json:"scope"`
	// ScopeKey is scope as a note (DescribeNote), said in the reader's
	// language; absent when the scope is not one (a follow watch's).
	ScopeKey record.Note `json:"scope_key,omitzero"`
	// Notes say how each part of the request was read.
	Notes []string `json:"notes"`
	// NoteKeys are notes as notes (key and arguments), one for each.
	NoteKeys record.Notes `json:"note_keys,omitempty"`
	// Cadence is the digest cadence the request asked for ("weekly",
	// "every Monday", "daily"); daily when it named none.
	Cadence string `json:"cadence"`
	// Follow is set when the request names one object to follow ("follow
	// PIN …"): Filter then only names its lens.
	Follow *Follow `json:"follow,omitempty"`
}

// cadenceRE finds how often a request asks for mail. The words are taken
// out of the request before it is read, so they never become keywords.
var cadenceRE = regexp.MustCompile(`(?i)\b(?:(?:send (?:it |me |them )?)?(?:weekly|once a week|every week|each week|` +
	`(?:every|each|on) (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?|` +
	`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s)|` +
	`(?:send (?:it |me |them )?)?(?:daily|every day|each day|once a day))\b(?:\s+(?:digests?|emails?|mails?|updates?))?`)

var weekdayRE = regexp.MustCompile(`(?i)(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`)

// cadenceIn takes the cadence words out of a request: the text left, the
// cadence ("" when none was named) and a note saying how it was read.
func cadenceIn(text string) (string, string, record.Note) {
	cad, note := "", record.Note{}
	if !mayMatch(text, []string{"week", "day", "daily"}) {
		return text, cad, note
	}
	text = cadenceRE.ReplaceAllStringFunc(text, func(m string) string {
		lm := strings.ToLower(m)
		isDaily := (strings.Contains(lm, "daily") || strings.Contains(lm, "day")) && weekdayRE.FindString(lm) == ""
		switch {
		case isDaily && cad == "":
			cad = CadenceDaily
			note = record.N("watch.read.daily", q(strings.TrimSpace(m)))
		case !isDaily:
			cad = CadenceWeekly
			note = withParts(record.N("watch.read.weekly", q(strings.TrimSpace(m))), weekdaysPart(WeeklyDay.String()))
			if d := weekdayRE.FindString(lm); d != "" && !strings.EqualFold(d, WeeklyDay.String()) {
				note = withParts(record.N("watch.read.weekly_day", q(strings.TrimSpace(m))),
					weekdaysPart(WeeklyDay.String()), weekdaysPart(strings.ToUpper(d[:1])+strings.ToLower(d[1:])))
			}
		}
		return " "
	})
	return text, cad, note
}

type tokKind int

const (
	tWord tokKind = iota
	tQuote
	tAmount
	tBreak // . ; : ! ? ( ) and line ends between sentences
	tComma
)

type token struct {
	kind  tokKind
	text  string  // as written (word or phrase); the amount's text
	neg   bool    // written with a leading "-"
	value float64 // tAmount, and numbers written as words
	num   bool    // a bare number (tWord)
}

var amountRE = regexp.MustCompile(`(?i)^(\$\s*)?(\d[\d,]*(?:\.\d+)?|\.\d+)(?:\s*(thousand|grand|millions?|billions?|mil|mm|bn|k|m|b)\b)?(\s*(?:dollars|usd)\b)?`)

// amountReach is how far into s an amount starting at byte i can reach
// (amountRE and the one character its last \b looks at), so the pattern
// reads that much and not the rest of the request: a dollar sign, spaces,
// the number, then two runs of spaces and a word (magnitude, "dollars"),
// then one character more.
func amountReach(s string, i int) int {
	space := func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' || r == '\v' }
	skip := func(ok func(rune) bool) {
		for i < len(s) {
			r, w := utf8.DecodeRuneInString(s[i:])
			if !ok(r) {
				return
			}
			i += w
		}
	}
	if i < len(s) && s[i] == '$' {
		i++
	}
	skip(space)
	skip(func(r rune) bool { return r >= '0' && r <= '9' || r == ',' || r == '.' })
	for range 2 {
		skip(space)
		skip(func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' })
	}
	if i < len(s) {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return i
}

func magnitude(s string) float64 {
	switch strings.ToLower(s) {
	case "k", "thousand", "grand":
		return 1e3
	case "m", "mm", "mil", "million", "millions":
		return 1e6
	case "b", "bn", "billion", "billions":
		return 1e9
	}
	return 1
}

// abbreviations whose period does not end a sentence.
var abbreviations = map[string]bool{"dept": true, "inc": true, "corp": true, "co": true, "ltd": true, "st": true,
	"ave": true, "no": true, "mr": true, "ms": true, "dr": true, "jr": true, "bros": true, "assn": true, "svcs": true}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’' || r == '&' || r == '+' || r == '-' || r == '/'
}

// tokenize splits a request into words, quoted phrases, amounts and breaks.
func tokenize(s string) []token {
	rs := []rune(s)
	// off[i] is the byte offset of rune i, so an amount is read from the
	// text in place instead of from a copy of the rest of the request
	off := make([]int, 0, len(rs)+1)
	for b := range s {
		off = append(off, b)
	}
	off = append(off, len(s))
	var out []token
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
			continue
		case r == '"' || r == '“' || r == '”' || r == '«' || r == '»':
			j := i + 1
			for j < len(rs) && !strings.ContainsRune("\"“”«»", rs[j]) {
				j++
			}
			neg := i > 0 && rs[i-1] == '-'
			out = append(out, token{kind: tQuote, text: string(rs[i+1 : min(j, len(rs))]), neg: neg})
			i = j + 1
			continue
		case r == '-' && i+1 < len(rs) && (unicode.IsLetter(rs[i+1]) || strings.ContainsRune("\"“", rs[i+1])) &&
			(i == 0 || unicode.IsSpace(rs[i-1])):
			if unicode.IsLetter(rs[i+1]) {
				j := i + 1
				for j < len(rs) && isWordRune(rs[j]) {
					j++
				}
				out = append(out, token{kind: tWord, text: strings.TrimRight(string(rs[i+1:j]), "-'’"), neg: true})
				i = j
				continue
			}
			i++ // a quote follows and reads its own "-"
			continue
		case r == '$' || unicode.IsDigit(r) || (r == '.' && i+1 < len(rs) && unicode.IsDigit(rs[i+1])):
			m := amountRE.FindStringSubmatch(s[off[i]:amountReach(s, off[i])])
			if m == nil {
				i++
				continue
			}
			numText := strings.ReplaceAll(m[2], ",", "")
			v, err := strconv.ParseFloat(numText, 64)
			n := utf8.RuneCountInString(m[0])
			if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				i += n
				continue
			}
			if m[1] != "" || m[3] != "" || m[4] != "" {
				out = append(out, token{kind: tAmount, text: strings.TrimSpace(m[0]), value: v * magnitude(m[3])})
				i += n
				if i < len(rs) && rs[i] == '+' {
					i++ // "$1m+" reads as "or more" (the default)
				}
				continue
			}
			// a bare number: a word (a local law, a year), unless a
			// comparator makes it an amount
			j := i
			for j < len(rs) && isWordRune(rs[j]) {
				j++
			}
			word := string(rs[i:max(j, i+n)])
			out = append(out, token{kind: tWord, text: word, num: word == m[0], value: v})
			i = max(j, i+n)
			continue
		case unicode.IsLetter(r):
			j := i
			for j < len(rs) && isWordRune(rs[j]) {
				j++
			}
			w := strings.TrimRight(string(rs[i:j]), "-'’/")
			out = append(out, token{kind: tWord, text: w})
			i = j
			if i < len(rs) && rs[i] == '.' && abbreviations[strings.ToLower(w)] {
				i++ // "Dept." and "Inc." do not end a sentence
			}
			continue
		case r == ',':
			out = append(out, token{kind: tComma, text: ","})
		case strings.ContainsRune(".;:!?()[]\n", r):
			out = append(out, token{kind: tBreak, text: string(r)})
		}
		i++
	}
	return out
}

// lensWords name a kind of record.
var lensWords = func() map[string]string {
	m := map[string]string{}
	add := func(lens string, words ...string) {
		for _, w := range words {
			m[w] = lens
		}
	}
	add(record.LensLand, "rezoning", "rezonings", "zoning", "ulurp", "land use", "land-use", "upzoning", "upzonings",
		"land", "zoning changes", "zoning change", "special permit", "special permits", "zoning map", "zoning text")
	add(record.LensMeetings, "meeting", "meetings", "hearing", "hearings", "public hearing", "public hearings",
		"board meeting", "board meetings", "agenda", "agendas", "town hall", "town halls")
	add(record.LensRules, "rule", "rules", "rulemaking", "rule-making", "rulemakings", "regulation", "regulations",
		"proposed rule", "proposed rules", "final rule", "final rules", "rule changes", "rule change")
	add(record.LensProperty, "property", "properties", "disposition", "dispositions", "auction", "auctions",
		"real estate", "surplus property", "property sale", "property sales", "unclaimed property")
	add(record.LensPeople, "personnel", "appointment", "appointments", "hire", "hires", "hiring", "new hires",
		"promotion", "promotions", "changes in personnel", "staffing", "staff changes", "salary", "salaries", "payroll")
	add(record.LensMoney, "contract", "contracts", "award", "awards", "awarded", "procurement", "procurements",
		"bid", "bids", "bidding", "solicitation", "solicitations", "rfp", "rfps", "rfq", "rfqs", "rfi", "rfis",
		"tender", "tenders", "purchase", "purchases", "purchasing", "spending", "money", "intent to award",
		"intents to award", "concession", "concessions", "vendor", "vendors", "contractor", "contractors",
		"winning bids", "winning bid", "won", "winner", "winners", "contract awards", "contract award", "opportunities", "opportunity",
		"open bids", "open bid", "open solicitations", "open solicitation", "open rfps", "open opportunities")
	return m
}()

var awardWords = map[string]bool{"award": true, "awards": true, "awarded": true, "intent to award": true,
	"intents to award": true, "won": true, "winner": true, "winners": true, "winning bids": true, "winning bid": true,
	"contract awards": true, "contract award": true}

// bidWords name open solicitations: with an amount they keep a bid watch.
var bidWords = toSet(`bid bids bidding solicitation solicitations rfp rfps rfq rfqs rfi rfis tender tenders opportunities opportunity`)

func init() {
	for _, w := range []string{"open bids", "open bid", "open solicitations", "open solicitation", "open rfps", "open opportunities"} {
		bidWords[w] = true
	}
}

// stopwords carry no meaning for a watch.
var stopwords = toSet(`a an the and or nor of for from in on at by with to into about regarding concerning re around near within
me us my our i i'd i'm im we you your please pls kindly thanks thank hi hello dear regards cheers
email e-mail mail emails send sent notify notified notification notifications alert alerts tell let know keep posted
update updates updated digest digests daily weekly subscribe subscription watch watching follow following track tracking monitor remind
any all every each some anything everything something new newly latest recent recently upcoming future current
when whenever if there is are was were be been being will would could should can may might must
want wants wanted like love interested interest need needs worth valued
notice notices record records item items posting postings post posts publication published publish issued announced announcement announcements
news info information that which who whom this these those it its they them their
city nyc ny york get got gets show shows give see look looking find hear
related relating involving include includes including mentioning mention mentions
only just also too over more than least most under below above up down out what how where why
do does did done has have had one ones such etc other others kind kinds type types sort sorts lot lots much many
big large small major huge thing things stuff pm am today tomorrow week month year yearly monthly
happen happens happening go goes going come comes coming make makes made so as but then via per whether both either neither
please me due deadline deadlines soon`)

// fillers may sit inside an exclusion list without ending it.
var fillers = toSet(`the any in from for of by about or and nor anything mentioning with a an`)

func toSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// exclusion markers, longest first.
var exclusionMarkers = [][]string{{"other", "than"}, {"but", "not"}, {"and", "not"}, {"not"}, {"except"}, {"excluding"},
	{"exclude"}, {"excludes"}, {"without"}, {"minus"}, {"no"}, {"never"}, {"excepting"}}

// comparators before an amount.
var (
	minComparators = [][]string{{"more", "than"}, {"greater", "than"}, {"at", "least"}, {"no", "less", "than"},
		{"not", "less", "than"}, {"in", "excess", "of"}, {"upwards", "of"}, {"minimum", "of"}, {"starting", "at"},
		{"over"}, {"above"}, {"exceeding"}, {"exceeds"}, {"min"}, {"minimum"}, {"from"}, {">"}, {">="}, {"≥"}}
	maxComparators = [][]string{{"less", "than"}, {"no", "more", "than"}, {"not", "more", "than"}, {"at", "most"},
		{"up", "to"}, {"under"}, {"below"}, {"max"}, {"maximum"}, {"<"}, {"<="}, {"≤"}}
	minTrailers = [][]string{{"or", "more"}, {"and", "up"}, {"and", "above"}, {"or", "above"}, {"or", "higher"}, {"plus"}, {"and", "over"}, {"or", "over"}}
	maxTrailers = [][]string{{"or", "less"}, {"and", "under"}, {"and", "below"}, {"or", "below"}, {"or", "lower"}}
)

// vendor cues: a name follows them.
var vendorCues = [][]string{{"awarded", "to"}, {"won", "by"}, {"given", "to"}, {"vendor"}, {"vendors"}, {"contractor"},
	{"company"}, {"firm"}, {"supplier"}, {"awardee"}}

var legalSuffixWords = toSet(`inc incorporated llc corp corporation co company lp llp pc ltd limited pllc`)

var relatedWords = map[string][]string{
	"construction": {"reconstruction"},
}

type parser struct {
	opt      ParseOptions
	toks     []token
	sp       spans
	f        Filter
	agencies map[string]string
	notes    record.Notes
	lensHits map[string][]string
	awards   bool
	noAwards bool
	keywords []string
	amounts  int
	bids     bool    // a word for bids was named (bids, solicitations, RFPs …)
	win      *window // the time window named, if any
	asked    map[agencyQuery]agencyAnswer
}

// Parse turns a plain-English request into a structured filter,
// deterministically: lens words, agencies (crosswalk first, then short
// forms), vendors, amounts, quoted phrases, exclusions and boroughs. It
// refuses requests over record.MaxRequestTextLen characters and requests in which it
// finds nothing to watch.
func Parse(text string, opt ParseOptions) (Understanding, error) {
	if n := len([]rune(text)); n > record.MaxRequestTextLen {
		return Understanding{}, record.InvalidNote("text", "watch.error.text_len", record.MaxRequestTextLen, n)
	}
	text = strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return ' '
		}
		return r
	}, text))
	if text == "" {
		return Understanding{}, record.InvalidNote("text", "watch.error.say")
	}
	text, cadence, cadNote := cadenceIn(text)
	if f, ok := ParseFollow(text); ok {
		return understandFollow(f, opt.Form, cadence, cadNote)
	}
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	text, win, winNotes := windowIn(text, now)
	toks := tokenize(text)
	p := &parser{opt: opt, toks: toks, sp: indexSpans(toks), agencies: map[string]string{}, lensHits: map[string][]string{}, win: win}
	p.run()
	p.notes = append(p.notes, winNotes...)
	u, err := p.finish(search.DayStart(now))
	if err != nil {
		return u, err
	}
	u.Cadence = CadenceDaily
	if cadence != "" {
		u.Cadence = cadence
		u.AddNote(cadNote)
	} else {
		u.AddNote(record.Note{Key: "watch.read.no_cadence", Inner: []record.Part{weekdayPart(WeeklyDay)}, Join: record.JoinArgs})
	}
	return u, nil
}

// spans index the tokens once, so a phrase of tokens i..i+n-1 is a
// substring of one joined text (as written and lower-cased) found in
// constant time, instead of a new string joined for every span tried.
type spans struct {
	text, low        string
	start, end       []int // byte offsets of each token in text
	lowStart, lowEnd []int // and in low
	nonWord, neg     []int // prefix counts: tokens that are not words; negated tokens
	lower            []string
}

func indexSpans(toks []token) spans {
	var t, l strings.Builder
	sp := spans{start: make([]int, len(toks)), end: make([]int, len(toks)), lowStart: make([]int, len(toks)),
		lowEnd: make([]int, len(toks)), nonWord: make([]int, len(toks)+1), neg: make([]int, len(toks)+1), lower: make([]string, len(toks))}
	for k, tok := range toks {
		if k > 0 {
			t.WriteByte(' ')
			l.WriteByte(' ')
		}
		sp.lower[k] = strings.ToLower(tok.text)
		sp.start[k] = t.Len()
		t.WriteString(tok.text)
		sp.end[k] = t.Len()
		sp.lowStart[k] = l.Len()
		l.WriteString(sp.lower[k])
		sp.lowEnd[k] = l.Len()
		sp.nonWord[k+1], sp.neg[k+1] = sp.nonWord[k], sp.neg[k]
		if tok.kind != tWord {
			sp.nonWord[k+1]++
		}
		if tok.neg {
			sp.neg[k+1]++
		}
	}
	sp.text, sp.low = t.String(), l.String()
	return sp
}

func (p *parser) word(i int) string {
	if i < 0 || i >= len(p.toks) || p.toks[i].kind != tWord {
		return ""
	}
	return p.sp.lower[i]
}

// matchSeq reports whether the words at i spell seq.
func (p *parser) matchSeq(i int, seq []string) bool {
	for k, w := range seq {
		if p.word(i+k) != w {
			return false
		}
	}
	return true
}

func (p *parser) matchAny(i int, seqs [][]string) int {
	for _, s := range seqs {
		if p.matchSeq(i, s) {
			return len(s)
		}
	}
	return 0
}

// phraseOK reports whether tokens i..i+n-1 are words, none but the first
// negated.
func (p *parser) phraseOK(i, n int) bool {
	return n > 0 && i >= 0 && i+n <= len(p.toks) && p.sp.nonWord[i+n] == p.sp.nonWord[i] && p.sp.neg[i+n] == p.sp.neg[i+1]
}

// phrase is n word tokens from i joined by spaces, or "" when a non-word
// is among them.
func (p *parser) phrase(i, n int) (string, bool) {
	if !p.phraseOK(i, n) {
		return "", false
	}
	return p.sp.text[p.sp.start[i]:p.sp.end[i+n-1]], true
}

// lowPhrase is phrase lower-cased.
func (p *parser) lowPhrase(i, n int) (string, bool) {
	if !p.phraseOK(i, n) {
		return "", false
	}
	return p.sp.low[p.sp.lowStart[i]:p.sp.lowEnd[i+n-1]], true
}

func hasUpper(s string) bool { return strings.IndexFunc(s, unicode.IsUpper) >= 0 }

// agencyAt finds the longest agency name at i through the one rule, as
// running text reads it (entity.ResolveInText): a crosswalk spelling counts
// when the phrase has several words or a capital (a lower-case "police" is
// a word) and does not name a kind of record.
func (p *parser) agencyAt(i int) (n int, ids []string, name string) {
	for n = min(7, len(p.toks)-i); n >= 1; n-- {
		ph, ok := p.phrase(i, n)
		if !ok {
			continue
		}
		lph, _ := p.lowPhrase(i, n)
		_, isLens := lensWords[lph]
		if r, ok := p.resolveInText(ph, (n > 1 || hasUpper(ph)) && !isLens); ok {
			return n, r.IDs, r.Name
		}
	}
	return 0, nil, ""
}

type agencyQuery struct {
	phrase   string
	spelling bool
}

type agencyAnswer struct {
	r  entity.Resolution
	ok bool
}

// resolveInText asks the crosswalk once per phrase: a request repeating
// its words ("department of department of …") asks again for phrases it
// has asked about.
func (p *parser) resolveInText(ph string, spelling bool) (entity.Resolution, bool) {
	q := agencyQuery{ph, spelling}
	if a, ok := p.asked[q]; ok {
		return a.r, a.ok
	}
	r, ok := p.opt.Crosswalk.ResolveInText(ph, spelling)
	if p.asked == nil {
		p.asked = map[agencyQuery]agencyAnswer{}
	}
	p.asked[q] = agencyAnswer{r, ok}
	return r, ok
}

func (p *parser) boroughAt(i int) (int, string) {
	for n := min(3, len(p.toks)-i); n >= 1; n-- {
		if ph, ok := p.phrase(i, n); ok {
			if b := BoroughName(ph); b != "" {
				return n, b
			}
		}
	}
	return 0, ""
}

func (p *parser) lensAt(i int) (int, string, string) {
	for n := min(3, len(p.toks)-i); n >= 1; n-- {
		if lw, ok := p.lowPhrase(i, n); ok {
			if l, ok := lensWords[lw]; ok {
				if l == record.LensPeople && p.opt.Form == 2 {
					continue
				}
				return n, l, lw
			}
		}
	}
	return 0, "", ""
}

// nameAt reads a capitalized name at i ("Gazebo Contracting Inc."), with
// "of", "and", "&" and "the" inside it.
func (p *parser) nameAt(i int) int {
	n := 0
	for k := i; k < len(p.toks) && k-i < 8; k++ {
		t := p.toks[k]
		if t.kind != tWord || t.neg {
			break
		}
		r := []rune(t.text)
		if unicode.IsUpper(r[0]) || unicode.IsDigit(r[0]) {
			n = k - i + 1
			continue
		}
		if lw := strings.ToLower(t.text); (lw == "of" || lw == "and" || lw == "&" || lw == "the") && n > 0 {
			continue
		}
		break
	}
	return n
}

// suffixVendorAt finds a capitalized name ending with a legal suffix.
func (p *parser) suffixVendorAt(i int) int {
	n := p.nameAt(i)
	for ; n >= 2; n-- {
		if legalSuffixWords[strings.ToLower(strings.TrimRight(p.toks[i+n-1].text, "."))] {
			return n
		}
	}
	return 0
}

// note adds the note key with args (each as %v writes it) and, after
// them, the parts (one argument each).
func (p *parser) note(key string, args []any, parts ...record.Part) {
	p.notes = append(p.notes, withParts(record.N(key, args...), parts...))
}

// withParts is n with parts after its arguments, one argument each.
func withParts(n record.Note, parts ...record.Part) record.Note {
	if len(parts) > 0 {
		n.Inner, n.Join = parts, record.JoinArgs
	}
	return n
}

// AddNote adds a note saying how the request was read: its English to
// Notes, itself to NoteKeys.
func (u *Understanding) AddNote(n record.Note) {
	u.Notes = append(u.Notes, n.String())
	u.NoteKeys = append(u.NoteKeys, n)
}

// q is s quoted as fmt's %q quotes a string.
func q(s string) string { return strconv.Quote(s) }

func (p *parser) addVendor(name string) {
	stem := entity.VendorStem(name)
	if !entity.StemLongEnough(stem) {
		p.note("watch.read.vendor_short", []any{q(PlainValue(name))})
		return
	}
	if !slices.Contains(p.f.Vendors, stem) {
		p.f.Vendors = append(p.f.Vendors, stem)
		// notes quote the requester's words as plain values (see PlainValue)
		p.note("watch.read.vendor", []any{q(PlainValue(name)), q(PlainValue(stem))})
	}
}

func (p *parser) addExclude(s string, why record.Part) {
	s = strings.Join(splitWords(s), " ")
	if s == "" || slices.Contains(p.f.Exclude, s) {
		return
	}
	p.f.Exclude = append(p.f.Exclude, s)
	p.note("watch.read.exclude", []any{q(s)}, why)
}

// amountAt reads an amount at i with its comparators and trailers, and
// returns how many tokens it used (0: none here).
func (p *parser) amountAt(i int) int {
	start := i
	kind := "" // "min", "max", "between"
	if n := p.matchAny(i, [][]string{{"between"}}); n > 0 {
		kind, i = "between", i+n
	} else if n := p.matchAny(i, minComparators); n > 0 {
		kind, i = "min", i+n
	} else if n := p.matchAny(i, maxComparators); n > 0 {
		kind, i = "max", i+n
	}
	val := func(k int) (float64, bool) {
		if k >= len(p.toks) {
			return 0, false
		}
		t := p.toks[k]
		if t.kind == tAmount {
			return t.value, true
		}
		if t.kind == tWord && t.num && kind != "" && t.value >= 10000 {
			return t.value, true // "over 500000"
		}
		return 0, false
	}
	v, ok := val(i)
	if !ok {
		// "million-dollar contracts"
		if kind == "" {
			switch strings.ToLower(p.word(i)) {
			case "million-dollar", "multimillion", "multi-million", "multimillion-dollar", "multi-million-dollar":
				p.setAmount("min", 1e6, 0, p.toks[i].text)
				return 1
			case "billion-dollar":
				p.setAmount("min", 1e9, 0, p.toks[i].text)
				return 1
			}
		}
		return 0
	}
	i++
	raw := func(end int) string {
		var parts []string
		for k := start; k < end; k++ {
			parts = append(parts, p.toks[k].text)
		}
		return strings.Join(parts, " ")
	}
	// ranges: "between A and B", "from A to B", "A to B", "A - B"
	if n := p.matchAny(i, [][]string{{"and"}, {"to"}, {"-"}}); n > 0 || (i < len(p.toks) && p.toks[i].kind == tAmount) {
		if v2, ok := val(i + n); ok && (kind == "between" || kind == "min" || kind == "") && v2 > v {
			p.setAmount("between", v, v2, raw(i+n+1))
			return i + n + 1 - start
		}
	}
	if kind == "between" {
		kind = "min"
	}
	if n := p.matchAny(i, minTrailers); n > 0 {
		kind, i = "min", i+n
	} else if n := p.matchAny(i, maxTrailers); n > 0 {
		kind, i = "max", i+n
	}
	if kind == "" {
		kind = "plain"
	}
	p.setAmount(kind, v, 0, raw(i))
	return i - start
}

func (p *parser) setAmount(kind string, v, v2 float64, raw string) {
	p.amounts++
	valid := func(x float64) bool { return x > 0 && x < record.MaxValidAmount }
	if !valid(v) || (kind == "between" && !valid(v2)) {
		p.note("watch.read.amount.invalid", []any{q(raw)})
		return
	}
	switch kind {
	case "min", "plain":
		x := v
		p.f.MinAmount = &x
		if kind == "plain" {
			p.note("watch.read.amount.plain", []any{q(raw), Dollars(v)})
		} else {
			p.note("watch.read.amount.min", []any{q(raw), Dollars(v)})
		}
	case "max":
		x := v
		p.f.MaxAmount = &x
		p.note("watch.read.amount.max", []any{q(raw), Dollars(v)})
	case "between":
		lo, hi := v, v2
		p.f.MinAmount, p.f.MaxAmount = &lo, &hi
		p.note("watch.read.amount.between", []any{q(raw), Dollars(v), Dollars(v2)})
	}
}

func (p *parser) run() {
	excluding := false
	for i := 0; i < len(p.toks); {
		t := p.toks[i]
		switch t.kind {
		case tBreak:
			excluding = false
			i++
			continue
		case tComma:
			i++
			continue
		case tQuote:
			words := splitWords(t.text)
			switch {
			case len(words) == 0:
			case excluding || t.neg:
				p.addExclude(strings.Join(words, " "), valuePart(q(PlainValue(t.text))))
			case len(words) == 1:
				p.addKeyword(words[0])
			default:
				ph := strings.Join(words, " ")
				if !slices.Contains(p.f.Phrases, ph) {
					p.f.Phrases = append(p.f.Phrases, ph)
					p.note("watch.read.phrase", []any{q(ph)})
				}
			}
			i++
			continue
		case tAmount:
			if n := p.amountAt(i); n > 0 {
				excluding = false
				i += n
				continue
			}
			i++
			continue
		}
		// a word
		if t.neg {
			p.addExclude(t.text, valuePart(q("-"+t.text)))
			i++
			continue
		}
		if n := p.amountAt(i); n > 0 {
			excluding = false
			i += n
			continue
		}
		if !excluding {
			if n := p.matchAny(i, exclusionMarkers); n > 0 {
				excluding = true
				i += n
				continue
			}
		}
		if n := p.matchAny(i, vendorCues); n > 0 && !excluding {
			if i+n < len(p.toks) && p.toks[i+n].kind == tQuote {
				p.addVendor(p.toks[i+n].text)
				p.lensHits[record.LensMoney] = append(p.lensHits[record.LensMoney], p.word(i))
				i += n + 1
				continue
			}
			if m := p.nameAt(i + n); m > 0 {
				name, _ := p.phrase(i+n, m)
				p.addVendor(name)
				cue := strings.ToLower(strings.Join(vendorCueWords(p, i, n), " "))
				p.lensHits[record.LensMoney] = append(p.lensHits[record.LensMoney], cue)
				if cue == "awarded to" || cue == "won by" || cue == "awardee" {
					p.awards = true
				}
				i += n + m
				continue
			}
		}
		if !excluding {
			if n, req := requirementAt(p, i); n > 0 {
				p.addRequirement(req, i, n)
				i += n
				continue
			}
			if n, cats := categoryAt(p, i); n > 0 {
				p.addCategories(cats, i, n)
				i += n
				continue
			}
		}
		na, ids, aname := p.agencyAt(i)
		nb, borough := p.boroughAt(i)
		nl, lens, lw := p.lensAt(i)
		nv := p.suffixVendorAt(i)
		best := max(na, nb, nl, nv)
		if best == 0 {
			lw := strings.ToLower(t.text)
			lw = strings.TrimSuffix(strings.TrimSuffix(lw, "'s"), "’s")
			if excluding {
				if fillers[lw] {
					i++
					continue
				}
				if stopwords[lw] {
					excluding = false
					i++
					continue
				}
				// a run of content words is one excluded phrase
				j := i
				var words []string
				for j < len(p.toks) && p.toks[j].kind == tWord && !p.toks[j].neg {
					w := strings.ToLower(p.toks[j].text)
					if fillers[w] || stopwords[w] {
						break
					}
					if n, _, _ := p.lensAt(j); n > 0 {
						break
					}
					words = append(words, p.toks[j].text)
					j++
				}
				p.addExclude(strings.Join(words, " "), valuePart(q(strings.Join(words, " "))))
				i = max(j, i+1)
				continue
			}
			if !stopwords[lw] {
				p.addKeyword(lw)
			}
			i++
			continue
		}
		ph, _ := p.phrase(i, best)
		switch {
		case nb == best:
			if excluding {
				p.addExclude(borough, valuePart(q(ph)))
			} else if !slices.Contains(p.f.Boroughs, borough) {
				p.f.Boroughs = append(p.f.Boroughs, borough)
				p.note("watch.read.borough", []any{q(ph)}, boroughPart(borough))
			}
		case na == best:
			if excluding {
				p.addExclude(ph, record.P("watch.read.exclude.agency", q(ph)))
				break
			}
			added := false
			for _, id := range ids {
				if !slices.Contains(p.f.AgencyIDs, id) {
					p.f.AgencyIDs = append(p.f.AgencyIDs, id)
					added = true
				}
				p.agencies[id] = aname
			}
			if added {
				p.note("watch.read.agency", []any{q(ph), aname, strings.Join(ids, ", ")})
			}
		case nv == best:
			if excluding {
				p.addExclude(ph, valuePart(q(ph)))
			} else {
				p.addVendor(ph)
			}
		default: // a lens word
			if excluding {
				excluding = false
				if awardWords[lw] {
					p.noAwards = true
					p.note("watch.read.no_awards", []any{q("not " + ph)})
				} else {
					p.note("watch.read.no_lens_exclusion", []any{q("not " + ph)})
				}
				break
			}
			p.lensHits[lens] = append(p.lensHits[lens], lw)
			if awardWords[lw] {
				p.awards = true
			}
			if bidWords[lw] {
				p.bids = true
			}
		}
		i += best
	}
}

func vendorCueWords(p *parser, i, n int) []string {
	var out []string
	for k := i; k < i+n; k++ {
		out = append(out, p.toks[k].text)
	}
	return out
}

func (p *parser) addKeyword(w string) {
	if w == "" || (len([]rune(w)) < 2 && !unicode.IsDigit([]rune(w)[0])) || slices.Contains(p.keywords, w) {
		return
	}
	p.keywords = append(p.keywords, w)
}

func (p *parser) finish(today time.Time) (Understanding, error) {
	// the lens: by precedence among those named, money when none
	var named []string
	for _, l := range LensPrecedence {
		if len(p.lensHits[l]) > 0 {
			named = append(named, l)
		}
	}
	switch {
	case len(named) == 0:
		p.f.Lens = record.LensMoney
		key := "watch.read.no_lens"
		if p.opt.Form == 2 {
			key = "watch.read.no_lens.form2"
		}
		p.notes = append(record.Notes{record.N(key)}, p.notes...)
	case len(named) == 1:
		p.f.Lens = named[0]
		p.notes = append(record.Notes{withParts(record.N("watch.read.lens", quoteList(uniq(p.lensHits[named[0]]))), lensPart(named[0]))}, p.notes...)
	default:
		p.f.Lens = named[0]
		p.notes = append(record.Notes{withParts(record.N("watch.read.lenses"), lensIDs(named), lensIDs(precedence(p.opt.Form)), lensPart(named[0]))}, p.notes...)
	}
	amount := p.f.MinAmount != nil || p.f.MaxAmount != nil
	if p.f.Lens == record.LensMoney {
		// only words of awarding make an awards watch; an amount in a
		// request for bids filters the bids
		switch {
		case p.awards && !p.noAwards:
			p.f.Awards = true
			p.note("watch.read.money.awards", nil)
		case amount && (p.bids || p.noAwards):
			p.f.Bids = true
			p.note("watch.read.money.bids_amount", nil)
		case amount:
			p.f.Awards = true
			p.note("watch.read.money.awards_amount", nil)
		default:
			p.note("watch.read.money.bids", nil)
		}
	} else if amount {
		p.f.MinAmount, p.f.MaxAmount = nil, nil
		p.note("watch.read.amount_unused", nil, lensPart(p.f.Lens))
	}
	if (len(p.f.Categories) > 0 || len(p.f.Requirements) > 0) && p.f.Lens != record.LensMoney {
		p.note("watch.read.categories_unused", nil, lensPart(p.f.Lens))
		p.f.Categories, p.f.Requirements = nil, nil
	}
	p.applyWindow(today)
	// keywords, with related words
	kw := p.keywords
	if len(kw) > maxKeywords {
		p.note("watch.read.keywords_kept", []any{maxKeywords, quoteList(kw[maxKeywords:])})
		kw = kw[:maxKeywords]
	}
	for _, w := range kw {
		if slices.Contains(p.f.Exclude, w) {
			continue
		}
		// a word that splits into several ("2026-01-01", "e-bike") is
		// matched as the phrase of its parts, as a structured request's
		// keywords are (search.ParseKeywords): the same watch either way
		if k, err := search.ParseKeywords(w); err == nil && len(k.Terms) == 0 && len(k.Phrases) == 1 {
			p.f.Phrases = appendNew(p.f.Phrases, k.Phrases[0])
			continue
		}
		p.f.AnyOf = appendNew(p.f.AnyOf, w)
		for _, r := range relatedWords[w] {
			if !slices.Contains(p.f.AnyOf, r) {
				p.f.AnyOf = append(p.f.AnyOf, r)
				p.note("watch.read.related", []any{q(w), q(r)})
			}
		}
	}
	if len(kw) > 0 {
		p.note("watch.read.keywords", []any{quoteList(kw)})
	}
	if len(p.f.AnyOf)+len(p.f.Phrases) == 0 && len(p.f.AgencyIDs)+len(p.f.Vendors)+len(p.f.Boroughs)+len(p.f.Categories)+len(p.f.Requirements) == 0 &&
		p.f.Within == "" && p.f.From == "" && p.f.Until == "" &&
		p.f.MinAmount == nil && p.f.MaxAmount == nil && len(p.lensHits) == 0 {
		return Understanding{}, record.InvalidNote("text", "watch.error.nothing")
	}
	if err := p.f.Validate(); err != nil {
		return Understanding{}, err
	}
	u := Understanding{Filter: p.f}
	for _, n := range p.notes {
		u.AddNote(n)
	}
	if len(p.agencies) > 0 {
		u.Agencies = p.agencies
	}
	u.ScopeKey = DescribeNote(p.f, u.Agencies)
	u.Scope = u.ScopeKey.String()
	return u, nil
}

func peopleHint(form int) string {
	if form == 2 {
		return ""
	}
	return ", personnel (people)"
}

// precedence is the lenses a form offers, in the order a request naming
// several is read by.
func precedence(form int) []string {
	var out []string
	for _, l := range LensPrecedence {
		if l == record.LensPeople && form == 2 {
			continue
		}
		out = append(out, l)
	}
	return out
}

// lensIDs are lenses by their short names ("money, land"), each in the
// reader's language, run on with commas.
func lensIDs(lenses []string) record.Part {
	var ps []record.Part
	for i, l := range lenses {
		if i > 0 {
			ps = append(ps, record.P("watch.scope.comma"))
		}
		if slices.Contains(LensPrecedence, l) {
			ps = append(ps, record.P("watch.lens_id."+l))
		} else {
			ps = append(ps, valuePart(l))
		}
	}
	return record.Part{Key: "watch.value", Inner: ps, Join: record.JoinRun}
}

func appendNew(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

func uniq(l []string) []string {
	var out []string
	for _, s := range l {
		out = appendNew(out, s)
	}
	return out
}

func quoteList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

// splitWords lower-cases and splits on anything but letters and digits, as
// the search engines' analyzers do.
func splitWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}
