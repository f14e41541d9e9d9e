package search

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

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

// PrepareNoticeTotals is the one check and normalization of a NoticeTotals
// call, for every engine: the groupings are known, and the page, cursor,
// facets and order of q are set aside (totals are over every match).
func PrepareNoticeTotals(q Query, groupBy []string) (Query, Keywords, error) {
	if err := CheckGroups(groupBy); err != nil {
		return q, Keywords{}, err
	}
	q.Limit, q.Cursor, q.Facets, q.Sort = 0, "", false, SortNewest
	k, err := q.Normalize()
	return q, k, err
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

// Merge adds partial totals over notices disjoint from those added (an
// engine's per-segment sums).
func (a *TotalsAccumulator) Merge(t Totals) { a.core.merge(t) }

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
