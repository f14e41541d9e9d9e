package search

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Records is the typed read-model seam: every record kind that is not
// notice full text (contracts, payments, lots, land projects, meetings,
// payroll, people …) is a Record, and both engines implement these
// six methods once. A new kind is a Kind[T] value (kind.go), never a new
// engine method. Scope is added by WithScope (scope.go), not by engines.
//
// Engines store and match what they are given: keys are exact-match
// keywords, already normalized upstream (a PIN key is entity.NormalizePIN's
// form, written by whoever builds the record); an engine never applies a
// linking rule.
type Records interface {
	RecordReader
	// PutRecords writes records; one with the kind and id of a record
	// already held replaces it (idempotent). The records are visible to
	// reads when it returns. EINVALID when a record fails CheckRecord.
	PutRecords(ctx context.Context, rs []Record) error
	// DeleteRecords removes records of one kind by id; ids not held are
	// ignored.
	DeleteRecords(ctx context.Context, kind string, ids []string) error
}

// RecordReader is the read half of Records: what services that read
// records take.
type RecordReader interface {
	// GetRecord returns one record: ENOTFOUND when it is not held,
	// EUNAVAILABLE when the engine cannot answer.
	GetRecord(ctx context.Context, kind, id string) (Record, error)
	// FindRecords reads a page of the records q matches, in q's order
	// with a keyset cursor; no match is an empty page, never ENOTFOUND.
	FindRecords(ctx context.Context, q RecordQuery) (RecordPage, error)
	// RecordTotals summarizes every record q matches (its sort, limit and
	// cursor are ignored): count, valid amounts and their sum, first and
	// last dates, and per grouping (a key name or a Group* pseudo-key) the
	// top size buckets (size 0: up to MaxRecordGroups).
	RecordTotals(ctx context.Context, q RecordQuery, groupBy []string, size int) (Totals, error)
	// NearestRecords is the records of one kind whose vectors
	// (Record.Vector) are nearest q's, best first, ties by id: approximate
	// (the engine's nearest-neighbour index), at most q.K.
	NearestRecords(ctx context.Context, q NearQuery) ([]Near, error)
	// RecordCoverage reports per source and kind (RecordType holds the
	// kind) the records held, their first and last dates (New York days)
	// and the latest observation with its source label (or, when no record
	// says when it was observed, the label of the record with the lowest
	// id), ordered by source, then kind.
	RecordCoverage(ctx context.Context) ([]record.SourceCoverage, error)
}

// Record is one read-model record, whatever its kind. The engines index the
// envelope (kind, id, source, keys, date, amount) and keep Body, the typed
// value as JSON, as it was given.
type Record struct {
	// Kind and ID identify the record; ids are unique within a kind.
	Kind        string    `json:"kind"`
	ID          string    `json:"id"`
	Source      string    `json:"source"`
	SourceLabel string    `json:"source_label,omitempty"`
	ObservedAt  time.Time `json:"observed_at,omitzero"`
	// Keys are exact-match keyword fields (agency_id, vendor_stem,
	// pin_key, pin_base, contract_id, bbl, fiscal_year, status …), each
	// with one or more values.
	Keys map[string][]string `json:"keys,omitempty"`
	// Date is the record's own date; DateLabel says which ("registered",
	// "paid" …).
	Date      time.Time `json:"date,omitzero"`
	DateLabel string    `json:"date_label,omitempty"`
	// Amount counts only when AmountValid: engines sort, filter and sum
	// valid amounts only.
	Amount      float64 `json:"amount,omitempty"`
	AmountValid bool    `json:"amount_valid"`
	// Title and Text are for display; they are not searched.
	Title string `json:"title,omitempty"`
	Text  string `json:"text,omitempty"`
	// Body is the typed value as a JSON object.
	Body json.RawMessage `json:"body,omitempty"`
	// Vector, when set, is a unit-length vector of VectorDims components
	// the engine indexes for NearestRecords (nearest.go). It is written,
	// never read back: Body holds the value it was made from.
	Vector []float32 `json:"-"`
}

// Record sorts: every order breaks ties by id, then kind.
const (
	RecordSortDate     = "date"        // dated first, oldest first, then undated (the default)
	RecordSortDateDesc = "date_desc"   // newest first, undated last
	RecordSortAmount   = "amount_desc" // valid amounts, largest first; the rest last
	RecordSortID       = "id"          // id, then kind
)

// RecordSorts lists the accepted record sorts.
var RecordSorts = []string{RecordSortDate, RecordSortDateDesc, RecordSortAmount, RecordSortID}

// Record bounds.
const (
	DefaultRecordLimit = 100
	MaxRecordLimit     = 1000
	// MaxRecordKeys bounds the keys of a record and the key filters of a
	// query; MaxKeyValues the values of one key.
	MaxRecordKeys = 32
	MaxKeyValues  = 1000
	// MaxRecordGroups bounds the buckets of one grouping.
	MaxRecordGroups = 10000
)

// Pseudo-keys RecordTotals groups by besides key names.
const (
	GroupByKind       = "@kind"
	GroupBySource     = "@source"
	GroupByFiscalYear = "@fiscal_year" // NYC fiscal year (July–June) of Date
	GroupByDay        = "@day"         // New York day of Date (2006-01-02); undated records in no bucket
)

var (
	kindRE = regexp.MustCompile(`^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)?$`)
	keyRE  = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
)

// CheckRecord reports why an engine must refuse a record (EINVALID): a
// kind ("name" or "family.name", lower case), an id and a source are
// required; key names are lower-case identifiers with non-empty values;
// Body, when set, is a JSON object.
func CheckRecord(r Record) error {
	if !kindRE.MatchString(r.Kind) {
		return record.Invalid("kind", "record kind %q must be a lower-case name or family.name", r.Kind)
	}
	if r.ID == "" || r.Source == "" {
		return record.Invalid("id", "a %s record needs an id and a source", r.Kind)
	}
	if err := CheckRecordID(r.ID); err != nil {
		return err
	}
	if err := CheckVector(r.Vector); err != nil {
		return err
	}
	if len(r.Keys) > MaxRecordKeys {
		return record.Invalid("keys", "a record has at most %d keys", MaxRecordKeys)
	}
	for k, vs := range r.Keys {
		if !keyRE.MatchString(k) {
			return record.InvalidNote("keys", "param.records.key_name", strconv.Quote(k))
		}
		if len(vs) > MaxKeyValues {
			return record.Invalid("keys", "key %s has more than %d values", k, MaxKeyValues)
		}
		for _, v := range vs {
			if v == "" {
				return record.Invalid("keys", "key %s of %s %s has an empty value", k, r.Kind, r.ID)
			}
		}
	}
	if b := bytes.TrimSpace(r.Body); len(b) > 0 && (b[0] != '{' || !json.Valid(b)) {
		return record.Invalid("body", "the body of %s %s is not a JSON object", r.Kind, r.ID)
	}
	return nil
}

// MaxRecordIDLen bounds a record id.
const MaxRecordIDLen = 300

// CheckRecordID is the rule every record id keeps, whatever its kind: at
// most MaxRecordIDLen characters, no surrounding space, no control or
// invisible character, and none of < > " \ that markup and quoting are
// made of, so an id can be printed in a page, a feed or a path and mean
// itself. A source's row whose id breaks it is rejected at ingest with
// this reason.
func CheckRecordID(id string) error {
	if len(id) > MaxRecordIDLen {
		return record.Invalid("id", "a record id has at most %d characters", MaxRecordIDLen)
	}
	if strings.TrimSpace(id) != id {
		return record.Invalid("id", "record id %q has surrounding space", id)
	}
	for _, r := range id {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || strings.ContainsRune(`<>"\`, r) {
			return record.Invalid("id", "record id %q holds %U, which an id may not", id, r)
		}
	}
	return nil
}

// RecordDocID is the engine document id of a record: kind and id, which a
// kind cannot be confused with (kinds hold no ':').
func RecordDocID(kind, id string) string { return kind + ":" + id }

// RecordQuery narrows records: every non-empty filter must match, values
// within one filter are alternatives. Keys are AND across key names, OR
// within one key's values, exact matches on the values as written.
type RecordQuery struct {
	Kinds   []string // none: every kind
	Sources []string
	IDs     []string
	Keys    map[string][]string
	// From and To bound Date, inclusive; a bounded range never matches an
	// undated record.
	From, To time.Time
	// An amount bound implies valid amounts only.
	MinAmount, MaxAmount *float64
	ValidAmountOnly      bool

	Sort   string // RecordSort*; RecordSortDate when empty
	Limit  int    // DefaultRecordLimit when 0, at most MaxRecordLimit
	Cursor string
}

// RecordPage is a page of records. Engines leave Scope empty; WithScope
// fills it.
type RecordPage struct {
	Records    []Record     `json:"records"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Scope      record.Scope `json:"scope"`
}

// Normalize validates a record query and fills defaults.
func (q *RecordQuery) Normalize() error {
	if q.Limit == 0 {
		q.Limit = DefaultRecordLimit
	}
	if q.Limit < 0 || q.Limit > MaxRecordLimit {
		return record.InvalidNote("limit", "param.limit", "limit", MaxRecordLimit)
	}
	if q.Sort == "" {
		q.Sort = RecordSortDate
	}
	if !slices.Contains(RecordSorts, q.Sort) {
		return record.InvalidNote("sort", "param.unknown.sort", strconv.Quote(q.Sort), strings.Join(RecordSorts, ", "))
	}
	for _, l := range [][]string{q.Kinds, q.Sources, q.IDs} {
		if len(l) > MaxKeyValues {
			return record.InvalidNote("filter", "param.search.filter_values", MaxKeyValues)
		}
	}
	if len(q.Keys) > MaxRecordKeys {
		return record.InvalidNote("keys", "param.records.key_filters", MaxRecordKeys)
	}
	for k, vs := range q.Keys {
		if !keyRE.MatchString(k) {
			return record.Invalid("keys", "key name %q must be a lower-case identifier", k)
		}
		if len(vs) > MaxKeyValues {
			return record.InvalidNote("keys", "param.search.filter_values", MaxKeyValues)
		}
	}
	if q.MinAmount != nil || q.MaxAmount != nil {
		q.ValidAmountOnly = true
	}
	if !q.From.IsZero() && !q.To.IsZero() && q.To.Before(q.From) {
		return record.InvalidNote("to", "param.records.range")
	}
	return nil
}

// CursorSort is the name record cursors are made for (EncodeCursor), so a
// cursor of one sort is refused by another.
func (q RecordQuery) CursorSort() string { return "records:" + q.Sort }

// CheckGroupBy validates record groupings: key names or Group* pseudo-keys.
func CheckGroupBy(groupBy []string) error {
	for _, g := range groupBy {
		if g != GroupByKind && g != GroupBySource && g != GroupByFiscalYear && g != GroupByDay && !keyRE.MatchString(g) {
			return record.InvalidNote("group", "param.records.group", strconv.Quote(g), GroupByKind, GroupBySource, GroupByFiscalYear, GroupByDay)
		}
	}
	return nil
}

// Filters is the query as scope filters ("keys.agency_id": "a,b" …).
func (q RecordQuery) Filters() map[string]string {
	f := map[string]string{}
	add := func(name string, vs []string) {
		if len(vs) > 0 {
			f[name] = strings.Join(vs, ",")
		}
	}
	add("kind", q.Kinds)
	add("source", q.Sources)
	add("id", q.IDs)
	for k, vs := range q.Keys {
		if k == KeyVendorStem {
			vs = vendorStemsShown(vs)
		}
		add(k, vs)
	}
	if !q.From.IsZero() {
		f["from"] = q.From.UTC().Format(time.RFC3339)
	}
	if !q.To.IsZero() {
		f["to"] = q.To.UTC().Format(time.RFC3339)
	}
	if q.MinAmount != nil {
		f["min_amount"] = trimFloat(*q.MinAmount)
	}
	if q.MaxAmount != nil {
		f["max_amount"] = trimFloat(*q.MaxAmount)
	}
	if q.ValidAmountOnly {
		f["valid_amount"] = "true"
	}
	return f
}

// Matches reports whether q matches r: the meaning every engine
// implements, written once as the suite's reference.
func (q RecordQuery) Matches(r Record) bool {
	in := func(vs []string, v string) bool { return len(vs) == 0 || slices.Contains(vs, v) }
	if !in(q.Kinds, r.Kind) || !in(q.Sources, r.Source) || !in(q.IDs, r.ID) {
		return false
	}
	for k, want := range q.Keys {
		if len(want) == 0 {
			continue
		}
		ok := false
		for _, v := range r.Keys[k] {
			if slices.Contains(want, v) {
				ok = true
			}
		}
		if !ok {
			return false
		}
	}
	if !q.From.IsZero() || !q.To.IsZero() {
		if r.Date.IsZero() || (!q.From.IsZero() && r.Date.Before(q.From)) || (!q.To.IsZero() && r.Date.After(q.To)) {
			return false
		}
	}
	if q.ValidAmountOnly || q.MinAmount != nil || q.MaxAmount != nil {
		if !r.AmountValid || (q.MinAmount != nil && r.Amount < *q.MinAmount) || (q.MaxAmount != nil && r.Amount > *q.MaxAmount) {
			return false
		}
	}
	return true
}

// RecordLess is the order of a record sort, the suite's reference.
func RecordLess(sortName string, a, b Record) bool {
	tie := func() bool {
		if a.ID != b.ID {
			return a.ID < b.ID
		}
		return a.Kind < b.Kind
	}
	switch sortName {
	case RecordSortDate, RecordSortDateDesc:
		if a.Date.IsZero() != b.Date.IsZero() {
			return !a.Date.IsZero()
		}
		// engines compare dates to the second
		as, bs := a.Date.Unix(), b.Date.Unix()
		if as != bs {
			if sortName == RecordSortDate {
				return as < bs
			}
			return as > bs
		}
	case RecordSortAmount:
		if a.AmountValid != b.AmountValid {
			return a.AmountValid
		}
		if a.AmountValid {
			ac, bc := amountCents(a.Amount), amountCents(b.Amount)
			if ac != bc {
				return ac > bc
			}
		}
	}
	return tie()
}

func amountCents(v float64) int64 { return int64(RoundCents(v) * 100) }

// GroupValues are the values a record has for a grouping (none: it is
// counted in no bucket of it).
func GroupValues(r Record, group string) []string {
	switch group {
	case GroupByKind:
		return []string{r.Kind}
	case GroupBySource:
		return []string{r.Source}
	case GroupByFiscalYear:
		if r.Date.IsZero() {
			return nil
		}
		return []string{strconv.Itoa(record.FiscalYear(r.Date.In(record.NewYork)))}
	case GroupByDay:
		if r.Date.IsZero() {
			return nil
		}
		return []string{r.Date.In(record.NewYork).Format(time.DateOnly)}
	}
	return r.Keys[group]
}

// SortRecordBuckets orders the buckets of a record grouping: valid-amount
// sum, then count (both descending), then value (SortBuckets' rule for
// every grouping but notices' fiscal years).
func SortRecordBuckets(bs []Bucket) { SortBuckets("", bs) }

// RecordTotalsAccumulator computes RecordTotals record by record, for
// engines that cannot aggregate natively (and as the suite's reference).
type RecordTotalsAccumulator struct{ core totalsCore }

// NewRecordTotalsAccumulator starts totals for the given groupings.
func NewRecordTotalsAccumulator(groupBy []string) *RecordTotalsAccumulator {
	return &RecordTotalsAccumulator{core: newTotalsCore(groupBy)}
}

// Add counts one record (once per distinct value of a grouping).
func (a *RecordTotalsAccumulator) Add(r Record) {
	a.core.add(r.Date, r.Amount, r.AmountValid, func(g string) []string { return GroupValues(r, g) })
}

// Merge adds totals an engine summed over records disjoint from those
// already added (one segment's, one shard's): t.Groups must hold every
// bucket of its groupings (none left to Other).
func (a *RecordTotalsAccumulator) Merge(t Totals) { a.core.merge(t) }

// Totals returns the totals with the top size buckets per grouping (size
// 0: up to MaxRecordGroups); Other counts the bucket entries left out.
func (a *RecordTotalsAccumulator) Totals(size int) Totals {
	if size <= 0 || size > MaxRecordGroups {
		size = MaxRecordGroups
	}
	return a.core.totals(size, func(string) bool { return false }, func(_ string, bs []Bucket) { SortRecordBuckets(bs) })
}

// SortRecordCoverage orders coverage by source, then record type.
func SortRecordCoverage(cov []record.SourceCoverage) {
	sort.Slice(cov, func(i, j int) bool {
		if cov[i].Source != cov[j].Source {
			return cov[i].Source < cov[j].Source
		}
		return cov[i].RecordType < cov[j].RecordType
	})
}
