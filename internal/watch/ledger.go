package watch

import "time"

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
	PlannedAt time.Time `json:"planned_at"`
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
}
