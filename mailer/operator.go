package mailer

import (
	"context"
	"errors"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// DigestJob names the digest runs in receipts and on /api/sources.
const DigestJob = "digests"

// digestReceipt stores a digest run's receipt when Deps.Receipts is set:
// the window, the deliveries planned (read), sent (written) and failed or
// dropped (rejected), start, finish and outcome. A receipt the store
// refuses is logged: the run stands.
func (m *Mailer) digestReceipt(ctx context.Context, started time.Time, rep DigestReport, err error) {
	if m.deps.Receipts == nil || errors.Is(err, context.Canceled) {
		return
	}
	rc := record.Receipt{Job: DigestJob, Source: "mailer", Window: "digest window " + rep.Window, Started: started, Finished: m.now(),
		RowsRead: rep.Planned + rep.CheckIns + rep.Heartbeats, Written: rep.Sent, Rejected: rep.Failed + rep.Dropped, Outcome: record.ReceiptOK}
	if err != nil {
		rc.Outcome, rc.Error = record.ReceiptFailed, err.Error()
	}
	if perr := m.deps.Receipts.PutReceipt(context.WithoutCancel(ctx), rc); perr != nil {
		m.log().Warn("mailer: digest receipt not stored", "err", perr)
	}
}

// SendOperator sends the operator a plain alert (RECORDWATCH_OPERATOR_EMAIL:
// a late scheduled job), through the same transport as every mail.
func (m *Mailer) SendOperator(ctx context.Context, to, subject, text string) error {
	return m.send(ctx, Message{Kind: "operator", To: to, Subject: subject, Text: text,
		MessageID: m.messageID("operator", watch.NewID()), AutoSubmitted: "auto-generated"})
}
