package store

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/watch"
)

// Digest delivery states, one delivery per watch per digest window.
const (
	// DeliveryPlanned: the records are chosen (and the watch's seen set
	// advanced in the same transaction); nothing was sent yet.
	DeliveryPlanned = "planned"
	// DeliverySending: a send began. A process that stops here does not
	// know whether the mail left; see Delivery.
	DeliverySending = "sending"
	DeliverySent    = "sent"
	DeliveryFailed  = "failed"  // the last attempt failed; retried at NextAttempt
	DeliveryEmpty   = "empty"   // nothing new in this window: no mail
	DeliveryDropped = "dropped" // given up: a send over a relay was cut short, its outcome unknown
	// DeliveryMerged: not sent on its own; its records went into the
	// watch's next (catch-up) digest, named by MergedInto.
	DeliveryMerged = "merged"
)

// Kinds of digest mail.
const (
	KindDigest    = ""          // new (or updated) records
	KindCheckIn   = "checkin"   // a weekly watch with nothing new
	KindHeartbeat = "heartbeat" // a daily watch quiet for a long stretch
	KindChange    = "change"    // a follow watch's object changed: the fields, old → new
)

// Delivery is one watch's digest for one window. The planned records are
// stored before anything is sent, so a restart sends the same digest (or
// none), never a second one.
type Delivery struct {
	WatchID string `json:"watch_id"`
	Window  string `json:"window"`
	State   string `json:"state"`
	// Kind is KindDigest, KindCheckIn or KindHeartbeat.
	Kind string `json:"kind,omitempty"`
	// Cadence is the watch's cadence when this was planned; Since is the
	// watch's window planned before this one ("" for its first).
	Cadence    string   `json:"cadence,omitempty"`
	Since      string   `json:"since,omitempty"`
	RequestIDs []string `json:"request_ids,omitempty"`
	// Updates are the request ids among RequestIDs that republish an award
	// already delivered with a fact changed (shown as updates, not news).
	Updates []string `json:"updates,omitempty"`
	// Changes are a follow watch's changed fields (KindChange), as
	// observed when planned: the mail says exactly these.
	Changes []watch.Change `json:"changes,omitempty"`
	// CatchUpFrom is the last window delivered or planned before a gap
	// (the service was down, or the relay refused the digests in between):
	// this digest covers everything new since then and says so.
	CatchUpFrom string `json:"catch_up_from,omitempty"`
	// MergedFrom are the earlier windows whose undelivered records this
	// digest carries; MergedInto names the digest that carries this one's.
	MergedFrom []string `json:"merged_from,omitempty"`
	MergedInto string   `json:"merged_into,omitempty"`
	// Covered states what the check-in or heartbeat searched (sources and
	// dates), as of planning.
	Covered string `json:"covered,omitempty"`
	// The ledger (watch.LedgerEntry): the ids matched in this run
	// (bounded), how the mail left (Transport: "relay" or "outbox"), its
	// subject and text (the text cleared after watch.BodyKeep), and why it
	// was last deferred.
	Matched     []string  `json:"matched,omitempty"`
	Transport   string    `json:"transport,omitempty"`
	Subject     string    `json:"subject,omitempty"`
	Body        string    `json:"body,omitempty"`
	Deferred    string    `json:"deferred,omitempty"`
	MessageID   string    `json:"message_id"`
	Attempts    int       `json:"attempts"`
	NextAttempt time.Time `json:"next_attempt,omitzero"`
	LastError   string    `json:"last_error,omitempty"`
	PlannedAt   time.Time `json:"planned_at"`
	SentAt      time.Time `json:"sent_at,omitzero"`
}

// Open reports whether the delivery still has work to do.
func (d Delivery) Open() bool {
	return d.State == DeliveryPlanned || d.State == DeliverySending || d.State == DeliveryFailed
}

// Watches stores standing email watches and their digest deliveries.
// Watches are keyed by a random id; the email address is kept only to send
// the watch's mail and is deleted with the watch. A Form 2 request awaiting
// confirmation is never stored (it travels in its signed token).
type Watches interface {
	// CreateWatch stores an active watch with the mail it promises (when
	// mail is set: its welcome, see watch.Outbox). A non-empty once key
	// (the nonce of the confirmation token) is claimed in the same
	// transaction until onceUntil; a key claimed before gives ErrTokenUsed
	// and stores nothing.
	CreateWatch(ctx context.Context, w watch.Watch, once string, onceUntil time.Time, mail *watch.Promise) error
	// Outbox: promised mail and the per-address mail budget.
	watch.Outbox
	// GetWatch returns a watch, or ENOTFOUND.
	GetWatch(ctx context.Context, id string) (watch.Watch, error)
	// DeleteWatch removes a watch, its address and its deliveries. It
	// reports whether there was one.
	DeleteWatch(ctx context.Context, id string) (bool, error)
	// ListWatches returns every stored (active) watch.
	ListWatches(ctx context.Context) ([]watch.Watch, error)
	// CountWatches counts active watches.
	CountWatches(ctx context.Context) (int, error)

	// PlanDigest stores d (state planned or empty) and sets the watch's
	// progress (seen set, award facts, quiet mark) and last window, in one
	// transaction, unless a delivery for the same watch and window exists:
	// then it returns that one and false.
	PlanDigest(ctx context.Context, d Delivery, next watch.Progress) (Delivery, bool, error)
	// SetCadence changes a watch's cadence (daily or weekly); found is false
	// when there is no such watch.
	SetCadence(ctx context.Context, id, cadence string) (found bool, err error)
	// GetDelivery returns a watch's delivery for a window.
	GetDelivery(ctx context.Context, watchID, window string) (Delivery, bool, error)
	// PutDelivery updates a delivery's state (the watch must still exist;
	// otherwise it is dropped silently and false is returned).
	PutDelivery(ctx context.Context, d Delivery) (bool, error)
	// OpenDeliveries lists deliveries that still have work to do.
	OpenDeliveries(ctx context.Context) ([]Delivery, error)

	// WatchKey returns the token-signing key, generated once and kept in
	// the store (never in the repository).
	WatchKey(ctx context.Context) ([]byte, error)
	// SweepWatches forgets used confirmation nonces past their expiry and
	// finished deliveries older than keep, and clears the mail text of
	// deliveries older than watch.BodyKeep.
	SweepWatches(ctx context.Context, now time.Time, keep time.Duration) (int, error)
	// Deliveries lists a watch's deliveries (its ledger), newest first.
	Deliveries(ctx context.Context, watchID string) ([]Delivery, error)
	// Ledger is Deliveries as the manage page shows them (LedgerOf).
	Ledger(ctx context.Context, watchID string) ([]watch.LedgerEntry, error)
}
