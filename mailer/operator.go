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
func (m *Digests) digestReceipt(ctx context.Context, started time.Time, rep DigestReport, err error) {
	if errors.Is(err, context.Canceled) {
		return // a stop is no run
	}
	defer m.ranDigests.Store(true) // after the receipt: the alarm reads it (OperatorStatuses)
	if m.deps.Receipts == nil {
		return
	}
	window := record.N("sources.window.digest", rep.Window)
	rc := record.Receipt{Job: DigestJob, Source: "mailer", Window: window.String(), WindowKey: &window, Started: started, Finished: m.now(),
		RowsRead: rep.Planned + rep.CheckIns + rep.Heartbeats, Written: rep.Sent, Rejected: rep.Failed + rep.Dropped, Outcome: record.ReceiptOK}
	if err != nil {
		rc.Outcome, rc.Error = record.ReceiptFailed, err.Error()
	}
	if perr := m.deps.Receipts.PutReceipt(context.WithoutCancel(ctx), rc); perr != nil {
		m.log().Warn("mailer: digest receipt not stored", "err", perr)
	}
}

// OperatorStatuses wraps the job statuses the operator's late-job alarm
// reads (indexer.Watchdog): until the digest scheduler's first run since
// this start has finished, the digest job is late for the alarm only when
// record.LateAfter intervals (PollEvery) have passed since the start
// without one. After a stop of more than two intervals the receipts' last
// run is old, and the first run is on its way: no "digests is late" mail
// for it; a scheduler that never runs is still reported. Other jobs, and
// the statuses /api/sources and /readyz show, are as the receipts say.
func (m *Digests) OperatorStatuses(statuses func(context.Context) ([]record.JobStatus, error)) func(context.Context) ([]record.JobStatus, error) {
	return func(ctx context.Context) ([]record.JobStatus, error) {
		sts, err := statuses(ctx)
		if m.ranDigests.Load() {
			return sts, err
		}
		for i := range sts {
			if sts[i].Job != DigestJob || !sts[i].Late {
				continue
			}
			if late, _ := record.Late(m.started, m.cfg.PollEvery, m.now()); !late {
				sts[i].Late = false
				first := record.N("sources.late.first_run", m.started.UTC().Format(time.RFC3339))
				sts[i].LateNote, sts[i].LateNoteKey = first.String(), &first
			}
		}
		return sts, err
	}
}

// SendOperator sends the operator a plain alert (RECORDWATCH_OPERATOR_EMAIL:
// a late scheduled job), through the same transport as every mail.
func (m *Digests) SendOperator(ctx context.Context, to, subject, text string) error {
	return m.send(ctx, Message{Kind: "operator", To: to, Subject: subject, Text: text,
		MessageID: m.messageID("operator", watch.NewID()), AutoSubmitted: "auto-generated"})
}
