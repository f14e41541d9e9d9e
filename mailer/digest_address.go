package mailer

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// One digest mail per address per window: however many watches an
// address holds (and whoever made them), the deliveries due to it in a
// run go out as one mail, one section per watch, and an address that had
// its digest mail in the current window gets no second one (what is left
// is folded into the next window's). A delivery keeps its own ledger
// entry: its section's text, the mail's subject and message id.

// addressGroup is an address's open deliveries, oldest first.
type addressGroup struct {
	address    string // watch.AddressKey
	deliveries []store.Delivery
}

// byAddress groups open deliveries (oldest first) by their watches'
// addresses (ws: the watches the run listed), in the order of each
// address's oldest delivery. A delivery whose watch is not listed is left
// out (ended: its deliveries went with it; a watch made since the run
// began has none yet).
func byAddress(open []store.Delivery, ws []watch.Watch) []addressGroup {
	email := make(map[string]string, len(ws))
	for _, w := range ws {
		email[w.ID] = w.Email
	}
	var groups []addressGroup
	at := map[string]int{}
	for _, d := range open {
		e, ok := email[d.WatchID]
		if !ok {
			continue
		}
		key := watch.AddressKey(e)
		i, ok := at[key]
		if !ok {
			i = len(groups)
			at[key] = i
			groups = append(groups, addressGroup{address: key})
		}
		groups[i].deliveries = append(groups[i].deliveries, d)
	}
	return groups
}

// deliverGroup sends an address's due deliveries as one mail (or one
// delivery's mail as it always read) and returns each one's outcome.
func (m *Digests) deliverGroup(ctx context.Context, g addressGroup, allow func() string) []string {
	now := m.now()
	var ready []store.Delivery
	var msgs []Message
	var outcomes []string
	for _, d := range g.deliveries {
		msg, out := m.prepare(ctx, d)
		if msg == nil {
			if out != "" {
				outcomes = append(outcomes, out)
			}
			continue
		}
		ready, msgs = append(ready, d), append(msgs, *msg)
	}
	switch len(ready) {
	case 0:
		return outcomes
	case 1:
		outcomes = append(outcomes, m.sendDelivery(ctx, ready[0], msgs[0], allow, now))
	default:
		outcomes = append(outcomes, m.sendGroup(ctx, g, ready, msgs, allow, now)...)
	}
	for _, o := range outcomes {
		if o == store.DeliverySent {
			m.markDigest(ctx, g.address, now)
			break
		}
	}
	return outcomes
}

// markDigest records an address's digest mail of this window.
func (m *Digests) markDigest(ctx context.Context, address string, now time.Time) {
	a, err := m.deps.Store.Address(ctx, address)
	if err == nil {
		a.Key, a.DigestAt = address, now
		err = m.deps.Store.PutAddress(ctx, a)
	}
	if err != nil {
		m.log().Warn("mailer: an address's digest mail not recorded", "err", err)
	}
}

// addressTag names an address in a message id without showing it.
func addressTag(address string) string {
	sum := sha256.Sum256([]byte(address))
	return hex.EncodeToString(sum[:8])
}

// sendGroup sends several deliveries of one address as one mail: each is
// marked sending (with its section as its ledger text) before the send,
// sent only once the transport took the mail, failed (retried, together)
// otherwise.
func (m *Digests) sendGroup(ctx context.Context, g addressGroup, ready []store.Delivery, msgs []Message, allow func() string, now time.Time) []string {
	outcomes := make([]string, len(ready))
	if reason := allow(); reason != "" {
		for i, d := range ready {
			d.Deferred = reason
			_, _ = m.deps.Store.PutDelivery(ctx, d)
			outcomes[i] = deferred
		}
		return outcomes
	}
	id := m.messageID("digest", addressTag(g.address)+"."+ready[0].Window)
	msg, err := m.groupMessage(ready, msgs, id)
	if err != nil {
		for i, d := range ready {
			outcomes[i] = m.failed(ctx, d, err)
		}
		return outcomes
	}
	for i := range ready {
		d := &ready[i]
		d.State, d.Attempts = store.DeliverySending, d.Attempts+1
		d.Subject, d.Body, d.Transport, d.MessageID = msg.Subject, msgs[i].Text, m.transportName(), id
		_, _ = m.deps.Store.PutDelivery(ctx, *d)
	}
	if err := m.send(ctx, msg); err != nil {
		for i, d := range ready {
			outcomes[i] = m.failed(ctx, d, err)
		}
		return outcomes
	}
	for i, d := range ready {
		d.State, d.SentAt, d.LastError = store.DeliverySent, now, ""
		if _, err := m.deps.Store.PutDelivery(ctx, d); err != nil {
			m.log().Error("mailer: digest sent but its state was not saved", "err", err)
		}
		outcomes[i] = store.DeliverySent
	}
	_ = store.CountEvent(ctx, m.deps.Store, store.CounterDigestSent, now, 1)
	return outcomes
}

// groupMessage is one address's digest mail: each watch's mail as a
// section, under one subject, with one footer and "this wasn't me —
// remove everything" as its one-click unsubscribe (the mail is about
// every watch it lists).
func (m *Digests) groupMessage(ready []store.Delivery, msgs []Message, id string) (Message, error) {
	remove, err := m.tokens.RemoveAllLink(msgs[0].To)
	if err != nil {
		return Message{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Recordwatch: %d of your watches have mail in this digest (%s), one\nsection each. An address gets one digest mail per day at most.\n\n", len(msgs), ready[0].Window)
	for i, msg := range msgs {
		section, _, _ := strings.Cut(msg.Text, "\n-- \n")
		fmt.Fprintf(&b, "==== %d of %d: %s ====\n\n", i+1, len(msgs), oneLine(msg.Subject, 200))
		b.WriteString(strings.TrimRight(section, "\n") + "\n\n")
	}
	b.WriteString(removeAllText(remove))
	b.WriteString("-- \n" + footer + "\n")
	return Message{Kind: "digest", To: msgs[0].To, MessageID: id, Unsubscribe: remove, Bulk: true,
		Subject: fmt.Sprintf("Recordwatch: %d watches in one digest (%s)", len(msgs), ready[0].Window), Text: b.String()}, nil
}
