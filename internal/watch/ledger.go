package watch

import (
	"context"
	"fmt"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The delivery ledger (issue 34, item 3): every run of a watch, as its
// manage page (reached only through the emailed manage link) lists it.

// LedgerKeep is how long a watch's ledger keeps a run; BodyKeep how long
// it keeps the text of the mail a run sent.
const (
	LedgerKeep = 90 * 24 * time.Hour
	BodyKeep   = 7 * 24 * time.Hour
)

// Ledger outcomes.
const (
	OutcomeNothingNew = "nothing new" // a quiet run: no mail
	OutcomeRelay      = "handed to the relay"
	OutcomeOutbox     = "written to the outbox"
	OutcomePlanned    = "planned, not sent yet"
	OutcomeSending    = "sending"
	OutcomeDeferred   = "deferred"
	OutcomeFailed     = "failed; retried"
	OutcomeDropped    = "dropped"
	OutcomeMerged     = "carried by a later mail"
)

// LedgerEntry is one run of a watch: its window, what matched, what was
// new or changed, what was sent and how it went.
type LedgerEntry struct {
	Window    string    `json:"window"`
	PlannedAt time.Time `json:"planned_at,omitzero"` // zero only for a missed run (never planned)
	// Kind is digest, checkin, heartbeat or change.
	Kind string `json:"kind"`
	// Matched are the ids the watch matched in this run (bounded);
	// New the ids new to it, Changed those that republish an award with
	// a fact changed; Fields a follow's changed fields (old → new).
	Matched []string `json:"matched,omitempty"`
	New     []string `json:"new,omitempty"`
	Changed []string `json:"changed,omitempty"`
	Fields  []string `json:"fields,omitempty"`
	// Outcome is one of the Outcome values; Reason says why a run was
	// deferred, failed or dropped.
	Outcome string `json:"outcome"`
	Reason  string `json:"reason,omitempty"`
	// MessageID is the sent mail's Message-ID (the relay's or the outbox
	// file's), Subject its subject; Body its text, kept BodyKeep.
	MessageID  string    `json:"message_id,omitempty"`
	Subject    string    `json:"subject,omitempty"`
	Body       string    `json:"body,omitempty"`
	Attempts   int       `json:"attempts,omitempty"`
	SentAt     time.Time `json:"sent_at,omitzero"`
	MergedInto string    `json:"merged_into,omitempty"`
	// Due is when a missed run was due (OutcomeMissed only).
	Due time.Time `json:"due,omitzero"`
}

// OutcomeMissed is a scheduled run that did not happen: the watch's window
// opened, its grace passed, and no run of it is in the ledger.
const OutcomeMissed = "missed"

// DefaultMissedGrace is how long after a window opens its scheduled run may
// take before it is missed (the digest job polls every minute).
const DefaultMissedGrace = time.Hour

// DueFunc is the window a cadence's scheduled run for now belongs to, with
// the time it opens (the mailer's WindowFor).
type DueFunc func(cadence string, now time.Time) (key string, opens time.Time)

// MissedRun is the one rule of a missed scheduled run (issue 34, item 3):
// an active watch whose window for now opened after the watch was
// activated and more than grace before now, with no run of that window in
// its ledger (its last planned window is earlier). The entry is what its
// ledger shows for it until the run happens.
func MissedRun(w Watch, due DueFunc, grace time.Duration, now time.Time) (LedgerEntry, bool) {
	if due == nil || w.Status != StatusActive {
		return LedgerEntry{}, false
	}
	key, opens := due(w.CadenceOf(), now)
	if w.LastWindow >= key || opens.Before(w.ActivatedAt) || !now.After(opens.Add(grace)) {
		return LedgerEntry{}, false
	}
	return LedgerEntry{Window: key, Kind: "digest", Outcome: OutcomeMissed, Due: opens,
		Reason: fmt.Sprintf("the scheduled run of this window was due %s New York time and had not run %s later; "+
			"an operator error (the digest job is not running or cannot plan), it runs when the job next does",
			opens.In(record.NewYork).Format("Jan 2, 2006 3:04 PM"), grace)}, true
}

// MissedRuns is how many active watches have a missed scheduled run now
// (MissedRun), with the earliest due time among them; counts only, never
// an address.
type MissedRuns struct {
	Watches     int       `json:"watches"`
	EarliestDue time.Time `json:"earliest_due,omitzero"`
	Grace       string    `json:"grace"`
}

// MissedRuns applies MissedRun to every watch stored; ok is false when the
// service has no schedule to judge by (ServiceDeps.Due unset).
func (s *Service) MissedRuns(ctx context.Context) (MissedRuns, bool, error) {
	if s.due == nil {
		return MissedRuns{}, false, nil
	}
	ws, err := s.store.ListWatches(ctx)
	if err != nil {
		return MissedRuns{}, true, err
	}
	now := s.now()
	out := MissedRuns{Grace: s.grace().String()}
	for _, w := range ws {
		if e, ok := MissedRun(w, s.due, s.grace(), now); ok {
			out.Watches++
			if out.EarliestDue.IsZero() || e.Due.Before(out.EarliestDue) {
				out.EarliestDue = e.Due
			}
		}
	}
	return out, true, nil
}

func (s *Service) grace() time.Duration {
	if s.cfg.MissedGrace > 0 {
		return s.cfg.MissedGrace
	}
	return DefaultMissedGrace
}
