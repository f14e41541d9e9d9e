package watch

import (
	"errors"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// Tokens mints the signed links a deployment's mail carries: a watch's
// manage and one-click unsubscribe links, a queued confirmation's link and
// an address's "this wasn't me — remove everything" link. It is built
// before the subscription lifecycle and the mailer's outbound side, which
// both mint with it, so neither needs the other to make a link.
type Tokens struct {
	signer     *Signer
	links      view.Links
	confirmTTL time.Duration
	form       int
	now        func() time.Time
}

// NewTokens is a deployment's link minter (now nil: time.Now).
func NewTokens(signer *Signer, links view.Links, confirmTTL time.Duration, form int, now func() time.Time) *Tokens {
	if now == nil {
		now = time.Now
	}
	return &Tokens{signer: signer, links: links, confirmTTL: confirmTTL, form: form, now: now}
}

// ManageLinks are a watch's manage and one-click unsubscribe links (signed,
// without expiry), for the welcome and digest mails.
func (t *Tokens) ManageLinks(watchID string) (manage, unsubscribe string, err error) {
	tok, _, err := t.signer.Sign(TokenManage, manageClaim{WatchID: watchID}, t.now(), 0)
	if err != nil {
		return "", "", err
	}
	return t.links.Manage(tok), t.links.Unsubscribe(tok), nil
}

// ConfirmationLink signs a queued confirmation's request into its link,
// valid for the confirmation TTL from now, and returns the token's nonce
// (which names the request).
func (t *Tokens) ConfirmationLink(p Promise) (link, nonce string, err error) {
	if p.Understanding == nil {
		return "", "", errors.New("watch: a confirmation without its request")
	}
	u := p.Understanding
	r := ConfirmRequest{Email: p.Email, Filter: u.Filter, Scope: u.Scope, Agencies: u.Agencies, Form: t.form, Description: p.Text,
		Cadence: u.Cadence, Follow: u.Follow}
	tok, nonce, err := t.signer.Sign(TokenConfirm, r, t.now(), t.confirmTTL)
	if err != nil {
		return "", "", err
	}
	return t.links.Confirm(tok), nonce, nil
}

// RemoveAllLink is an address's "this wasn't me — remove everything" link
// (signed, without expiry): every unasked mail carries it.
func (t *Tokens) RemoveAllLink(email string) (string, error) {
	tok, _, err := t.signer.Sign(TokenRemoveAll, removeClaim{Address: AddressKey(email)}, t.now(), 0)
	if err != nil {
		return "", err
	}
	return t.links.RemoveAll(tok), nil
}

// Schedule states when a cadence's digests go out at a New York hour, as
// the welcome and confirmation mails and the manage page say it.
func Schedule(hour int, cadence string) string {
	return SchedulePart(hour, cadence).Note().String()
}

// SchedulePart is Schedule in the reader's language (a note's part).
func SchedulePart(hour int, cadence string) record.Part {
	if cadence == CadenceWeekly {
		return record.Part{Key: "watch.schedule.weekly", Args: []string{strconv.Itoa(hour)},
			Inner: []record.Part{weekdaysPart(WeeklyDay.String())}, Join: record.JoinArgs}
	}
	return record.P("watch.schedule.daily", hour)
}

// ManageLinks are a watch's manage and unsubscribe links (Tokens).
func (s *Service) ManageLinks(watchID string) (manage, unsubscribe string, err error) {
	return s.tokens.ManageLinks(watchID)
}

// ConfirmationLink is a queued confirmation's link (Tokens).
func (s *Service) ConfirmationLink(p Promise) (link, nonce string, err error) {
	return s.tokens.ConfirmationLink(p)
}

// RemoveAllLink is an address's remove-everything link (Tokens).
func (s *Service) RemoveAllLink(email string) (string, error) { return s.tokens.RemoveAllLink(email) }

// Schedule states when a cadence's digests go out on this deployment.
func (s *Service) Schedule(cadence string) string { return Schedule(s.cfg.DigestHour, cadence) }
