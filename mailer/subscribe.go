package mailer

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Channels a subscription request arrives through.
const (
	ChannelWeb  = "web"
	ChannelMCP  = "mcp"
	ChannelMail = "mail"
)

// Daily ceiling names in the state store.
const (
	CeilingClient  = "watch-client"  // per client IP, every channel
	CeilingAddress = "watch-address" // subscription mails per address
	CeilingAll     = "watch-all"     // all subscription requests
)

// Link errors. Forged and expired links are refused alike.
var (
	ErrBadLink  = record.Errorf(record.EINVALID, "this link is not valid or has expired")
	ErrUsedLink = record.Errorf(record.EINVALID, "this confirmation link was already used")
)

// Request is a subscription request from any channel.
type Request struct {
	Email string
	// Text is the plain-English request (Form 2's input; Form 1 may send
	// it for preview only).
	Text string
	// Filter is Form 1's structured filter, with Agencies naming its ids.
	Filter   *watch.Filter
	Agencies map[string]string
	// Description is Form 1's optional plain-English description.
	Description string
	Client      string // IP address, for the per-client ceiling
	Channel     string
	// InReplyTo is the message id of a subscribe mail being answered.
	InReplyTo string
}

// Outcome is what a subscription request led to. It is the same whether
// or not the address already has watches, and whether or not a mail could
// be sent to it.
type Outcome struct {
	Status  string       `json:"status"`
	Filter  watch.Filter `json:"filter"`
	Scope   string       `json:"scope"`
	Notes   []string     `json:"notes,omitempty"`
	Message string       `json:"message"`
}

// pending is what a confirmation token carries: the whole request, so that
// nothing is stored before the link is followed.
type pending struct {
	Email       string            `json:"e"`
	Filter      watch.Filter      `json:"f"`
	Scope       string            `json:"s"`
	Description string            `json:"d,omitempty"`
	Agencies    map[string]string `json:"a,omitempty"`
	Form        int               `json:"m"`
}

type manageClaim struct {
	WatchID string `json:"w"`
}

// Understand parses a plain-English request with the deployment's
// crosswalk and form.
func (m *Mailer) Understand(text string) (watch.Understanding, error) {
	return watch.Parse(text, watch.ParseOptions{Crosswalk: m.deps.Crosswalk, Form: m.cfg.Form})
}

// Subscribe handles a create request from any channel, after the caller
// has applied Allow. Form 1 (a structured filter) stores an active watch
// and queues the welcome mail; over the address's daily mail ceiling it is
// refused (ELIMIT) and nothing is stored. Form 2 (plain English) stores
// nothing and queues a confirmation mail whose link carries the signed,
// expiring request; whether that mail goes out (the address's daily
// ceiling) is decided off the request path, so the answer and its timing
// never depend on what is known about the address.
func (m *Mailer) Subscribe(ctx context.Context, req Request) (Outcome, error) {
	if err := req.check(); err != nil {
		return Outcome{}, err
	}
	email, err := watch.NormalizeEmail(req.Email)
	if err != nil {
		return Outcome{}, err
	}
	if req.Filter != nil {
		return m.subscribeStructured(ctx, email, req)
	}
	u, err := m.Understand(req.Text)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Status: watch.StatusAwaiting, Filter: u.Filter, Scope: u.Scope, Notes: u.Notes,
		Message: "A confirmation email stating how the request was understood is on its way to the address. " +
			"Nothing is stored and no digest is sent until its link is followed."}
	text, inReplyTo := req.Text, req.InReplyTo
	m.later(ctx, "confirmation", func(ctx context.Context) error {
		if !m.mayMail(ctx, email) {
			return nil
		}
		return m.sendConfirmation(ctx, email, u, text, inReplyTo)
	})
	return out, nil
}

// check refuses control characters in any value of a request (they can
// reach a mail): one-line values get no CR or LF either.
func (req Request) check() error {
	for _, f := range []struct {
		name, value string
		multiline   bool
	}{{"email", req.Email, false}, {"text", req.Text, true}, {"description", req.Description, true}, {"in_reply_to", req.InReplyTo, false}} {
		if err := watch.CheckText(f.name, f.value, f.multiline); err != nil {
			return err
		}
	}
	for id, name := range req.Agencies {
		if err := watch.CheckText("agency", id+name, false); err != nil {
			return err
		}
	}
	return nil
}

func (m *Mailer) subscribeStructured(ctx context.Context, email string, req Request) (Outcome, error) {
	f := *req.Filter
	if err := f.Validate(); err != nil {
		return Outcome{}, err
	}
	if len(req.Description) > watch.MaxRequestLen {
		return Outcome{}, record.Invalid("description", "a description is limited to %d characters", watch.MaxRequestLen)
	}
	// the welcome mail counts against the address's daily mail ceiling;
	// over it the request is refused, not acknowledged and dropped
	a, err := m.takeAddress(ctx, email)
	if err != nil {
		return Outcome{}, errStoreDown
	}
	if !a.Allowed {
		return Outcome{}, m.addressLimited(a)
	}
	scope := watch.Describe(f, req.Agencies)
	now := m.now()
	w := watch.Watch{ID: watch.NewID(), Email: email, Filter: f, Description: strings.TrimSpace(req.Description),
		Scope: scope, Form: 1, Status: watch.StatusActive, CreatedAt: now, ActivatedAt: now}
	if err := m.activate(ctx, &w, "", time.Time{}); err != nil {
		return Outcome{}, err
	}
	return Outcome{Status: watch.StatusActive, Filter: f, Scope: scope,
		Message: "The watch is active. A welcome email stating its scope, with manage and unsubscribe links, is on its way to the address."}, nil
}

// activate takes the watch's baseline (what it matches now is not new),
// stores it and sends the welcome mail.
func (m *Mailer) activate(ctx context.Context, w *watch.Watch, once string, onceUntil time.Time) error {
	res, err := w.Filter.Run(ctx, m.deps.Search, m.now())
	if err != nil {
		return err
	}
	for _, h := range res.Hits {
		w.Seen = append(w.Seen, h.Notice.RequestID)
	}
	if err := m.deps.Store.CreateWatch(ctx, *w, once, onceUntil); err != nil {
		if errors.Is(err, store.ErrTokenUsed) {
			return ErrUsedLink
		}
		return err
	}
	_ = store.CountEvent(ctx, m.deps.Store, store.CounterSubscriptionActive, m.now(), 1)
	stored := *w
	m.later(ctx, "welcome", func(ctx context.Context) error { return m.sendWelcome(ctx, stored) })
	return nil
}

// Pending reads a confirmation token without using it (the page that
// shows what will be confirmed).
func (m *Mailer) Pending(token string) (Outcome, error) {
	var p pending
	if _, err := m.signer.Verify(watch.TokenConfirm, token, m.now(), &p); err != nil {
		return Outcome{}, ErrBadLink
	}
	return Outcome{Status: watch.StatusAwaiting, Filter: p.Filter, Scope: watch.Describe(p.Filter, p.Agencies)}, nil
}

// Confirm follows a confirmation link: the watch becomes active now, and
// digests start. A forged or expired token stores nothing; a token already
// used gives ErrUsedLink and stores nothing more.
func (m *Mailer) Confirm(ctx context.Context, token string) (Outcome, error) {
	var p pending
	nonce, err := m.signer.Verify(watch.TokenConfirm, token, m.now(), &p)
	if err != nil {
		return Outcome{}, ErrBadLink
	}
	email, err := watch.NormalizeEmail(p.Email)
	if err != nil || p.Filter.Validate() != nil {
		return Outcome{}, ErrBadLink
	}
	now := m.now()
	// the scope is stated afresh from the filter (never taken as text)
	w := watch.Watch{ID: watch.NewID(), Email: email, Filter: p.Filter, Description: p.Description, Scope: watch.Describe(p.Filter, p.Agencies),
		Form: p.Form, Status: watch.StatusActive, CreatedAt: now, ActivatedAt: now}
	if err := m.activate(ctx, &w, "confirm:"+nonce, now.Add(m.cfg.ConfirmTTL+24*time.Hour)); err != nil {
		return Outcome{}, err
	}
	return Outcome{Status: watch.StatusActive, Filter: w.Filter, Scope: w.Scope,
		Message: "The watch is active. Digests start now; a welcome email with manage and unsubscribe links is on its way."}, nil
}

// Managed is what a manage link shows.
type Managed struct {
	Status      string       `json:"status"`
	Scope       string       `json:"scope"`
	Filter      watch.Filter `json:"filter"`
	Description string       `json:"description,omitempty"`
	ActiveSince time.Time    `json:"active_since"`
	LastDigest  string       `json:"last_digest_window,omitempty"`
}

// Manage reads the watch a manage link names. A valid link whose watch has
// ended says so (status "ended"); a forged link is ErrBadLink.
func (m *Mailer) Manage(ctx context.Context, token string) (Managed, error) {
	var c manageClaim
	if _, err := m.signer.Verify(watch.TokenManage, token, m.now(), &c); err != nil {
		return Managed{}, ErrBadLink
	}
	w, err := m.deps.Store.GetWatch(ctx, c.WatchID)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			return Managed{Status: "ended"}, nil
		}
		return Managed{}, err
	}
	return Managed{Status: w.Status, Scope: w.Scope, Filter: w.Filter, Description: w.Description,
		ActiveSince: w.ActivatedAt, LastDigest: w.LastWindow}, nil
}

// Unsubscribe ends the watch a manage link names (idempotent: an ended
// watch answers the same).
func (m *Mailer) Unsubscribe(ctx context.Context, token string) error {
	var c manageClaim
	if _, err := m.signer.Verify(watch.TokenManage, token, m.now(), &c); err != nil {
		return ErrBadLink
	}
	found, err := m.deps.Store.DeleteWatch(ctx, c.WatchID)
	if err != nil {
		return err
	}
	if found {
		_ = store.CountEvent(ctx, m.deps.Store, store.CounterSubscriptionActive, m.now(), -1)
		m.log().Info("mailer: watch ended by its unsubscribe link")
	}
	return nil
}

func (m *Mailer) manageLinks(watchID string) (manage, unsubscribe string, err error) {
	tok, _, err := m.signer.Sign(watch.TokenManage, manageClaim{WatchID: watchID}, m.now(), 0)
	if err != nil {
		return "", "", err
	}
	return m.cfg.BaseURL + "/manage/" + tok, m.cfg.BaseURL + "/u/" + tok, nil
}

func (m *Mailer) messageID(kind, id string) string {
	return kind + "." + id + "@" + m.cfg.Hostname
}

func (m *Mailer) send(ctx context.Context, msg Message) error {
	if msg.From == "" {
		msg.From = m.cfg.From
	}
	raw, err := msg.Encode(m.now())
	if err != nil {
		return err
	}
	if err := m.transport.Send(ctx, m.cfg.From, []string{msg.To}, raw, msg.MessageID); err != nil {
		return err
	}
	m.log().Info("mailer: sent", "kind", msg.Kind, "message_id", msg.MessageID)
	return nil
}

func (m *Mailer) sendConfirmation(ctx context.Context, email string, u watch.Understanding, text, inReplyTo string) error {
	p := pending{Email: email, Filter: u.Filter, Scope: u.Scope, Agencies: u.Agencies, Form: m.cfg.Form, Description: strings.TrimSpace(text)}
	tok, nonce, err := m.signer.Sign(watch.TokenConfirm, p, m.now(), m.cfg.ConfirmTTL)
	if err != nil {
		return err
	}
	auto := "auto-generated"
	if inReplyTo != "" {
		auto = "auto-replied"
	}
	return m.send(ctx, Message{Kind: "confirmation", To: email, Subject: "Confirm your Recordwatch watch: " + oneLine(mailSafe(u.Scope), 80),
		Text: confirmationText(u, m.cfg.BaseURL+"/confirm/"+tok, m.cfg.ConfirmTTL), MessageID: m.messageID("confirm", nonce),
		InReplyTo: inReplyTo, AutoSubmitted: auto})
}

func (m *Mailer) sendWelcome(ctx context.Context, w watch.Watch) error {
	manage, unsub, err := m.manageLinks(w.ID)
	if err != nil {
		return err
	}
	return m.send(ctx, Message{Kind: "welcome", To: w.Email, Subject: "Your Recordwatch watch is active: " + oneLine(mailSafe(w.Scope), 80),
		Text: welcomeText(w, manage, unsub, m.digestCadence()), MessageID: m.messageID("welcome", w.ID), Unsubscribe: unsub})
}

func (m *Mailer) sendRefusal(ctx context.Context, email, reason, inReplyTo string) error {
	return m.send(ctx, Message{Kind: "refusal", To: email, Subject: "Recordwatch could not read your request",
		Text: refusalText(reason), MessageID: m.messageID("refusal", watch.NewID()), InReplyTo: inReplyTo, AutoSubmitted: "auto-replied"})
}

func (m *Mailer) digestCadence() string {
	if m.cfg.DigestEvery == 24*time.Hour {
		return fmt.Sprintf("each day around %d:00 New York time", m.cfg.DigestHour)
	}
	return "every " + m.cfg.DigestEvery.String()
}
