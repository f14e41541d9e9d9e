package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// The outbox: a watch is stored with the mail it promises; promises
// survive a restart and are seen by another process; a batch is fixed by
// PutMail; MailDone removes them and moves the address's budget, never
// back; DropMail removes an address's; a refused watch leaves no mail.
func testOutbox(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Open(t)
	now := time.Date(2026, 12, 6, 9, 0, 0, 0, record.NewYork)
	w := newWatch(watch.NewID(), now)
	w.Untouched = true
	welcome := watch.Promise{ID: watch.NewID(), Address: watch.AddressKey(w.Email), Email: w.Email, Kind: watch.MailWelcome, WatchID: w.ID, CreatedAt: now}
	if err := s.CreateWatch(ctx, w, "", time.Time{}, &welcome); err != nil {
		t.Fatal(err)
	}
	// the same id again is refused, and so is its mail
	again := welcome
	again.ID = watch.NewID()
	if err := s.CreateWatch(ctx, w, "", time.Time{}, &again); err == nil {
		t.Fatal("a watch id was stored twice")
	}
	u := watch.Understanding{Scope: "parks notices", Notes: []string{"read as parks"}, Cadence: watch.CadenceDaily}
	confirm := watch.Promise{ID: watch.NewID(), Address: "victim@example.org", Email: "Victim+1@example.org", Kind: watch.MailConfirmation,
		Understanding: &u, Text: "parks", CreatedAt: now}
	if err := s.QueueMail(ctx, confirm); err != nil {
		t.Fatal(err)
	}
	if err := s.QueueMail(ctx, watch.Promise{ID: "x"}); err == nil {
		t.Error("a promise without an address was stored")
	}
	s.Close()
	s = h.Open(t) // a restart keeps them
	defer s.Close()
	other := second(t, h, s)
	ps, err := other.PendingMail(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ps []watch.Promise) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.ID)
		}
		slices.Sort(out)
		return out
	}
	want := []string{welcome.ID, confirm.ID}
	slices.Sort(want)
	if !slices.Equal(ids(ps), want) {
		t.Fatalf("pending %v, want %v (the refused watch's mail must not be kept)", ids(ps), want)
	}
	for _, p := range ps {
		if p.ID == confirm.ID && (p.Understanding == nil || p.Understanding.Scope != u.Scope || p.Email != confirm.Email) {
			t.Errorf("confirmation read back as %+v", p)
		}
	}
	got, err := other.GetWatch(ctx, w.ID)
	if err != nil || !got.Untouched {
		t.Fatalf("watch %+v, %v: untouched kept", got, err)
	}
	if err := s.TouchWatch(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := other.GetWatch(ctx, w.ID); got.Untouched {
		t.Error("TouchWatch did not mark the watch")
	}
	if err := s.TouchWatch(ctx, "gone"); err != nil {
		t.Errorf("touching an ended watch: %v", err)
	}
	// a batch is fixed before the send
	confirm.Batch, confirm.Attempts = "confirm.x@host", 1
	if ok, err := s.PutMail(ctx, confirm); err != nil || !ok {
		t.Fatalf("PutMail %v, %v", ok, err)
	}
	ps, _ = other.PendingMail(ctx)
	if i := slices.IndexFunc(ps, func(p watch.Promise) bool { return p.ID == confirm.ID }); i < 0 || ps[i].Batch != "confirm.x@host" || ps[i].Attempts != 1 {
		t.Fatalf("batch not kept: %+v", ps)
	}
	// delivered: removed, and the budget moves forward only
	if err := s.MailDone(ctx, "victim@example.org", []string{confirm.ID}, now); err != nil {
		t.Fatal(err)
	}
	if err := s.MailDone(ctx, "victim@example.org", nil, now.Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	a, err := other.Address(ctx, "victim@example.org")
	if err != nil || !a.UnaskedAt.Equal(now) || !a.UnaskedDue().Equal(now.Add(watch.UnaskedEvery)) {
		t.Fatalf("address %+v, %v", a, err)
	}
	if ok, err := s.PutMail(ctx, confirm); err != nil || ok {
		t.Errorf("PutMail on a delivered promise: %v, %v", ok, err)
	}
	a.DigestAt = now.Add(time.Minute)
	if err := s.PutAddress(ctx, a); err != nil {
		t.Fatal(err)
	}
	if b, _ := other.Address(ctx, "victim@example.org"); !b.DigestAt.Equal(a.DigestAt) || !b.UnaskedAt.Equal(now) {
		t.Errorf("PutAddress read back %+v", b)
	}
	if z, err := s.Address(ctx, "nobody@example.org"); err != nil || !z.UnaskedAt.IsZero() || !z.UnaskedDue().IsZero() {
		t.Errorf("unknown address %+v, %v", z, err)
	}
	// "this wasn't me": every pending mail of the address goes
	for i := 0; i < 3; i++ {
		p := confirm
		p.ID, p.Batch = watch.NewID(), ""
		if err := s.QueueMail(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := other.DropMail(ctx, "victim@example.org"); err != nil || n != 3 {
		t.Fatalf("DropMail %d, %v", n, err)
	}
	if ps, _ := s.PendingMail(ctx); !slices.Equal(ids(ps), []string{welcome.ID}) {
		t.Errorf("after DropMail: %v", ids(ps))
	}
}
