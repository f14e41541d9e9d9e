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
	{Without: "time", Words: "without the time of day", Drop: func(q widenQ) (widenQ, bool) {
		had := q.f.Time != ""
		q.f.Time = ""
		return q, had
	}},
	{Without: "attendance", Words: "without the way of attending", Drop: func(q widenQ) (widenQ, bool) {
		had := q.f.Attendance != ""
		q.f.Attendance = ""
		return q, had
	}},
	{Without: "body", Words: "without the body", Drop: func(q widenQ) (widenQ, bool) {
		had := q.f.Body != ""
		q.f.Body = ""
		return q, had
	}},
	{Without: "body_kind", Words: "without the kind of body", Drop: func(q widenQ) (widenQ, bool) {
		had := q.f.BodyKind != ""
		q.f.BodyKind = ""
		return q, had
	}},
	{Without: "borough", Words: "without the borough", Drop: func(q widenQ) (widenQ, bool) {
		had := q.f.Borough != ""
		q.f.Borough = ""
		return q, had
	}},
	{Without: "source", Words: "without the source", Drop: func(q widenQ) (widenQ, bool) {
		had := len(q.f.Sources) > 0
		q.f.Sources = nil
		return q, had
	}},
	{Without: "agency", Words: "without the agency", Drop: func(q widenQ) (widenQ, bool) {
		had := len(q.f.AgencyIDs) > 0
		q.f.AgencyIDs = nil
		return q, had
	}},
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
