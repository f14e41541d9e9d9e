package store

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Event counter names. Counters count events per New York day (Day), never
// people: nothing about who caused an event (address, IP, email, watch id)
// is stored with a count. /stats (Form 2) reports these; each is incremented
// by the part of the service that sees the event:
//
//	CounterShareCreated        api  POST /inv stored a snapshot
//	CounterShareRead           api  GET /inv/<id> served a snapshot
//	CounterShareChangesRead    api  GET /inv/<id>/changes compared a snapshot
//	CounterFeedRequest         api  a feed (Atom, JSON Feed, iCalendar) was served
//	CounterBatchRequest        api  POST /batch was answered
//	CounterDigestSent          mailer  one digest email was handed to SMTP
//	CounterDigestLinkFollowed  api  GET /r/<kind>/<id> redirected a digest link
//	CounterSubscriptionActive  mailer/api  net change in active watches:
//	                           +1 when a watch becomes active (Form 1 creation,
//	                           Form 2 confirmation), -1 when it ends
//	                           (unsubscribe, removal)
//
// Use CountEvent (or, in package api, Server.count) to increment.
const (
	CounterShareCreated       = "share_created"
	CounterShareRead          = "share_read"
	CounterShareChangesRead   = "share_changes_read"
	CounterFeedRequest        = "feed_request"
	CounterBatchRequest       = "batch_request"
	CounterDigestSent         = "digest_sent"
	CounterDigestLinkFollowed = "digest_link_followed"
	CounterSubscriptionActive = "subscription_active"
	// CounterDigestRunMissed counts due watches a scheduled digest run
	// left without a ledger entry (an operator error; mailer).
	CounterDigestRunMissed = "digest_run_missed"
)

// Counter is the part of the store that counts events.
type Counter interface {
	Incr(ctx context.Context, name, day string, delta int) (int, error)
	Counts(ctx context.Context, name, fromDay, toDay string) (map[string]int, error)
}

// CountEvent adds delta (1 for one event; -1 for CounterSubscriptionActive
// when a watch ends) to the named counter for the New York day of now.
func CountEvent(ctx context.Context, c Counter, name string, now time.Time, delta int) error {
	_, err := c.Incr(ctx, name, record.NewYorkDay(now), delta)
	return err
}

// RunningTotal is the value of a net-change counter (such as
// CounterSubscriptionActive) at the end of each day from fromDay to toDay:
// the sum of all its deltas from its first day up to and including that day.
// days must be ordered oldest first.
func RunningTotal(ctx context.Context, c Counter, name string, days []string) (map[string]int, error) {
	out := make(map[string]int, len(days))
	if len(days) == 0 {
		return out, nil
	}
	all, err := c.Counts(ctx, name, "", days[len(days)-1])
	if err != nil {
		return nil, err
	}
	before := 0
	for d, n := range all {
		if d < days[0] {
			before += n
		}
	}
	total := before
	for _, d := range days {
		total += all[d]
		out[d] = total
	}
	return out, nil
}

// Days lists the n New York days that end with now's day, oldest first.
func Days(now time.Time, n int) []string {
	y, m, d := now.In(record.NewYork).Date()
	out := make([]string, n)
	for i := 0; i < n; i++ {
		// noon, so that a daylight-saving change never skips or repeats a day
		out[i] = record.NewYorkDay(time.Date(y, m, d+i-(n-1), 12, 0, 0, 0, record.NewYork))
	}
	return out
}
