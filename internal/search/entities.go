package search

import (
	"context"
	"encoding/json"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Entry kinds: records from sources other than the City Record that the
// entity views join to notices (by PIN, vendor stem, agency or BBL).
const (
	EntryContract = "contract" // a contract registration or pending contract
	EntryPayment  = "payment"  // a payment (a Checkbook NYC spending transaction)
	EntryPayroll  = "payroll"  // a payroll payment (Checkbook NYC payroll)
	EntryLot      = "lot"      // a tax lot's map location (ZAP, MapPLUTO)
)

// EntryKinds lists the kinds in display order.
var EntryKinds = []string{EntryContract, EntryPayment, EntryPayroll, EntryLot}

// Entry is one record of the payments dataset, a registered contract or a
// tax lot location. ID is stable ("<source>:<kind>:<natural key>"), so
// re-loading a source replaces its entries. Raw keeps every source field
// as read; Amount is set only when AmountValid (record.ParseAmount).
type Entry struct {
	ID     string `json:"id"`
	Source string `json:"source"`
	Kind   string `json:"kind"`

	AgencyRaw  string `json:"agency_raw,omitempty"`
	AgencyID   string `json:"agency_id,omitempty"`
	AgencyName string `json:"agency_name,omitempty"`

	VendorName string `json:"vendor_name,omitempty"`
	VendorStem string `json:"vendor_stem,omitempty"`

	ContractID string `json:"contract_id,omitempty"`
	// PIN is the PIN as the source wrote it; PINBase its 10-character base
	// (entity.PINBase), for prefix joins to City Record notices.
	PIN     string `json:"pin,omitempty"`
	PINBase string `json:"pin_base,omitempty"`
	// RequestID is a City Record notice the source itself joined to.
	RequestID string `json:"request_id,omitempty"`

	Title  string `json:"title,omitempty"`
	Status string `json:"status,omitempty"`

	// Date is the entry's own date; DateLabel says which ("registered",
	// "issued", "received", "paid").
	Date       time.Time `json:"date,omitzero"`
	DateLabel  string    `json:"date_label,omitempty"`
	FiscalYear int       `json:"fiscal_year,omitempty"`

	Amount      float64 `json:"amount,omitempty"`
	AmountValid bool    `json:"amount_valid"`
	AmountRaw   string  `json:"amount_raw,omitempty"`
	// AmountLabel names the amount ("current amount", "check amount" …).
	AmountLabel string `json:"amount_label,omitempty"`

	// BBL is a 10-digit borough-block-lot; Geometry is GeoJSON (a Point
	// centroid or the lot's polygons) for lot entries.
	BBL      string          `json:"bbl,omitempty"`
	Geometry json.RawMessage `json:"geometry,omitempty"`

	URL string `json:"url,omitempty"`
	// SourceLabel names the source in coverage.
	SourceLabel string            `json:"source_label,omitempty"`
	ObservedAt  time.Time         `json:"observed_at,omitzero"`
	Raw         map[string]string `json:"raw,omitempty"`
}

// Entry paging bounds.
const (
	DefaultEntryLimit = 100
	MaxEntryLimit     = 1000
	// MaxTotalsScan bounds how many records an engine reads to compute
	// totals when it cannot aggregate natively.
	MaxTotalsScan = 200_000
)

// EntryQuery narrows entries; every non-empty filter must match (values
// within one filter are alternatives). PINs match exactly (as
// entity.NormalizePIN forms), PINBases match the 10-character base.
type EntryQuery struct {
	Kinds       []string
	Sources     []string
	IDs         []string
	PINs        []string
	PINBases    []string
	ContractIDs []string
	VendorStems []string
	AgencyIDs   []string
	BBLs        []string
	// Limit is the page size (DefaultEntryLimit when 0); Totals asks for
	// counts and valid-amount sums by kind and fiscal year over every match.
	Limit  int
	Cursor string
	Totals bool
}

// EntryTotal is the count and valid-amount sum of one kind in one fiscal
// year (0: undated).
type EntryTotal struct {
	Kind         string  `json:"kind"`
	FiscalYear   int     `json:"fiscal_year"`
	Count        int     `json:"count"`
	ValidAmounts int     `json:"valid_amounts"`
	Amount       float64 `json:"amount"`
}

// EntryResult is a page of entries (by date, oldest first, undated last,
// then id; a contract by its registration date, EntityView.Entries) with,
// when asked, totals over all matches.
type EntryResult struct {
	Entries    []Entry      `json:"entries"`
	Total      int          `json:"total"`
	NextCursor string       `json:"next_cursor,omitempty"`
	Totals     []EntryTotal `json:"totals,omitempty"`
}

// Normalize validates an entry query and fills defaults.
func (q *EntryQuery) Normalize() error {
	if q.Limit == 0 {
		q.Limit = DefaultEntryLimit
	}
	if q.Limit < 0 || q.Limit > MaxEntryLimit {
		return record.Invalid("limit", "limit must be between 1 and %d", MaxEntryLimit)
	}
	for _, l := range [][]string{q.Kinds, q.Sources, q.IDs, q.PINs, q.PINBases, q.ContractIDs, q.VendorStems, q.AgencyIDs, q.BBLs} {
		if len(l) > MaxEntryLimit {
			return record.Invalid("filter", "at most %d values per filter", MaxEntryLimit)
		}
	}
	q.VendorStems = VendorStemKeys(q.VendorStems)
	return nil
}

// AgencyName is one raw agency string as a source wrote it, with the number
// of records that carry it.
type AgencyName struct {
	Raw     string `json:"raw_string"`
	Source  string `json:"source"`
	Records int    `json:"records"`
}

// Notice totals: the groupings NoticeTotals accepts.
const (
	GroupVendorStem = "vendor_stem"
	GroupVendorName = "vendor_name"
	GroupAgencyID   = "agency_id"
	GroupAgencyRaw  = "agency_raw"
	GroupNoticeType = "notice_type"
	GroupFiscalYear = "fiscal_year" // from the publication date, July–June
	GroupSource     = "source"
)

// Groups lists the accepted groupings.
var Groups = []string{GroupVendorStem, GroupVendorName, GroupAgencyID, GroupAgencyRaw, GroupNoticeType, GroupFiscalYear, GroupSource}

// Bucket is one value of a grouping: how many notices have it, how many of
// them carry a valid amount and the sum of those amounts.
type Bucket struct {
	Value        string  `json:"value"`
	Count        int     `json:"count"`
	ValidAmounts int     `json:"valid_amounts"`
	Amount       float64 `json:"amount"`
}

// Totals summarizes every notice a query matches: counts, valid amounts and
// their sum, first and last publication dates, and per grouping its top
// buckets (by valid-amount sum, then count, then value; fiscal years by
// year). Other counts the notices outside the returned buckets.
type Totals struct {
	Count        int                 `json:"count"`
	ValidAmounts int                 `json:"valid_amounts"`
	Amount       float64             `json:"amount"`
	First        time.Time           `json:"first,omitzero"`
	Last         time.Time           `json:"last,omitzero"`
	Groups       map[string][]Bucket `json:"groups,omitempty"`
	Other        map[string]int      `json:"other,omitempty"`
}

// EntityReader answers the entity views: the raw agency strings held, the
// entries of the payments dataset and other joined sources, and totals
// over notices. EntityView implements it once over an engine's Records and
// NoticeAggregates (entryview.go); Entities(backend) returns it.
type EntityReader interface {
	// AgencyNames lists every distinct raw agency string in the notices
	// and the entries, per source, ordered by source then string.
	AgencyNames(ctx context.Context) ([]AgencyName, error)
	// Entries reads entries; ENOTFOUND is never returned (no match is an
	// empty page).
	Entries(ctx context.Context, q EntryQuery) (EntryResult, error)
	// EntryCoverage reports, per source and kind, entry counts, first and
	// last dates and the latest observation.
	EntryCoverage(ctx context.Context) ([]record.SourceCoverage, error)
	// NoticeTotals summarizes the notices q matches (its paging, sort and
	// facets are ignored), grouped by each of groupBy, keeping the top
	// size buckets per grouping.
	NoticeTotals(ctx context.Context, q Query, groupBy []string, size int) (Totals, error)
}

// EntityWriter writes entries. UpsertEntries is idempotent and makes the
// entries visible before it returns.
type EntityWriter interface {
	UpsertEntries(ctx context.Context, entries []Entry) error
	DeleteEntries(ctx context.Context, ids []string) error
}

// EntityBackend reads and writes entries (EntityView).
type EntityBackend interface {
	EntityReader
	EntityWriter
}

// FiscalYearRange is the first and last instant of NYC fiscal year fy in
// New York time (July 1 of fy-1 to June 30 of fy).
func FiscalYearRange(fy int) (time.Time, time.Time) {
	start := time.Date(fy-1, time.July, 1, 0, 0, 0, 0, record.NewYork)
	return start, start.AddDate(1, 0, 0).Add(-time.Nanosecond)
}

// CheckGroups validates groupings.
func CheckGroups(groupBy []string) error {
	for _, g := range groupBy {
		ok := false
		for _, known := range Groups {
			if g == known {
				ok = true
			}
		}
		if !ok {
			return record.Invalid("group", "unknown grouping %q; groupings: %s", g, strings.Join(Groups, ", "))
		}
	}
	return nil
}

// SortEntryTotals orders totals by kind (EntryKinds order), then fiscal
// year.
func SortEntryTotals(ts []EntryTotal) {
	rank := func(k string) int {
		for i, x := range EntryKinds {
			if x == k {
				return i
			}
		}
		return len(EntryKinds)
	}
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].Kind != ts[j].Kind {
			if rank(ts[i].Kind) != rank(ts[j].Kind) {
				return rank(ts[i].Kind) < rank(ts[j].Kind)
			}
			return ts[i].Kind < ts[j].Kind
		}
		return ts[i].FiscalYear < ts[j].FiscalYear
	})
}

// SortAgencyNames orders raw agency strings by source, then string.
func SortAgencyNames(ns []AgencyName) {
	sort.Slice(ns, func(i, j int) bool {
		if ns[i].Source != ns[j].Source {
			return ns[i].Source < ns[j].Source
		}
		return ns[i].Raw < ns[j].Raw
	})
}

// SortBuckets orders buckets: fiscal years by year, other groupings by
// valid-amount sum, then count, then value.
func SortBuckets(group string, bs []Bucket) {
	sort.Slice(bs, func(i, j int) bool {
		if group == GroupFiscalYear {
			return bs[i].Value < bs[j].Value
		}
		if bs[i].Amount != bs[j].Amount {
			return bs[i].Amount > bs[j].Amount
		}
		if bs[i].Count != bs[j].Count {
			return bs[i].Count > bs[j].Count
		}
		return bs[i].Value < bs[j].Value
	})
}

// TotalsAccumulator computes Totals notice by notice, for engines that
// cannot aggregate natively.
type TotalsAccumulator struct{ core totalsCore }

// NewTotalsAccumulator starts totals for the given groupings.
func NewTotalsAccumulator(groupBy []string) *TotalsAccumulator {
	return &TotalsAccumulator{core: newTotalsCore(groupBy)}
}

// GroupValue is the value of a grouping for a notice ("" when it has none).
func GroupValue(n record.Notice, group string) string {
	switch group {
	case GroupVendorStem:
		return n.VendorStem
	case GroupVendorName:
		return n.VendorName
	case GroupAgencyID:
		return n.AgencyID
	case GroupAgencyRaw:
		return n.AgencyRaw
	case GroupNoticeType:
		return n.NoticeType
	case GroupSource:
		return n.Source
	case GroupFiscalYear:
		if n.StartDate.IsZero() {
			return ""
		}
		return strconv.Itoa(record.FiscalYear(n.StartDate.In(record.NewYork)))
	}
	return ""
}

// Add counts one notice.
func (a *TotalsAccumulator) Add(n record.Notice) {
	a.core.add(n.StartDate, n.Amount, n.AmountValid, func(g string) []string {
		if v := GroupValue(n, g); v != "" {
			return []string{v}
		}
		return nil
	})
}

// Totals returns the totals with the top size buckets per grouping (fiscal
// years are all kept, in year order).
func (a *TotalsAccumulator) Totals(size int) Totals {
	return a.core.totals(size, func(g string) bool { return g == GroupFiscalYear }, SortBuckets)
}

// RoundCents rounds a dollar sum to whole cents, so sums do not depend on
// the order they were added in.
func RoundCents(v float64) float64 { return math.Round(v*100) / 100 }
