package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Calendars keeps the revision record of every calendar the service
// serves, as the calendar code writes it (feed.CalendarState as JSON: per
// UID the SEQUENCE and LAST-MODIFIED given and the event as last served),
// so SEQUENCE goes up when a date, time or place changes and withdrawn
// events stay as STATUS:CANCELLED. The store keeps it opaque. A calendar
// is named by its query (the feed's key); one not written for CalendarKeep
// is swept with the watches (SweepWatches).
type Calendars interface {
	// GetCalendar reads a calendar's record (nil when none is kept).
	GetCalendar(ctx context.Context, key string) ([]byte, error)
	// ReviseCalendar applies revise to a calendar's record (nil when none)
	// and, when it reports a change, stores the result in one step (a
	// concurrent revision is not lost), as written at now.
	ReviseCalendar(ctx context.Context, key string, now time.Time, revise func(old []byte) (next []byte, changed bool, err error)) error
}

// CalendarKeep is how long a calendar's record is kept after it was last
// written (its cancelled events are kept 30 days too; an unchanged
// calendar is written again once a day while it is read).
const CalendarKeep = 30 * 24 * time.Hour

// CalendarID is the stored id of a calendar's key (its queries may be
// long): the SHA-256 of the key, in hex.
func CalendarID(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:])
}
