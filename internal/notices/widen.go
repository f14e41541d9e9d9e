package notices

import (
	"context"
	"fmt"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Widening is the nearest non-empty answer to an empty one (issue 49, item
// 4): the same question without one of its constraints, tried in a fixed
// order (the due-date window first: "no open solicitations" is most often
// answered by the closed ones), and how many notices that holds. It is
// given only when the answer is empty and one constraint less matches
// something; it never stands for the empty answer's type, which the scope
// keeps (scope.empty).
type Widening struct {
	// Without names the constraint left out: due (the due-date window,
	// open solicitations), published (the publication dates), event (the
	// event dates), agency, type (notice types and sections), vendor,
	// amount, words.
	Without string `json:"without"`
	// Matched counts the notices the question matches without it (a
	// lower bound when matched_relation is gte).
	Matched         int    `json:"matched"`
	MatchedRelation string `json:"matched_relation,omitempty"`
	// Newest is the newest publication day among them (New York).
	Newest string `json:"newest,omitempty"`
	Note   string `json:"note"`
}

// widenings are the constraints a widening may leave out, in the order
// they are tried, each with how it is left out of a query.
var widenings = []struct {
	without string
	words   string
	set     func(*search.Query) bool // reports whether q had the constraint, and clears it
}{
	{"due", "without the due-date window (closed solicitations included)", func(q *search.Query) bool {
		had := !q.DueFrom.IsZero() || !q.DueTo.IsZero()
		q.DueFrom, q.DueTo, q.IncludeRolling = time.Time{}, time.Time{}, false
		return had
	}},
	{"published", "without the publication dates", func(q *search.Query) bool {
		had := !q.From.IsZero() || !q.To.IsZero()
		q.From, q.To = time.Time{}, time.Time{}
		return had
	}},
	{"event", "without the event dates", func(q *search.Query) bool {
		had := !q.EventFrom.IsZero() || !q.EventTo.IsZero()
		q.EventFrom, q.EventTo = time.Time{}, time.Time{}
		return had
	}},
	{"agency", "without the agency", func(q *search.Query) bool {
		had := len(q.AgencyIDs) > 0
		q.AgencyIDs = nil
		return had
	}},
	{"type", "without the notice type", func(q *search.Query) bool {
		had := len(q.NoticeTypes)+len(q.Sections) > 0
		q.NoticeTypes, q.Sections = nil, nil
		return had
	}},
	{"vendor", "without the vendor", func(q *search.Query) bool {
		had := len(q.VendorStems) > 0
		q.VendorStems = nil
		return had
	}},
	{"amount", "without the amount bounds", func(q *search.Query) bool {
		had := q.MinAmount != nil || q.MaxAmount != nil || q.ValidAmountOnly
		q.MinAmount, q.MaxAmount, q.ValidAmountOnly = nil, nil, false
		return had
	}},
	{"words", "without the words", func(q *search.Query) bool {
		had := q.Text != ""
		q.Text = ""
		return had
	}},
}

// maxWidenings bounds the searches one empty answer spends on its
// widening (one per constraint the question has, at most this many).
const maxWidenings = 4

// widen is the widening of q's empty answer (nil when q matched something,
// or no constraint less matches anything within maxWidenings searches).
// Each try is one newest-first keyword search of one notice.
func widen(ctx context.Context, rs search.Reader, q search.Query, total int) (*Widening, error) {
	if total > 0 || rs == nil {
		return nil, nil
	}
	// a widening keeps some of the question: one that would leave nothing
	// but everything held (a search of words alone) is no answer
	kept := len(q.Lenses) + len(q.Sources) + len(q.PINs) + len(q.PINPrefixes) + len(q.RequestIDs)
	for _, w := range widenings {
		if probe := q; w.set(&probe) {
			kept++
		}
	}
	if kept < 2 {
		return nil, nil
	}
	tries := 0
	for _, w := range widenings {
		wq := q
		if !w.set(&wq) {
			continue
		}
		if tries++; tries > maxWidenings {
			break
		}
		wq.Cursor, wq.Limit, wq.Sort, wq.Facets, wq.ExactCount, wq.Brief = "", 1, search.SortNewest, false, false, true
		res, err := rs.Search(ctx, wq)
		if err != nil {
			return nil, err
		}
		if res.Total == 0 {
			continue
		}
		out := &Widening{Without: w.without, Matched: res.Total}
		if res.TotalRelation == record.CountAtLeast {
			out.MatchedRelation = record.CountAtLeast
		}
		if len(res.Hits) > 0 && !res.Hits[0].Notice.StartDate.IsZero() {
			out.Newest = res.Hits[0].Notice.StartDate.In(record.NewYork).Format("2006-01-02")
		}
		out.Note = fmt.Sprintf("Nothing matches this search in what is held; %s it matches %s notice(s)", w.words, record.Thousands(res.Total))
		if out.MatchedRelation != "" {
			out.Note = fmt.Sprintf("Nothing matches this search in what is held; %s it matches at least %s notices", w.words, record.Thousands(res.Total))
		}
		if out.Newest != "" {
			out.Note += ", the newest published " + out.Newest
		}
		out.Note += "."
		return out, nil
	}
	return nil, nil
}
