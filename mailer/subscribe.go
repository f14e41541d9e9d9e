package mailer

import (
	"context"
	"time"

	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Watches is the subscription lifecycle (internal/watch.Service) this
// mailer sends for: the API, the MCP tools and the SMTP receiver call it.
func (m *Mailer) Watches() *watch.Service { return m.svc }

// Outbound is the lifecycle's watch.Sender: the lifecycle stores the mail
// it promises, and Nudge wakes the outbox worker (promised.go) that
// delivers it.
var _ watch.Sender = (*Outbound)(nil)

// Nudge wakes the outbox worker.
func (m *Outbound) Nudge() {
	select {
	case m.wake <- struct{}{}:
	default: // a pass is due already
	}
}

var _ = store.CounterSubscriptionActive == watch.CounterActive // the same counter

func (m *core) messageID(kind, id string) string {
	return kind + "." + id + "@" + m.cfg.Hostname
}

func (m *core) send(ctx context.Context, msg Message) error {
	if msg.From == "" {
		msg.From = m.cfg.From
	}
	raw, err := msg.Encode(m.now())
	if err != nil {
		return err
	}
	if m.cfg.DKIM != nil {
		if raw, err = m.cfg.DKIM.sign(raw); err != nil {
			return err
		}
	}
	if err := m.transport.Send(ctx, m.cfg.From, []string{msg.To}, raw, msg.MessageID); err != nil {
		return err
	}
	m.log().Info("mailer: sent", "kind", msg.Kind, "message_id", msg.MessageID)
	return nil
}

func (m *core) sendRefusal(ctx context.Context, email, reason, inReplyTo string) error {
	return m.send(ctx, Message{Kind: "refusal", To: email, Subject: "Recordwatch could not read your request",
		Text: refusalText(reason), MessageID: m.messageID("refusal", watch.NewID()), InReplyTo: inReplyTo, AutoSubmitted: "auto-replied"})
}

// sendUnsubscribeHelp answers mail that asks to leave: how to unsubscribe,
// since a reply cannot prove who sent it.
func (m *core) sendUnsubscribeHelp(ctx context.Context, email, inReplyTo string) error {
	text := "You asked to unsubscribe. Mail to this address cannot remove a watch: the\n" +
		"sender of a mail can be forged, so anyone could unsubscribe anyone.\n\n" +
		"Every Recordwatch mail you received carries its own links at its foot:\n\n" +
		"  - the unsubscribe link removes that watch at once (your mail program's\n" +
		"    unsubscribe button uses the same link);\n" +
		"  - the manage link lists every watch of your address, to change or\n" +
		"    remove any of them.\n\n" +
		"If you never asked for a watch, no watch was made by this message and\n" +
		"nothing was stored.\n\n-- \n" + footer + "\n"
	return m.send(ctx, Message{Kind: "unsubscribe-help", To: email, Subject: "How to unsubscribe from Recordwatch",
		Text: text, MessageID: m.messageID("unsubscribe-help", watch.NewID()), InReplyTo: inReplyTo, AutoSubmitted: "auto-replied"})
}

// schedule states when a cadence's digests go out.
func (m *core) schedule(cadence string) string {
	if m.cfg.DigestEvery == 24*time.Hour {
		return watch.Schedule(m.cfg.DigestHour, cadence)
	}
	if cadence == watch.CadenceWeekly {
		return "weekly, every " + (7 * m.cfg.DigestEvery).String()
	}
	return "every " + m.cfg.DigestEvery.String()
}
