package mailer

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// ledgerOf reads a watch's ledger, newest first.
func ledgerOf(t *testing.T, tm *testMailer, id string) []watch.LedgerEntry {
	t.Helper()
	l, err := tm.st.Ledger(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestLedgerRecordsEveryRun: a relay that refuses leaves a failed entry
// with the relay's reason, then the retry an entry handed to the relay
// with its message id, subject, text and the ids new to the watch; a
// quiet run says "nothing new"; a restart (a new mailer over the same
// store) keeps the ledger and a send cut short by it is recorded as
// dropped with the reason; the text goes after 7 days, the entries
// after 90.
func TestLedgerRecordsEveryRun(t *testing.T) {
	tr := &flaky{fail: 2} // the welcome mail and the first digest attempt fail
	tm := newTestMailer(t, nil, tr)
	activeWatch(t, tm, "Parks construction awards")
	w := forget(t, tm)
	ctx := context.Background()
	tm.clock.Set(start.Add(20 * time.Hour))
	rep, _ := tm.RunDigests(ctx)
	if rep.Failed != 1 {
		t.Fatalf("first run %+v", rep)
	}
	l := ledgerOf(t, tm, w.ID)
	if len(l) != 1 || l[0].Outcome != watch.OutcomeFailed || l[0].Reason != "relay unavailable" || l[0].MessageID != "" ||
		len(l[0].New) == 0 || len(l[0].Matched) < len(l[0].New) || l[0].Window != rep.Window {
		t.Fatalf("ledger after a relay failure: %+v", l)
	}
	tm.clock.Set(tm.now().Add(5 * time.Minute))
	if rep, _ := tm.RunDigests(ctx); rep.Sent != 1 {
		t.Fatalf("retry %+v", rep)
	}
	l = ledgerOf(t, tm, w.ID)
	sent := l[0]
	if len(l) != 1 || sent.Outcome != watch.OutcomeRelay || !strings.HasPrefix(sent.MessageID, "digest.") || sent.Attempts != 2 ||
		!strings.Contains(sent.Subject, "new record") || !strings.Contains(sent.Body, sent.New[0]) || sent.SentAt.IsZero() {
		t.Fatalf("ledger after the retry: %+v", l)
	}
	// a restart: the ledger is the store's; the next (quiet) run says so
	m2, err := newMailer(ctx, tm.cfg, Deps{Store: tm.st, Search: backend, Now: tm.clock.Now, Logger: quiet, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	tm.clock.Set(start.Add(44 * time.Hour))
	if rep, _ := m2.RunDigests(ctx); rep.Empty != 1 {
		t.Fatalf("quiet run %+v", rep)
	}
	l = ledgerOf(t, tm, w.ID)
	if len(l) != 2 || l[0].Outcome != watch.OutcomeNothingNew || len(l[0].New) != 0 || l[1].MessageID != sent.MessageID {
		t.Fatalf("ledger after a restart and a quiet run: %+v", l)
	}
	// a send cut short by a restart over a relay: dropped, with why
	d, _, _ := tm.st.GetDelivery(ctx, w.ID, l[0].Window)
	d.Window, d.State, d.RequestIDs, d.PlannedAt = "2026-08-17", store.DeliverySending, sent.New, tm.now()
	if _, err := tm.st.PutDelivery(ctx, d); err != nil {
		t.Fatal(err)
	}
	if rep, _ := m2.RunDigests(ctx); rep.Dropped != 1 {
		t.Fatalf("interrupted send %+v", rep)
	}
	if l = ledgerOf(t, tm, w.ID); l[0].Outcome != watch.OutcomeDropped || !strings.Contains(l[0].Reason, "interrupted while sending") {
		t.Errorf("interrupted send in the ledger: %+v", l[0])
	}
	// 8 days on the mail text is gone, the entry stays; 92 days on, the entries go
	if _, err := tm.st.SweepWatches(ctx, start.Add(8*24*time.Hour+20*time.Hour), DigestKeep); err != nil {
		t.Fatal(err)
	}
	for _, e := range ledgerOf(t, tm, w.ID) {
		if e.Body != "" {
			t.Errorf("mail text kept past 7 days: %+v", e)
		}
	}
	if n := len(ledgerOf(t, tm, w.ID)); n != 3 {
		t.Errorf("entries after 8 days: %d, want 3", n)
	}
	if _, err := tm.st.SweepWatches(ctx, start.Add(92*24*time.Hour), DigestKeep); err != nil {
		t.Fatal(err)
	}
	if n := len(ledgerOf(t, tm, w.ID)); n != 0 {
		t.Errorf("entries after 92 days: %d, want 0", n)
	}
}

// TestLedgerDeferral: over the per-run cap a digest waits for the next
// run, and its entry says it was deferred and why; the next run sends it.
func TestLedgerDeferral(t *testing.T) {
	tm := newTestMailer(t, func(c *Config) { c.MaxDigestsPerRun = 1 }, nil)
	ctx := context.Background()
	// two addresses: one address's digests go out as one mail
	for i, text := range []string{"Parks construction awards", "Sanitation awards"} {
		activeWatchFor(t, tm, []string{"pat@example.org", "kim@example.org"}[i], text)
	}
	ws, _ := tm.st.ListWatches(ctx)
	for _, w := range ws { // forget both baselines: each has a digest due
		if _, err := tm.st.DeleteWatch(ctx, w.ID); err != nil {
			t.Fatal(err)
		}
		w.Progress = watch.Progress{}
		if err := tm.st.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	tm.clock.Set(start.Add(20 * time.Hour))
	rep, _ := tm.RunDigests(ctx)
	if rep.Sent != 1 || rep.Deferred != 1 {
		t.Fatalf("run %+v", rep)
	}
	var deferredID string
	for _, w := range ws {
		l := ledgerOf(t, tm, w.ID)
		if len(l) == 1 && l[0].Outcome == watch.OutcomeDeferred {
			deferredID = w.ID
			if !strings.Contains(l[0].Reason, "per-run cap of 1") {
				t.Errorf("deferral reason %q", l[0].Reason)
			}
		}
	}
	if deferredID == "" {
		t.Fatal("no ledger entry says deferred")
	}
	tm.clock.Set(tm.now().Add(time.Minute))
	if rep, _ := tm.RunDigests(ctx); rep.Sent != 1 {
		t.Fatalf("next run %+v", rep)
	}
	if l := ledgerOf(t, tm, deferredID); l[0].Outcome != watch.OutcomeOutbox || l[0].MessageID == "" {
		t.Errorf("the deferred digest once sent: %+v", l[0])
	}
}

// logBuffer collects log records (the operator error).
type logBuffer struct {
	mu  sync.Mutex
	out strings.Builder
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.out.Write(p)
}

// unplannable is a store whose PlanDigest fails (an injected fault).
type unplannable struct{ store.Store }

func (unplannable) PlanDigest(context.Context, store.Delivery, watch.Progress) (store.Delivery, bool, error) {
	return store.Delivery{}, false, errors.New("disk full")
}

// TestLedgerMissedRunIsAnOperatorError: a scheduled run that leaves a due
// watch without a ledger entry logs an operator error and counts it.
func TestLedgerMissedRunIsAnOperatorError(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	activeWatch(t, tm, "Parks construction awards")
	ctx := context.Background()
	logs := &logBuffer{}
	m2, err := newMailer(ctx, tm.cfg, Deps{Store: unplannable{tm.st}, Search: backend, Now: tm.clock.Now,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	tm.clock.Set(start.Add(20 * time.Hour))
	rep, _ := m2.RunDigests(ctx)
	if rep.Missed != 1 || !strings.Contains(logs.out.String(), "operator error: a due watch has no ledger entry") {
		t.Fatalf("report %+v, log:\n%s", rep, logs.out.String())
	}
	tm.st.FlushCounters()
	day := record.NewYorkDay(tm.now())
	if c, err := tm.st.Counts(ctx, store.CounterDigestRunMissed, day, day); err != nil || c[day] != 1 {
		t.Errorf("missed runs counted %v %v", c, err)
	}
}
