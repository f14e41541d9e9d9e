// Package cycle finds the earlier cycles of a procurement: for a
// solicitation or intent notice, the City Record notices held for the same
// work by the same agency before it (the previous solicitation, the award
// and its vendor), each match with its method, tier, confidence and
// evidence, and when the next cycle is likely due.
//
// Precision comes first. Agency plus title words alone is right about half
// the time on this corpus; two rules lift it: the cycles must be separated
// in time (a re-bid is months apart, not days: notices weeks apart with
// the same title are parallel contracts or the same solicitation's
// extensions), and titles that name different boroughs are different
// work. A match is published in one of two tiers:
//
//   - strict: same agency, the same service words (MinStrict of the
//     title's words shared), published at least MinGap earlier, no
//     borough conflict, not the same PIN;
//   - corroborated: a weaker match (fewer shared words, or a gap under
//     MinGap with an earlier PIN fiscal year) shown only with what
//     corroborates it: a PIN renewal chain or base, the same vendor, or an
//     amount within a third.
//
// The judged set in testdata/cycle/judged_pairs.json measures both (cycle_test.go,
// BenchmarkPriorCycle).
package cycle

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Tiers and methods of a match.
const (
	TierStrict       = "strict"
	TierCorroborated = "corroborated"

	MethodStrict       = "same agency + same service words + cycles months apart"
	MethodCorroborated = "same agency + similar service words, corroborated"
)

// Thresholds (see the package comment).
const (
	MinGap        = 90 * 24 * time.Hour
	MinStrict     = 0.6
	MinWeak       = 0.4
	ConfStrict    = 0.9
	ConfCorrobor  = 0.7
	maxCandidates = search.MaxLimit
)

// NoneFound is what a notice with no earlier cycle says.
var (
	NoneFoundKey = record.N("cycle.none_found")
	NoneFound    = NoneFoundKey.String()
)

// notApplies is the summary of a notice whose earlier cycles are not
// sought.
var notApplies = record.N("cycle.not_sought")

// The summaries of a last award and of an earlier cycle with no award, by
// match tier (the keys of each tier's words): the vendor, the year and
// the amount of the award; the notice type and month of the cycle.
var (
	lastAwardKeys       = map[string]string{TierStrict: "cycle.last_award.strict", TierCorroborated: "cycle.last_award.corroborated"}
	lastAwardAmountKeys = map[string]string{TierStrict: "cycle.last_award_amount.strict", TierCorroborated: "cycle.last_award_amount.corroborated"}
	earlierKeys         = map[string]string{TierStrict: "cycle.earlier.strict", TierCorroborated: "cycle.earlier.corroborated"}
)

// Match is one earlier notice of the same work.
type Match struct {
	RequestID  string    `json:"request_id"`
	Title      string    `json:"title"`
	NoticeType string    `json:"notice_type"`
	Published  time.Time `json:"published"`
	PIN        string    `json:"pin,omitempty"`
	VendorName string    `json:"vendor_name,omitempty"`
	// Amount is set only when the notice's amount is valid.
	Amount     *float64 `json:"amount,omitempty"`
	Tier       string   `json:"tier"`
	Method     string   `json:"method"`
	Confidence float64  `json:"confidence"`
	// Evidence states why it matched: the shared words, the gap, the
	// corroboration (for the corroborated tier).
	Evidence []string `json:"evidence"`
	// Permalink is the earlier notice's page here (set by WithLinks).
	Permalink string `json:"permalink,omitempty"`
	// Contracts are the registered contracts that join an award by its
	// exact PIN (registered amount and date; the records hold no term).
	Contracts []ContractRef `json:"contracts,omitempty"`
}

// ContractRef is a registered contract joined to a matched award.
type ContractRef struct {
	ContractID   string    `json:"contract_id"`
	RegisteredOn time.Time `json:"registered_on,omitzero"`
	// Amount is set only when the registered amount is valid.
	Amount     *float64 `json:"registered_amount,omitempty"`
	VendorName string   `json:"vendor_name,omitempty"`
	Method     string   `json:"method"`
	Confidence string   `json:"confidence"`
}

// Result is what Find says about one notice.
type Result struct {
	// Applies is false for notices that are not solicitations or intents.
	Applies bool    `json:"applies"`
	Matches []Match `json:"matches"`
	// LastAward is the most recent matched award (vendor and amount).
	LastAward *Match `json:"last_award,omitempty"`
	// NextDue estimates when the next cycle is likely due, from the gap
	// between this notice and the most recent earlier cycle; NextDueBasis
	// says so.
	NextDue      *time.Time `json:"next_due,omitempty"`
	NextDueBasis string     `json:"next_due_basis,omitempty"`
	// Summary is one line: "last awarded to … in 2023 ($…)", or NoneFound.
	Summary string `json:"summary"`
	// Searched states what was searched.
	Searched string `json:"searched"`
	// SummaryKey, SearchedKey and NextDueBasisKey are summary, searched
	// and next_due_basis as notes (key and arguments).
	SummaryKey      record.Note  `json:"summary_key"`
	SearchedKey     *record.Note `json:"searched_key,omitempty"`
	NextDueBasisKey *record.Note `json:"next_due_basis_key,omitempty"`
}

// Applies reports whether a notice is one whose earlier cycles are sought.
func Applies(n record.Notice) bool {
	t := strings.ToLower(n.NoticeType)
	return n.AgencyID != "" && (t == "solicitation" || strings.HasPrefix(t, "intent"))
}

var (
	wordRE   = regexp.MustCompile(`[a-z]+`)
	boroughs = map[string]string{"manhattan": "Manhattan", "bronx": "Bronx", "brooklyn": "Brooklyn", "queens": "Queens", "staten": "Staten Island"}
	synonyms = map[string]string{"apts": "apartment", "apt": "apartment", "bldg": "building", "maint": "maintenance", "svcs": "service", "svc": "service"}
	// stop are words that say nothing about the work: grammar, notice
	// boilerplate (bid extension, correction, RFQ), contract forms, counts.
	stop = toSet(`the of and for to in a an at on by with from or as its into this that per
		service services provide provision provider contract contracts requirement requirements agreement
		bid bids extension correction amended amendment addendum rfq rfp rfx rfei smd smpd acm various
		citywide city new york nyc borough boroughs located development developments name area areas
		renewal renewals no one two three four five six seven eight nine ten etc all other related
		located including include project projects program programs phase neighborhood`)
)

func toSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// Words are a title's service words: lower-case, letters only, without
// stop words, the agency's own name words and codes, singular.
func Words(title, agency string) map[string]bool {
	own := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(agency), -1) {
		own[w] = true
	}
	out := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(title), -1) {
		if s, ok := synonyms[w]; ok {
			w = s
		}
		if stop[w] || own[w] {
			continue
		}
		if len(w) > 4 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") {
			w = strings.TrimSuffix(w, "s")
		}
		if len(w) < 3 || stop[w] || own[w] {
			continue
		}
		out[w] = true
	}
	return out
}

func similarity(a, b map[string]bool) (float64, []string) {
	var shared []string
	for w := range a {
		if b[w] {
			shared = append(shared, w)
		}
	}
	union := len(a) + len(b) - len(shared)
	if union == 0 {
		return 0, nil
	}
	sort.Strings(shared)
	return float64(len(shared)) / float64(union), shared
}

func boroughsIn(title string) map[string]bool {
	out := map[string]bool{}
	for _, w := range wordRE.FindAllString(strings.ToLower(title), -1) {
		if b, ok := boroughs[w]; ok {
			out[b] = true
		}
	}
	return out
}

// pinYearRE: a PIN that starts with a 3-digit agency code and a 2-digit
// fiscal year, then a letter (84114SITR815, 81616ME0007, 07219P0148001).
var pinYearRE = regexp.MustCompile(`^[0-9]{5}[A-Z]`)

// pinYear is a PIN's fiscal year (its 4th and 5th digits).
func pinYear(pin string) (int, bool) {
	p := entity.NormalizePIN(pin)
	if entity.JunkPIN(p) || !pinYearRE.MatchString(p) {
		return 0, false
	}
	y := int(p[3]-'0')*10 + int(p[4]-'0')
	return y, true
}

// namesVendor reports whether text names a vendor by its stem (the
// stem's words in a row, compared as entity.VendorStem writes them).
func namesVendor(text, stem string) bool {
	if !entity.StemLongEnough(stem) {
		return false
	}
	norm := strings.NewReplacer(".", " ", ",", " ", "'", " ", "’", " ", "&", " ").Replace(strings.ToUpper(text))
	return strings.Contains(" "+strings.Join(strings.Fields(norm), " ")+" ", " "+stem+" ")
}

// Score judges whether earlier is an earlier cycle of the same work as n:
// the match (tier, method, confidence, evidence), or ok false.
func Score(n, earlier record.Notice) (Match, bool) {
	if n.AgencyID == "" || earlier.AgencyID != n.AgencyID || earlier.RequestID == n.RequestID {
		return Match{}, false
	}
	if earlier.StartDate.IsZero() || n.StartDate.IsZero() || !earlier.StartDate.Before(n.StartDate) {
		return Match{}, false
	}
	if p := entity.NormalizePIN(n.PIN); p != "" && !entity.JunkPIN(p) && p == entity.NormalizePIN(earlier.PIN) {
		return Match{}, false // the same procurement (its award, an extension), not an earlier cycle
	}
	ba, bb := boroughsIn(n.Title), boroughsIn(earlier.Title)
	if len(ba) > 0 && len(bb) > 0 {
		common := false
		for b := range ba {
			common = common || bb[b]
		}
		if !common {
			return Match{}, false // different boroughs: different work
		}
	}
	sim, shared := similarity(Words(n.Title, n.AgencyName), Words(earlier.Title, earlier.AgencyName))
	if len(shared) < 2 && sim < 1 {
		return Match{}, false
	}
	gap := n.StartDate.Sub(earlier.StartDate)
	months := gap.Hours() / 24 / 30.44
	evidence := []string{
		fmt.Sprintf("same agency (%s)", n.AgencyName),
		fmt.Sprintf("service words shared: %s (%.0f%% of the titles' words)", strings.Join(shared, ", "), 100*sim),
	}
	yearEarlier := false
	if ya, ok := pinYear(n.PIN); ok {
		if yb, ok := pinYear(earlier.PIN); ok && yb < ya && entity.NormalizePIN(n.PIN)[:3] == entity.NormalizePIN(earlier.PIN)[:3] {
			yearEarlier = true
		}
	}
	separated := gap >= MinGap
	if separated {
		evidence = append(evidence, fmt.Sprintf("published %.0f months earlier", math.Floor(months)))
	}
	var corroboration []string
	if m, ok := entity.PINLink(n.PIN, earlier.PIN); ok {
		corroboration = append(corroboration, fmt.Sprintf("PIN %s (%s → %s)", m, earlier.PIN, n.PIN))
	}
	if n.VendorStem != "" && entity.SameVendor(n.VendorStem, earlier.VendorStem) {
		corroboration = append(corroboration, "same vendor ("+strings.TrimSpace(earlier.VendorName)+")")
	} else if n.VendorStem == "" && namesVendor(n.Text, earlier.VendorStem) {
		corroboration = append(corroboration, "the earlier vendor ("+strings.TrimSpace(earlier.VendorName)+") is named in this notice's text")
	}
	if n.AmountValid && earlier.AmountValid && earlier.Amount > 0 && math.Abs(n.Amount-earlier.Amount)/earlier.Amount <= 1.0/3 {
		corroboration = append(corroboration, "amount within a third")
	}
	m := Match{RequestID: earlier.RequestID, Title: earlier.Title, NoticeType: earlier.NoticeType, Published: earlier.StartDate,
		PIN: earlier.PIN, VendorName: strings.TrimSpace(earlier.VendorName)}
	if earlier.AmountValid {
		a := earlier.Amount
		m.Amount = &a
	}
	switch {
	case separated && sim >= MinStrict:
		m.Tier, m.Method, m.Confidence = TierStrict, MethodStrict, ConfStrict
		m.Evidence = append(evidence, corroboration...)
	case len(corroboration) > 0 && ((separated && sim >= MinWeak) || (yearEarlier && sim >= MinStrict)):
		m.Tier, m.Method, m.Confidence = TierCorroborated, MethodCorroborated, ConfCorrobor
		if !separated {
			evidence = append(evidence, fmt.Sprintf("published %.0f days earlier, under an earlier fiscal year's PIN", gap.Hours()/24))
		}
		m.Evidence = append(evidence, corroboration...)
	default:
		return Match{}, false
	}
	return m, true
}

// Find looks for the earlier cycles of n among the notices r holds. A
// notice that is not a solicitation or intent gets Applies false and no
// search.
func Find(ctx context.Context, r search.NoticesAndRecords, n record.Notice) (Result, error) {
	res, err := find(ctx, r, n)
	if err != nil {
		return Result{}, err
	}
	res.said()
	return res, nil
}

// find is Find with the result's notes as keys only.
func find(ctx context.Context, r search.NoticesAndRecords, n record.Notice) (Result, error) {
	res := Result{Matches: []Match{}}
	if !Applies(n) || n.StartDate.IsZero() {
		res.SummaryKey = notApplies
		return res, nil
	}
	res.Applies = true
	words := Words(n.Title, n.AgencyName)
	searched := record.N("cycle.searched", n.AgencyName, n.StartDate.In(record.NewYork).Format("2006-01-02"))
	res.SearchedKey = &searched
	if len(words) == 0 {
		res.SummaryKey = NoneFoundKey
		return res, nil
	}
	var terms []string
	for w := range words {
		terms = append(terms, w)
	}
	sort.Strings(terms)
	if len(terms) > search.MaxClauses {
		terms = terms[:search.MaxClauses]
	}
	q := search.Query{Text: strings.Join(terms, " "), AgencyIDs: []string{n.AgencyID}, Lenses: []string{record.LensMoney},
		To: n.StartDate.AddDate(0, 0, -1), Sort: search.SortNewest, Limit: maxCandidates}
	found, err := r.Search(ctx, q)
	if err != nil {
		return Result{}, err
	}
	for _, h := range found.Hits {
		if m, ok := Score(n, h.Notice); ok {
			res.Matches = append(res.Matches, m)
		}
	}
	// newest first; ties by request id, so every engine gives one order
	sort.Slice(res.Matches, func(i, j int) bool {
		a, b := res.Matches[i], res.Matches[j]
		if !a.Published.Equal(b.Published) {
			return a.Published.After(b.Published)
		}
		return a.RequestID > b.RequestID
	})
	if len(res.Matches) == 0 {
		res.SummaryKey = NoneFoundKey
		return res, nil
	}
	for i, m := range res.Matches {
		if strings.Contains(strings.ToLower(m.NoticeType), "award") && !strings.HasPrefix(strings.ToLower(m.NoticeType), "intent") && m.VendorName != "" {
			res.LastAward = &res.Matches[i]
			break
		}
	}
	if res.LastAward != nil {
		res.LastAward.Contracts = contractsOf(ctx, r, res.LastAward.PIN)
	}
	last := res.Matches[0]
	gap := n.StartDate.Sub(last.Published)
	next := n.StartDate.Add(gap)
	res.NextDue = &next
	basis := record.N("cycle.next_due_basis", fmt.Sprintf("%.0f", math.Round(gap.Hours()/24/30.44)), last.Published.In(record.NewYork).Format("2006-01"))
	res.NextDueBasisKey = &basis
	if a := res.LastAward; a != nil {
		year := a.Published.In(record.NewYork).Format("2006")
		if a.Amount != nil {
			res.SummaryKey = record.Note{Key: lastAwardAmountKeys[a.Tier], Args: []string{a.VendorName, year, view.Money(*a.Amount)}}
		} else {
			res.SummaryKey = record.Note{Key: lastAwardKeys[a.Tier], Args: []string{a.VendorName, year}}
		}
	} else { // the notice type as the City Record prints it (record text)
		res.SummaryKey = record.Note{Key: earlierKeys[last.Tier], Args: []string{last.NoticeType, last.Published.In(record.NewYork).Format("2006-01")}}
	}
	return res, nil
}

// said writes the result's notes in English, as it publishes them.
func (res *Result) said() {
	res.Summary = res.SummaryKey.String()
	if res.SearchedKey != nil {
		res.Searched = res.SearchedKey.String()
	}
	if res.NextDueBasisKey != nil {
		res.NextDueBasis = res.NextDueBasisKey.String()
	}
}

// contractsOf reads the registered contracts with exactly this PIN when the
// engine holds contracts (none otherwise: absent, not zero).
func contractsOf(ctx context.Context, rs search.Records, pin string) []ContractRef {
	p := entity.NormalizePIN(pin)
	if p == "" || entity.JunkPIN(p) {
		return nil
	}
	page, err := search.Find(ctx, rs, procure.ContractKind, search.RecordQuery{Keys: map[string][]string{search.KeyPIN: {p}}, Limit: 5})
	if err != nil {
		return nil
	}
	var out []ContractRef
	for _, c := range page.Items {
		ref := ContractRef{ContractID: c.ContractID, RegisteredOn: c.RegisteredOn, VendorName: c.VendorName,
			Method: "same PIN (" + p + ")", Confidence: "high"}
		if c.AmountValid {
			a := c.Amount
			ref.Amount = &a
		}
		out = append(out, ref)
	}
	return out
}

// WithLinks sets each match's permalink by the site's permalink rule.
func (r Result) WithLinks(l view.Links) Result {
	for i := range r.Matches {
		r.Matches[i].Permalink = l.Notice(r.Matches[i].RequestID)
	}
	if r.LastAward != nil {
		a := *r.LastAward
		a.Permalink = l.Notice(a.RequestID)
		r.LastAward = &a
	}
	return r
}

// For is Find for a surface: the result with permalinks, or nil when the
// notice is not a solicitation or intent. A search that fails is nil too
// (the notice is still shown; its prior cycle is left out, not guessed).
func For(ctx context.Context, r search.NoticesAndRecords, n record.Notice, l view.Links) *Result {
	if !Applies(n) {
		return nil
	}
	res, err := Find(ctx, r, n)
	if err != nil {
		return nil
	}
	res = res.WithLinks(l)
	return &res
}
