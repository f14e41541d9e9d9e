package notices

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Widening is the nearest non-empty answer to an empty one (issue 49, item
// 4): the same question without one of its constraints, tried in a fixed
// order (the due-date window first: "no open solicitations" is most often
// answered by the closed ones), and how many notices that holds — the
// shared rule of every list (record.Widen). It is given only when the
// answer is empty and one constraint less matches something; it never
// stands for the empty answer's type, which the scope keeps (scope.empty).
// Without names the constraint left out: due (the due-date window, open
// solicitations), published (the publication dates), event (the event
// dates), agency, type (notice types and sections), vendor, amount, words;
// Newest is the newest publication day among the notices it matches (New
// York).
type Widening = record.Widening

// widenings are the constraints a widening may leave out, in the order
// they are tried, each with how it is left out of a query.
var widenings = []record.WideningStep[search.Query]{
	widening("due", "without the due-date window (closed solicitations included)", func(q *search.Query) bool {
		had := !q.DueFrom.IsZero() || !q.DueTo.IsZero()
		q.DueFrom, q.DueTo, q.IncludeRolling = time.Time{}, time.Time{}, false
		return had
	}),
	widening("published", "without the publication dates", func(q *search.Query) bool {
		had := !q.From.IsZero() || !q.To.IsZero()
		q.From, q.To = time.Time{}, time.Time{}
		return had
	}),
	widening("event", "without the event dates", func(q *search.Query) bool {
		had := !q.EventFrom.IsZero() || !q.EventTo.IsZero()
		q.EventFrom, q.EventTo = time.Time{}, time.Time{}
		return had
	}),
	widening("agency", "without the agency", func(q *search.Query) bool {
		had := len(q.AgencyIDs) > 0
		q.AgencyIDs = nil
		return had
	}),
	widening("type", "without the notice type", func(q *search.Query) bool {
		had := len(q.NoticeTypes)+len(q.Sections) > 0
		q.NoticeTypes, q.Sections = nil, nil
		return had
	}),
	widening("vendor", "without the vendor", func(q *search.Query) bool {
		had := len(q.VendorStems) > 0
		q.VendorStems = nil
		return had
	}),
	widening("amount", "without the amount bounds", func(q *search.Query) bool {
		had := q.MinAmount != nil || q.MaxAmount != nil || q.ValidAmountOnly
		q.MinAmount, q.MaxAmount, q.ValidAmountOnly = nil, nil, false
		return had
	}),
	widening("words", "without the words", func(q *search.Query) bool {
		had := q.Text != ""
		q.Text = ""
		return had
	}),
}

// widening is the step that leaves out one constraint: clear reports
// whether q had it, and clears it.
func widening(without, words string, clear func(*search.Query) bool) record.WideningStep[search.Query] {
	return record.WideningStep[search.Query]{Without: without, Words: words, Drop: func(q search.Query) (search.Query, bool) {
		had := clear(&q)
		return q, had
	}}
}

// withoutKeys are the notes of how a widening's note says each constraint
// left out (the steps' Words, in every language).
var withoutKeys = map[string]string{
	"due": "widen.notices.without.due", "published": "widen.notices.without.published", "event": "widen.notices.without.event",
	"agency": "widen.notices.without.agency", "type": "widen.notices.without.type", "vendor": "widen.notices.without.vendor",
	"amount": "widen.notices.without.amount", "words": "widen.notices.without.words",
}

// widenNote says a notice search's widening: "Nothing matches this search
// in what is held; without … it matches 12 notice(s), the newest published
// …", as a note (the constraint left out its inner part).
func widenNote(st record.WideningStep[search.Query], w *Widening) {
	at := w.MatchedRelation == record.CountAtLeast
	var n record.Note
	switch count := record.Thousands(w.Matched); {
	case at && w.Newest != "":
		n = record.N("widen.notices.at_least.newest", count, w.Newest)
	case at:
		n = record.N("widen.notices.at_least", count)
	case w.Newest != "":
		n = record.N("widen.notices.matched.newest", count, w.Newest)
	default:
		n = record.N("widen.notices.matched", count)
	}
	n.Inner = []record.Part{{Key: withoutKeys[st.Without]}}
	w.Note, w.NoteKey = n.String(), n
}

// widen is the widening of q's empty answer (nil when q matched something,
// or no constraint less matches anything within record.MaxWidenings
// searches). Each try is one newest-first keyword search of one notice.
func widen(ctx context.Context, rs search.Reader, q search.Query, total int) (*Widening, error) {
	if total > 0 || rs == nil {
		return nil, nil
	}
	// a widening keeps some of the question: one that would leave nothing
	// but everything held (a search of words alone) is no answer
	kept := len(q.Lenses) + len(q.Sources) + len(q.PINs) + len(q.PINPrefixes) + len(q.RequestIDs)
	for _, w := range widenings {
		if _, had := w.Drop(q); had {
			kept++
		}
	}
	if kept < 2 {
		return nil, nil
	}
	return record.WidenSaid(ctx, q, widenings, func(ctx context.Context, wq search.Query) (record.WideningCount, error) {
		wq.Cursor, wq.Limit, wq.Sort, wq.Facets, wq.ExactCount, wq.Brief = "", 1, search.SortNewest, false, false, true
		res, err := rs.Search(ctx, wq)
		if err != nil || res.Total == 0 {
			return record.WideningCount{}, err
		}
		c := record.WideningCount{Matched: res.Total, AtLeast: res.TotalRelation == record.CountAtLeast}
		if len(res.Hits) > 0 && !res.Hits[0].Notice.StartDate.IsZero() {
			c.Newest = res.Hits[0].Notice.StartDate.In(record.NewYork).Format("2006-01-02")
		}
		return c, nil
	}, widenNote)
}
