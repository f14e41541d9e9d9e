// Package mailer is Recordwatch's mail: the SMTP receiver for the subscribe
// address (emersion/go-smtp server, emersion/go-message parsing), outbound
// mail (an .eml outbox under the data directory by default, an SMTP relay
// when configured), the confirmation, welcome and digest emails, the
// subscription flows every channel shares (web, MCP, mail: ceilings, double
// opt-in through signed expiring tokens, manage and one-click unsubscribe
// links) and the digest scheduler.
package mailer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emersion/go-smtp"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Defaults.
const (
	DefaultSMTPAddr          = "127.0.0.1:2525" // loopback: a newcomer's go run . opens no mail port to the network
	DefaultMaxMessageBytes   = 256 << 10
	DefaultDigestEvery       = 24 * time.Hour
	DefaultDigestHour        = 7 // New York time, for daily digests
	DefaultPollEvery         = time.Minute
	DefaultConfirmTTL        = 48 * time.Hour
	DefaultRepliesPerAddress = 3    // subscription mails to one address per day
	DefaultRequestsPerClient = 20   // subscription requests per client IP per day
	DefaultRequestsPerDay    = 1000 // subscription requests per day, all clients
	DefaultMaxAttempts       = 8
	// Fair share of the all-clients ceiling (see Allow): once
	// DefaultFairShareAfter of RequestsPerDay is spent, only a client's
	// first DefaultFairShareRequests requests of the day draw on the rest.
	DefaultFairShareAfter    = 0.75
	DefaultFairShareRequests = 2
	DefaultSendQueue         = 256 // mails waiting to be sent off the request path
	DefaultMaxDigestsPerRun  = 500
	DefaultMaxDigestsPerDay  = 5000
	// DefaultQuietAfter is how long a daily watch may be quiet before one
	// heartbeat says it is still running.
	DefaultQuietAfter = 14 * 24 * time.Hour
)

// Config is what the mailer needs to know about its deployment. Read it
// once in main from RECORDWATCH_* variables.
type Config struct {
	BaseURL string // absolute base for links, without trailing slash
	Form    int    // 1 extended, 2 basic
	// SubscribeAddress is the only recipient the SMTP receiver accepts.
	SubscribeAddress string
	// From is the sender of outbound mail (default SubscribeAddress).
	From string
	// SMTPAddr is the receiver's listen address ("" in Run: no receiver).
	SMTPAddr string
	// Hostname names this server in SMTP greetings and message ids.
	Hostname        string
	MaxMessageBytes int64
	// OutboxDir receives .eml files when no relay is configured.
	OutboxDir string
	Relay     RelayConfig
	// DigestEvery is the digest period: 24h (default) means daily at
	// DigestHour New York time; a shorter period cuts windows of that
	// length.
	DigestEvery time.Duration
	DigestHour  int
	PollEvery   time.Duration
	ConfirmTTL  time.Duration

	RepliesPerAddress int
	RequestsPerClient int
	RequestsPerDay    int
	// FairShareAfter is the fraction of RequestsPerDay (0 < f ≤ 1) past
	// which a client may draw on the day's remaining subscription
	// requests only for its first FairShareRequests requests of the day,
	// so a few clients cannot spend the whole pool (see Allow).
	FairShareAfter    float64
	FairShareRequests int
	// MaxAttempts is kept for configuration compatibility: a failed
	// digest is no longer given up (see failed).
	MaxAttempts int
	// MaxDigestsPerRun and MaxDigestsPerDay cap digest mails per scheduler
	// run and per New York day; the rest wait, oldest first, for the next
	// run (none is dropped).
	MaxDigestsPerRun int
	MaxDigestsPerDay int
	// QuietAfter is how long a daily watch is quiet before a heartbeat.
	QuietAfter time.Duration
	// SendQueue is kept for configuration compatibility: welcome and
	// confirmation mails wait in the state store (the outbox worker,
	// promised.go), unbounded by memory.
	SendQueue int

	// DKIM, when set, signs every outgoing mail (see DKIMConfig).
	DKIM *DKIMConfig

	// Key signs tokens. Empty: the key kept in the state store (generated
	// once). Deployments whose roles run as separate processes set the
	// same key everywhere (RECORDWATCH_WATCH_KEY).
	Key []byte
}

// Deps are the services the mailer reads and writes through.
type Deps struct {
	Store  store.Store
	Search search.NoticesAndRecords
	// Notices answers the watches' filters (their one answer, as their
	// previews and feeds render it), built once in main.go.
	Notices *notices.Service
	// People and Meetings are the services follows read (watch.Readers).
	People   *people.Service
	Meetings *meeting.Service
	// Procure and Land read what follow watches follow (matters,
	// contracts, land projects); nil: those follows read as unavailable.
	Procure   *procure.Service
	Land      *land.Service
	Crosswalk *entity.Crosswalk
	Logger    *slog.Logger
	Now       func() time.Time
	// Transport overrides the one chosen from Config (tests inject faults).
	Transport Transport
	// Receipts, when set, keeps a receipt of every digest run (job
	// "digests", operator.go): /api/sources says whether it is late.
	Receipts store.Receipts
}

// core is what the mailer's three parts share: the configuration with
// its defaults, the dependencies, how mail leaves and the links it
// carries.
type core struct {
	cfg       Config
	deps      Deps
	signer    *watch.Signer
	transport Transport
	tokens    *watch.Tokens
}

// Outbound is the mail that leaves: the transport, the composer and the
// durable outbox worker (promised.go). It is the subscription lifecycle's
// watch.Sender.
type Outbound struct {
	*core
	// wake nudges the outbox worker; delivering serializes its passes
	wake       chan struct{}
	delivering sync.Mutex
}

// Receiver is the subscribe-mail SMTP receiver (receive.go): it reads
// requests and answers them through the subscription lifecycle.
type Receiver struct {
	*core
	svc      *watch.Service
	receiver atomic.Pointer[error] // why the SMTP receiver is down (Ready)
	// bindRetry is the first wait before listening again on a receiver
	// port that could not be bound (doubling up to BindRetryMax).
	bindRetry time.Duration
	// receiving is the receiver's listening address once bound.
	receiving atomic.Pointer[net.Addr]
}

// Digests plans and sends the watches' digests (digest.go).
type Digests struct {
	*core
	// started is when this mailer was built (the process's start), and
	// ranDigests whether a digest run has finished since (operator.go).
	started    time.Time
	ranDigests atomic.Bool
}

// Mailer is the mail side of Recordwatch: three values built in order by
// New, the one mail graph that main.go and the tests share — Outbound,
// then the subscription lifecycle over it (its Sender), then Receiver
// (which takes the lifecycle) and Digests. No setter closes a cycle.
type Mailer struct {
	*core
	*Outbound
	*Receiver
	*Digests
	svc *watch.Service
}

// New builds a mailer: it fills defaults, reads (or creates) the token key
// and chooses the transport (the relay when Relay.Addr is set, else the
// outbox directory).
func New(ctx context.Context, cfg Config, deps Deps) (*Mailer, error) {
	if deps.Store == nil || deps.Search == nil || deps.Notices == nil || deps.People == nil || deps.Meetings == nil {
		return nil, errors.New("mailer: a store, a search reader and the notices, people and meeting services are needed")
	}
	if deps.Now == nil {
		deps.Now = time.Now
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	if deps.Crosswalk == nil {
		deps.Crosswalk = entity.DefaultCrosswalk()
	}
	if cfg.Form == 0 {
		cfg.Form = 1
	}
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	if cfg.SubscribeAddress == "" {
		cfg.SubscribeAddress = "subscribe@localhost"
	}
	sub, err := watch.NormalizeEmail(cfg.SubscribeAddress)
	if err != nil && !strings.HasSuffix(cfg.SubscribeAddress, "@localhost") {
		return nil, fmt.Errorf("mailer: subscribe address %q: %w", cfg.SubscribeAddress, err)
	}
	if err == nil {
		cfg.SubscribeAddress = sub
	}
	if cfg.From == "" {
		cfg.From = cfg.SubscribeAddress
	}
	if cfg.Hostname == "" {
		_, cfg.Hostname, _ = strings.Cut(cfg.SubscribeAddress, "@")
	}
	if cfg.MaxMessageBytes <= 0 {
		cfg.MaxMessageBytes = DefaultMaxMessageBytes
	}
	if cfg.DigestEvery <= 0 {
		cfg.DigestEvery = DefaultDigestEvery
	}
	if cfg.DigestHour < 0 || cfg.DigestHour > 23 {
		return nil, fmt.Errorf("mailer: digest hour %d is not 0–23", cfg.DigestHour)
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = DefaultPollEvery
	}
	if cfg.ConfirmTTL <= 0 {
		cfg.ConfirmTTL = DefaultConfirmTTL
	}
	if cfg.RepliesPerAddress <= 0 {
		cfg.RepliesPerAddress = DefaultRepliesPerAddress
	}
	if cfg.RequestsPerClient <= 0 {
		cfg.RequestsPerClient = DefaultRequestsPerClient
	}
	if cfg.RequestsPerDay <= 0 {
		cfg.RequestsPerDay = DefaultRequestsPerDay
	}
	if cfg.FairShareAfter <= 0 || cfg.FairShareAfter > 1 {
		cfg.FairShareAfter = DefaultFairShareAfter
	}
	if cfg.FairShareRequests <= 0 {
		cfg.FairShareRequests = DefaultFairShareRequests
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.MaxDigestsPerRun <= 0 {
		cfg.MaxDigestsPerRun = DefaultMaxDigestsPerRun
	}
	if cfg.MaxDigestsPerDay <= 0 {
		cfg.MaxDigestsPerDay = DefaultMaxDigestsPerDay
	}
	if cfg.QuietAfter <= 0 {
		cfg.QuietAfter = DefaultQuietAfter
	}
	if cfg.SendQueue <= 0 {
		cfg.SendQueue = DefaultSendQueue
	}
	key := cfg.Key
	if len(key) == 0 {
		if key, err = deps.Store.WatchKey(ctx); err != nil {
			return nil, fmt.Errorf("mailer: token key: %w", err)
		}
	}
	signer, err := watch.NewSigner(key)
	if err != nil {
		return nil, err
	}
	c := &core{cfg: cfg, deps: deps, signer: signer, transport: deps.Transport,
		tokens: watch.NewTokens(signer, view.Links{Base: cfg.BaseURL, Form: cfg.Form}, cfg.ConfirmTTL, cfg.Form, deps.Now)}
	if c.transport == nil {
		if cfg.Relay.Addr != "" {
			c.transport = &Relay{Config: cfg.Relay, Hostname: cfg.Hostname, Logger: deps.Logger}
		} else {
			if cfg.OutboxDir == "" {
				return nil, errors.New("mailer: set an outbox directory or an SMTP relay")
			}
			c.transport = &Outbox{Dir: filepath.Clean(cfg.OutboxDir), Logger: deps.Logger}
		}
	}
	// the mail graph, in order: the outbound side, the subscription
	// lifecycle over it (its Sender), the receiver and the digests
	out := &Outbound{core: c, wake: make(chan struct{}, 1)}
	svc, err := watch.NewService(c.watchConfig(), c.watchDeps(deps.Store, out))
	if err != nil {
		return nil, err
	}
	return &Mailer{core: c, Outbound: out, Receiver: &Receiver{core: c, svc: svc, bindRetry: BindRetry},
		Digests: &Digests{core: c, started: deps.Now()}, svc: svc}, nil
}

// Ready reports the parts of the mailer that are down: the subscribe-mail
// receiver when it could not listen or stopped (nil when it serves or none
// is configured).
func (m *Receiver) Ready() error {
	if err := m.receiver.Load(); err != nil {
		return *err
	}
	return nil
}

// watchConfig is the subscription lifecycle's configuration, from the
// mailer's (its form, links, ceilings and digest hour).
func (m *core) watchConfig() watch.ServiceConfig {
	c := m.cfg
	return watch.ServiceConfig{Form: c.Form, Links: view.Links{Base: c.BaseURL, Form: c.Form},
		ConfirmTTL: c.ConfirmTTL, RequestsPerClient: c.RequestsPerClient,
		RequestsPerDay: c.RequestsPerDay, FairShareAfter: c.FairShareAfter, FairShareRequests: c.FairShareRequests,
		DigestHour: c.DigestHour, MissedGrace: min(watch.DefaultMissedGrace, c.DigestEvery/2)}
}

// watchDeps are the subscription lifecycle's dependencies over store:
// what follows read (its Search, People and Meetings), the one answer of
// a filter (Notices: a new watch's baseline), the
// crosswalk, the mailer's signer and links and, as watch.Sender, the
// outbound side's outbox worker.
func (m *core) watchDeps(store watch.Store, out *Outbound) watch.ServiceDeps {
	return watch.ServiceDeps{Store: store, Readers: m.readers(), Baseline: m.deps.Notices, Parse: watch.ParseOptions{Crosswalk: m.deps.Crosswalk},
		Signer: m.signer, Tokens: m.tokens, Sender: out, Now: m.deps.Now, Logger: m.deps.Logger, Due: m.WindowFor}
}

// readers are what follows read.
func (m *core) readers() watch.Readers {
	return watch.Readers{Search: m.deps.Search, People: m.deps.People, Meetings: m.deps.Meetings, Procure: m.deps.Procure, Land: m.deps.Land}
}

// Config returns the mailer's configuration with defaults filled in.
func (m *core) Config() Config { return m.cfg }

func (m *core) now() time.Time { return m.deps.Now() }

func (m *core) log() *slog.Logger { return m.deps.Logger }

// Run serves the SMTP receiver on cfg.SMTPAddr (when set) and runs the
// digest scheduler until ctx ends. A receiver that cannot listen (the port
// is taken) or stops does not stop the scheduler: it is logged, Ready
// reports it, and it listens again after BindRetry, doubling up to
// BindRetryMax, until it serves.
func (m *Mailer) Run(ctx context.Context) error {
	received := make(chan struct{})
	if m.cfg.SMTPAddr != "" {
		go func() {
			defer close(received)
			m.receive(ctx)
		}()
	} else {
		close(received)
	}
	go m.RunScheduler(ctx)
	go m.RunOutbox(ctx)
	<-ctx.Done()
	<-received // the receiver has shut down
	return nil // promised mail still pending is in the store: the next start sends it
}

// Waits before the receiver listens again on a port it could not bind.
const (
	BindRetry    = time.Second
	BindRetryMax = time.Minute
)

// ReceiverAddr is the address the SMTP receiver listens on (nil until it
// listens).
func (m *Receiver) ReceiverAddr() net.Addr {
	if a := m.receiving.Load(); a != nil {
		return *a
	}
	return nil
}

// receive listens on cfg.SMTPAddr and serves the receiver until ctx ends,
// listening again after a wait when the port cannot be bound or the
// server stops with an error; Ready reports why it is down meanwhile.
func (m *Receiver) receive(ctx context.Context) {
	wait := m.bindRetry
	for ctx.Err() == nil {
		l, err := (&net.ListenConfig{}).Listen(ctx, "tcp", m.cfg.SMTPAddr)
		if err != nil {
			if ctx.Err() != nil {
				return
			}
			down := fmt.Errorf("the subscribe-mail receiver cannot listen on %s: %w", m.cfg.SMTPAddr, err)
			m.receiver.Store(&down)
			m.log().Error("mailer: SMTP receiver cannot listen; digests still run, listening again later", "addr", m.cfg.SMTPAddr, "err", err, "retry_in", wait)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, BindRetryMax)
			continue
		}
		wait = m.bindRetry
		addr := l.Addr()
		m.receiving.Store(&addr)
		m.receiver.Store(nil)
		srv := m.SMTPServer()
		errc := make(chan error, 1)
		go func() {
			errc <- srv.Serve(newLimitListener(l, sessionLimits{max: MaxSMTPConnections, perPeer: MaxSMTPPerPeer, lifetime: SMTPSessionTimeout}, m.cfg.Hostname))
		}()
		m.log().Info("mailer: receiving subscribe mail", "addr", addr.String(), "subscribe_address", m.cfg.SubscribeAddress)
		select {
		case <-ctx.Done():
			shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if err := srv.Shutdown(shutdown); err != nil {
				srv.Close()
			}
			cancel()
			return
		case err := <-errc:
			if err == nil || errors.Is(err, smtp.ErrServerClosed) {
				return
			}
			down := fmt.Errorf("the subscribe-mail receiver stopped: %w", err)
			m.receiver.Store(&down)
			m.log().Error("mailer: SMTP receiver stopped; digests still run, listening again later", "err", err, "retry_in", wait)
			srv.Close()
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
	}
}
