package mailer

import (
	"context"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

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

var errStoreDown = record.Errorf(record.EUNAVAILABLE, "the state store could not answer")

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
// one is reached.
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
func (m *Mailer) Allow(ctx context.Context, client string) error {
	now := m.now()
	ordinal := math.MaxInt // without a client: never among a client's first requests
	if client != "" {
		a, err := m.deps.Store.Take(ctx, CeilingClient, client, m.cfg.RequestsPerClient, now)
		if err != nil {
			return errStoreDown
		}
		if !a.Allowed {
			return limitError(a.ResetAt, "daily limit of %d subscription requests from this address reached; it resets at %s",
				m.cfg.RequestsPerClient, a.ResetAt.Format(time.RFC3339))
		}
		ordinal = m.cfg.RequestsPerClient - a.Remaining // this request is the client's n-th today
	}
	limit := m.sharedPool()
	if ordinal <= m.cfg.FairShareRequests {
		limit = m.cfg.RequestsPerDay
	}
	a, err := m.deps.Store.Take(ctx, CeilingAll, "*", limit, now)
	if err != nil {
		return errStoreDown
	}
	if !a.Allowed {
		if limit < m.cfg.RequestsPerDay {
			return limitError(a.ResetAt, "most of today's subscription requests are taken; the rest are kept for the first %d requests of each client, "+
				"and this client has made more; it resets at %s", m.cfg.FairShareRequests, a.ResetAt.Format(time.RFC3339))
		}
		return limitError(a.ResetAt, "the service has taken all the subscription requests it takes today; it resets at %s",
			a.ResetAt.Format(time.RFC3339))
	}
	return nil
}

// sharedPool is the part of RequestsPerDay any request may draw on.
func (m *Mailer) sharedPool() int {
	n := int(math.Floor(m.cfg.FairShareAfter * float64(m.cfg.RequestsPerDay)))
	return max(n, 1)
}

// takeAddress takes one unit of the per-address mail ceiling (keyed by
// AddressKey).
func (m *Mailer) takeAddress(ctx context.Context, addr string) (store.Allowance, error) {
	return m.deps.Store.Take(ctx, CeilingAddress, AddressKey(addr), m.cfg.RepliesPerAddress, m.now())
}

// addressLimited is the refusal of a request whose address has had its
// mails today.
func (m *Mailer) addressLimited(a store.Allowance) error {
	return limitError(a.ResetAt, "this address has had %d watch mails today; try again after %s",
		m.cfg.RepliesPerAddress, a.ResetAt.Format(time.RFC3339))
}

// mayMail takes one unit of the per-address ceiling for a mail that is
// sent without an answer depending on it (a Form 2 confirmation, an answer
// to subscribe mail): over the ceiling, or when the store cannot answer,
// nothing is sent.
func (m *Mailer) mayMail(ctx context.Context, addr string) bool {
	a, err := m.takeAddress(ctx, addr)
	if err != nil {
		m.log().Warn("mailer: address ceiling unavailable; not sending", "err", err)
		return false
	}
	if !a.Allowed {
		m.log().Info("mailer: daily mail ceiling for an address reached; not sending")
	}
	return a.Allowed
}
