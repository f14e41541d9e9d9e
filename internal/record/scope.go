package record

import "time"

// AbsenceRuleNotes are SPEC §1's rules that every consumer must respect,
// as notes (their words are the message files'). Every search result
// carries them, whether or not it has hits.
var AbsenceRuleNotes = Notes{N("absence.rule.no_hits"), N("absence.rule.no_detail"), N("absence.rule.each_state"), N("absence.rule.retained")}

// AbsenceRules are the absence rules in English, as every answer
// publishes them (absence_rules).
var AbsenceRules = func() []string {
	out := make([]string, len(AbsenceRuleNotes))
	for i, n := range AbsenceRuleNotes {
		out[i] = n.String()
	}
	return out
}()

// DateBoundsNote explains what first and last source dates promise.
const DateBoundsNote = "First and last source dates bound what is held; they do not promise that every date between them is covered. Each source has its own dates, which differ from the date the corpus was observed."

// SourceCoverage says what one source contributed to the corpus.
type SourceCoverage struct {
	Source          string    `json:"source"`
	Label           string    `json:"label"`
	RecordType      string    `json:"record_type"`
	ObservedAt      time.Time `json:"observed_at,omitzero"`
	FirstSourceDate string    `json:"first_source_date,omitempty"`
	LastSourceDate  string    `json:"last_source_date,omitempty"`
	Records         int       `json:"records"`
	Passages        int       `json:"passages"`
	// Freshness (Freshen, the one rule; absent where no schedule is
	// known): the newest source date held, the ages of the observation
	// and of that date, the maximum age, the schedule's interval, the
	// state (Fresh, Stale, NeverLoaded, Failing), since when, the last
	// live error and a note.
	NewestSourceDate   string    `json:"newest_source_date,omitempty"`
	ObservedAgeSeconds int64     `json:"observed_age_seconds,omitempty"`
	SourceAgeDays      int       `json:"source_age_days,omitempty"`
	MaxAgeSeconds      int64     `json:"max_age_seconds,omitempty"`
	ScheduleEvery      string    `json:"schedule_every,omitempty"`
	State              string    `json:"state,omitempty"`
	StateSince         time.Time `json:"state_since,omitzero"`
	LastError          string    `json:"last_error,omitempty"`
	FreshnessNote      string    `json:"freshness_note,omitempty"`
	// Schedule says how the source is kept (ScheduleLive: a scheduled job
	// fetches it; ScheduleFileOnly: loaded from files only, no schedule).
	Schedule string `json:"schedule,omitempty"`
	// Unread are the documents its last live fetch could not read, each
	// with the body and month it is of and why (Freshen).
	Unread []UnreadDocument `json:"unread,omitempty"`
	// FreshnessNoteKey is FreshnessNote as a note (Freshen).
	FreshnessNoteKey *Note `json:"freshness_note_key,omitempty"`
}

// Searched is what a query asked for, as the backend applied it.
type Searched struct {
	Kind     string   `json:"kind"` // "notices" or "passages"
	Query    string   `json:"q,omitempty"`
	Terms    []string `json:"terms,omitempty"`
	Phrases  []string `json:"phrases,omitempty"`
	Excluded []string `json:"excluded,omitempty"`
	// Synonyms are the alternatives the reviewed synonym list added to a
	// keyword clause ("rfp" → "request for proposals").
	Synonyms map[string][]string `json:"synonyms,omitempty"`
	Lenses   []string            `json:"lenses,omitempty"`
	Filters  map[string]string   `json:"filters,omitempty"`
	Sort     string              `json:"sort,omitempty"`
	// Semantic says how a semantic or hybrid search ranked (absent for
	// keyword search).
	Semantic *SemanticSearched `json:"semantic,omitempty"`
}

// SemanticSearched is the method of a semantic or hybrid search: the model
// and the vectors it compared, how many nearest notices it considered and
// the similarity below which a notice is no match, and for hybrid how the
// two rankings were fused.
type SemanticSearched struct {
	Mode          string  `json:"mode"`
	Model         string  `json:"model"`
	VectorsHeld   int     `json:"vectors_held"`
	Candidates    int     `json:"candidates"`
	MinSimilarity float64 `json:"min_similarity"`
	Fusion        string  `json:"fusion,omitempty"`
	Note          string  `json:"note"`
	// FusionKey and NoteKeys are fusion and note as notes (key and
	// arguments; the note's clauses each a note, joined by "; ").
	FusionKey *Note `json:"fusion_key,omitempty"`
	NoteKeys  Notes `json:"note_keys"`
}

// Scope travels with every search result, including one with no hits.
type Scope struct {
	Searched         Searched         `json:"searched"`
	SourceTypes      []string         `json:"source_types"`
	Sources          []SourceCoverage `json:"sources"`
	CorpusObservedAt time.Time        `json:"corpus_observed_at,omitzero"`
	FirstSourceDate  string           `json:"first_source_date,omitempty"`
	LastSourceDate   string           `json:"last_source_date,omitempty"`
	RecordsInCorpus  int              `json:"records_in_corpus"`
	PassagesInCorpus int              `json:"passages_in_corpus"`
	Matched          int              `json:"matched"`
	// MatchedRelation is CountAtLeast ("gte") when Matched is a lower
	// bound (a notice or passage search counts exactly up to CountLimit
	// unless the exact count is asked for); it is left out when Matched is
	// exact.
	MatchedRelation string   `json:"matched_relation,omitempty"`
	DateBoundsNote  string   `json:"date_bounds_note"`
	Absence         []string `json:"absence_rules"`
	// AbsenceKeys are the absence rules as notes (key and arguments),
	// for a reader in another language.
	AbsenceKeys Notes `json:"absence_rule_keys"`
	// Empty says why nothing matched (TypeAbsence, the one rule): set on
	// every empty answer, absent when something matched.
	Empty *EmptyAnswer `json:"empty,omitempty"`
	// NotFresh names the sources behind the answer that are stale or
	// failing (absent when all are fresh or no schedule is known).
	NotFresh []string `json:"not_fresh,omitempty"`
}

// Count semantics (OpenSearch's hits.total): a notice or passage search
// counts its hits exactly up to CountLimit; beyond it the count is
// CountLimit with the relation CountAtLeast ("gte": at least that many),
// unless the exact count is asked for. An exact count states no relation.
// Record reads (FindRecords, RecordTotals) always count exactly.
const (
	CountLimit   = 10000
	CountAtLeast = "gte"
)

// CapCount is the one count rule both engines apply to n hits counted:
// the figure to report and its relation ("" exact, CountAtLeast a lower
// bound). Unless exact is asked for, more than CountLimit hits report
// CountLimit, "gte". atLeast says the engine itself stopped counting at n
// (OpenSearch's "gte"), which no figure can hide.
func CapCount(n int, atLeast, exact bool) (int, string) {
	switch {
	case n > CountLimit && !exact:
		return CountLimit, CountAtLeast
	case atLeast:
		return n, CountAtLeast
	}
	return n, ""
}

// NewScope builds a Scope from the corpus coverage and what was searched.
func NewScope(searched Searched, cov []SourceCoverage, matched int) Scope {
	s := Scope{
		Searched:       searched,
		SourceTypes:    []string{},
		Sources:        cov,
		Matched:        matched,
		DateBoundsNote: DateBoundsNote,
		Absence:        AbsenceRules,
		AbsenceKeys:    AbsenceRuleNotes,
	}
	if s.Sources == nil {
		s.Sources = []SourceCoverage{}
	}
	seen := map[string]bool{}
	for _, c := range cov {
		if !seen[c.RecordType] {
			seen[c.RecordType] = true
			s.SourceTypes = append(s.SourceTypes, c.RecordType)
		}
		s.RecordsInCorpus += c.Records
		s.PassagesInCorpus += c.Passages
		if c.ObservedAt.After(s.CorpusObservedAt) {
			s.CorpusObservedAt = c.ObservedAt
		}
		if c.FirstSourceDate != "" && (s.FirstSourceDate == "" || c.FirstSourceDate < s.FirstSourceDate) {
			s.FirstSourceDate = c.FirstSourceDate
		}
		if c.LastSourceDate > s.LastSourceDate {
			s.LastSourceDate = c.LastSourceDate
		}
	}
	s.TypeAbsence()
	return s
}

// Availability is the state of a single-record read.
type Availability string

const (
	Found       Availability = "found"
	NotFound    Availability = "not_found"
	Unavailable Availability = "unavailable"
)
