package mailer

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// DigestKeep is how long finished deliveries are remembered.
const DigestKeep = 30 * 24 * time.Hour

// Window is the digest window that now falls in, and whether it is open
// for sending: daily windows are named by their New York day and open at
// DigestHour; shorter periods are named by their UTC start.
func (m *Mailer) Window(now time.Time) (key string, open bool) {
	if m.cfg.DigestEvery == 24*time.Hour {
		ny := now.In(record.NewYork)
		day := time.Date(ny.Year(), ny.Month(), ny.Day(), m.cfg.DigestHour, 0, 0, 0, record.NewYork)
		if ny.Before(day) {
			return store.Day(day.AddDate(0, 0, -1)), true
		}
		return store.Day(day), true
	}
	return now.UTC().Truncate(m.cfg.DigestEvery).Format("2006-01-02T15:04Z"), true
}

// DigestReport says what one digest run did.
type DigestReport struct {
	Window  string
	Planned int // deliveries planned now (with new records)
	Empty   int // watches with nothing new
	Sent    int
	Failed  int
	Dropped int
}

// RunDigests plans this window's digest for every active watch that has
// none yet, then works through every open delivery whose time has come.
// Planning stores the chosen records and advances the watch before any
// mail leaves, so a restart resends the same planned digest at most (and
// over a relay, where a cut-short send cannot be known, not at all): a
// digest is never sent twice. Each watch's delivery is retried on its own.
func (m *Mailer) RunDigests(ctx context.Context) (DigestReport, error) {
	now := m.now()
	key, _ := m.Window(now)
	rep := DigestReport{Window: key}
	watches, err := m.deps.Store.ListWatches(ctx)
	if err != nil {
		return rep, err
	}
	for _, w := range watches {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		if w.LastWindow == key || w.Status != watch.StatusActive {
			continue
		}
		d, err := m.plan(ctx, w, key, now)
		if err != nil {
			m.log().Warn("mailer: digest not planned; will retry", "window", key, "err", err)
			continue
		}
		if d.State == store.DeliveryEmpty {
			rep.Empty++
		} else {
			rep.Planned++
		}
	}
	open, err := m.deps.Store.OpenDeliveries(ctx)
	if err != nil {
		return rep, err
	}
	for _, d := range open {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		if d.NextAttempt.After(now) {
			continue
		}
		switch m.deliver(ctx, d) {
		case store.DeliverySent:
			rep.Sent++
		case store.DeliveryFailed:
			rep.Failed++
		case store.DeliveryDropped:
			rep.Dropped++
		}
	}
	return rep, nil
}

// plan chooses the records new to this watch and stores the delivery.
func (m *Mailer) plan(ctx context.Context, w watch.Watch, key string, now time.Time) (store.Delivery, error) {
	res, err := w.Filter.Run(ctx, m.deps.Search, now)
	if err != nil {
		return store.Delivery{}, err
	}
	var fresh, seen []string
	for _, h := range res.Hits {
		id := h.Notice.RequestID
		seen = append(seen, id)
		if !slices.Contains(w.Seen, id) {
			fresh = append(fresh, id)
		}
	}
	d := store.Delivery{WatchID: w.ID, Window: key, State: store.DeliveryPlanned, RequestIDs: fresh,
		MessageID: m.messageID("digest", w.ID+"."+key), PlannedAt: now}
	if len(fresh) == 0 {
		d.State = store.DeliveryEmpty
	}
	// keep ids that left the result but were seen, so a record that comes
	// back into view is not new again (bounded)
	for _, id := range w.Seen {
		if !slices.Contains(seen, id) && len(seen) < 4*watch.FeedLimit {
			seen = append(seen, id)
		}
	}
	got, _, err := m.deps.Store.PlanDigest(ctx, d, seen)
	return got, err
}

func backoff(attempts int) time.Duration {
	d := 5 * time.Minute
	for i := 1; i < attempts && d < 6*time.Hour; i++ {
		d *= 2
	}
	return min(d, 6*time.Hour)
}

// deliver sends one planned delivery and records the outcome.
func (m *Mailer) deliver(ctx context.Context, d store.Delivery) string {
	now := m.now()
	if d.State == store.DeliverySending && !m.transport.Idempotent() {
		// a send began before a restart: whether it left is unknown, and a
		// relay cannot take it back, so it is not sent again
		d.State, d.LastError = store.DeliveryDropped, "interrupted while sending; not resent to avoid a duplicate"
		_, _ = m.deps.Store.PutDelivery(ctx, d)
		return d.State
	}
	w, err := m.deps.Store.GetWatch(ctx, d.WatchID)
	if err != nil {
		return "" // ended meanwhile: its deliveries went with it
	}
	var items []DigestItem
	kind := w.Filter.Lens
	if kind == watch.LensEntity || kind == "" {
		kind = "notice"
	}
	for _, id := range d.RequestIDs {
		n, err := m.deps.Search.Get(ctx, id)
		if err != nil {
			if record.ErrorCode(err) == record.ENOTFOUND {
				continue // withdrawn since planning
			}
			return m.failed(ctx, d, err)
		}
		items = append(items, DigestItem{Notice: n, Link: view.Links{Base: m.cfg.BaseURL, Form: m.cfg.Form}.Digest(kind, n.RequestID)})
	}
	if len(items) == 0 {
		d.State = store.DeliveryEmpty
		_, _ = m.deps.Store.PutDelivery(ctx, d)
		return d.State
	}
	manage, unsub, err := m.svc.ManageLinks(w.ID)
	if err != nil {
		return m.failed(ctx, d, err)
	}
	subject := "Recordwatch: 1 new record"
	if len(items) != 1 {
		subject = "Recordwatch: " + strconv.Itoa(len(items)) + " new records"
	}
	msg := Message{Kind: "digest", To: w.Email, Subject: subject + " — " + oneLine(mailSafe(w.Scope), 70),
		Text: digestText(w, d.Window, items, manage, unsub), MessageID: d.MessageID, Unsubscribe: unsub, Bulk: true}
	d.State = store.DeliverySending
	d.Attempts++
	if kept, err := m.deps.Store.PutDelivery(ctx, d); err != nil || !kept {
		return ""
	}
	if err := m.send(ctx, msg); err != nil {
		return m.failed(ctx, d, err)
	}
	d.State, d.SentAt, d.LastError = store.DeliverySent, now, ""
	if _, err := m.deps.Store.PutDelivery(ctx, d); err != nil {
		m.log().Error("mailer: digest sent but its state was not saved", "err", err)
	}
	_ = store.CountEvent(ctx, m.deps.Store, store.CounterDigestSent, now, 1)
	return d.State
}

func (m *Mailer) failed(ctx context.Context, d store.Delivery, err error) string {
	m.log().Warn("mailer: digest delivery failed; will retry", "window", d.Window, "attempt", d.Attempts, "err", err)
	d.LastError = err.Error()
	if d.Attempts >= m.cfg.MaxAttempts {
		d.State = store.DeliveryDropped
	} else {
		d.State = store.DeliveryFailed
		d.NextAttempt = m.now().Add(backoff(d.Attempts))
	}
	_, _ = m.deps.Store.PutDelivery(ctx, d)
	return d.State
}

// RunScheduler runs digests every PollEvery until ctx ends, and sweeps old
// delivery state once a day.
func (m *Mailer) RunScheduler(ctx context.Context) {
	t := time.NewTicker(m.cfg.PollEvery)
	defer t.Stop()
	var swept time.Time
	for {
		if rep, err := m.RunDigests(ctx); err != nil && !errors.Is(err, context.Canceled) {
			m.log().Warn("mailer: digest run", "err", err)
		} else if rep.Sent+rep.Failed+rep.Dropped > 0 {
			m.log().Info("mailer: digests", "window", rep.Window, "sent", rep.Sent, "failed", rep.Failed, "dropped", rep.Dropped, "empty", rep.Empty)
		}
		if now := m.now(); now.Sub(swept) > 24*time.Hour {
			if _, err := m.deps.Store.SweepWatches(ctx, now, DigestKeep); err != nil {
				m.log().Warn("mailer: sweep", "err", err)
			}
			swept = now
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
