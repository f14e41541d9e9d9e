package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/recordwatch/recordwatch/internal/feed"
)

// Calendars keeps the revision record of every calendar the service
// serves (feed.CalendarState: per UID, the SEQUENCE and LAST-MODIFIED
// given and the event as last served), so SEQUENCE goes up when a date,
// time or place changes and withdrawn events stay as STATUS:CANCELLED.
// A calendar is named by its query (the feed's key); a state not revised
// for feed.CancelledKeep is swept with the watches (SweepWatches).
type Calendars interface {
	// GetCalendar reads a calendar's state (empty when none is kept).
	GetCalendar(ctx context.Context, key string) (feed.CalendarState, error)
	// ReviseCalendar applies revise to a calendar's state and, when it
	// reports a change, stores the result in one step (a concurrent
	// revision is not lost).
	ReviseCalendar(ctx context.Context, key string, revise func(*feed.CalendarState) (changed bool)) error
}

// CalendarID is the stored id of a calendar's key (its queries may be
// long): the SHA-256 of the key, in hex.
func CalendarID(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}
