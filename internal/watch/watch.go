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
	// Description is the plain-English text as given (optional in Form 1,
	// the request itself in Form 2).
	Description string `json:"description,omitempty"`
	// Scope is the filter in plain words, as the emails state it.
	Scope       string    `json:"scope"`
	Form        int       `json:"form"`
	Status      string    `json:"status"`
	CreatedAt   time.Time `json:"created_at"`
	ActivatedAt time.Time `json:"activated_at"`
	// Seen are the request ids the watch matched when it was last run (the
	// baseline at activation, then each digest's); a digest holds the
	// matches that are not in it.
	Seen []string `json:"seen,omitempty"`
	// LastWindow is the digest window last planned for this watch.
	LastWindow string `json:"last_window,omitempty"`
}

// NewID returns a random 128-bit id in hex.
func NewID() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// MaxEmailLen bounds an address (RFC 5321's path limit).
const MaxEmailLen = 254

// NormalizeEmail checks an address and returns it in the form mail is sent
// to: a bare addr-spec with the domain lower-cased. Display names, lists,
// and addresses without a dotted domain are refused.
func NormalizeEmail(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > MaxEmailLen || strings.ContainsAny(s, "\r\n,;<>\"") {
		return "", record.Invalid("email", "email must be one plain address such as name@example.org")
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s {
		return "", record.Invalid("email", "email must be one plain address such as name@example.org")
	}
	local, domain, ok := strings.Cut(a.Address, "@")
	if !ok || local == "" || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") ||
		strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return "", record.Invalid("email", "email must be one plain address such as name@example.org")
	}
	return local + "@" + strings.ToLower(domain), nil
}
