package mailer

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// The outbox worker delivers the mail requests promised (watch.Promise:
// welcome and confirmation mails), which the requests stored before they
// answered. It keeps two rules:
//
//   - the per-address budget: an address gets at most one unasked mail
//     (welcome, confirmation) per watch.UnaskedEvery, whoever asks and
//     from however many clients; everything promised to it meanwhile is
//     listed in its next mail, never one mail each. Mail its owner asked
//     for from a link (Promise.Asked) goes at once.
//   - acknowledged means sent: a promise leaves the store only when the
//     transport took its mail. A failed send (a relay down, a full disk)
//     is retried with backoff, without a restart; a crash between fixing
//     a batch and recording it sent resends the same batch under the same
//     message id (the .eml outbox writes the same file: no duplicate).
//
// One worker per process delivers; deployments run it in the mailer (or
// all) role only, so two processes never deliver the same promise.

// mailRetryMax bounds the backoff between attempts at a promised mail.
const mailRetryMax = 10 * time.Minute

// orphanGrace is how long a welcome whose watch cannot be read waits
// before it is dropped: on OpenSearch the promise is written just before
// its watch, and a refused watch leaves its promise behind.
const orphanGrace = time.Minute

func mailBackoff(attempts int) time.Duration {
	d := 30 * time.Second
	for i := 1; i < attempts && d < mailRetryMax; i++ {
		d *= 2
	}
	return min(d, mailRetryMax)
}

// MailReport says what one pass of the outbox worker did.
type MailReport struct {
	Sent     int // mails sent
	Promises int // promises those mails carried
	Waiting  int // promises held back by an address's budget
	Failed   int // mails whose send failed (retried later)
	Dropped  int // promises dropped: their watch ended before its welcome
}

// Backlog counts the promised mails not yet delivered (/readyz, /stats).
func (m *Outbound) Backlog(ctx context.Context) (int, error) {
	ps, err := m.deps.Store.PendingMail(ctx)
	return len(ps), err
}

// OutboxStuckAfter is how long a promised mail may keep failing before
// /readyz reports the outbox down.
const OutboxStuckAfter = 30 * time.Minute

// OutboxReady reports the outbox down when a promised mail has been
// failing for OutboxStuckAfter (the relay refuses, the disk is full), or
// when the store cannot list it; mail held back by an address's budget is
// not a fault.
func (m *Outbound) OutboxReady(ctx context.Context) error {
	ps, err := m.deps.Store.PendingMail(ctx)
	if err != nil {
		return fmt.Errorf("the promised mail cannot be read: %w", err)
	}
	stuck := 0
	for _, p := range ps {
		if p.Attempts > 0 && m.now().Sub(p.CreatedAt) >= OutboxStuckAfter {
			stuck++
		}
	}
	if stuck > 0 {
		return fmt.Errorf("%d of %d promised mails have failed for %v or more (last error: %s)", stuck, len(ps), OutboxStuckAfter, lastError(ps))
	}
	return nil
}

func lastError(ps []watch.Promise) string {
	for _, p := range ps {
		if p.LastError != "" {
			return p.LastError
		}
	}
	return "none recorded"
}

// DeliverMail is one pass of the outbox worker: every promise whose time
// has come, one mail per address and kind of budget.
func (m *Outbound) DeliverMail(ctx context.Context) (MailReport, error) {
	m.delivering.Lock()
	defer m.delivering.Unlock()
	var rep MailReport
	ps, err := m.deps.Store.PendingMail(ctx)
	if err != nil {
		return rep, err
	}
	byAddress := map[string][]watch.Promise{}
	var order []string
	for _, p := range ps {
		if _, ok := byAddress[p.Address]; !ok {
			order = append(order, p.Address)
		}
		byAddress[p.Address] = append(byAddress[p.Address], p)
	}
	sort.Strings(order)
	for _, addr := range order {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		group := byAddress[addr]
		sort.SliceStable(group, func(i, j int) bool { return group[i].CreatedAt.Before(group[j].CreatedAt) })
		var asked, unasked []watch.Promise
		for _, p := range group {
			if p.Asked {
				asked = append(asked, p)
			} else {
				unasked = append(unasked, p)
			}
		}
		if len(asked) > 0 {
			batch, _ := pickBatch(asked)
			m.deliverBatch(ctx, addr, batch, false, &rep)
		}
		if len(unasked) == 0 {
			continue
		}
		// a batch fixed before a stop is sent again as it was; else the
		// address's budget decides
		batch, fixed := pickBatch(unasked)
		if !fixed {
			a, err := m.deps.Store.Address(ctx, addr)
			if err != nil {
				rep.Failed++
				m.log().Warn("mailer: the address budget could not be read; promised mail waits", "err", err)
				continue
			}
			if due := a.UnaskedDue(); m.now().Before(due) {
				rep.Waiting += len(unasked)
				continue
			}
		}
		m.deliverBatch(ctx, addr, batch, true, &rep)
	}
	return rep, nil
}

// pickBatch is the batch to send: the one fixed before a stop (its
// promises exactly), or else every promise given.
func pickBatch(ps []watch.Promise) ([]watch.Promise, bool) {
	fixed := ""
	for _, p := range ps {
		if p.Batch != "" {
			fixed = p.Batch
			break
		}
	}
	if fixed == "" {
		return ps, false
	}
	var out []watch.Promise
	for _, p := range ps {
		if p.Batch == fixed {
			out = append(out, p)
		}
	}
	return out, true
}

// deliverBatch sends one mail carrying the promises (unasked: spending the
// address's budget) and records the outcome.
func (m *Outbound) deliverBatch(ctx context.Context, addr string, batch []watch.Promise, unasked bool, rep *MailReport) {
	now := m.now()
	for _, p := range batch {
		if p.NextAttempt.After(now) {
			return // the batch is retried as one, at its time
		}
	}
	parts, dropped, err := m.promisedParts(ctx, batch, now)
	if err != nil {
		m.mailFailed(ctx, batch, err, rep)
		return
	}
	if len(parts) == 0 { // every welcome's watch has ended: nothing to say
		if len(dropped) > 0 {
			rep.Dropped += len(dropped)
			if err := m.deps.Store.MailDone(ctx, addr, dropped, time.Time{}); err != nil {
				m.log().Warn("mailer: dropped promises not removed", "err", err)
			}
		}
		return
	}
	// the batch is fixed (and stored) before its mail leaves: a restart
	// sends this same mail, under this same message id
	id := batch[0].Batch
	if id == "" {
		id = m.messageID(parts[0].kind, batch[0].ID)
		for i := range batch {
			batch[i].Batch = id
			if _, err := m.deps.Store.PutMail(ctx, batch[i]); err != nil {
				m.mailFailed(ctx, batch, err, rep)
				return
			}
		}
	}
	msg, err := m.promisedMessage(ctx, addr, parts, id, unasked)
	if err == nil {
		err = m.send(ctx, msg)
	}
	if err != nil {
		m.mailFailed(ctx, batch, err, rep)
		return
	}
	ids := dropped
	for _, p := range parts {
		ids = append(ids, p.promise.ID)
	}
	at := time.Time{}
	if unasked {
		at = now
	}
	if err := m.deps.Store.MailDone(ctx, addr, ids, at); err != nil {
		// sent but not recorded: the next pass sends the same batch under
		// the same message id (the .eml outbox keeps one file)
		m.log().Error("mailer: promised mail sent but not recorded", "message_id", id, "err", err)
	}
	rep.Sent++
	rep.Promises += len(parts)
	rep.Dropped += len(dropped)
}

func (m *Outbound) mailFailed(ctx context.Context, batch []watch.Promise, err error, rep *MailReport) {
	rep.Failed++
	m.log().Warn("mailer: promised mail not sent; will retry", "promises", len(batch), "attempt", batch[0].Attempts+1, "err", err)
	for _, p := range batch {
		p.Attempts++
		p.NextAttempt = m.now().Add(mailBackoff(p.Attempts))
		p.LastError = err.Error()
		if _, perr := m.deps.Store.PutMail(ctx, p); perr != nil {
			m.log().Warn("mailer: a promised mail's attempt not recorded", "err", perr)
		}
	}
}

// part is one promise as its mail says it.
type part struct {
	promise watch.Promise
	kind    string // "welcome" or "confirm"
	w       watch.Watch
	// manage and unsubscribe (welcome), link (confirmation)
	manage, unsub, link string
}

// promisedParts reads what each promise's mail says: a welcome's watch
// and links (a welcome whose watch has ended is dropped), a
// confirmation's link, signed now.
func (m *Outbound) promisedParts(ctx context.Context, batch []watch.Promise, now time.Time) ([]part, []string, error) {
	var parts []part
	var dropped []string
	for _, p := range batch {
		switch p.Kind {
		case watch.MailWelcome:
			w, err := m.deps.Store.GetWatch(ctx, p.WatchID)
			if record.ErrorCode(err) == record.ENOTFOUND {
				if now.Sub(p.CreatedAt) >= orphanGrace || p.Batch != "" {
					dropped = append(dropped, p.ID) // unsubscribed (or removed) before its welcome
				}
				continue
			}
			if err != nil {
				return nil, nil, err
			}
			manage, unsub, err := m.tokens.ManageLinks(w.ID)
			if err != nil {
				return nil, nil, err
			}
			parts = append(parts, part{promise: p, kind: "welcome", w: w, manage: manage, unsub: unsub})
		case watch.MailConfirmation:
			link, _, err := m.tokens.ConfirmationLink(p)
			if err != nil {
				return nil, nil, err
			}
			parts = append(parts, part{promise: p, kind: "confirm", link: link})
		default:
			dropped = append(dropped, p.ID)
			m.log().Error("mailer: a promised mail of an unknown kind dropped", "kind", p.Kind)
		}
	}
	return parts, dropped, nil
}

// promisedMessage composes the one mail of a batch. One promise reads as
// the welcome or confirmation mail always did; several are listed, each
// with its own links. An unasked mail carries "this wasn't me — remove
// everything" (its List-Unsubscribe, one click).
func (m *Outbound) promisedMessage(ctx context.Context, addr string, parts []part, id string, unasked bool) (Message, error) {
	remove := ""
	if unasked {
		var err error
		if remove, err = m.tokens.RemoveAllLink(parts[0].promise.Email); err != nil {
			return Message{}, err
		}
	}
	first := parts[0]
	msg := Message{To: first.promise.Email, MessageID: id, InReplyTo: first.promise.InReplyTo, Unsubscribe: remove}
	if msg.InReplyTo != "" {
		msg.AutoSubmitted = "auto-replied"
	}
	welcomes, confirms := 0, 0
	for _, p := range parts {
		if p.kind == "welcome" {
			welcomes++
		} else {
			confirms++
		}
	}
	if len(parts) == 1 {
		switch first.kind {
		case "welcome":
			msg.Kind, msg.Subject = "welcome", "Your Recordwatch watch is active: "+oneLine(mailSafe(first.w.Scope), 80)
			msg.Text = welcomeText(first.w, first.manage, first.unsub, m.schedule(first.w.CadenceOf()), remove)
			if msg.Unsubscribe == "" {
				msg.Unsubscribe = first.unsub
			}
		default:
			u := *first.promise.Understanding
			msg.Kind, msg.Subject = "confirmation", "Confirm your Recordwatch watch: "+oneLine(mailSafe(u.Scope), 80)
			msg.Text = confirmationText(u, first.link, m.cfg.ConfirmTTL, m.schedule(u.Cadence), remove)
		}
		return msg, nil
	}
	var b strings.Builder
	switch {
	case confirms == 0:
		msg.Kind, msg.Subject = "welcome", fmt.Sprintf("Your %d Recordwatch watches are active", welcomes)
		fmt.Fprintf(&b, "%d Recordwatch watches for this address are active. An address gets at\nmost one such email a day, so they are listed together here.\n\n", welcomes)
	case welcomes == 0:
		msg.Kind, msg.Subject = "confirmation", fmt.Sprintf("Confirm your %d Recordwatch watch requests", confirms)
		fmt.Fprintf(&b, "Someone (we hope you) asked Recordwatch %d times to email this address\nabout new public records. An address gets at most one such email a day,\nso the requests are listed together here. Each starts only if you confirm it.\n\n", confirms)
	default:
		msg.Kind, msg.Subject = "welcome", fmt.Sprintf("Recordwatch: %d watches active, %d requests to confirm", welcomes, confirms)
		fmt.Fprintf(&b, "This email lists %d active Recordwatch watches and %d requests awaiting\nyour confirmation for this address (an address gets at most one such email\na day).\n\n", welcomes, confirms)
	}
	for i, p := range parts {
		fmt.Fprintf(&b, "%d. ", i+1)
		if p.kind == "welcome" {
			b.WriteString("Active watch:\n" + wrap(mailSafe(p.w.Scope), 72, "   ") + "\n")
			b.WriteString(wrap(welcomeHead(p.w, m.schedule(p.w.CadenceOf()))+" "+welcomeExplain(p.w), 72, "   ") + "\n")
			b.WriteString("   Manage:       " + p.manage + "\n")
			b.WriteString("   Unsubscribe:  " + p.unsub + "\n\n")
			continue
		}
		u := *p.promise.Understanding
		b.WriteString("Request awaiting confirmation:\n" + wrap(mailSafe(u.Scope), 72, "   ") + "\n")
		b.WriteString("   Digests: " + m.schedule(u.Cadence) + ".\n")
		fmt.Fprintf(&b, "   To start it, open this link and press \"Confirm\" (it works for %d hours):\n   %s\n\n", int(m.cfg.ConfirmTTL.Hours()), p.link)
	}
	if welcomes > 0 {
		b.WriteString("Keep this email: these links are the only way to manage the watches.\nKnowing your address gives nobody access to them.\n\n")
	}
	if confirms > 0 {
		b.WriteString("If you did not ask for a request, ignore it: nothing is stored for it and\nnothing will be sent.\n\n")
	}
	b.WriteString(removeAllText(remove))
	b.WriteString("-- \n" + footer + "\n")
	msg.Text = b.String()
	return msg, nil
}

// removeAllText is the "this wasn't me" paragraph of an unasked mail.
func removeAllText(link string) string {
	if link == "" {
		return ""
	}
	return "This wasn't me — remove everything (one click ends every watch of this\naddress and drops every mail queued for it):\n\n  " + link + "\n\n"
}

// RunOutbox runs the outbox worker until ctx ends: at once when a request
// stored a promise (Nudge), and every few seconds for retries and for
// promises stored by another process.
func (m *Outbound) RunOutbox(ctx context.Context) {
	every := min(max(m.cfg.PollEvery/4, time.Second), 15*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		if _, err := m.DeliverMail(ctx); err != nil && !errors.Is(err, context.Canceled) {
			m.log().Warn("mailer: outbox pass", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-m.wake:
		case <-t.C:
		}
	}
}

// Flush delivers every promised mail whose time has come, now (tests read
// the .eml outbox after it).
func (m *Outbound) Flush() {
	if _, err := m.DeliverMail(context.Background()); err != nil {
		m.log().Warn("mailer: outbox pass", "err", err)
	}
}
