package mailer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/record"
)

// A digest run leaves a receipt (job "digests") when receipts are kept:
// deliveries planned, sent and failed, and a failed run's error; an
// operator alert goes out through the same transport as every mail.
func TestDigestReceiptsAndOperatorMail(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	tm.deps.Receipts = tm.st
	ctx := context.Background()
	tm.digestReceipt(ctx, start, DigestReport{Window: "2026-08-14", Planned: 2, CheckIns: 1, Sent: 2, Failed: 1}, nil)
	tm.digestReceipt(ctx, start.Add(time.Minute), DigestReport{}, errors.New("store unavailable"))
	tm.digestReceipt(ctx, start.Add(2*time.Minute), DigestReport{}, context.Canceled) // a stop is no run
	got, err := tm.st.Receipts(ctx, DigestJob, 10)
	if err != nil || len(got) != 2 {
		t.Fatalf("receipts %+v %v", got, err)
	}
	if got[0].Outcome != record.ReceiptFailed || got[0].Error != "store unavailable" {
		t.Errorf("failed run: %+v", got[0])
	}
	if r := got[1]; r.Outcome != record.ReceiptOK || r.RowsRead != 3 || r.Written != 2 || r.Rejected != 1 || !strings.Contains(r.Window, "2026-08-14") {
		t.Errorf("good run: %+v", r)
	}
	if err := tm.SendOperator(ctx, "ops@example.org", "Recordwatch: scheduled job crol is late", "late\n"); err != nil {
		t.Fatal(err)
	}
	files := tm.files("operator.")
	if len(files) != 1 || !strings.Contains(readFile(t, files[0]), "Subject: Recordwatch: scheduled job crol is late") {
		t.Errorf("operator mail: %v", files)
	}
}

// After a stop of more than two digest intervals, a start does not mail
// the operator "digests is late" before the scheduler's first run: the
// alarm (the watchdog over the statuses main.go reads) waits for it, the
// run clears the lateness, and a scheduler that then stops running is
// reported once. A scheduler that never runs after a start is reported
// too, once two intervals have passed since the start.
func TestLateDigestAlarmWaitsForTheFirstRun(t *testing.T) {
	ctx := context.Background()
	const ops = "ops@example.org"
	setup := func() (*testMailer, *indexer.Watchdog, func() record.JobStatus) {
		tm := newTestMailer(t, nil, nil)
		tm.deps.Receipts = tm.st
		// the last run before a stop of 10 minutes (PollEvery is a minute)
		if err := tm.st.PutReceipt(ctx, record.Receipt{Job: DigestJob, Source: "mailer", Started: start.Add(-10 * time.Minute),
			Finished: start.Add(-10 * time.Minute), Outcome: record.ReceiptOK}); err != nil {
			t.Fatal(err)
		}
		statuses := func(ctx context.Context) ([]record.JobStatus, error) { // as main.go reads the digest job
			st, err := indexer.JobOf(ctx, tm.st, DigestJob, "mailer", tm.Config().PollEvery, 0, nil, 5, tm.now())
			return []record.JobStatus{st}, err
		}
		dog := &indexer.Watchdog{Statuses: tm.OperatorStatuses(statuses), Logger: quiet,
			Alert: func(ctx context.Context, subject, text string) error { return tm.SendOperator(ctx, ops, subject, text) }}
		raw := func() record.JobStatus {
			sts, err := statuses(ctx)
			if err != nil {
				t.Fatal(err)
			}
			return sts[0]
		}
		return tm, dog, raw
	}
	check := func(tm *testMailer, dog *indexer.Watchdog, when string, wantMails int) {
		t.Helper()
		if _, err := dog.Check(ctx); err != nil {
			t.Fatal(err)
		}
		if got := tm.files("operator."); len(got) != wantMails {
			t.Errorf("%s: %d operator mails, want %d", when, len(got), wantMails)
		}
	}

	tm, dog, raw := setup()
	if !raw().Late {
		t.Fatal("the receipts do not say the digests are late after the stop")
	}
	check(tm, dog, "at the start", 0)
	tm.clock.Set(start.Add(30 * time.Second))
	check(tm, dog, "before the first run", 0)
	// the scheduler's first run (RunScheduler runs one at once)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { tm.RunScheduler(runCtx); close(done) }()
	for deadline := time.Now().Add(10 * time.Second); raw().Late; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the scheduler's first run left no receipt")
		}
	}
	stop()
	<-done
	check(tm, dog, "after the first run", 0)
	tm.clock.Set(start.Add(30*time.Second + 3*time.Minute)) // no run since: late
	check(tm, dog, "three intervals after the last run", 1)
	if f := tm.files("operator."); len(f) == 1 && !strings.Contains(readFile(t, f[0]), "scheduled job digests is late") {
		t.Errorf("operator mail: %s", readFile(t, f[0]))
	}

	tm, dog, _ = setup()
	check(tm, dog, "a second start", 0)
	tm.clock.Set(start.Add(3 * time.Minute)) // the scheduler never ran
	check(tm, dog, "three intervals after a start without a run", 1)
}
