package procure

import (
	"context"
	"math"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Contract analysis (SPEC §2.6, analyze_contracts): registered contracts
// ranked by agency, vendor, fiscal year or amount band, by registered value
// or by count. Every group is one exact key of ContractKind, so the
// browse it carries (Follow) pages through exactly its rows.

// Analysis groupings.
const (
	GroupAgency     = "agency"
	GroupVendor     = "vendor"
	GroupFiscalYear = "fiscal_year"
	GroupAmountBand = "amount_band"
)

// AnalysisGroupings lists the groupings, the default first.
var AnalysisGroupings = []string{GroupAgency, GroupVendor, GroupFiscalYear, GroupAmountBand}

// Analysis rankings.
const (
	RankValue = "registered_value"
	RankCount = "count"
)

// AnalysisRankings lists the rankings, the default first.
var AnalysisRankings = []string{RankValue, RankCount}

// Analysis bounds.
const (
	DefaultAnalysisGroups = 20
	MaxAnalysisGroups     = 100
)

// Analysis states.
const (
	AnalysisRanked       = "ranked"
	AnalysisUnknownLabel = "unknown_agency_label"
)

// AgencyLabelsSource says where the accepted agency labels come from.
var (
	AgencyLabelsSourceKey = record.N("analysis.labels_source")
	AgencyLabelsSource    = AgencyLabelsSourceKey.String()
)

// AnalysisRequest asks for an analysis. AgencyLabel, when set, must be an
// accepted label with the same letter case (AgencyLabels).
type AnalysisRequest struct {
	GroupBy     string
	RankBy      string
	AgencyLabel string
	FiscalYear  int
	AmountBand  string
	Limit       int
}

// AgencyLabelList is the fixed list of accepted agency labels.
type AgencyLabelList struct {
	Source string `json:"source"`
	// SourceKey is source as a note (key and arguments).
	SourceKey record.Note `json:"source_key"`
	Count     int         `json:"count"`
	Labels    []string    `json:"labels"`
}

// AnalysisPopulation is the denominator of an analysis: every registered
// row the filters matched, the included rows (valid amounts, summed) and
// the excluded ones (counted, never summed), by reason.
type AnalysisPopulation struct {
	Rows int `json:"rows"`
	// IncludedRows carry a valid amount; RegisteredValue sums them.
	IncludedRows    int   `json:"included_rows"`
	RegisteredValue Money `json:"registered_value"`
	// ExcludedRows have no valid amount: counted in counts, excluded from
	// every value sum.
	ExcludedRows int                `json:"excluded_rows"`
	Excluded     []AnalysisExcluded `json:"excluded_by_reason"`
	ExcludedNote string             `json:"excluded_note"`
	// ExcludedNoteKey is excluded_note as a note (key and arguments).
	ExcludedNoteKey record.Note `json:"excluded_note_key"`
	// FirstRegistered and LastRegistered bound the registration dates.
	FirstRegistered string `json:"first_registered,omitempty"`
	LastRegistered  string `json:"last_registered,omitempty"`
}

// AnalysisExcluded counts the excluded rows of one reason.
type AnalysisExcluded struct {
	Reason      string `json:"reason"`
	Description string `json:"description"`
	Rows        int    `json:"rows"`
}

// ContractFollow is how to page through every row of a group: the
// browse_contracts arguments and the same filters as /api/contracts query
// parameters (the surfaces add the address as URL).
type ContractFollow struct {
	Arguments map[string]any `json:"browse_contracts"`
	Query     string         `json:"query"`
	URL       string         `json:"url,omitempty"`
}

// ContractGroup is one ranked group.
type ContractGroup struct {
	Rank int `json:"rank"`
	// Key is the group's exact key value (canonical agency id, vendor
	// stem, fiscal year, amount band key); Label how it reads.
	Key   string `json:"key"`
	Label string `json:"label"`
	// LabelKey is label as a note when the service words it (a fiscal
	// year, an amount band); absent for a name as the records print it.
	LabelKey *record.Note `json:"label_key,omitempty"`
	// AcceptedLabel is set for an agency group whose agency is in the
	// accepted list (its label); empty for a spelling the reviewed mapping
	// does not know yet.
	AcceptedLabel   string         `json:"accepted_label,omitempty"`
	Rows            int            `json:"rows"`
	IncludedRows    int            `json:"included_rows"`
	ExcludedRows    int            `json:"excluded_rows"`
	RegisteredValue Money          `json:"registered_value"`
	ShareOfRows     float64        `json:"share_of_rows"`            // percent of the population's rows
	ShareOfValue    *float64       `json:"share_of_value,omitempty"` // percent of its registered value; nil when none is held
	Follow          ContractFollow `json:"follow"`
}

// AnalysisUngrouped counts the population's rows in no group (no value for
// the grouping: a pending row has no registration date, so no fiscal
// year).
type AnalysisUngrouped struct {
	Rows   int             `json:"rows"`
	Reason string          `json:"reason"`
	Follow *ContractFollow `json:"follow,omitempty"`
	// ReasonKeys are reason as notes (its clauses, joined by "; ").
	ReasonKeys record.Notes `json:"reason_keys"`
}

// AnalysisCoverage is what the analysis read: the registered-contract
// sources with their dates and observations, and a statement of it.
type AnalysisCoverage struct {
	Statement string                  `json:"statement"`
	Sources   []record.SourceCoverage `json:"sources"`
	// StatementKeys are statement as notes (its sentences).
	StatementKeys record.Notes `json:"statement_keys"`
}

// ContractAnalysis is the answer of AnalyzeContracts. Status "ranked"
// carries the ranking; "unknown_agency_label" carries no ranking (nothing
// was analysed, which proves nothing about the agency) but the error and
// suggested labels.
type ContractAnalysis struct {
	Status  string            `json:"status"`
	GroupBy string            `json:"group_by"`
	RankBy  string            `json:"rank_by"`
	Filters map[string]string `json:"filters"`
	Measure string            `json:"measure"`
	// MeasureKey is measure as a note (key and arguments).
	MeasureKey record.Note `json:"measure_key"`

	Error       *record.Error `json:"error,omitempty"`
	Suggestions []string      `json:"suggested_labels,omitempty"`
	Message     string        `json:"message,omitempty"`
	// MessageKey is message as a note (key and arguments).
	MessageKey record.Note `json:"message_key,omitzero"`

	Population  *AnalysisPopulation `json:"population,omitempty"`
	Groups      []ContractGroup     `json:"groups,omitempty"`
	GroupsTotal int                 `json:"groups_total"`
	GroupsShown int                 `json:"groups_shown"`
	Ungrouped   *AnalysisUngrouped  `json:"ungrouped,omitempty"`
	// Follow pages through the whole population.
	Follow *ContractFollow `json:"follow,omitempty"`

	Coverage AnalysisCoverage `json:"coverage"`
	// AgencyLabels is the accepted list, returned when no agency label
	// was given.
	AgencyLabels *AgencyLabelList            `json:"agency_labels,omitempty"`
	AmountBands  []record.ContractAmountBand `json:"amount_bands"`
	Scope        record.Scope                `json:"scope"`
	// TotalsExtent says how much of their sources the figures cover.
	TotalsExtent
}

// WithBase fills every follow URL: base (the site's address, "" for a
// site-relative one) + path + "?" + query.
func (a *ContractAnalysis) WithBase(base, path string) {
	set := func(f *ContractFollow) {
		if f != nil {
			f.URL = base + path
			if f.Query != "" {
				f.URL += "?" + f.Query
			}
		}
	}
	set(a.Follow)
	if a.Ungrouped != nil {
		set(a.Ungrouped.Follow)
	}
	for i := range a.Groups {
		set(&a.Groups[i].Follow)
	}
}

// AmountBandKeys are the keys of the fixed amount bands, in order.
func AmountBandKeys() []string {
	out := make([]string, len(record.ContractAmountBands))
	for i, b := range record.ContractAmountBands {
		out[i] = b.Key
	}
	return out
}

// AgencyLabels is the fixed list of accepted agency labels, sorted.
func (s *Service) AgencyLabels() AgencyLabelList {
	out := AgencyLabelList{Source: AgencyLabelsSource, SourceKey: AgencyLabelsSourceKey, Labels: []string{}}
	for _, a := range s.Crosswalk.Agencies() {
		if a.NotAnAgency == "" { // a City Record section is no agency label
			out.Labels = append(out.Labels, a.Name)
		}
	}
	sort.Strings(out.Labels)
	out.Count = len(out.Labels)
	return out
}

// agencyLabelID is the canonical id of an accepted label, matched with the
// same letter case. EINVALID (param agency) otherwise, naming suggestions.
func (s *Service) agencyLabelID(label string) (string, error) {
	for _, a := range s.Crosswalk.Agencies() {
		if a.Name == label && a.NotAnAgency == "" {
			return a.ID, nil
		}
	}
	return "", s.unknownLabel(label)
}

// unknownLabel is the error of a label not accepted: a note, with the
// suggestions (SuggestLabels) as a list said in the reader's language.
func (s *Service) unknownLabel(label string) *record.Error {
	n := record.N("error.agency_label", strconv.Quote(label))
	if sg := s.SuggestLabels(label); len(sg) > 0 {
		n = record.N("error.agency_label.suggest", strconv.Quote(label))
		n.Inner = []record.Part{OrList(sg)}
	}
	return record.NoteError(record.EINVALID, "agency", n)
}

// OrList is names, each quoted, as a list joined by "or" in the reader's
// language (record.OrList, a note's part); at most five names (the rest
// dropped).
func OrList(names []string) record.Part {
	names = names[:min(len(names), 5)]
	q := make([]string, len(names))
	for i, s := range names {
		q[i] = strconv.Quote(s)
	}
	return record.OrList(q)
}

// SuggestLabels names up to five accepted labels for a label that is not
// one: the same label in other letter case first, then the agencies the
// crosswalk's one rule resolves it to (short forms, nicknames, acronyms,
// canonical ids), then labels sharing the most words with it, then labels
// a few letters away.
func (s *Service) SuggestLabels(label string) []string {
	in := strings.TrimSpace(label)
	if in == "" {
		return nil
	}
	var out []string
	add := func(l string) {
		if len(out) < 5 && !containsString(out, l) {
			out = append(out, l)
		}
	}
	var agencies []entity.Agency
	for _, a := range s.Crosswalk.Agencies() {
		if a.NotAnAgency == "" { // only accepted labels are suggested
			agencies = append(agencies, a)
		}
	}
	for _, a := range agencies {
		if strings.EqualFold(a.Name, in) {
			add(a.Name)
		}
	}
	if r, err := s.Crosswalk.ResolveName("agency", in); err == nil && r.Method != entity.MethodOwn {
		for _, id := range r.IDs {
			if a, ok := s.Crosswalk.Agency(id); ok && a.NotAnAgency == "" {
				add(a.Name)
			}
		}
	}
	words := map[string]bool{}
	for _, w := range strings.Fields(entity.AgencyKey(in)) {
		if len(w) > 2 && !labelStop[w] {
			words[w] = true
		}
	}
	type cand struct {
		name  string
		score int
	}
	var cs []cand
	lower := strings.ToLower(in)
	inRunes := utf8.RuneCountInString(lower)
	for _, a := range agencies {
		n := 0
		for _, w := range strings.Fields(entity.AgencyKey(a.Name)) {
			if words[w] {
				n++
			}
		}
		if n > 0 {
			cs = append(cs, cand{a.Name, n * 100})
		} else if limit := max(2, len(in)/5); abs(inRunes-utf8.RuneCountInString(a.Name)) > limit {
			// lengths this far apart are more edits apart than the limit
			// (the distance is at least the difference in length): no
			// quadratic comparison of a long input with every label
			continue
		} else if d := editDistance(lower, strings.ToLower(a.Name)); d <= limit {
			cs = append(cs, cand{a.Name, 50 - d})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score > cs[j].score
		}
		return cs[i].name < cs[j].name
	})
	for _, c := range cs {
		add(c.name)
	}
	if len(out) == 0 { // always at least one: the label fewest letters away
		best, bestD := "", -1
		short := string([]rune(lower)[:min(inRunes, 64)])
		for _, a := range agencies {
			if d := editDistance(short, strings.ToLower(a.Name)); bestD < 0 || d < bestD || d == bestD && a.Name < best {
				best, bestD = a.Name, d
			}
		}
		if best != "" {
			add(best)
		}
	}
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// labelStop are words too common in agency names to suggest by.
var labelStop = map[string]bool{"DEPARTMENT": true, "DEPT": true, "THE": true, "AND": true, "FOR": true, "NYC": true,
	"NEW": true, "YORK": true, "CITY": true, "OFFICE": true, "MAYORS": true, "SERVICES": true, "COMMISSION": true,
	"BOARD": true, "AGENCY": true}

func containsString(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// editDistance is the Levenshtein distance of two strings, by rune.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// groupKey is the contract key a grouping reads.
func groupKey(g string) string {
	switch g {
	case GroupVendor:
		return search.KeyVendorStem
	case GroupFiscalYear:
		return search.KeyFiscalYear
	case GroupAmountBand:
		return KeyAmountBand
	}
	return search.KeyAgencyID
}

// AnalyzeContracts ranks the registered contracts the filters match by
// group (agency, vendor, fiscal year or amount band) and by registered
// value or count, with the denominators (every row matched; the rows with
// a valid amount, summed; the rows without, counted and excluded from
// every sum, by reason), the rows in no group, how to follow each group
// through BrowseContracts, and the coverage of the contract sources.
// Without an agency label it lists the accepted labels; with a label that
// is not one (other letter case included) it answers status
// unknown_agency_label with suggestions and no ranking. Errors: EINVALID
// for a bad grouping, ranking, limit, fiscal year or band; EUNAVAILABLE
// when the engine cannot answer.
func (s *Service) AnalyzeContracts(ctx context.Context, req AnalysisRequest) (ContractAnalysis, error) {
	a, err := s.analyzeContracts(ctx, req)
	if err == nil {
		a.TotalsExtent = s.extentOf(ctx, record.ExtentContracts)
	}
	return a, err
}

func (s *Service) analyzeContracts(ctx context.Context, req AnalysisRequest) (ContractAnalysis, error) {
	if req.GroupBy == "" {
		req.GroupBy = GroupAgency
	}
	if req.RankBy == "" {
		req.RankBy = RankValue
	}
	if req.Limit == 0 {
		req.Limit = DefaultAnalysisGroups
	}
	switch {
	case !containsString(AnalysisGroupings, req.GroupBy):
		return ContractAnalysis{}, record.InvalidNote("group_by", "param.unknown.grouping", strconv.Quote(req.GroupBy), strings.Join(AnalysisGroupings, ", "))
	case !containsString(AnalysisRankings, req.RankBy):
		return ContractAnalysis{}, record.InvalidNote("rank_by", "param.unknown.ranking", strconv.Quote(req.RankBy), strings.Join(AnalysisRankings, ", "))
	case req.Limit < 1 || req.Limit > MaxAnalysisGroups:
		return ContractAnalysis{}, record.InvalidNote("limit", "param.limit.groups", "limit", MaxAnalysisGroups)
	}
	out := ContractAnalysis{Status: AnalysisRanked, GroupBy: req.GroupBy, RankBy: req.RankBy, Filters: map[string]string{},
		Measure: ContractMeasure, MeasureKey: ContractMeasureKey, AmountBands: record.ContractAmountBands, Groups: []ContractGroup{}}
	f := ContractFilter{FiscalYear: req.FiscalYear, AmountBand: req.AmountBand}
	if req.AgencyLabel != "" {
		out.Filters["agency"] = req.AgencyLabel
		if _, err := s.agencyLabelID(req.AgencyLabel); err != nil {
			e := s.unknownLabel(req.AgencyLabel)
			out.Status, out.Error, out.Suggestions, out.Groups = AnalysisUnknownLabel, e, s.SuggestLabels(req.AgencyLabel), nil
			out.Message, out.MessageKey = e.Message, e.MessageKey
			out.Coverage.StatementKeys = record.Notes{record.N("analysis.coverage.unknown_label"), ContractMeasureNoteKey}
			out.Coverage.Statement = out.Coverage.StatementKeys.String()
			out.Coverage.Sources = []record.SourceCoverage{}
			out.Scope = record.NewScope(record.Searched{Kind: "contracts", Filters: out.Filters}, nil, 0)
			return out, nil
		}
		f.AgencyLabel = req.AgencyLabel
	} else {
		l := s.AgencyLabels()
		out.AgencyLabels = &l
	}
	if req.FiscalYear != 0 {
		out.Filters["fiscal_year"] = strconv.Itoa(req.FiscalYear)
	}
	if req.AmountBand != "" {
		out.Filters["amount_band"] = req.AmountBand
	}
	q, err := s.contractQuery(f)
	if err != nil {
		return ContractAnalysis{}, err
	}
	rs, err := s.RecordReader()
	if err != nil {
		return ContractAnalysis{}, err
	}
	key := groupKey(req.GroupBy)
	t, err := search.TotalsOf(ctx, rs, ContractKind, q, []string{key, KeyAmountExcluded, KeyRegistration}, 0)
	if err != nil {
		return ContractAnalysis{}, err
	}
	pop := Sum{Records: t.Count, ValidAmounts: t.ValidAmounts, Amount: t.Amount, Absent: NoContractsKey}
	out.Population = &AnalysisPopulation{Rows: t.Count, IncludedRows: t.ValidAmounts, RegisteredValue: pop.Money(),
		ExcludedRows: t.Count - t.ValidAmounts, Excluded: []AnalysisExcluded{}, FirstRegistered: day(t.First), LastRegistered: day(t.Last),
		ExcludedNote: ExcludedNote, ExcludedNoteKey: ExcludedNoteKey}
	for _, b := range t.Groups[KeyAmountExcluded] {
		out.Population.Excluded = append(out.Population.Excluded, AnalysisExcluded{Reason: b.Value, Description: record.ExcludedReasons[b.Value], Rows: b.Count})
	}
	sort.Slice(out.Population.Excluded, func(i, j int) bool { return out.Population.Excluded[i].Reason < out.Population.Excluded[j].Reason })
	all := s.follow(f)
	out.Follow = &all

	buckets := t.Groups[key]
	sortAnalysisBuckets(buckets, req.RankBy)
	grouped := 0
	for _, b := range buckets {
		grouped += b.Count
	}
	out.GroupsTotal = len(buckets)
	if rest := t.Count - grouped; rest > 0 {
		out.Ungrouped = &AnalysisUngrouped{Rows: rest, ReasonKeys: record.Notes{ungroupedReason(req.GroupBy)}}
		undated := 0
		for _, b := range t.Groups[KeyRegistration] {
			if b.Value == RegistrationUndated {
				undated = b.Count
			}
		}
		if req.GroupBy == GroupFiscalYear && undated != rest {
			// rows written before the registration key existed: the
			// undated browse would not find them all
			out.Ungrouped.ReasonKeys = append(out.Ungrouped.ReasonKeys, ungroupedReason(""))
		} else if req.GroupBy == GroupFiscalYear {
			uf := f
			uf.Undated = true
			fl := s.follow(uf)
			out.Ungrouped.Follow = &fl
		}
	}
	if out.Ungrouped != nil {
		out.Ungrouped.Reason = out.Ungrouped.ReasonKeys.Clauses("en")
	}
	if len(buckets) > req.Limit {
		buckets = buckets[:req.Limit]
	}
	for i, b := range buckets {
		sum := Sum{Records: b.Count, ValidAmounts: b.ValidAmounts, Amount: b.Amount, Absent: NoContractsKey}
		g := ContractGroup{Rank: i + 1, Key: b.Value, Rows: b.Count, IncludedRows: b.ValidAmounts, ExcludedRows: b.Count - b.ValidAmounts,
			RegisteredValue: sum.Money(), ShareOfRows: percent(float64(b.Count), float64(t.Count))}
		if b.ValidAmounts > 0 && t.Amount > 0 {
			v := percent(b.Amount, t.Amount)
			g.ShareOfValue = &v
		}
		gf := f
		switch req.GroupBy {
		case GroupAgency:
			if a, ok := s.Crosswalk.Agency(b.Value); ok {
				g.Label, g.AcceptedLabel = a.Name, a.Name
				gf.AgencyLabel = a.Name
			} else {
				g.Label = s.printed(ctx, rs, q, key, b.Value, func(c record.Contract) string { return c.AgencyLabel })
				gf.AgencyID = b.Value
			}
		case GroupVendor:
			g.Label = s.printed(ctx, rs, q, key, b.Value, func(c record.Contract) string { return c.VendorName })
			gf.VendorStem = b.Value
		case GroupFiscalYear:
			fy, _ := strconv.Atoi(b.Value)
			l := record.N("analysis.fiscal_year", fy, fy-1, fy)
			g.Label, g.LabelKey = l.String(), &l
			gf.FiscalYear = fy
		case GroupAmountBand:
			if band, ok := record.AmountBand(b.Value); ok {
				l := band.LabelKey
				g.Label, g.LabelKey = band.Label, &l
			}
			gf.AmountBand = b.Value
		}
		if g.Label == "" {
			g.Label = b.Value
		}
		g.Follow = s.follow(gf)
		out.Groups = append(out.Groups, g)
	}
	out.GroupsShown = len(out.Groups)

	cov, err := rs.RecordCoverage(ctx)
	if err != nil {
		return ContractAnalysis{}, err
	}
	out.Coverage = contractCoverage(cov, t.Count)
	var notices search.CoverageReader
	if s.Search != nil {
		notices = s.Search
	}
	out.Scope, err = search.WithScope(rs, notices).Scope(ctx, record.Searched{Kind: "contracts", Filters: out.Filters, Sort: req.RankBy}, t.Count)
	if err != nil {
		return ContractAnalysis{}, err
	}
	return out, nil
}

// ContractMeasureNote is the sentence every analysis states.
var (
	ContractMeasureNoteKey = record.N("analysis.measure_note")
	ContractMeasureNote    = ContractMeasureNoteKey.String()
)

// contractCoverage is the coverage of the registered-contract records
// (ContractKind) and its statement.
func contractCoverage(cov []record.SourceCoverage, matched int) AnalysisCoverage {
	out := AnalysisCoverage{Sources: []record.SourceCoverage{}}
	for _, c := range cov {
		if c.RecordType == ContractKind.Name {
			out.Sources = append(out.Sources, c)
		}
	}
	out.StatementKeys = ContractCoverageStatement(out.Sources, matched)
	out.Statement = out.StatementKeys.String()
	return out
}

// ContractCoverageStatement is the statement of an analysis's coverage,
// as notes: the rows analysed (matched) out of the registered contract
// rows held, one part per source (its rows, registration dates and
// observation), and the measure.
func ContractCoverageStatement(sources []record.SourceCoverage, matched int) record.Notes {
	var parts record.Notes
	for _, c := range sources {
		switch reg, obs := c.FirstSourceDate != "", !c.ObservedAt.IsZero(); {
		case reg && obs:
			parts = append(parts, record.N("analysis.coverage.part_both", c.Records, c.Label, c.FirstSourceDate, c.LastSourceDate, day(c.ObservedAt)))
		case reg:
			parts = append(parts, record.N("analysis.coverage.part_registered", c.Records, c.Label, c.FirstSourceDate, c.LastSourceDate))
		case obs:
			parts = append(parts, record.N("analysis.coverage.part_observed", c.Records, c.Label, day(c.ObservedAt)))
		default:
			parts = append(parts, record.N("analysis.coverage.part", c.Records, c.Label))
		}
	}
	if len(parts) == 0 {
		return record.Notes{record.N("analysis.coverage.none"), ContractMeasureNoteKey}
	}
	analysed := record.N("analysis.coverage.analysed", matched)
	for _, p := range parts {
		analysed.Inner = append(analysed.Inner, record.PartOf(p))
	}
	return record.Notes{analysed, record.N("analysis.coverage.only"), ContractMeasureNoteKey}
}

// An analysis's fixed words: the measure of its exclusions.
var (
	ExcludedNoteKey = record.N("analysis.excluded_note")
	ExcludedNote    = ExcludedNoteKey.String()
)

// ungroupedReason is why rows are in no group of the grouping g (a
// grouping with no reason of its own: rows written before the keys it
// reads were kept).
func ungroupedReason(g string) record.Note {
	switch g {
	case GroupFiscalYear:
		return record.N("analysis.ungrouped.fiscal_year")
	case GroupVendor:
		return record.N("analysis.ungrouped.vendor")
	case GroupAgency:
		return record.N("analysis.ungrouped.agency")
	}
	return record.N("analysis.ungrouped.old")
}

// sortAnalysisBuckets ranks buckets: by registered value (then count) or
// by count (then registered value), ties by key.
func sortAnalysisBuckets(bs []search.Bucket, rank string) {
	sort.SliceStable(bs, func(i, j int) bool {
		a, b := bs[i], bs[j]
		if rank == RankCount && a.Count != b.Count {
			return a.Count > b.Count
		}
		if ac, bc := search.RoundCents(a.Amount), search.RoundCents(b.Amount); ac != bc {
			return ac > bc
		}
		if a.Count != b.Count {
			return a.Count > b.Count
		}
		return a.Value < b.Value
	})
}

func percent(part, whole float64) float64 {
	if whole == 0 {
		return 0
	}
	return math.Round(part/whole*1000) / 10
}

// printed is how the first row of a group prints its value (the agency or
// vendor as the source wrote it); "" when it cannot be read.
func (s *Service) printed(ctx context.Context, rs search.RecordReader, q search.RecordQuery, key, value string, of func(record.Contract) string) string {
	gq := q
	gq.Keys = map[string][]string{}
	for k, v := range q.Keys {
		gq.Keys[k] = v
	}
	gq.Keys[key] = []string{value}
	gq.Sort, gq.Limit, gq.Cursor = search.RecordSortID, 1, ""
	p, err := search.Find(ctx, rs, ContractKind, gq)
	if err != nil || len(p.Items) == 0 {
		return ""
	}
	return of(p.Items[0])
}

// follow is the browse of a filter: browse_contracts arguments and the
// /api/contracts query.
func (s *Service) follow(f ContractFilter) ContractFollow {
	args := map[string]any{}
	v := url.Values{}
	str := func(name, val string) {
		if val != "" {
			args[name] = val
			v.Set(name, val)
		}
	}
	str("agency_label", f.AgencyLabel)
	str("agency_id", f.AgencyID)
	str("vendor_stem", f.VendorStem)
	if f.FiscalYear != 0 {
		args["fiscal_year"] = f.FiscalYear
		v.Set("fiscal_year", strconv.Itoa(f.FiscalYear))
	}
	str("amount_band", f.AmountBand)
	if f.Undated {
		args["undated"] = true
		v.Set("undated", "true")
	}
	return ContractFollow{Arguments: args, Query: v.Encode()}
}
