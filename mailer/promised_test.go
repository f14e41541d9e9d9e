package mailer

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// request is one acknowledged subscription of each form.
func request(form int, email string) watch.Request {
	if form == 1 {
		return watch.Request{Email: email, Filter: &watch.Filter{Lens: record.LensMoney, AnyOf: []string{"construction"}}}
	}
	return watch.Request{Email: email, Text: "Parks construction awards"}
}

// restarted is a second mailer over tm's store, outbox and clock: the
// process after a crash.
func restarted(t *testing.T, tm *testMailer, tr Transport) *testMailer {
	t.Helper()
	m, err := newMailer(context.Background(), tm.cfg, Deps{Store: tm.st, Search: backend, Now: tm.clock.Now, Logger: quiet, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	return &testMailer{Mailer: m, st: tm.st, clock: tm.clock, outbox: tm.outbox, cfg: tm.cfg}
}

// TestPromisedMailSurvivesACrash: a request is acknowledged and the
// process dies with its mail stuck at the relay; the next start sends it,
// once, in both forms.
func TestPromisedMailSurvivesACrash(t *testing.T) {
	for _, form := range []int{1, 2} {
		g := &gate{open: make(chan struct{})}
		tm := newTestMailer(t, func(c *Config) { c.Form = form }, g)
		t.Cleanup(func() { close(g.open) }) // runs before tm's own cleanup
		if _, err := tm.Watches().Subscribe(context.Background(), request(form, "pat@example.org")); err != nil {
			t.Fatal(err)
		}
		// the dying process's worker is stuck at the relay with the mail
		go tm.Flush()
		time.Sleep(50 * time.Millisecond)
		after := restarted(t, tm, nil)
		files := after.files("")
		if len(files) != 1 || !strings.Contains(readFile(t, files[0]), "To: <pat@example.org>") {
			t.Fatalf("form %d: after the restart %d mails, want the acknowledged one", form, len(files))
		}
		if len(after.files("")) != 1 {
			t.Errorf("form %d: a second pass sent it again", form)
		}
	}
}

// cutShort writes the message (through the .eml outbox) and then fails,
// as a process killed after the transport took the mail and before the
// outbox recorded it.
type cutShort struct {
	*Outbox
	mu   sync.Mutex
	cuts int
}

func (c *cutShort) Send(ctx context.Context, from string, to []string, msg []byte, id string) error {
	if err := c.Outbox.Send(ctx, from, to, msg, id); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cuts > 0 {
		c.cuts--
		return errors.New("killed mid-send")
	}
	return nil
}

// TestPromisedMailCutShortIsSentOnce: a batch whose send was cut short is
// sent again as the same mail (its promises and message id fixed before
// the send), so the outbox holds it once, even when requests came in
// between.
func TestPromisedMailCutShortIsSentOnce(t *testing.T) {
	cut := &cutShort{cuts: 1}
	tm := newTestMailer(t, func(c *Config) { c.Form = 1 }, cut)
	cut.Outbox = &Outbox{Dir: tm.outbox}
	ctx := context.Background()
	for _, email := range []string{"pat@example.org", "kim@example.org"} {
		if _, err := tm.Watches().Subscribe(ctx, request(1, email)); err != nil {
			t.Fatal(err)
		}
	}
	tm.Flush() // the first send is cut short after the file was written
	if _, err := tm.Watches().Subscribe(ctx, request(1, "pat+2@example.org")); err != nil {
		t.Fatal(err)
	}
	tm.clock.Set(tm.clock.Now().Add(mailRetryMax))
	after := restarted(t, tm, cut)
	after.Flush()
	files := after.files("welcome.")
	per := map[string]int{}
	for _, f := range files {
		raw := readFile(t, f)
		for _, a := range []string{"pat", "kim"} {
			if strings.Contains(raw, "To: <"+a+"@example.org>") {
				per[a]++
			}
		}
	}
	if len(files) != 2 || per["pat"] != 1 || per["kim"] != 1 {
		t.Errorf("%d welcome mails %v, want one each for pat and kim", len(files), per)
	}
	if ps, _ := tm.st.PendingMail(ctx); len(ps) != 1 || ps[0].Email != "pat+2@example.org" {
		t.Errorf("pending after the resend: %+v (want pat+2's, held by pat's budget)", ps)
	}
}

// diskFull fails every send with ENOSPC until freed.
type diskFull struct {
	*Outbox
	mu    sync.Mutex
	full  bool
	tries int
}

func (d *diskFull) Send(ctx context.Context, from string, to []string, msg []byte, id string) error {
	d.mu.Lock()
	d.tries++
	full := d.full
	d.mu.Unlock()
	if full {
		return fmt.Errorf("write %s: %w", filepath.Join(d.Dir, id), syscall.ENOSPC)
	}
	return d.Outbox.Send(ctx, from, to, msg, id)
}

// TestPromisedMailWaitsForSpace: with the disk full every acknowledged
// request's mail fails to write; it is retried with backoff and sent once
// space is freed, without a restart.
func TestPromisedMailWaitsForSpace(t *testing.T) {
	for _, form := range []int{1, 2} {
		full := &diskFull{full: true}
		tm := newTestMailer(t, func(c *Config) { c.Form = form }, full)
		full.Outbox = &Outbox{Dir: tm.outbox}
		ctx := context.Background()
		for _, email := range []string{"pat@example.org", "kim@example.org"} {
			if _, err := tm.Watches().Subscribe(ctx, request(form, email)); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 3; i++ {
			rep, err := tm.DeliverMail(ctx)
			if err != nil || rep.Sent != 0 || rep.Failed != 2 {
				t.Fatalf("form %d pass %d on a full disk: %+v %v", form, i, rep, err)
			}
			// before its backoff has passed a mail is not tried again
			if rep, _ := tm.DeliverMail(ctx); rep.Failed != 0 {
				t.Fatalf("form %d pass %d: retried before its backoff: %+v", form, i, rep)
			}
			tm.clock.Set(tm.clock.Now().Add(mailBackoff(i + 1)))
		}
		if n, _ := tm.Backlog(ctx); n != 2 {
			t.Fatalf("form %d: backlog %d on a full disk, want 2", form, n)
		}
		full.mu.Lock()
		full.full = false
		full.mu.Unlock()
		tm.clock.Set(tm.clock.Now().Add(mailRetryMax))
		if files := tm.files(""); len(files) != 2 {
			t.Errorf("form %d: %d mails once space was freed, want 2", form, len(files))
		}
		if n, _ := tm.Backlog(ctx); n != 0 {
			t.Errorf("form %d: backlog %d after delivery", form, n)
		}
	}
}

// TestOutboxReadyTellsAStuckOutbox: /readyz's outbox part is down while a
// promised mail has kept failing for OutboxStuckAfter, and up again once
// it is sent; mail held back by the budget is not a fault.
func TestOutboxReadyTellsAStuckOutbox(t *testing.T) {
	full := &diskFull{full: true}
	tm := newTestMailer(t, func(c *Config) { c.Form = 1 }, full)
	full.Outbox = &Outbox{Dir: tm.outbox}
	ctx := context.Background()
	if _, err := tm.Watches().Subscribe(ctx, request(1, "pat@example.org")); err != nil {
		t.Fatal(err)
	}
	tm.Flush()
	if err := tm.OutboxReady(ctx); err != nil {
		t.Errorf("a fresh failure: %v", err)
	}
	tm.clock.Set(tm.clock.Now().Add(OutboxStuckAfter))
	tm.Flush()
	if err := tm.OutboxReady(ctx); err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Errorf("failing for %v: %v, want down with the error", OutboxStuckAfter, err)
	}
	full.mu.Lock()
	full.full = false
	full.mu.Unlock()
	tm.clock.Set(tm.clock.Now().Add(mailRetryMax))
	tm.Flush()
	if err := tm.OutboxReady(ctx); err != nil {
		t.Errorf("after delivery: %v", err)
	}
	// a second watch for pat waits for pat's budget: not a fault
	if _, err := tm.Watches().Subscribe(ctx, request(1, "pat@example.org")); err != nil {
		t.Fatal(err)
	}
	tm.clock.Set(tm.clock.Now().Add(OutboxStuckAfter))
	tm.Flush()
	if err := tm.OutboxReady(ctx); err != nil {
		t.Errorf("mail held by the budget: %v", err)
	}
}

// TestUntouchedWatchDigestSaysThisWasntMe: the digest of a watch its
// owner never acted on carries "this wasn't me — remove everything" as
// its one-click List-Unsubscribe; once the owner used a link of one of
// its mails, the digest's one-click link ends that watch only.
func TestUntouchedWatchDigestSaysThisWasntMe(t *testing.T) {
	tm := newTestMailer(t, func(c *Config) { c.Form = 1 }, nil)
	ctx := context.Background()
	f := watch.Filter{Lens: record.LensRules}
	if _, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Filter: &f}); err != nil {
		t.Fatal(err)
	}
	w := forget(t, tm)
	if !w.Untouched {
		t.Fatal("a Form 1 watch made by a request is untouched")
	}
	digest := func(day int) string {
		t.Helper()
		tm.clock.Set(start.AddDate(0, 0, day))
		if _, err := tm.RunDigests(ctx); err != nil {
			t.Fatal(err)
		}
		files := tm.files("digest.")
		if len(files) != day {
			t.Fatalf("day %d: %d digest mails", day, len(files))
		}
		return readFile(t, files[day-1])
	}
	if raw := digest(1); !strings.Contains(raw, "This wasn't me") || !strings.Contains(raw, "List-Unsubscribe: <http://rw.test/remove/") {
		t.Errorf("an untouched watch's digest lacks 'this wasn't me':\n%.1500s", raw)
	}
	manage, _, _ := tm.Watches().ManageLinks(w.ID)
	if _, err := tm.Watches().Manage(ctx, strings.TrimPrefix(manage, "http://rw.test/manage/")); err != nil {
		t.Fatal(err)
	}
	forget(t, tm) // new records again
	if raw := digest(2); strings.Contains(raw, "This wasn't me") || !strings.Contains(raw, "List-Unsubscribe: <http://rw.test/u/") {
		t.Errorf("a touched watch's digest:\n%.1500s", raw)
	}
}
