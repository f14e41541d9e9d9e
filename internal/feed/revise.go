package feed

import (
	"sort"
	"strings"
	"time"
)

// Calendars that track changes (issue 34, item 4). A calendar client keeps
// an event by its UID and takes a new version of it only when SEQUENCE
// goes up; an event that vanishes from a feed is, for most clients, left
// in the calendar as it was. So the service keeps, per calendar, a small
// revision record for each UID it served: a fingerprint of what a
// calendar shows as the event's when and where (date, time, place,
// cancelled or not), the SEQUENCE and LAST-MODIFIED it gave, and the
// event as last served. Revise compares a freshly built feed with that
// record: a changed fingerprint raises SEQUENCE and sets LAST-MODIFIED to
// when the service saw the change (not only when a publisher supplies a
// revision); an event whose record was withdrawn at the source stays in
// the calendar as STATUS:CANCELLED for CancelledKeep; one that only left
// the feed's window is forgotten.

// newYork is TZID's location (nil if the system has no zone data: then
// a cancelled event's time is written in UTC, the same instant).
var newYork, _ = time.LoadLocation(TZID)

// CancelledKeep is how long a withdrawn or cancelled event stays in a
// calendar as STATUS:CANCELLED.
const CancelledKeep = 30 * 24 * time.Hour

// Revision is what the service served of one calendar event.
type Revision struct {
	Fingerprint  string    `json:"f"`
	Sequence     int       `json:"s"`
	LastModified time.Time `json:"m"`
	// Ref is the record behind the event (a notice's request id, a
	// meeting's id): withdrawn when the record is no longer held.
	Ref string `json:"r,omitempty"`
	// Cancelled is when the event was first served cancelled (withdrawn,
	// or recorded as not held).
	Cancelled time.Time `json:"c,omitzero"`
	// Served is the event as last served, to serve it cancelled.
	Served Event  `json:"e"`
	URL    string `json:"u,omitempty"`
}

// CalendarState is the revision record of one calendar (one feed's
// query), keyed by UID.
type CalendarState struct {
	Events  map[string]Revision `json:"events"`
	Revised time.Time           `json:"revised"`
}

// Fingerprint is what a calendar shows as an event's when and where: its
// start (a date for an all-day event), its place and whether it is
// cancelled. A change of any of them is a new revision.
func Fingerprint(e Event) string {
	start := e.Start.Format(time.RFC3339)
	if e.AllDay {
		start = e.Start.Format("2006-01-02")
	}
	status := "confirmed"
	if e.Cancelled {
		status = "cancelled"
	}
	return start + "|" + e.Location + "|" + status
}

// Absent lists the refs of the events the state holds (not already
// cancelled) that f no longer carries: the caller checks which of them
// were withdrawn at the source before Revise.
func (st CalendarState) Absent(f Feed) []string {
	in := map[string]bool{}
	for _, it := range f.Items {
		if it.Event != nil {
			in[it.Event.UID] = true
		}
	}
	var out []string
	for uid, r := range st.Events {
		if !in[uid] && r.Cancelled.IsZero() && r.Ref != "" {
			out = append(out, r.Ref)
		}
	}
	sort.Strings(out)
	return out
}

// Revise applies the events of f, built now, to st and sets each event's
// Sequence and LastModified from it; refs are the records behind f's
// events by UID (a record id), withdrawn the refs no longer held (see
// Absent). It returns the items a calendar carries beyond f's: the events
// withdrawn within CancelledKeep, as STATUS:CANCELLED with a raised
// SEQUENCE, oldest UID first; and whether st changed (a revision, an
// event added or forgotten, or a day since st was last stored), so an
// unchanged calendar is not written again.
func Revise(st *CalendarState, f *Feed, refs map[string]string, withdrawn map[string]bool, now time.Time) ([]Item, bool) {
	if st.Events == nil {
		st.Events = map[string]Revision{}
	}
	now = now.UTC().Truncate(time.Second)
	changed := now.Sub(st.Revised) >= 24*time.Hour
	in := map[string]bool{}
	for i := range f.Items {
		e := f.Items[i].Event
		if e == nil || e.Start.IsZero() {
			continue
		}
		in[e.UID] = true
		fp := Fingerprint(*e)
		r, seen := st.Events[e.UID]
		if !seen || r.Fingerprint != fp || r.Ref != refs[e.UID] || r.URL != f.Items[i].URL || !sameServed(r.Served, *e) {
			changed = true
		}
		switch {
		case !seen:
			r = Revision{Fingerprint: fp, LastModified: now}
			if e.Cancelled {
				r.Cancelled = now
			}
		case r.Fingerprint != fp:
			r.Fingerprint, r.Sequence, r.LastModified = fp, r.Sequence+1, now
			r.Cancelled = time.Time{}
			if e.Cancelled {
				r.Cancelled = now
			}
		}
		r.Ref, r.Served, r.URL = refs[e.UID], *e, f.Items[i].URL
		st.Events[e.UID] = r
		e.Sequence, e.LastModified = r.Sequence, r.LastModified
	}
	var cancelled []Item
	uids := make([]string, 0, len(st.Events))
	for uid := range st.Events {
		uids = append(uids, uid)
	}
	sort.Strings(uids)
	for _, uid := range uids {
		if in[uid] {
			continue
		}
		r := st.Events[uid]
		switch {
		case !r.Cancelled.IsZero() && r.Served.Cancelled:
			// served cancelled before: kept as it was
		case withdrawn[r.Ref]:
			changed = true
			r.Served.Cancelled = true
			r.Fingerprint, r.Sequence, r.LastModified, r.Cancelled = Fingerprint(r.Served), r.Sequence+1, now, now
		default:
			delete(st.Events, uid) // left the feed's window, or its query: forgotten
			changed = true
			continue
		}
		if now.Sub(r.Cancelled) > CancelledKeep {
			delete(st.Events, uid)
			changed = true
			continue
		}
		st.Events[uid] = r
		e := r.Served
		e.Sequence, e.LastModified = r.Sequence, r.LastModified
		if !e.AllDay && newYork != nil {
			e.Start = e.Start.In(newYork) // stored with its offset only: served in TZID again
		}
		cancelled = append(cancelled, Item{ID: uid, Title: e.Summary, URL: r.URL, Event: &e})
	}
	if changed {
		st.Revised = now
	}
	return cancelled, changed
}

// sameServed reports whether an event would be served the same (its
// revision fields aside).
func sameServed(a, b Event) bool {
	a.Sequence, a.LastModified, b.Sequence, b.LastModified = 0, time.Time{}, 0, time.Time{}
	return a.UID == b.UID && a.Summary == b.Summary && a.Start.Equal(b.Start) && a.AllDay == b.AllDay && a.Location == b.Location &&
		a.Description == b.Description && a.Cancelled == b.Cancelled && strings.Join(a.Categories, "\x00") == strings.Join(b.Categories, "\x00")
}
