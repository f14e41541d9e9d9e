package watch

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Mail a request promises. An acknowledged request (a 201 or 202, a tool's
// answer, an SMTP 250) has stored its mail as a Promise before it answers,
// in the same transaction as the watch it created; the mailer's outbox
// worker delivers it, after a crash or a full disk too (see mailer).

// Kinds of promised mail.
const (
	// MailWelcome: a watch is active (Form 1, or a Form 2 confirmation
	// followed); the mail states its scope with its manage links.
	MailWelcome = "welcome"
	// MailConfirmation: a Form 2 request awaits its confirmation link.
	MailConfirmation = "confirmation"
)

// UnaskedEvery is the per-address budget of unasked mail: at most one
// welcome or confirmation mail to an address in this long, whoever asks
// and from however many clients. Requests made meanwhile are listed
// together in the next mail, never one mail each. Mail that the address's
// owner asked for from a link in one of its mails (Promise.Asked) is not
// held to it.
const UnaskedEvery = 24 * time.Hour

// DefaultMaxUntouched bounds the watches (and queued confirmations) an
// address may hold that its owner has not touched: no link in one of its
// mails used yet. Past it, new requests for that address are refused with
// the same answer for every address (ErrAddressFull); the owner can still
// add watches from a link in a mail received (Request.Manage).
const DefaultMaxUntouched = 10

// ErrAddressFull refuses a request for an address that holds
// MaxUntouched watches its owner never acted on. Its text is the same for
// every address and says nothing about watches the owner confirmed.
var ErrAddressFull = record.Errorf(record.ELIMIT, "this address already holds as many watch requests as it may before its owner "+
	"uses a link from one of its Recordwatch mails; its owner can add more from the manage link in any Recordwatch mail, "+
	"or remove them all with that mail's \"this wasn't me\" link")

// Promise is a mail an acknowledged action promised, stored with that
// action until it is delivered.
type Promise struct {
	ID string `json:"id"`
	// Address is the budget's key (AddressKey); Email is where the mail
	// goes (the address as given).
	Address string `json:"address"`
	Email   string `json:"email"`
	Kind    string `json:"kind"`
	// WatchID names the watch a welcome announces.
	WatchID string `json:"watch_id,omitempty"`
	// Understanding and Text are a confirmation's request as understood
	// and as written; they are signed into its link only when the mail is
	// composed (ConfirmationLink), so a mail held back by the budget
	// carries a link that is still valid.
	Understanding *Understanding `json:"understanding,omitempty"`
	Text          string         `json:"text,omitempty"`
	// InReplyTo names a subscribe mail being answered.
	InReplyTo string `json:"in_reply_to,omitempty"`
	// Asked: the owner asked from a link in one of the address's mails;
	// the mail goes at once, outside the unasked budget.
	Asked     bool      `json:"asked,omitempty"`
	CreatedAt time.Time `json:"created_at"`
	// Batch is the message id of the mail that carries this promise, fixed
	// (and stored) before that mail is sent: after a crash the same mail,
	// with the same promises and the same message id, is sent again.
	Batch       string    `json:"batch,omitempty"`
	Attempts    int       `json:"attempts,omitempty"`
	NextAttempt time.Time `json:"next_attempt,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
}

// AddressState is what the mail budget remembers of an address (by
// AddressKey): when it was last sent an unasked mail and a digest mail.
type AddressState struct {
	Key       string    `json:"key"`
	UnaskedAt time.Time `json:"unasked_at,omitzero"`
	DigestAt  time.Time `json:"digest_at,omitzero"`
}

// UnaskedDue is when the address may next be sent an unasked mail.
func (a AddressState) UnaskedDue() time.Time {
	if a.UnaskedAt.IsZero() {
		return time.Time{}
	}
	return a.UnaskedAt.Add(UnaskedEvery)
}

// Outbox is the durable side of promised mail and the per-address budget,
// kept by the state store (bbolt: one transaction; OpenSearch: one
// document each).
type Outbox interface {
	// QueueMail stores a promise (a Form 2 confirmation, an answer to
	// subscribe mail).
	QueueMail(ctx context.Context, p Promise) error
	// PendingMail lists every promise not yet delivered.
	PendingMail(ctx context.Context) ([]Promise, error)
	// PutMail updates a pending promise (its batch, attempts); false when
	// it is no longer pending.
	PutMail(ctx context.Context, p Promise) (bool, error)
	// MailDone removes delivered promises and, with a non-zero unaskedAt,
	// records it as the address's last unasked mail, in one transaction
	// where the store has them.
	MailDone(ctx context.Context, address string, ids []string, unaskedAt time.Time) error
	// DropMail removes every pending promise of an address (its owner's
	// "this wasn't me").
	DropMail(ctx context.Context, address string) (int, error)
	// Address reads an address's budget state (zero when none).
	Address(ctx context.Context, key string) (AddressState, error)
	// PutAddress stores an address's budget state.
	PutAddress(ctx context.Context, a AddressState) error
	// TouchWatch marks a watch as acted on by its owner (Untouched false).
	TouchWatch(ctx context.Context, id string) error
}

type removeClaim struct {
	Address string `json:"a"`
}

// Removal is what a "remove everything" link removes (or removed).
type Removal struct {
	Status string `json:"status"` // "held" (the page before the button) or "removed"
	// Watches and Mails count the address's watches and queued mails.
	Watches int `json:"watches"`
	Mails   int `json:"queued_mails"`
}

// removeClaimOf verifies a remove-everything token.
func (s *Service) removeClaimOf(token string) (string, error) {
	var c removeClaim
	if _, err := s.signer.Verify(TokenRemoveAll, token, s.now(), &c); err != nil || c.Address == "" {
		return "", ErrBadLink
	}
	return c.Address, nil
}

// Removable counts what a remove-everything link would remove (its page,
// before the button). A forged link is ErrBadLink.
func (s *Service) Removable(ctx context.Context, token string) (Removal, error) {
	key, err := s.removeClaimOf(token)
	if err != nil {
		return Removal{}, err
	}
	ws, ps, err := s.addressHolds(ctx, key)
	if err != nil {
		return Removal{}, err
	}
	return Removal{Status: "held", Watches: len(ws), Mails: len(ps)}, nil
}

// RemoveAll ends every watch of the address a remove-everything link
// names and drops its queued mail (idempotent). A forged link is
// ErrBadLink.
func (s *Service) RemoveAll(ctx context.Context, token string) (Removal, error) {
	key, err := s.removeClaimOf(token)
	if err != nil {
		return Removal{}, err
	}
	ws, _, err := s.addressHolds(ctx, key)
	if err != nil {
		return Removal{}, err
	}
	out := Removal{Status: "removed"}
	for _, w := range ws {
		found, err := s.store.DeleteWatch(ctx, w.ID)
		if err != nil {
			return Removal{}, storeError(err)
		}
		if found {
			out.Watches++
			_, _ = s.store.Incr(ctx, CounterActive, record.NewYorkDay(s.now()), -1)
		}
	}
	if out.Mails, err = s.store.DropMail(ctx, key); err != nil {
		return Removal{}, storeError(err)
	}
	s.log.Info("watch: an address removed everything from a link in its mail", "watches", out.Watches, "mails", out.Mails)
	return out, nil
}

// addressHolds are the watches and queued mails of an address.
func (s *Service) addressHolds(ctx context.Context, key string) ([]Watch, []Promise, error) {
	all, err := s.store.ListWatches(ctx)
	if err != nil {
		return nil, nil, errStoreDown
	}
	var ws []Watch
	for _, w := range all {
		if AddressKey(w.Email) == key {
			ws = append(ws, w)
		}
	}
	pending, err := s.store.PendingMail(ctx)
	if err != nil {
		return nil, nil, errStoreDown
	}
	var ps []Promise
	for _, p := range pending {
		if p.Address == key {
			ps = append(ps, p)
		}
	}
	return ws, ps, nil
}
