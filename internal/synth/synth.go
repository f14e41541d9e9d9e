// Package synth generates synthetic City Record notices at any scale for
// benchmarks and load tests. It learns from real notices (the bundled sample
// corpus, read by indexer/source/crol) and produces record.Notice values whose
// shape follows them: the section and lens mix, notice types per section,
// agencies (raw spellings with their ids, names and divisions), categories,
// selection methods, which fields a notice has, text lengths, vocabulary and
// HTML, amounts, due dates and PINs.
//
// How a notice is made: each synthetic notice starts from a real notice picked
// at random (its template), which fixes the section, notice type, lenses class
// and which fields are present. Other real notices of the same class (same
// section, type and lenses) donate the agency, the category and selection
// method, the title and the contact. The body is rebuilt column by column
// (additional description, other information, printout) from sentences of
// real notices of the same class, with digits and some words swapped, to about
// the template's length, in HTML when the template column was HTML. Dates are
// spread over the publication window (2014 to the newest real notice by
// default) with the real weekday mix; end, due and event dates keep the
// template's distance from the start date. Amounts are log-normal around the
// real valid amounts, plus invalid placeholders (-1, 0) and entry errors
// (≥ $10 billion). Vendors are real firms and generated ones, drawn with a
// Zipf law and written in suffix and case variants ("Acme Inc.", "ACME INC",
// "Acme Incorporated") that meet under one entity.VendorStem, as in the real
// data. Every notice is normalized with the same functions the crol source
// uses (record.ParseDate, ParseDue, ParseAmount, PlainText, LensesFor,
// OfficialURL, OpenDataURL and entity.VendorStem).
//
// Generation is deterministic and streaming: notice i for a seed is a pure
// function of the model, the seed and i (Model.Notice), so Generate and All
// never hold more than one notice, and a corpus of 1.1 million notices is as
// cheap in memory as one of a hundred. Request ids are "SYN" + the
// publication day (YYYYMMDD) + the zero-padded index i ("SYN201503170000042"):
// unique for every i, stable for a seed, and unable to collide with real
// City Record request ids, which are digits only.
package synth

import (
	"errors"
	"iter"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// IDPrefix starts every synthetic request id. Real request ids are digits
// only, so a synthetic id never names a real notice.
const IDPrefix = "SYN"

// IsSynthetic reports whether a request id was made by this package.
func IsSynthetic(requestID string) bool { return strings.HasPrefix(requestID, IDPrefix) }

// Floors for shares the sample is too small to show reliably (the full City
// Record dataset has rolling deadlines and entry errors the 1,158-row sample
// lacks). Learn uses the larger of the learned share and the floor.
const (
	MinRollingShare       = 0.01 // of notices that have a due date
	MinInvalidAmountShare = 0.01 // of notices that have an amount
	MinPINLinkShare       = 0.05 // of notices that have a PIN
	DefaultFirms          = 50_000
)

// Model is what Learn learned from real notices. Its exported fields may be
// changed before generating; a Model is safe for concurrent use by several
// goroutines once it is no longer changed.
type Model struct {
	// From and To bound publication (start) dates, as New York days.
	From, To time.Time
	// RollingShare is the share of due-dated notices whose deadline is a
	// rolling placeholder (due in 2099).
	RollingShare float64
	// InvalidAmountShare is the share of amounts that are invalid: -1 and 0
	// placeholders and entry errors of $10 billion or more.
	InvalidAmountShare float64
	// PINLinkShare is the share of notices with a PIN that reuse the PIN of
	// a recent notice (a solicitation and its award, a PIN chain).
	PINLinkShare float64
	// Firms is how many distinct vendor firms are drawn from (the real firms
	// first, most frequent first, then generated ones), with a Zipf law.
	Firms int

	tpls     []template
	weekday  [7]float64 // acceptance weight per weekday (max 1)
	amount   amountModel
	firms    []firm // real firms, rank order
	families []int  // suffix family of each real vendor name, for generated firms
	upper    float64
	heads    []string // first words of real firm bases
	tails    []string // last words of real firm bases
	allPINs  []string
}

type template struct {
	n     *record.Notice
	class *class
	segs  []segment
	hasCt bool
}

type segment struct {
	key   string
	group string
	plain int // length of the plain text, in runes
	html  bool
	sep   string // paragraph separator of a plain segment
}

// class is the notices of one section, notice type and lens set.
type class struct {
	donors   []*record.Notice
	contacts []*record.Notice
	titles   []*record.Notice
	pools    map[string]*pool // body group → sentences
	words    []string         // title words
}

var bodyGroups = []string{"additionaldescription", "otherinfo", "printout"}

var (
	agencyKeys  = []string{"agencyname", "agencycode", "agencydivision"}
	catSelKeys  = []string{"categorycode", "categorydescription", "selectionmethodcode", "selectionmethoddescription", "specialcasereasoncode", "specialcasereasondescription"}
	contactKeys = []string{"contactname", "contactphone", "contactfax", "email", "contactemail", "addresstorequest", "addresstosubmit"}
)

// Learn builds a model from real notices (normalized by their source). The
// model keeps references to the notices; do not change them afterwards.
func Learn(real []record.Notice) (*Model, error) {
	if len(real) == 0 {
		return nil, errors.New("synth: no real notices to learn from")
	}
	m := &Model{
		From:  time.Date(2014, 1, 1, 0, 0, 0, 0, record.NewYork),
		Firms: DefaultFirms,
	}
	classes := map[string]*class{}
	var latest time.Time
	var wd [7]float64
	var logs []float64
	dueN, rolling := 0, 0
	pinCount := map[string]int{}
	pinN := 0
	for i := range real {
		n := &real[i]
		key := n.Section + "\x00" + n.NoticeType + "\x00" + strings.Join(n.Lenses, ",")
		c := classes[key]
		if c == nil {
			c = &class{pools: map[string]*pool{}}
			classes[key] = c
		}
		c.donors = append(c.donors, n)
		if n.Title != "" {
			c.titles = append(c.titles, n)
			c.words = append(c.words, letterWords(n.Title)...)
		}
		t := template{n: n, class: c}
		for _, k := range contactKeys {
			if n.Raw[k] != "" {
				t.hasCt = true
			}
		}
		if t.hasCt {
			c.contacts = append(c.contacts, n)
		}
		t.segs = segments(n.Raw)
		for _, s := range t.segs {
			p := c.pools[s.group]
			if p == nil {
				p = &pool{}
				c.pools[s.group] = p
			}
			p.add(record.PlainText(n.Raw[s.key]))
		}
		m.tpls = append(m.tpls, t)

		if !n.StartDate.IsZero() {
			wd[n.StartDate.Weekday()]++
			if n.StartDate.After(latest) {
				latest = n.StartDate
			}
		}
		if n.DueRolling {
			rolling++
		}
		if n.DueRolling || !n.DueDate.IsZero() {
			dueN++
		}
		if n.AmountValid {
			logs = append(logs, math.Log(n.Amount))
		}
		if n.PIN != "" {
			pinN++
			pinCount[n.PIN]++
			m.allPINs = append(m.allPINs, n.Raw["pin"])
		}
	}
	// publication window and weekday mix
	if latest.IsZero() || latest.Before(m.From) {
		latest = m.From.AddDate(1, 0, 0)
	}
	y, mo, d := latest.In(record.NewYork).Date()
	m.To = time.Date(y, mo, d, 0, 0, 0, 0, record.NewYork)
	maxw := 0.0
	for _, w := range wd {
		maxw = max(maxw, w)
	}
	for i := range wd {
		if maxw == 0 {
			m.weekday[i] = 1
		} else {
			m.weekday[i] = wd[i] / maxw
		}
	}
	// shares
	if dueN > 0 {
		m.RollingShare = float64(rolling) / float64(dueN)
	}
	m.RollingShare = max(m.RollingShare, MinRollingShare)
	linked := 0
	for _, c := range pinCount {
		if c > 1 {
			linked += c - 1
		}
	}
	if pinN > 0 {
		m.PINLinkShare = float64(linked) / float64(pinN)
	}
	m.PINLinkShare = max(m.PINLinkShare, MinPINLinkShare)
	m.amount = learnAmounts(real, logs)
	m.InvalidAmountShare = max(m.amount.invalidShare, MinInvalidAmountShare)
	m.learnVendors(real)
	m.Firms = max(m.Firms, len(m.firms))
	return m, nil
}

// segments lists a row's body columns in Body order (crol: additional
// description, other information, printout; numbered parts in order).
func segments(raw map[string]string) []segment {
	var out []segment
	for _, g := range bodyGroups {
		for i := 0; i <= 9; i++ {
			k := g
			if i > 0 {
				k += strconv.Itoa(i)
			}
			v := raw[k]
			if strings.TrimSpace(v) == "" {
				continue
			}
			s := segment{key: k, group: g, plain: len([]rune(record.PlainText(v))), html: hasTag(v)}
			switch {
			case strings.Contains(v, "\r\n"):
				s.sep = "\r\n\r\n"
			case strings.Contains(v, "\n"):
				s.sep = "\n\n"
			default:
				s.sep = "  "
			}
			out = append(out, s)
		}
	}
	return out
}

func hasTag(s string) bool {
	i := strings.IndexByte(s, '<')
	return i >= 0 && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '!' || (s[i+1]|0x20 >= 'a' && s[i+1]|0x20 <= 'z'))
}

// Generate calls fn with notices 0 … n-1 for seed, one at a time, and stops
// at the first error fn returns.
func (m *Model) Generate(n int, seed int64, fn func(record.Notice) error) error {
	for i := range n {
		if err := fn(m.Notice(seed, i)); err != nil {
			return err
		}
	}
	return nil
}

// All yields notices 0 … n-1 for seed.
func (m *Model) All(n int, seed int64) iter.Seq[record.Notice] {
	return func(yield func(record.Notice) bool) {
		for i := range n {
			if !yield(m.Notice(seed, i)) {
				return
			}
		}
	}
}

// Vendors returns the stems of the real vendor firms in the order Generate
// ranks them: most frequent in the sample first. Rank 0 is the most
// frequent vendor of a generated corpus too.
func (m *Model) Vendors() []string {
	out := make([]string, len(m.firms))
	for i, f := range m.firms {
		out[i] = f.stem
	}
	return out
}

// Stream salts: each kind of draw for notice i has its own random stream, so
// a notice's PIN or firm can be recomputed without replaying the notice.
const (
	streamNotice = iota + 1
	streamPIN
	streamFirm
)

func rng(seed int64, stream uint64, i int) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), stream<<56^uint64(i)))
}

// templateOf is the template index of notice i (the first draw of its stream).
func (m *Model) templateOf(seed int64, i int) int {
	return rng(seed, streamNotice, i).IntN(len(m.tpls))
}

// Notice returns notice i for seed: the same notice for the same model, seed
// and i, whatever else was generated.
func (m *Model) Notice(seed int64, i int) record.Notice {
	r := rng(seed, streamNotice, i)
	ti := r.IntN(len(m.tpls))
	t := &m.tpls[ti]
	src, c := t.n, t.class

	raw := make(map[string]string, len(src.Raw)+2)
	for k, v := range src.Raw {
		raw[k] = v
	}
	for _, s := range t.segs {
		delete(raw, s.key)
	}
	delete(raw, "confirmationnumber")

	n := record.Notice{
		Source:     src.Source,
		Section:    src.Section,
		NoticeType: src.NoticeType,
	}
	if n.Source == "" {
		n.Source = record.SourceCROL
	}

	// dates: a publication day, other dates at the template's distance
	day := m.day(r)
	n.RequestID = IDPrefix + day.Format("20060102") + pad7(i)
	raw["requestid"] = n.RequestID
	startDay := dayOf(src.StartDate)
	shift := func(key string, t time.Time, jitter int) {
		v := raw[key]
		if v == "" || t.IsZero() || startDay.IsZero() {
			return
		}
		days := int(math.Round(dayOf(t).Sub(startDay).Hours() / 24))
		if jitter > 0 && days > jitter {
			days += r.IntN(2*jitter+1) - jitter
		}
		nt := day.AddDate(0, 0, days)
		h, mi, s := t.In(record.NewYork).Clock()
		raw[key] = formatLike(v, time.Date(nt.Year(), nt.Month(), nt.Day(), h, mi, s, 0, record.NewYork))
	}
	if v := raw["startdate"]; v != "" {
		h, mi, s := src.StartDate.In(record.NewYork).Clock()
		raw["startdate"] = formatLike(v, time.Date(day.Year(), day.Month(), day.Day(), h, mi, s, 0, record.NewYork))
	}
	shift("enddate", src.EndDate, 0)
	shift("eventdate", src.EventDate, 3)
	if v := raw["duedate"]; v != "" {
		if r.Float64() < m.RollingShare {
			h, mi, s := 0, 0, 0
			if !src.DueDate.IsZero() {
				h, mi, s = src.DueDate.In(record.NewYork).Clock()
			}
			raw["duedate"] = formatLike(v, time.Date(2099, 12, 31, h, mi, s, 0, record.NewYork))
		} else if !src.DueDate.IsZero() {
			shift("duedate", src.DueDate, 5)
		}
	}
	n.StartDate = record.ParseDate(raw["startdate"])
	n.EndDate = record.ParseDate(raw["enddate"])
	n.EventDate = record.ParseDate(raw["eventdate"])
	n.DueDate, n.DueRolling = record.ParseDue(raw["duedate"])

	// agency, division
	a := c.donors[r.IntN(len(c.donors))]
	copyKeys(raw, a.Raw, agencyKeys)
	n.AgencyRaw, n.AgencyID, n.AgencyName, n.AgencyDivision = a.AgencyRaw, a.AgencyID, a.AgencyName, a.AgencyDivision

	// category and selection method
	cs := c.donors[r.IntN(len(c.donors))]
	copyKeys(raw, cs.Raw, catSelKeys)
	n.Category, n.SelectionMethod = cs.Category, cs.SelectionMethod

	// title
	if len(c.titles) > 0 && src.Title != "" {
		n.Title = strings.TrimSpace(mutateTitle(r, c.titles[r.IntN(len(c.titles))].Title, c.words))
		raw["shorttitle"] = n.Title
	}

	// contact
	if t.hasCt && len(c.contacts) > 0 {
		ct := c.contacts[r.IntN(len(c.contacts))]
		copyKeys(raw, ct.Raw, contactKeys)
		n.Contact = ct.Contact
	}

	// PIN: its own, or (linked) that of a recent notice
	if src.PIN != "" {
		pin := m.pinOf(seed, i, ti)
		if i > 0 && r.Float64() < m.PINLinkShare {
			j := i - 1 - r.IntN(min(i, 64))
			if tj := m.templateOf(seed, j); m.tpls[tj].n.PIN != "" {
				pin = m.pinOf(seed, j, tj)
			}
		}
		raw["pin"] = pin
		n.PIN = strings.TrimSpace(pin)
	}

	// vendor
	if src.VendorName != "" {
		name := m.vendorName(seed, r)
		raw["vendorname"] = name
		n.VendorName = strings.TrimSpace(name)
		n.VendorStem = entity.VendorStem(n.VendorName)
		if v := raw["vendoraddress"]; v != "" {
			raw["vendoraddress"] = mutateDigits(r, v, 0.7)
			n.VendorAddress = strings.TrimSpace(raw["vendoraddress"])
		}
	}

	// amount
	if src.AmountRaw != "" {
		n.AmountRaw = m.amount.draw(r, m.InvalidAmountShare)
		raw["contractamount"] = n.AmountRaw
		if v, ok := record.ParseAmount(n.AmountRaw); ok {
			n.Amount, n.AmountValid = v, true
		}
	}

	// body, column by column
	for _, s := range t.segs {
		if s.key == "printout" {
			continue // after the other columns and fields: see printout
		}
		p := c.pools[s.group]
		if s.plain < 20 || p == nil || len(p.sentences) == 0 {
			raw[s.key] = src.Raw[s.key]
			continue
		}
		target := int(float64(s.plain) * math.Exp(r.NormFloat64()*0.35))
		raw[s.key] = p.text(r, max(target, 20), s.html, s.sep)
	}
	if src.Raw["printout"] != "" {
		var words []string
		if p := c.pools["printout"]; p != nil {
			words = p.words
		}
		raw["printout"] = printout(r, src, &n, raw, words)
	}
	n.Body = body(raw)
	n.Text = record.PlainText(n.Body)

	n.Lenses = record.LensesFor(n.Section, n.AgencyRaw, n.Title, n.Text)
	if n.AgencyName != strings.TrimSpace(n.AgencyRaw) {
		if alt := record.LensesFor(n.Section, n.AgencyName, n.Title, n.Text); len(alt) > len(n.Lenses) {
			n.Lenses = alt
		}
	}
	n.Lens = n.Lenses[0]

	n.EventPlace = src.EventPlace
	n.DocumentLinks = slices.Clone(src.DocumentLinks)
	n.OfficialURL = record.OfficialURL(n.RequestID)
	n.OpenDataURL = record.OpenDataURL(n.RequestID)
	for k, v := range raw {
		if v == "" {
			delete(raw, k)
		}
	}
	n.Raw = raw
	return n
}

func pad7(i int) string {
	s := strconv.Itoa(i)
	if len(s) < 7 {
		s = strings.Repeat("0", 7-len(s)) + s
	}
	return s
}

func copyKeys(dst, src map[string]string, keys []string) {
	for _, k := range keys {
		delete(dst, k)
		if v, ok := src[k]; ok {
			dst[k] = v
		}
	}
}

// body joins text columns as the crol source does: numbered parts of one
// column concatenated, columns separated by a blank line.
func body(raw map[string]string) string {
	var groups []string
	for _, g := range bodyGroups {
		var b strings.Builder
		for i := 0; i <= 9; i++ {
			k := g
			if i > 0 {
				k += strconv.Itoa(i)
			}
			if v := raw[k]; strings.TrimSpace(v) != "" {
				b.WriteString(v)
			}
		}
		if b.Len() > 0 {
			groups = append(groups, b.String())
		}
	}
	return strings.Join(groups, "\n\n")
}

// printout rewrites a template's printout. DCAS printouts are a header
// built from the notice's fields ("TITLE - method - PIN# … - Due 10-14-14 at
// 4:00 P.M." or "… - AMT: $… - TO: vendor, address.") followed by the
// additional description: the fields and the description are replaced by
// the new notice's, and the rest is mutated like a borrowed sentence.
func printout(r *rand.Rand, src, n *record.Notice, raw map[string]string, words []string) string {
	var pairs []string
	add := func(old, new string) {
		// Short values ("." as a title) would match all over the text.
		// A pair is kept even when unchanged, so no mutation happens inside.
		if len(strings.TrimSpace(old)) >= 4 {
			pairs = append(pairs, old, new)
		}
	}
	add(src.Raw["additionaldescription"], raw["additionaldescription"])
	add(src.Title, n.Title)
	add(src.Raw["pin"], raw["pin"])
	add(src.VendorName, n.VendorName)
	add(src.VendorAddress, n.VendorAddress)
	add(src.SelectionMethod, n.SelectionMethod)
	if src.AmountValid && n.AmountValid {
		add(money(src.Amount), money(n.Amount))
	}
	if !src.DueDate.IsZero() {
		due := "12-31-99"
		if !n.DueDate.IsZero() {
			due = n.DueDate.Format("1-2-06")
		}
		add("Due "+src.DueDate.Format("1-2-06"), "Due "+due)
	}
	return substitute(r, src.Raw["printout"], pairs, words)
}

// substitute replaces each old string of pairs (old, new, …) in s, the
// earliest (then longest) first, and mutates the text between them.
func substitute(r *rand.Rand, s string, pairs, words []string) string {
	var b strings.Builder
	b.Grow(len(s) + len(s)/8)
	for {
		at, k := -1, -1
		for i := 0; i < len(pairs); i += 2 {
			j := strings.Index(s, pairs[i])
			if j < 0 {
				continue
			}
			if at < 0 || j < at || (j == at && len(pairs[i]) > len(pairs[k])) {
				at, k = j, i
			}
		}
		if at < 0 {
			b.WriteString(mutateSentence(r, s, words))
			return b.String()
		}
		b.WriteString(mutateSentence(r, s[:at], words))
		b.WriteString(pairs[k+1])
		s = s[at+len(pairs[k]):]
	}
}

// money formats an amount as printouts show it: $1,234,567.00.
func money(v float64) string { return view.Money(v) }

func dayOf(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	y, m, d := t.In(record.NewYork).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, record.NewYork)
}

// day draws a publication day in [From, To] with the real weekday mix.
func (m *Model) day(r *rand.Rand) time.Time {
	from, to := dayOf(m.From), dayOf(m.To)
	if from.IsZero() {
		from = time.Date(2014, 1, 1, 0, 0, 0, 0, record.NewYork)
	}
	if to.IsZero() || to.Before(from) {
		to = from
	}
	span := int(math.Round(to.Sub(from).Hours()/24)) + 1
	for range 1000 {
		d := from.AddDate(0, 0, r.IntN(span))
		if r.Float64() < m.weekday[d.Weekday()] {
			return d
		}
	}
	return from.AddDate(0, 0, r.IntN(span))
}

// formatLike writes t in the layout of the source value like.
func formatLike(like string, t time.Time) string {
	s := strings.TrimSpace(like)
	for _, l := range record.DateLayouts {
		if _, err := time.ParseInLocation(l, s, record.NewYork); err == nil {
			return t.Format(l)
		}
	}
	return t.Format(record.DateLayouts[0])
}

// pinOf is notice i's own PIN: a real PIN with its digits redrawn.
func (m *Model) pinOf(seed int64, i, ti int) string {
	r := rng(seed, streamPIN, i)
	base := m.tpls[ti].n.Raw["pin"]
	if base == "" && len(m.allPINs) > 0 {
		base = m.allPINs[r.IntN(len(m.allPINs))]
	}
	return mutateDigits(r, base, 1)
}
