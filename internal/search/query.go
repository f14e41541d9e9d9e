package search

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Keywords is a parsed keyword string.
type Keywords struct {
	Terms    []string // single words, OR-matched
	Phrases  []string // quoted phrases, alternatives to the words
	Excluded []string // words or phrases that must not appear
	// Synonyms are the expansions of the reviewed synonym list
	// (synonyms.go): clause → the alternatives it added.
	Synonyms map[string][]string
}

// Empty reports whether there is nothing positive to match.
func (k Keywords) Empty() bool { return len(k.Terms) == 0 && len(k.Phrases) == 0 }

// Count is the number of positive and negative clauses.
func (k Keywords) Count() int { return len(k.Terms) + len(k.Phrases) + len(k.Excluded) }

// ParseKeywords reads a keyword string: words, "quoted phrases", and
// exclusions (-word, -"phrase"). Words are split and lower-cased by Words,
// the way the engines' analysis splits indexed text, so both engines see
// the same clauses; a word that splits into several (a hyphen, an
// apostrophe, a colon or period between letters) is matched as the phrase
// of its parts: "foo-bar" finds "foo bar" and "foo-bar", never a notice
// that only holds "bar".
func ParseKeywords(s string) (Keywords, error) {
	var k Keywords
	if len([]rune(s)) > MaxTextLen {
		return k, record.InvalidNote("q", "param.search.q_len", MaxTextLen)
	}
	rs := []rune(s)
	for i := 0; i < len(rs); {
		for i < len(rs) && unicode.IsSpace(rs[i]) {
			i++
		}
		if i >= len(rs) {
			break
		}
		neg := false
		if rs[i] == '-' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
			neg = true
			i++
		}
		if rs[i] == '"' || rs[i] == '“' || rs[i] == '”' {
			j := i + 1
			for j < len(rs) && rs[j] != '"' && rs[j] != '”' && rs[j] != '“' {
				j++
			}
			words := Words(string(rs[i+1 : min(j, len(rs))]))
			i = j + 1
			if len(words) == 0 {
				continue
			}
			p := strings.Join(words, " ")
			switch {
			case neg:
				k.Excluded = appendUnique(k.Excluded, p)
			case len(words) == 1:
				k.Terms = appendUnique(k.Terms, p)
			default:
				k.Phrases = appendUnique(k.Phrases, p)
			}
			continue
		}
		j := i
		for j < len(rs) && !unicode.IsSpace(rs[j]) {
			j++
		}
		// a word the analysis splits (a hyphen, an apostrophe, a colon)
		// is the phrase of its parts, not each part alone
		words := Words(string(rs[i:j]))
		i = j
		switch {
		case len(words) == 0:
		case neg:
			k.Excluded = appendUnique(k.Excluded, strings.Join(words, " "))
		case len(words) == 1:
			k.Terms = appendUnique(k.Terms, words[0])
		default:
			k.Phrases = appendUnique(k.Phrases, strings.Join(words, " "))
		}
	}
	if k.Count() > MaxClauses {
		return k, record.InvalidNote("q", "param.search.clauses", MaxClauses)
	}
	expandSynonyms(&k)
	return k, nil
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// Normalize validates a query and fills defaults. It returns the parsed
// keywords and an EINVALID error naming the parameter at fault.
func (q *Query) Normalize() (Keywords, error) {
	k, err := ParseKeywords(q.Text)
	if err != nil {
		return k, err
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return k, record.InvalidNote("limit", "param.limit", "limit", MaxLimit)
	}
	if q.Sort == "" {
		q.Sort = SortRelevance
	}
	if !slices.Contains(Sorts, q.Sort) {
		return k, record.InvalidNote("sort", "param.search.sort", strings.Join(Sorts, ", "))
	}
	if q.Sort == SortRelevance && k.Empty() {
		q.Sort = SortNewest
	}
	if q.MinAmount != nil && q.MaxAmount != nil && *q.MinAmount > *q.MaxAmount {
		return k, record.InvalidNote("max_amount", "param.search.max_below_min")
	}
	if q.MinAmount != nil || q.MaxAmount != nil || q.Sort == SortAmount {
		q.ValidAmountOnly = true
	}
	for _, d := range []struct {
		param string
		t     time.Time
	}{{"from", q.From}, {"to", q.To}, {"due_from", q.DueFrom}, {"due_to", q.DueTo}, {"event_from", q.EventFrom}, {"event_to", q.EventTo}} {
		if err := record.CheckDay(d.param, d.t); err != nil {
			return k, err
		}
	}
	if !q.From.IsZero() && !q.To.IsZero() && q.To.Before(q.From) {
		return k, record.InvalidNote("to", "param.search.to_before_from")
	}
	for _, l := range [][]string{q.Lenses, q.Sections, q.NoticeTypes, q.AgencyIDs, q.VendorStems, q.PINs, q.PINPrefixes, q.Sources} {
		if len(l) > 50 {
			return k, record.InvalidNote("filter", "param.search.filter_values", 50)
		}
	}
	if len(q.RequestIDs) > MaxRequestIDs {
		return k, record.InvalidNote("request_id", "param.search.request_ids", MaxRequestIDs)
	}
	return k, nil
}

// vendorStemsShown are the stems a scope states: each once. A stem is
// matched as stored: the link stage writes every record's stem under the
// current rule, and a data directory written under an earlier rule is
// re-linked when it is opened (indexer.Relink), so no query widens a stem.
func vendorStemsShown(stems []string) []string {
	var out []string
	for _, s := range stems {
		out = appendUnique(out, s)
	}
	return out
}

// Normalize validates a passage query and fills defaults.
func (q *PassageQuery) Normalize() (Keywords, error) {
	k, err := ParseKeywords(q.Text)
	if err != nil {
		return k, err
	}
	if q.Limit == 0 {
		q.Limit = DefaultLimit
	}
	if q.Limit < 1 || q.Limit > MaxLimit {
		return k, record.InvalidNote("limit", "param.limit", "limit", MaxLimit)
	}
	if err := record.CheckDay("from", q.From); err != nil {
		return k, err
	}
	if err := record.CheckDay("to", q.To); err != nil {
		return k, err
	}
	return k, nil
}

// Searched describes what a notice query asked for, for its scope.
func (q Query) Searched(k Keywords) record.Searched {
	f := map[string]string{}
	add := func(name string, v []string) {
		if len(v) > 0 {
			f[name] = strings.Join(v, ",")
		}
	}
	add("section", q.Sections)
	add("notice_type", q.NoticeTypes)
	add("agency", q.AgencyIDs)
	add("vendor", vendorStemsShown(q.VendorStems))
	add("pin", q.PINs)
	add("pin_prefix", q.PINPrefixes)
	add("source", q.Sources)
	if len(q.RequestIDs) > 0 {
		f["request_id"] = fmt.Sprintf("%d notices named by id", len(q.RequestIDs))
	}
	if q.MinAmount != nil {
		f["min_amount"] = trimFloat(*q.MinAmount)
	}
	if q.MaxAmount != nil {
		f["max_amount"] = trimFloat(*q.MaxAmount)
	}
	if q.ValidAmountOnly {
		f["amount_validity"] = "valid amounts only"
	}
	addDate := func(name string, t time.Time) {
		if !t.IsZero() {
			f[name] = t.Format("2006-01-02")
		}
	}
	addDate("from", q.From)
	addDate("to", q.To)
	addDate("due_from", q.DueFrom)
	addDate("due_to", q.DueTo)
	addDate("event_from", q.EventFrom)
	addDate("event_to", q.EventTo)
	if q.IncludeRolling {
		f["rolling"] = "rolling deadlines included"
	}
	lenses := q.Lenses
	if len(lenses) == 0 {
		lenses = []string{"all"}
	}
	return record.Searched{
		Kind: "notices", Query: q.Text, Terms: k.Terms, Phrases: k.Phrases, Excluded: k.Excluded, Synonyms: k.Synonyms,
		Lenses: lenses, Filters: f, Sort: q.Sort,
	}
}

// Searched describes what a passage query asked for.
func (q PassageQuery) Searched(k Keywords) record.Searched {
	f := map[string]string{}
	if len(q.AgencyIDs) > 0 {
		f["agency"] = strings.Join(q.AgencyIDs, ",")
	}
	if len(q.Sources) > 0 {
		f["source"] = strings.Join(q.Sources, ",")
	}
	if q.RequestID != "" {
		f["request_id"] = q.RequestID
	}
	if !q.From.IsZero() {
		f["from"] = q.From.Format("2006-01-02")
	}
	if !q.To.IsZero() {
		f["to"] = q.To.Format("2006-01-02")
	}
	lenses := q.Lenses
	if len(lenses) == 0 {
		lenses = []string{"all"}
	}
	return record.Searched{Kind: "passages", Query: q.Text, Terms: k.Terms, Phrases: k.Phrases, Synonyms: k.Synonyms,
		Excluded: k.Excluded, Lenses: lenses, Filters: f, Sort: SortRelevance}
}

func trimFloat(v float64) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// cursor is the opaque paging token: the sort it belongs to and the sort
// values of the last hit of the previous page.
type cursor struct {
	Sort   string   `json:"s"`
	Values []string `json:"v"`
}

// EncodeCursor makes an opaque cursor from the last hit's sort values.
func EncodeCursor(sortName string, values []string) string {
	b, _ := json.Marshal(cursor{Sort: sortName, Values: values})
	return base64.RawURLEncoding.EncodeToString(b)
}

// ErrCursorNotNumber refuses a cursor whose sort value is not a finite
// number (NaN anywhere; ±Inf where a score is read).
var ErrCursorNotNumber = record.InvalidNote("cursor", "param.search.cursor_number")

// DecodeCursor reads a cursor made by EncodeCursor for the same sort: the
// one parser of every paging cursor (engines, browses, federated search).
func DecodeCursor(sortName, s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	var c cursor
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || len(c.Values) == 0 || len(c.Values) > 4 {
		return nil, record.InvalidNote("cursor", "param.search.cursor")
	}
	if c.Sort != sortName {
		return nil, record.InvalidNote("cursor", "param.search.cursor_sort", strconv.Quote(c.Sort), strconv.Quote(sortName))
	}
	// NaN is never a sort value of any engine, and would compare false
	// against every hit (page 1 again)
	for _, v := range c.Values {
		if f, err := strconv.ParseFloat(v, 64); err == nil && math.IsNaN(f) {
			return nil, ErrCursorNotNumber
		}
	}
	return c.Values, nil
}

// DayStart and DayEnd bound a calendar day in New York time.
func DayStart(t time.Time) time.Time {
	y, m, d := t.In(record.NewYork).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, record.NewYork)
}

// DayEnd is the last instant of t's day in New York time.
func DayEnd(t time.Time) time.Time {
	return DayStart(t).AddDate(0, 0, 1).Add(-time.Nanosecond)
}

// SortFacet orders facet values by count, then value, and keeps the top n.
func SortFacet(fc []FacetCount, n int) []FacetCount {
	sort.Slice(fc, func(i, j int) bool {
		if fc[i].Count != fc[j].Count {
			return fc[i].Count > fc[j].Count
		}
		return fc[i].Value < fc[j].Value
	})
	if len(fc) > n {
		fc = fc[:n]
	}
	return fc
}
