package record

import "time"

// FutureCutoff is the first instant a source date may not reach: the end
// of tomorrow in New York, from now (the injected clock). A row dated at or
// after it is loaded, and flagged where it is shown (FutureDated; the
// notice flag "future_dated"), but never moves a source's observation nor
// its newest date (both engines' coverage, the indexer's observation): one
// row dated 2099 must not make a source "fresh" until 2099.
func FutureCutoff(now time.Time) time.Time {
	y, m, d := now.In(NewYork).Date()
	return time.Date(y, m, d+2, 0, 0, 0, 0, NewYork)
}

// FutureDated says whether t (non-zero) is at or past FutureCutoff(now).
func FutureDated(t, now time.Time) bool {
	return !t.IsZero() && !t.Before(FutureCutoff(now))
}
