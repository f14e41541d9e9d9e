package watch

import (
	"context"
	"errors"
	"log/slog"
	"math"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
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

// CounterActive is the counter of active watches (net change per day).
const CounterActive = "subscription_active"

// Link errors. Forged and expired links are refused alike.
var (
	ErrBadLink  = record.InvalidNote("", "watch.error.bad_link")
	ErrUsedLink = record.InvalidNote("", "watch.error.used_link")
)

// ErrTokenUsed is what a Store's CreateWatch returns when its one-time key
// was claimed before.
var ErrTokenUsed = errors.New("watch: this confirmation was already used")

var errStoreDown = record.Errorf(record.EUNAVAILABLE, "the state store could not answer")

// Allowance is the outcome of a Store's Take.
type Allowance struct {
	Allowed   bool
	Remaining int
	ResetAt   time.Time // start of the next New York day
}

// Store is the state the subscription lifecycle reads and writes (the
// mailer adapts internal/store to it: that package stores Watch values, so
// this one cannot import it).
type Store interface {
	// Take consumes one unit of a daily ceiling for a key.
	Take(ctx context.Context, ceiling, key string, limit int, now time.Time) (Allowance, error)
	// CreateWatch stores an active watch and, when mail is set, the mail
	// it promises, in one transaction; with once set, a key claimed
	// before gives ErrTokenUsed and stores nothing.
	CreateWatch(ctx context.Context, w Watch, once string, onceUntil time.Time, mail *Promise) error
	// GetWatch reads a watch (ENOTFOUND when it has ended).
	GetWatch(ctx context.Context, id string) (Watch, error)
	// DeleteWatch ends a watch; found is false when it had already ended.
	DeleteWatch(ctx context.Context, id string) (found bool, err error)
	// SetCadence changes a watch's cadence; found is false when it ended.
	SetCadence(ctx context.Context, id, cadence string) (found bool, err error)
	// Incr adds delta to a counter for a New York day (YYYY-MM-DD).
	Incr(ctx context.Context, counter, day string, delta int) (int, error)
	// Ledger lists a watch's runs, newest first (its manage page).
	Ledger(ctx context.Context, watchID string) ([]LedgerEntry, error)
	// ListWatches lists every stored watch (MissedRuns).
	ListWatches(ctx context.Context) ([]Watch, error)
	// Outbox keeps promised mail and the per-address budget.
	Outbox
}

// Sender is the mail side the lifecycle needs: the mailer's outbox
// worker, which delivers the promises the lifecycle stores (Store's
// Outbox) within the per-address budget. The lifecycle never sends: a
// request stores its mail and answers, so an answer and its timing never
// depend on what is done for an address.
type Sender interface {
	// Nudge wakes the outbox worker after a promise was stored (it also
	// polls, so a promise stored by another process is delivered too).
	Nudge()
}

// ServiceConfig are the lifecycle's settings (the mailer's Config carries
// them, with its defaults filled in).
type ServiceConfig struct {
	Form       int
	Links      view.Links // confirm, manage and unsubscribe links
	ConfirmTTL time.Duration
	// MaxUntouched bounds the watches and queued confirmations an address
	// holds that its owner never acted on (0: DefaultMaxUntouched).
	MaxUntouched int
	// RequestsPerClient and RequestsPerDay are the daily request ceilings
	// per client and for all clients, shared fairly (see Allow).
	RequestsPerClient int
	RequestsPerDay    int
	FairShareAfter    float64
	FairShareRequests int
	// DigestHour is the New York hour digests go out (for Schedule).
	DigestHour int
	// MissedGrace is how long after its window opens a scheduled run is
	// missed (MissedRun); zero: DefaultMissedGrace.
	MissedGrace time.Duration
}

// Service is the subscription lifecycle every channel shares (web, MCP,
// subscribe mail): ceilings with a fair share, Form 1 create (active at
// once, welcome mail), Form 2 create (nothing stored; a confirmation mail
// whose signed, expiring link carries the request), confirm, manage and
// unsubscribe through signed links.
type Service struct {
	cfg     ServiceConfig
	store   Store
	readers Readers
	// baseline is the one answer of a filter (notices.Service)
	baseline Baseliner
	parse    ParseOptions
	signer   *Signer
	tokens   *Tokens
	sender   Sender
	now      func() time.Time
	log      *slog.Logger
	due      DueFunc
}

// ServiceDeps are the Service's dependencies.
type ServiceDeps struct {
	Store Store
	// Readers are what follows read (the objects they follow).
	Readers Readers
	// Baseline answers a search watch's filter now (notices.Service, the
	// one builder of the answer its previews and digests render).
	Baseline Baseliner
	// Parse carries the crosswalk; its Form is taken from the config.
	Parse  ParseOptions
	Signer *Signer
	// Tokens mints the mail's links (nil: built from Signer and the
	// configuration).
	Tokens *Tokens
	Sender Sender
	Now    func() time.Time
	Logger *slog.Logger
	// Due is the digest schedule (the mailer's windows), by which a
	// watch's run is missed (MissedRun); nil: none is judged.
	Due DueFunc
}

// NewService builds the lifecycle over its dependencies.
func NewService(cfg ServiceConfig, d ServiceDeps) (*Service, error) {
	if d.Store == nil || d.Readers.Search == nil || d.Readers.Meetings == nil || d.Baseline == nil || d.Signer == nil || d.Sender == nil {
		return nil, errors.New("watch: a service needs a store, readers (search, meetings: what follows read), a baseline, a signer and a sender")
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	d.Parse.Form = cfg.Form
	if d.Tokens == nil {
		d.Tokens = NewTokens(d.Signer, cfg.Links, cfg.ConfirmTTL, cfg.Form, d.Now)
	}
	return &Service{cfg: cfg, store: d.Store, readers: d.Readers, baseline: d.Baseline, parse: d.Parse, signer: d.Signer, tokens: d.Tokens, sender: d.Sender,
		now: d.Now, log: d.Logger, due: d.Due}, nil
}

// Baseliner answers a search watch's filter now: the ids it delivers and
// the award identities of its notices (notices.Service.Baseline, built in
// main.go). A new watch starts from them: what it matches now is not new.
type Baseliner interface {
	Baseline(ctx context.Context, f Filter, form int, links view.Links) (ids, facts []string, err error)
}

// Request is a subscription request from any channel.
type Request struct {
	Email string
	// Text is the plain-English request (Form 2's input; Form 1 may send
	// it for preview only).
	Text string
	// Filter is Form 1's structured filter, with Agencies naming its ids.
	Filter   *Filter
	Agencies map[string]string
	// Follow names one object to follow instead of a search (Form 1 stores
	// it active; Form 2 sends a confirmation, as for plain English).
	Follow *Follow
	// Description is Form 1's optional plain-English description.
	Description string
	// Cadence is "daily" (or empty) or "weekly". A plain-English request
	// may name it in its words instead ("weekly", "every Monday"); a
	// cadence given here wins.
	Cadence string
	Client  string // IP address, for the per-client ceiling
	Channel string
	// Manage is a manage token from one of the address's own mails: the
	// request is its owner's (the watch counts as touched, and its mail
	// goes at once, outside the unasked budget and the untouched bound).
	Manage string
	// InReplyTo is the message id of a subscribe mail being answered.
	InReplyTo string
}

// Outcome is what a subscription request led to. It is the same whether
// or not the address already has watches, and whether or not a mail could
// be sent to it.
type Outcome struct {
	Status  string `json:"status"`
	Filter  Filter `json:"filter"`
	Scope   string `json:"scope"`
	Cadence string `json:"cadence"`
	// Schedule states when digests go out ("weekly, on Mondays …").
	Schedule string   `json:"schedule"`
	Notes    []string `json:"notes,omitempty"`
	// ScopeKey and NoteKeys are scope and notes as notes (key and
	// arguments), said in the reader's language.
	ScopeKey record.Note  `json:"scope_key,omitzero"`
	NoteKeys record.Notes `json:"note_keys,omitempty"`
	Message  string       `json:"message"`
	// MessageKey is message as a note (key and arguments).
	MessageKey record.Note `json:"message_key"`
}

// Managed is what a manage link shows.
type Managed struct {
	Status string `json:"status"`
	Scope  string `json:"scope"`
	// ScopeKey is Scope as a note (Watch.ScopeNote), when it has one
	ScopeKey    record.Note `json:"scope_key,omitzero"`
	Filter      Filter      `json:"filter"`
	Description string      `json:"description,omitempty"`
	Cadence     string      `json:"cadence,omitempty"`
	Schedule    string      `json:"schedule,omitempty"`
	// Follow is the object a follow watch follows, with its fields as
	// last observed.
	Follow   *Follow `json:"follow,omitempty"`
	Followed []Field `json:"followed_fields,omitempty"`
	// WatchID identifies the watch to its own manage page (the ledger).
	WatchID     string    `json:"-"`
	ActiveSince time.Time `json:"active_since"`
	LastDigest  string    `json:"last_digest_window,omitempty"`
	// Ledger is every run of the watch kept (watch.LedgerKeep), newest
	// first: window, ids matched, new and changed, what was sent and how
	// it went; quiet runs say "nothing new".
	Ledger []LedgerEntry `json:"ledger"`
}

// ConfirmRequest is what a confirmation token carries: the whole request, so that
// nothing is stored before the link is followed.
type ConfirmRequest struct {
	Email       string            `json:"e"`
	Filter      Filter            `json:"f"`
	Scope       string            `json:"s"`
	Description string            `json:"d,omitempty"`
	Agencies    map[string]string `json:"a,omitempty"`
	Form        int               `json:"m"`
	Cadence     string            `json:"c,omitempty"`
	Follow      *Follow           `json:"o,omitempty"`
}

type manageClaim struct {
	WatchID string `json:"w"`
}

// Understand parses a plain-English request with the deployment's
// crosswalk and form.
func (s *Service) Understand(text string) (Understanding, error) {
	opt := s.parse
	if opt.Now.IsZero() {
		opt.Now = s.now() // time windows are read from the service's clock
	}
	return Parse(text, opt)
}

// Subscribe handles a create request from any channel, after the caller
// has applied Allow. Form 1 (a structured filter) stores an active watch
// and queues the welcome mail; over the address's daily mail ceiling it is
// refused (ELIMIT, a *LimitError) and nothing is stored. Form 2 (plain
// English) stores nothing and queues a confirmation mail whose link
// carries the signed, expiring request; whether that mail goes out (the
// address's daily ceiling) is decided off the request path, so the answer
// and its timing never depend on what is known about the address.
// Control characters in any value are EINVALID naming the field.
func (s *Service) Subscribe(ctx context.Context, req Request) (Outcome, error) {
	if err := req.check(); err != nil {
		return Outcome{}, err
	}
	email, err := NormalizeEmail(req.Email)
	if err != nil {
		return Outcome{}, err
	}
	if req.Cadence != "" {
		if req.Cadence, err = CheckCadence(req.Cadence); err != nil {
			return Outcome{}, err
		}
	}
	asked, err := s.owner(ctx, req.Manage, email)
	if err != nil {
		return Outcome{}, err
	}
	if req.Follow != nil {
		return s.subscribeFollow(ctx, email, req, *req.Follow, "", asked)
	}
	if req.Filter != nil {
		return s.subscribeStructured(ctx, email, req, asked)
	}
	u, err := s.Understand(req.Text)
	if err != nil {
		return Outcome{}, err
	}
	if u.Follow != nil {
		if req.Cadence == "" {
			req.Cadence = u.Cadence
		}
		return s.subscribeFollow(ctx, email, req, *u.Follow, req.Text, asked)
	}
	if req.Cadence != "" && req.Cadence != u.Cadence {
		// the cadence chosen (a form's, a tool's) wins over the words; it
		// replaces Parse's cadence note, which is always the last
		u.Cadence = req.Cadence
		u.Notes, u.NoteKeys = u.Notes[:len(u.Notes)-1:len(u.Notes)-1], u.NoteKeys[:len(u.NoteKeys)-1:len(u.NoteKeys)-1]
		u.AddNote(withParts(record.N("watch.read.cadence_chosen"), SchedulePart(s.cfg.DigestHour, u.Cadence)))
	}
	if err := s.QueueConfirmation(ctx, email, u, req.Text, req.InReplyTo, asked); err != nil {
		return Outcome{}, err
	}
	return Outcome{Status: StatusAwaiting, Filter: u.Filter, Scope: u.Scope, ScopeKey: u.ScopeKey, Notes: u.Notes, NoteKeys: u.NoteKeys, Cadence: u.Cadence, Schedule: s.Schedule(u.Cadence),
		Message: confirmMessage.String(), MessageKey: confirmMessage}, nil
}

// The watch service's answers, as notes (their words are the message
// files'): confirmMessage is a Form 2 request's answer, the same for every
// address whether its mail goes now or waits for the address's budget;
// followConfirmMessage a Form 2 follow request's; activeMessage a Form 1
// watch's, activeFollowMessage a Form 1 follow's, confirmedMessage a
// confirmation link's.
var (
	confirmMessage       = record.N("watch.confirm")
	followConfirmMessage = record.N("watch.follow_confirm")
	activeMessage        = record.N("watch.active")
	activeFollowMessage  = record.N("watch.active_follow")
	confirmedMessage     = record.N("watch.confirmed")
)

// check refuses control characters in any value of a request (they can
// reach a mail): one-line values get no CR or LF either.
func (req Request) check() error {
	for _, f := range []struct {
		name, value string
		multiline   bool
	}{{"email", req.Email, false}, {"text", req.Text, true}, {"description", req.Description, true}, {"in_reply_to", req.InReplyTo, false}} {
		if err := CheckText(f.name, f.value, f.multiline); err != nil {
			return err
		}
	}
	for id, name := range req.Agencies {
		if err := CheckText("agency", id+name, false); err != nil {
			return err
		}
	}
	return nil
}

func (s *Service) subscribeStructured(ctx context.Context, email string, req Request, asked bool) (Outcome, error) {
	f := *req.Filter
	if err := f.Validate(); err != nil {
		return Outcome{}, err
	}
	if len(req.Description) > record.MaxRequestTextLen {
		return Outcome{}, record.InvalidNote("description", "watch.error.description_len", record.MaxRequestTextLen)
	}
	if !asked {
		if err := s.room(ctx, email); err != nil {
			return Outcome{}, err
		}
	}
	scopeKey := DescribeNote(f, req.Agencies)
	scope := scopeKey.String()
	now := s.now()
	cadence, _ := CheckCadence(req.Cadence)
	w := Watch{ID: NewID(), Email: email, Filter: f, Description: strings.TrimSpace(req.Description),
		Scope: scope, ScopeKey: scopeKey, Form: 1, Status: StatusActive, CreatedAt: now, ActivatedAt: now, Cadence: cadence, Untouched: !asked}
	if err := s.activate(ctx, &w, "", time.Time{}, asked); err != nil {
		return Outcome{}, err
	}
	return Outcome{Status: StatusActive, Filter: f, Scope: scope, ScopeKey: scopeKey, Cadence: cadence, Schedule: s.Schedule(cadence),
		Message: activeMessage.String(), MessageKey: activeMessage}, nil
}

// subscribeFollow handles a follow request: the object must be held now
// (ENOTFOUND otherwise). Form 1 stores an active watch and queues the
// welcome mail (as subscribeStructured); Form 2 stores nothing and queues
// a confirmation mail carrying the follow (double opt-in).
func (s *Service) subscribeFollow(ctx context.Context, email string, req Request, f Follow, text string, asked bool) (Outcome, error) {
	f, err := f.Check(s.cfg.Form)
	if err != nil {
		return Outcome{}, err
	}
	snap, err := s.readers.Observe(ctx, f, s.cfg.Links)
	if err != nil {
		return Outcome{}, err
	}
	cadence, _ := CheckCadence(req.Cadence)
	scope := FollowScope(f, snap.Title)
	filter := Filter{Lens: f.Lens()}
	if s.cfg.Form == 2 {
		u := Understanding{Filter: filter, Follow: &f, Scope: scope, Cadence: cadence}
		u.AddNote(withParts(record.N("watch.read.follow_mail"), f.NounPart()))
		if err := s.QueueConfirmation(ctx, email, u, text, req.InReplyTo, asked); err != nil {
			return Outcome{}, err
		}
		return Outcome{Status: StatusAwaiting, Filter: filter, Scope: scope, Notes: u.Notes, NoteKeys: u.NoteKeys, Cadence: cadence, Schedule: s.Schedule(cadence),
			Message: followConfirmMessage.String(), MessageKey: followConfirmMessage}, nil
	}
	if !asked {
		if err := s.room(ctx, email); err != nil {
			return Outcome{}, err
		}
	}
	now := s.now()
	w := Watch{ID: NewID(), Email: email, Filter: filter, Follow: &f, Description: strings.TrimSpace(req.Description),
		Scope: scope, Form: s.cfg.Form, Status: StatusActive, CreatedAt: now, ActivatedAt: now, Cadence: cadence, Untouched: !asked}
	if err := s.activate(ctx, &w, "", time.Time{}, asked); err != nil {
		return Outcome{}, err
	}
	return Outcome{Status: StatusActive, Filter: filter, Scope: scope, Cadence: cadence, Schedule: s.Schedule(cadence),
		Message: activeFollowMessage.String(), MessageKey: activeFollowMessage}, nil
}

// PreviewFollow is what a follow watch would observe now (a preview
// subscribes nothing): the follow as checked and its scope.
func (s *Service) PreviewFollow(ctx context.Context, f Follow) (Follow, string, error) {
	_, f, scope, err := s.readers.PreviewFollow(ctx, f, s.cfg.Form, s.cfg.Links)
	return f, scope, err
}

// activate takes the watch's baseline (what it matches now is not new)
// and stores it with its welcome mail (asked: its owner asked for it from
// a link, so it goes outside the unasked budget).
func (s *Service) activate(ctx context.Context, w *Watch, once string, onceUntil time.Time, asked bool) error {
	if w.Follow != nil {
		// a follow's baseline is the object's fields now: no back-catalogue
		snap, err := s.readers.Observe(ctx, *w.Follow, s.cfg.Links)
		if err != nil {
			return err
		}
		w.Snapshot, w.Scope = snap.Fields, FollowScope(*w.Follow, snap.Title)
		return s.keep(ctx, w, once, onceUntil, asked)
	}
	// what the watch matches now (its one answer, as its preview showed
	// and its digests will read it) is not new
	ids, facts, err := s.baseline.Baseline(ctx, w.Filter, w.Form, s.cfg.Links)
	if err != nil {
		return err
	}
	w.Facts = append(w.Facts, facts...)
	w.Seen = append(w.Seen, ids...)
	return s.keep(ctx, w, once, onceUntil, asked)
}

// keep stores an activated watch (claiming its confirmation) with its
// welcome mail, in one transaction: a watch acknowledged is a welcome
// mail that will be sent.
func (s *Service) keep(ctx context.Context, w *Watch, once string, onceUntil time.Time, asked bool) error {
	w.QuietSince = w.ActivatedAt
	mail := &Promise{ID: NewID(), Address: AddressKey(w.Email), Email: w.Email, Kind: MailWelcome, WatchID: w.ID, Asked: asked,
		CreatedAt: s.now()}
	if err := s.store.CreateWatch(ctx, *w, once, onceUntil, mail); err != nil {
		if errors.Is(err, ErrTokenUsed) {
			return ErrUsedLink
		}
		return storeError(err)
	}
	_, _ = s.store.Incr(ctx, CounterActive, record.NewYorkDay(s.now()), 1)
	s.sender.Nudge()
	return nil
}

// storeError is a store write's failure as a request sees it: an error
// with a code passes (the store classified it), any other is
// EUNAVAILABLE.
func storeError(err error) error {
	if record.ErrorCode(err) != record.EINTERNAL {
		return err
	}
	return errStoreDown
}

// Pending reads a confirmation token without using it (the page that
// shows what will be confirmed). A forged or expired token is ErrBadLink.
func (s *Service) Pending(token string) (Outcome, error) {
	var p ConfirmRequest
	if _, err := s.signer.Verify(TokenConfirm, token, s.now(), &p); err != nil {
		return Outcome{}, ErrBadLink
	}
	cadence, _ := CheckCadence(p.Cadence)
	scopeKey := DescribeNote(p.Filter, p.Agencies)
	scope := scopeKey.String()
	if p.Follow != nil {
		scope, scopeKey = p.Scope, record.Note{} // stated by FollowScope when the request was signed
	}
	return Outcome{Status: StatusAwaiting, Filter: p.Filter, Scope: scope, ScopeKey: scopeKey, Cadence: cadence, Schedule: s.Schedule(cadence)}, nil
}

// Confirm follows a confirmation link: the watch becomes active now, and
// digests start. A forged or expired token stores nothing (ErrBadLink); a
// token already used gives ErrUsedLink and stores nothing more.
func (s *Service) Confirm(ctx context.Context, token string) (Outcome, error) {
	var p ConfirmRequest
	nonce, err := s.signer.Verify(TokenConfirm, token, s.now(), &p)
	if err != nil {
		return Outcome{}, ErrBadLink
	}
	email, err := NormalizeEmail(p.Email)
	if err != nil || p.Filter.Validate() != nil {
		return Outcome{}, ErrBadLink
	}
	now := s.now()
	cadence, err := CheckCadence(p.Cadence)
	if err != nil {
		return Outcome{}, ErrBadLink
	}
	// the scope is stated afresh from the filter (never taken as text)
	scopeKey := DescribeNote(p.Filter, p.Agencies)
	w := Watch{ID: NewID(), Email: email, Filter: p.Filter, Description: p.Description, Scope: scopeKey.String(),
		Form: p.Form, Status: StatusActive, CreatedAt: now, ActivatedAt: now, Cadence: cadence}
	if p.Follow != nil {
		f, err := p.Follow.Check(p.Form)
		if err != nil {
			return Outcome{}, ErrBadLink
		}
		w.Follow = &f
	} else {
		w.ScopeKey = scopeKey
	}
	// a confirmation link followed is the owner's act: the watch is
	// touched, and its welcome mail goes at once
	if err := s.activate(ctx, &w, "confirm:"+nonce, now.Add(s.cfg.ConfirmTTL+24*time.Hour), true); err != nil {
		return Outcome{}, err
	}
	if p.Follow != nil {
		scopeKey = record.Note{}
	}
	return Outcome{Status: StatusActive, Filter: w.Filter, Scope: w.Scope, ScopeKey: scopeKey, Cadence: cadence, Schedule: s.Schedule(cadence),
		Message: confirmedMessage.String(), MessageKey: confirmedMessage}, nil
}

// Manage reads the watch a manage link names. A valid link whose watch has
// ended says so (status "ended"); a forged link is ErrBadLink.
func (s *Service) Manage(ctx context.Context, token string) (Managed, error) {
	var c manageClaim
	if _, err := s.signer.Verify(TokenManage, token, s.now(), &c); err != nil {
		return Managed{}, ErrBadLink
	}
	w, err := s.store.GetWatch(ctx, c.WatchID)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			return Managed{Status: "ended"}, nil
		}
		return Managed{}, err
	}
	if w.Untouched { // a link of one of its mails used: its owner acted
		if err := s.store.TouchWatch(ctx, w.ID); err != nil {
			s.log.Warn("watch: could not mark a watch as touched", "err", err)
		}
	}
	ledger, err := s.store.Ledger(ctx, w.ID)
	if err != nil {
		return Managed{}, err
	}
	if ledger == nil {
		ledger = []LedgerEntry{}
	}
	if e, ok := MissedRun(w, s.due, s.grace(), s.now()); ok {
		ledger = append([]LedgerEntry{e}, ledger...) // newest first
	}
	return Managed{Status: w.Status, Scope: w.Scope, ScopeKey: w.ScopeNote(), Filter: w.Filter, Description: w.Description, Follow: w.Follow, Followed: w.Snapshot,
		WatchID: w.ID, Cadence: w.CadenceOf(), Schedule: s.Schedule(w.CadenceOf()), ActiveSince: w.ActivatedAt, LastDigest: w.LastWindow,
		Ledger: ledger}, nil
}

// SetCadence changes the cadence of the watch a manage link names and
// returns what the manage page then shows. A forged link is ErrBadLink; an
// unknown cadence is EINVALID naming the field.
func (s *Service) SetCadence(ctx context.Context, token, cadence string) (Managed, error) {
	var c manageClaim
	if _, err := s.signer.Verify(TokenManage, token, s.now(), &c); err != nil {
		return Managed{}, ErrBadLink
	}
	cad, err := CheckCadence(cadence)
	if err != nil {
		return Managed{}, err
	}
	found, err := s.store.SetCadence(ctx, c.WatchID, cad)
	if err != nil {
		return Managed{}, err
	}
	if !found {
		return Managed{Status: "ended"}, nil
	}
	return s.Manage(ctx, token)
}

// ConfirmTTL is how long a confirmation link stays valid.
func (s *Service) ConfirmTTL() time.Duration { return s.cfg.ConfirmTTL }

// DigestHour is the New York hour digests go out (Schedule's hour, for
// pages that say the schedule in their own language).
func (s *Service) DigestHour() int { return s.cfg.DigestHour }

// Unsubscribe ends the watch a manage link names (idempotent: an ended
// watch answers the same). A forged link is ErrBadLink.
func (s *Service) Unsubscribe(ctx context.Context, token string) error {
	var c manageClaim
	if _, err := s.signer.Verify(TokenManage, token, s.now(), &c); err != nil {
		return ErrBadLink
	}
	found, err := s.store.DeleteWatch(ctx, c.WatchID)
	if err != nil {
		return err
	}
	if found {
		_, _ = s.store.Incr(ctx, CounterActive, record.NewYorkDay(s.now()), -1)
		s.log.Info("watch: ended by its unsubscribe link")
	}
	return nil
}

// QueueConfirmation stores a Form 2 confirmation mail (Subscribe, and the
// SMTP receiver for subscribe mail): the request as understood, signed
// into its link when the mail is composed. Unless asked (the owner asked
// from a link), an address holding MaxUntouched requests its owner never
// acted on is refused (ErrAddressFull).
func (s *Service) QueueConfirmation(ctx context.Context, email string, u Understanding, text, inReplyTo string, asked bool) error {
	if !asked {
		if err := s.room(ctx, email); err != nil {
			return err
		}
	}
	p := Promise{ID: NewID(), Address: AddressKey(email), Email: email, Kind: MailConfirmation, Understanding: &u,
		Text: strings.TrimSpace(text), InReplyTo: inReplyTo, Asked: asked, CreatedAt: s.now()}
	if err := s.store.QueueMail(ctx, p); err != nil {
		return storeError(err)
	}
	s.sender.Nudge()
	return nil
}

// owner reports whether token, a manage token from a mail of this
// address, proves the request is the address owner's. An empty token is
// not; a forged one, or one naming a watch of another address or one
// that has ended, is EINVALID naming the field.
func (s *Service) owner(ctx context.Context, token, email string) (bool, error) {
	if token == "" {
		return false, nil
	}
	var c manageClaim
	if _, err := s.signer.Verify(TokenManage, token, s.now(), &c); err != nil {
		return false, record.InvalidNote("manage", "watch.error.manage_bad")
	}
	w, err := s.store.GetWatch(ctx, c.WatchID)
	if err != nil {
		if record.ErrorCode(err) == record.ENOTFOUND {
			return false, record.InvalidNote("manage", "watch.error.manage_ended")
		}
		return false, errStoreDown
	}
	if AddressKey(w.Email) != AddressKey(email) {
		return false, record.InvalidNote("manage", "watch.error.manage_other")
	}
	return true, nil
}

// room refuses a request for an address that already holds MaxUntouched
// watches and queued confirmations its owner never acted on
// (ErrAddressFull, the same answer for every address).
func (s *Service) room(ctx context.Context, email string) error {
	ws, ps, err := s.addressHolds(ctx, AddressKey(email))
	if err != nil {
		return err
	}
	n := 0
	for _, w := range ws {
		if w.Untouched {
			n++
		}
	}
	for _, p := range ps {
		if p.Kind == MailConfirmation && !p.Asked {
			n++
		}
	}
	limit := s.cfg.MaxUntouched
	if limit <= 0 {
		limit = DefaultMaxUntouched
	}
	if n >= limit {
		s.log.Info("watch: an address holds as many untouched requests as it may; refused")
		return ErrAddressFull
	}
	return nil
}

// LimitError is an ELIMIT refusal with the time the ceiling resets (the
// HTTP API turns it into Retry-After).
type LimitError struct {
	Err     *record.Error
	ResetAt time.Time
}

func (e *LimitError) Error() string { return e.Err.Error() }
func (e *LimitError) Unwrap() error { return e.Err }

// ResetAt reports when the ceiling that refused err resets.
func ResetAt(err error) (time.Time, bool) {
	var le *LimitError
	if errors.As(err, &le) {
		return le.ResetAt, true
	}
	return time.Time{}, false
}

func limitError(reset time.Time, format string, args ...any) error {
	return &LimitError{Err: record.Errorf(record.ELIMIT, format, args...), ResetAt: reset}
}

// AddressKey is the key of an address in every ceiling on addresses: the
// address lower-cased, with a "+tag" cut from its local part, so that
// name+1@example.org, name+2@example.org and NAME@example.org share one
// allowance. It is only a key: mail still goes to the address as given.
func AddressKey(addr string) string {
	addr = strings.ToLower(strings.TrimSpace(addr))
	local, domain, ok := strings.Cut(addr, "@")
	if !ok {
		return addr
	}
	if base, _, tagged := strings.Cut(local, "+"); tagged && base != "" {
		local = base
	}
	return local + "@" + domain
}

// Allow applies the per-client and all-clients daily ceilings to a
// subscription request. It returns an ELIMIT error (a *LimitError) when
// one is reached, EUNAVAILABLE when the store cannot answer.
//
// Fair share: the all-clients ceiling (RequestsPerDay) is one pool for the
// day. Until FairShareAfter of it is spent (750 of 1,000 by default), any
// request within its client's own ceiling (RequestsPerClient) draws on it.
// Past that point the rest of the pool is kept for clients that have made
// few requests today: only a client's first FairShareRequests requests of
// the day (2 by default) may draw on it. So clients that spend their whole
// allowance (50 clients × 20 = the whole pool without this) can take at
// most FairShareAfter of the pool plus their first requests, and at least
// (1−FairShareAfter) × RequestsPerDay / FairShareRequests other clients
// (125 by default) still get their first requests. A request without a
// client key draws only on the shared part. Both counts are daily ceilings
// in the state store (Store.Take), so they hold across replicas.
func (s *Service) Allow(ctx context.Context, client string) error {
	now := s.now()
	ordinal := math.MaxInt // without a client: never among a client's first requests
	if client != "" {
		a, err := s.store.Take(ctx, CeilingClient, client, s.cfg.RequestsPerClient, now)
		if err != nil {
			return storeError(err)
		}
		if !a.Allowed {
			return limitError(a.ResetAt, "daily limit of %d subscription requests from this address reached; it resets at %s",
				s.cfg.RequestsPerClient, a.ResetAt.Format(time.RFC3339))
		}
		ordinal = s.cfg.RequestsPerClient - a.Remaining // this request is the client's n-th today
	}
	limit := s.sharedPool()
	if ordinal <= s.cfg.FairShareRequests {
		limit = s.cfg.RequestsPerDay
	}
	a, err := s.store.Take(ctx, CeilingAll, "*", limit, now)
	if err != nil {
		return storeError(err)
	}
	if !a.Allowed {
		if limit < s.cfg.RequestsPerDay {
			return limitError(a.ResetAt, "most of today's subscription requests are taken; the rest are kept for the first %d requests of each client, "+
				"and this client has made more; it resets at %s", s.cfg.FairShareRequests, a.ResetAt.Format(time.RFC3339))
		}
		return limitError(a.ResetAt, "the service has taken all the subscription requests it takes today; it resets at %s",
			a.ResetAt.Format(time.RFC3339))
	}
	return nil
}

// sharedPool is the part of RequestsPerDay any request may draw on.
func (s *Service) sharedPool() int {
	n := int(math.Floor(s.cfg.FairShareAfter * float64(s.cfg.RequestsPerDay)))
	return max(n, 1)
}

// MayMail spends the address's unasked budget (UnaskedEvery) on a mail
// sent now outside the outbox (a refusal answering subscribe mail): false
// when the address had an unasked mail within the budget, or when the
// store cannot answer; nothing in any answer says so.
func (s *Service) MayMail(ctx context.Context, addr string) bool {
	key := AddressKey(addr)
	a, err := s.store.Address(ctx, key)
	if err != nil {
		s.log.Warn("watch: address budget unavailable; not sending", "err", err)
		return false
	}
	now := s.now()
	if now.Before(a.UnaskedDue()) {
		s.log.Info("watch: an address had its unasked mail today; not sending")
		return false
	}
	a.Key, a.UnaskedAt = key, now
	if err := s.store.PutAddress(ctx, a); err != nil {
		s.log.Warn("watch: address budget unavailable; not sending", "err", err)
		return false
	}
	return true
}
