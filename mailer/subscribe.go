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

// sender is the mailer as the lifecycle's watch.Sender: the lifecycle
// stores the mail it promises, and Nudge wakes the outbox worker
// (promised.go) that delivers it.
type sender struct{ m *Mailer }

var _ watch.Sender = sender{}

func (s sender) Nudge() {
	select {
	case s.m.wake <- struct{}{}:
	default: // a pass is due already
	}
}

var _ = store.CounterSubscriptionActive == watch.CounterActive // the same counter

func (m *Mailer) messageID(kind, id string) string {
	return kind + "." + id + "@" + m.cfg.Hostname
}

func (m *Mailer) send(ctx context.Context, msg Message) error {
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

func (m *Mailer) sendRefusal(ctx context.Context, email, reason, inReplyTo string) error {
	return m.send(ctx, Message{Kind: "refusal", To: email, Subject: "Recordwatch could not read your request",
		Text: refusalText(reason), MessageID: m.messageID("refusal", watch.NewID()), InReplyTo: inReplyTo, AutoSubmitted: "auto-replied"})
}

// schedule states when a cadence's digests go out.
func (m *Mailer) schedule(cadence string) string {
	if m.cfg.DigestEvery == 24*time.Hour {
		return m.svc.Schedule(cadence)
	}
	if cadence == watch.CadenceWeekly {
		return "weekly, every " + (7 * m.cfg.DigestEvery).String()
	}
	return "every " + m.cfg.DigestEvery.String()
}
