package meeting

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// An empty page of meetings offers its nearest widening (issue 49, item
// 4): the same filters without one of them, tried in this order, and last
// the same filters outside the date window (the next matching meeting
// after it, else the latest before it).

// widenQ is a question a widening tries: a filter, and whether it is
// asked outside its date window.
type widenQ struct {
	f       Filter
	outside bool
}

var widenings = []record.WideningStep[widenQ]{
	record.Drop("time", "without the time of day", func(q *widenQ) *string { return &q.f.Time }, record.Set),
	record.Drop("attendance", "without the way of attending", func(q *widenQ) *string { return &q.f.Attendance }, record.Set),
	record.Drop("body", "without the body", func(q *widenQ) *string { return &q.f.Body }, record.Set),
	record.Drop("body_kind", "without the kind of body", func(q *widenQ) *string { return &q.f.BodyKind }, record.Set),
	record.Drop("borough", "without the borough", func(q *widenQ) *string { return &q.f.Borough }, record.Set),
	record.Drop("source", "without the source", func(q *widenQ) *[]string { return &q.f.Sources }, record.Listed),
	record.Drop("agency", "without the agency", func(q *widenQ) *[]string { return &q.f.AgencyIDs }, record.Listed),
	{Without: "window", Words: "outside these dates", Drop: func(q widenQ) (widenQ, bool) {
		q.outside = true
		return q, true
	}},
}

// widen is the widening of an empty page for f (nil when none of the
// tries matches anything).
func (s *Service) widen(ctx context.Context, rs search.Records, f Filter) (*record.Widening, error) {
	return record.Widen(ctx, widenQ{f: f}, widenings, "meeting(s)", func(ctx context.Context, w widenQ) (record.WideningCount, error) {
		q, _, err := s.query(w.f)
		if err != nil {
			return record.WideningCount{}, err
		}
		timeKeys(&q, w.f.Time)
		q.Limit = 1
		if !w.outside {
			q.Sort = search.RecordSortDate
			p, err := search.Find(ctx, rs, Kind, q)
			if err != nil || p.Total == 0 {
				return record.WideningCount{}, err
			}
			return record.WideningCount{Matched: p.Total, Newest: p.Items[0].When.Date}, nil
		}
		from, to := q.From, q.To
		after, before := q, q
		after.From, after.To, after.Sort = to.Add(time.Second), time.Time{}, search.RecordSortDate
		before.From, before.To, before.Sort = time.Time{}, from.Add(-time.Second), search.RecordSortDateDesc
		var out record.WideningCount
		for _, wq := range []search.RecordQuery{after, before} {
			p, err := search.Find(ctx, rs, Kind, wq)
			if err != nil {
				return record.WideningCount{}, err
			}
			if out.Matched += p.Total; out.Nearest == "" && len(p.Items) > 0 {
				out.Nearest = p.Items[0].When.Date
			}
		}
		return out, nil
	})
}
