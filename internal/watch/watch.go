package watch

import (
	"crypto/rand"
	"encoding/hex"
	"net/mail"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Watch states (SPEC §3). A Form 2 watch awaiting confirmation is never
// stored: it travels in its signed confirmation token. Stored watches are
// active.
const (
	StatusAwaiting = "awaiting_confirmation"
	StatusActive   = "active"
)

// Watch is a standing email subscription. Email is kept only to send the
// watch's mail and goes away with the watch.
type Watch struct {
	ID     string `json:"id"`
	Email  string `json:"email"`
	Filter Filter `json:"filter"`
	// Follow, when set, is the one object the watch follows instead of a
	// search (Filter then only names its lens): it mails when a followed
	// field changes, old → new (see Readers.Observe).
	Follow *Follow `json:"follow,omitempty"`
	// Description is the plain-English text as given (optional in Form 1,
	// the request itself in Form 2).
	Description string `json:"description,omitempty"`
	// Scope is the filter in plain words, as the emails state it.
	Scope string `json:"scope"`
	// ScopeKey is Scope as a note (DescribeNote), kept with the watch so
	// its pages say it in the reader's language; watches stored before it
	// have none (ScopeNote).
	ScopeKey    record.Note `json:"scope_key,omitzero"`
	Form        int         `json:"form"`
	Status      string      `json:"status"`
	CreatedAt   time.Time   `json:"created_at"`
	ActivatedAt time.Time   `json:"activated_at"`
	// Cadence is daily or weekly (empty reads as daily: watches stored
	// before cadences existed).
	Cadence string `json:"cadence,omitempty"`
	// Progress is what the digests have delivered so far.
	Progress
	// LastWindow is the digest window last planned for this watch.
	LastWindow string `json:"last_window,omitempty"`
	// Untouched: made by a request its owner has not acted on yet (no
	// link in one of the address's mails used). An address holds at most
	// MaxUntouched of them. Watches stored before this field read as
	// touched.
	Untouched bool `json:"untouched,omitempty"`
}

// Progress is a watch's delivery state, advanced with each digest planned
// (in the same transaction as the delivery).
type Progress struct {
	// Seen are the request ids the watch matched when it was last run (the
	// baseline at activation, then each digest's), and for a people-lens
	// watch the ids of the leader changes it followed (people.ChangePrefix);
	// a digest holds the matches that are not in it.
	Seen []string `json:"seen,omitempty"`
	// Facts are the procurement identities of the awards delivered (or in
	// the baseline), each as "identity=fingerprint of its facts": a
	// republished award with the same identity and facts is not news; one
	// whose facts changed is an update (see mailer). Newest first, bounded.
	Facts []string `json:"facts,omitempty"`
	// QuietSince is when the watch last had mail planned (a digest with
	// records, a check-in or a heartbeat), or its activation.
	QuietSince time.Time `json:"quiet_since,omitzero"`
	// Snapshot is a follow watch's followed fields as last observed (at
	// activation, then at each run): the next run mails what differs.
	Snapshot []Field `json:"snapshot,omitempty"`
}

// Digest cadences.
const (
	CadenceDaily  = "daily"
	CadenceWeekly = "weekly"
)

// WeeklyDay is the one weekday every weekly digest goes out on.
const WeeklyDay = time.Monday

// CadenceOf is the watch's cadence (daily when unset).
func (w Watch) CadenceOf() string {
	if w.Cadence == CadenceWeekly {
		return CadenceWeekly
	}
	return CadenceDaily
}

// CheckCadence accepts "daily", "weekly" or "" (daily) and returns the
// cadence to store; anything else is EINVALID naming the field.
func CheckCadence(s string) (string, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", CadenceDaily:
		return CadenceDaily, nil
	case CadenceWeekly:
		return CadenceWeekly, nil
	}
	return "", record.NoteError(record.EINVALID, "cadence", record.Note{Key: "watch.error.cadence", Inner: []record.Part{record.P("watch.weekdays." + WeeklyDay.String())}})
}

// NewID returns a random 128-bit id in hex.
func NewID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// NormalizeEmail checks an address and returns it in the form mail is sent
// to: a bare addr-spec with the domain lower-cased. Display names, lists,
// and addresses without a dotted domain are refused.
func NormalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > record.MaxEmailLen || strings.ContainsAny(s, "\r\n,;<>\"") {
		return "", record.InvalidNote("email", "watch.error.email")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", record.InvalidNote("email", "watch.error.email")
	}
	local, domain, ok := strings.Cut(a.Address, "@")
	if !ok || local == "" || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") ||
		strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return "", record.InvalidNote("email", "watch.error.email")
	}
	return local + "@" + strings.ToLower(domain), nil
}

// ScopeNote is the watch's scope as a note: the one kept with it, else the
// note of its filter when that says exactly the scope stored (a watch
// stored before notes were kept, whose agencies are named by id); none
// for a follow, or when the note would say anything else than the scope
// its owner confirmed.
func (w Watch) ScopeNote() record.Note {
	if !w.ScopeKey.IsZero() && w.ScopeKey.String() == w.Scope {
		return w.ScopeKey
	}
	if w.Follow == nil {
		if n := DescribeNote(w.Filter, nil); n.String() == w.Scope {
			return n
		}
	}
	return record.Note{}
}
