// Package feed renders a bounded list of items as a subscribable feed in
// three formats: Atom (RFC 4287), JSON Feed 1.1 and iCalendar (RFC 5545).
// The encoders are small and typed, write every field they are given, and are
// deterministic: the same Feed always gives the same bytes (no random ids, no
// clock reads), so feeds can be pinned by golden files and cached by ETag.
//
// A Feed carries its own scope (what it covers, when the corpus was observed,
// its sources and the absence rules), written into each format's metadata:
// Atom subtitle, rights and an <rw:scope> extension element; the JSON Feed
// "_recordwatch" extension object; iCalendar NAME/DESCRIPTION and
// X-RECORDWATCH-* properties.
package feed

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Content types of the three formats.
const (
	ContentTypeAtom = "application/atom+xml; charset=utf-8"
	ContentTypeJSON = "application/feed+json; charset=utf-8"
	ContentTypeICS  = "text/calendar; charset=utf-8"
)

// Namespace is the XML namespace of Recordwatch's Atom extension elements.
const Namespace = "https://github.com/recordwatch/recordwatch/ns/feed"

// Feed is one rendered search.
type Feed struct {
	// ID is the feed's stable identifier (an IRI), the same in every format.
	ID    string
	Title string
	// Description says in plain words what the feed covers.
	Description string
	// Rights is the provenance statement (public records, not the official registry).
	Rights string
	// HomeURL is the human view of the same search.
	HomeURL string
	// Self holds the URLs of the feed in each format.
	Self Links
	// Updated is when the feed's content last changed (Atom updated, ICS DTSTAMP).
	Updated time.Time
	Author  Author
	// Generator names the software that wrote the feed.
	Generator string
	// TTL is how long a subscriber may keep the feed before polling again.
	TTL   time.Duration
	Scope Scope
	Items []Item
}

// Links are the addresses of one feed in each format.
type Links struct {
	Atom string `json:"atom"`
	JSON string `json:"json"`
	ICS  string `json:"ics"`
}

// Author is the feed's publisher.
type Author struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

// Scope is what a feed covers and how far that can be trusted.
type Scope struct {
	// Covers is what the feed delivers, in plain words.
	Covers string `json:"covers"`
	// Filter is the normalized parameter set the feed was built from.
	Filter map[string]string `json:"filter"`
	// Order is the order of the items (a search sort name).
	Order string `json:"order"`
	// Limit bounds the number of items; Matched is how many records matched.
	Limit   int `json:"limit"`
	Matched int `json:"matched"`
	// MatchedRelation is "gte" when Matched is a lower bound (more than
	// 10,000 matches, record.CapCount), left out when it is exact.
	MatchedRelation string `json:"matched_relation,omitempty"`
	// Items is how many items the feed holds; Events how many became
	// calendar events (dated items only).
	Items            int       `json:"items"`
	Events           int       `json:"events"`
	CorpusObservedAt time.Time `json:"corpus_observed_at,omitzero"`
	FirstSourceDate  string    `json:"first_source_date,omitempty"`
	LastSourceDate   string    `json:"last_source_date,omitempty"`
	Sources          []Source  `json:"sources"`
	// Absence says why a feed is empty (record.EmptyAnswer's type and
	// note: none_found, outside_coverage, not_ingested, stale,
	// upstream_failing); absent when it has items.
	AbsenceType string `json:"absence_type,omitempty"`
	AbsenceNote string `json:"absence_note,omitempty"`
	// Widening says, for an empty feed, what the same search holds without
	// one of its constraints (the nearest non-empty answer).
	Widening       string   `json:"widening,omitempty"`
	DateBoundsNote string   `json:"date_bounds_note,omitempty"`
	AbsenceRules   []string `json:"absence_rules"`
	// Official says which registry stays authoritative.
	Official string `json:"official,omitempty"`
	// SearchURL lists the same records through the search API.
	SearchURL string `json:"search_url,omitempty"`
}

// Source is one source's share of the corpus.
type Source struct {
	Source          string    `json:"source"`
	Label           string    `json:"label"`
	ObservedAt      time.Time `json:"observed_at,omitzero"`
	FirstSourceDate string    `json:"first_source_date,omitempty"`
	LastSourceDate  string    `json:"last_source_date,omitempty"`
	Records         int       `json:"records"`
	// Freshness (record.Freshen; absent where no schedule is known): the
	// newest source date, the state (fresh, stale, never_loaded,
	// failing), since when, and why.
	NewestSourceDate string    `json:"newest_source_date,omitempty"`
	State            string    `json:"state,omitempty"`
	StateSince       time.Time `json:"state_since,omitzero"`
	FreshnessNote    string    `json:"freshness_note,omitempty"`
	LastError        string    `json:"last_error,omitempty"`
}

// Item is one record in a feed.
type Item struct {
	// ID is the item's stable identifier (an IRI), the same in every feed
	// that carries the record.
	ID      string
	Title   string
	Summary string
	// Content is the plain-text body shown by feed readers.
	Content string
	// URL is the record's permalink; SourceURL its official source page.
	URL       string
	SourceURL string
	// Published and Updated come from the source's dates.
	Published time.Time
	Updated   time.Time
	// Categories are plain labels (lens, notice type, agency).
	Categories []string
	// Event is the calendar entry of a dated record; nil when undated
	// (rolling deadlines are never dates, so never events).
	Event *Event
	// Extension is written, as JSON, into the JSON Feed item's
	// "_recordwatch" object; the other formats ignore it.
	Extension any
}

// Event is a dated record as a calendar event.
type Event struct {
	// UID is the stable, globally unique id of the event.
	UID string
	// Summary is the event's one-line title.
	Summary string
	// Start is the event's start. When AllDay, only its date (in Start's
	// location) counts; otherwise the event is the instant Start, written
	// with the time zone TZID (America/New_York) when Start is in that zone,
	// in UTC otherwise.
	Start       time.Time
	AllDay      bool
	Location    string
	Description string
	// Categories are calendar categories (e.g. "Hearing", "Due date").
	Categories []string
	// Sequence and LastModified are the event's revision as the service
	// observed it (Revise): SEQUENCE goes up with each change of date,
	// time, place or status, LAST-MODIFIED is when the service saw it.
	Sequence     int
	LastModified time.Time
	// Cancelled: withdrawn at the source or recorded as not held; a
	// calendar shows it as STATUS:CANCELLED.
	Cancelled bool
}

// clean makes s safe for every format: invalid UTF-8 replaced, control
// characters other than newline and tab dropped (XML 1.0 forbids them),
// Windows and old Mac line ends turned into "\n", and the non-characters
// U+FFFE and U+FFFF dropped.
func clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' || r == '\t':
			return r
		case unicode.IsControl(r), r == 0xFFFE, r == 0xFFFF:
			return -1
		}
		return r
	}, s)
}

// oneLine is clean(s) with every run of white space folded to one space.
func oneLine(s string) string {
	return strings.Join(strings.Fields(clean(s)), " ")
}

// rfc3339 writes t as RFC 3339 with seconds, in t's own location.
func rfc3339(t time.Time) string { return t.Format(time.RFC3339) }

// itemDates fills missing item dates: Updated falls back to Published, and
// both to the feed's Updated, because Atom requires an updated date.
func itemDates(it Item, feedUpdated time.Time) (published, updated time.Time) {
	published, updated = it.Published, it.Updated
	if updated.IsZero() {
		updated = published
	}
	if updated.IsZero() {
		updated = feedUpdated
	}
	return published, updated
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
