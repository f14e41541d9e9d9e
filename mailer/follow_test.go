package mailer

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/followtest"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// followMailer is a Form 1 (or 2) mailer over a private copy of the full
// sample, writing to its outbox, with the procurement and land services
// the follows read.
func followMailer(t *testing.T, form int) (*testMailer, *embedded.Backend) {
	t.Helper()
	be := sampletest.Copy(t, sampletest.Full, start)
	tm := newTestMailerOver(t, func(c *Config) { c.Form = form }, nil, be, func(d *Deps) {
		d.Procure, d.Land = procure.New(be, entity.DefaultCrosswalk(), d.Now), land.New(be)
	})
	return tm, be
}

// followed picks one held object of each kind from the sample: a
// solicitation with a PIN and a due date, a contract, a land project and
// a meeting (followtest.Pick).
func followed(t *testing.T, be *embedded.Backend) (record.Notice, record.Contract, land.Project, meeting.Meeting) {
	t.Helper()
	h, err := followtest.Pick(context.Background(), be)
	if err != nil {
		t.Fatal(err)
	}
	return h.Notice, h.Contract, h.Project, h.Meeting
}

// TestFollowMailsEachChangeOnce: a followed notice, matter, contract, land
// project and meeting send nothing at subscribe and nothing while
// unchanged; a change in place sends exactly one change mail per watch
// saying old → new (through the real outbox); the next run sends none.
func TestFollowMailsEachChangeOnce(t *testing.T) {
	tm, be := followMailer(t, 1)
	ctx := context.Background()
	n, k, p, mt := followed(t, be)
	follows := []watch.Follow{{Kind: watch.FollowNotice, ID: n.RequestID}, {Kind: watch.FollowMatter, ID: n.PIN},
		{Kind: watch.FollowContract, ID: k.ID}, {Kind: watch.FollowLandProject, ID: p.ID}, {Kind: watch.FollowMeeting, ID: mt.ID}}
	for i, f := range follows {
		out, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Follow: &f, Client: "192.0.2." + strconv.Itoa(i+1), Channel: watch.ChannelWeb})
		if err != nil {
			t.Fatalf("%s: %v", f.Noun(), err)
		}
		if out.Status != watch.StatusActive || !strings.HasPrefix(out.Scope, "Changes to "+f.Noun()) {
			t.Errorf("%s: %+v", f.Noun(), out)
		}
	}
	// one welcome mail listing the five (an address gets one a day)
	if got := tm.files("welcome."); len(got) != 1 || strings.Count(decodedText(t, got[0]), "/manage/") != len(follows) {
		t.Errorf("welcome mails %d, want 1 listing %d watches", len(got), len(follows))
	}
	run := func(day int) DigestReport {
		t.Helper()
		tm.clock.Set(start.AddDate(0, 0, day))
		rep, err := tm.RunDigests(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	// unchanged: no back-catalogue, no mail
	run(1)
	if got := tm.files("change."); len(got) != 0 {
		t.Fatalf("change mails before any change: %v", got)
	}

	// changes in place: the notice's due date moves; a new award notice
	// joins its matter; the contract's amount is amended; the land
	// project's status moves; the meeting moves to another room
	lines, err := followtest.Change(ctx, be, followtest.Held{Notice: n, Contract: k, Project: p, Meeting: mt}, start.AddDate(0, 0, 1),
		"29990101001", "ACME FOLLOW TEST LLC", "Completed (follow test)", "Room 9, 1 Follow Test Plaza")
	if err != nil {
		t.Fatal(err)
	}
	rep := run(2)
	// one address: one mail, a section per follow
	mails := tm.files("digest.")
	if len(mails) != 1 || rep.Sent != len(follows) {
		t.Fatalf("change mails %d (report %+v), want one carrying a section per follow (%d)", len(mails), rep, len(follows))
	}
	want := map[string]string{}
	for _, f := range follows {
		id := f.ID
		if f.Kind == watch.FollowMatter {
			id = "PIN " + f.ID
		}
		want[id] = lines[f.Kind]
	}
	var bodies []string
	for _, f := range mails {
		bodies = append(bodies, decodedText(t, f))
	}
	all := strings.Join(bodies, "\n=====\n")
	for id, line := range want {
		found := false
		for _, b := range bodies {
			if strings.Contains(b, id) && strings.Contains(b, line) {
				found = true
			}
		}
		if !found {
			t.Errorf("no change mail for %s saying %q:\n%s", id, line, all)
		}
	}
	if !strings.Contains(all, "notices in the matter: ") {
		t.Errorf("matter notices not said old → new:\n%s", all)
	}
	// each change is mailed once
	run(3)
	if got := tm.files("digest."); len(got) != 1 {
		t.Errorf("change mails after a quiet run: %d, want 1", len(got))
	}
}

// TestFollowForm2IsConfirmed: a plain-English follow in Form 2 stores
// nothing until its confirmation link is followed; a follow of a kind
// outside the basic form, or of an object not held, is refused.
func TestFollowForm2IsConfirmed(t *testing.T) {
	tm, be := followMailer(t, 2)
	ctx := context.Background()
	n, _, p, _ := followed(t, be)
	out, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Text: "follow PIN " + n.PIN, Client: "192.0.2.1"})
	if err != nil {
		t.Fatal(err)
	}
	tm.Flush()
	if out.Status != watch.StatusAwaiting || tm.watches(t) != 0 || len(tm.files("confirm")) != 1 {
		t.Fatalf("form 2 follow: %+v, %d watches, confirmations %v", out, tm.watches(t), tm.files("confirm"))
	}
	body := decodedText(t, tm.files("confirm")[0])
	if !strings.Contains(body, "Changes to PIN "+n.PIN) {
		t.Errorf("confirmation does not name the follow:\n%s", body)
	}
	f := watch.Follow{Kind: watch.FollowLandProject, ID: p.ID}
	if _, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Follow: &f}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("land project follow in Form 2: %v, want EINVALID", err)
	}
	f = watch.Follow{Kind: watch.FollowNotice, ID: "19000101999"}
	if _, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Follow: &f}); record.ErrorCode(err) != record.ENOTFOUND {
		t.Errorf("follow of a notice not held: %v, want ENOTFOUND", err)
	}
}

// TestFollowByPlainEnglishMail: "follow PIN …" mailed to the subscribe
// address is answered with a confirmation naming the matter; following
// its link makes the follow watch (nothing mailed for what it holds);
// "follow notice …" for a notice not held is answered with a refusal.
func TestFollowByPlainEnglishMail(t *testing.T) {
	tm, be := followMailer(t, 2)
	ctx := context.Background()
	n, _, _, _ := followed(t, be)
	d, err := tm.HandleMail(ctx, Incoming{EnvelopeFrom: "pat@example.org", Client: "192.0.2.9",
		Raw: msg(baseHeaders+"Content-Type: text/plain; charset=utf-8\n\nfollow PIN "+n.PIN+"\n", "")})
	if err != nil || d != Answered {
		t.Fatalf("%v %v", d, err)
	}
	files := tm.files("confirm.")
	if len(files) != 1 {
		t.Fatalf("confirmations %v", files)
	}
	text := decodedText(t, files[0])
	if !strings.Contains(strings.Join(strings.Fields(text), " "), "Changes to PIN "+n.PIN) {
		t.Fatalf("confirmation does not name the follow:\n%s", text)
	}
	i := strings.Index(text, "/confirm/")
	if i < 0 {
		t.Fatalf("no confirmation link:\n%s", text)
	}
	tok := strings.Fields(text[i+len("/confirm/"):])[0]
	if _, err := tm.Watches().Confirm(ctx, tok); err != nil {
		t.Fatal(err)
	}
	ws, err := tm.st.ListWatches(ctx)
	if err != nil || len(ws) != 1 || ws[0].Follow == nil || ws[0].Follow.Kind != watch.FollowMatter || ws[0].Follow.ID != n.PIN || len(ws[0].Snapshot) == 0 {
		t.Fatalf("confirmed follow: %+v %v", ws, err)
	}
	tm.clock.Set(start.AddDate(0, 0, 1))
	if _, err := tm.RunDigests(ctx); err != nil {
		t.Fatal(err)
	}
	if got := tm.files("change."); len(got) != 0 {
		t.Errorf("change mail with nothing changed: %v", got)
	}
	d, err = tm.HandleMail(ctx, Incoming{EnvelopeFrom: "sam@example.org", Client: "192.0.2.10",
		Raw: msg(strings.Replace(baseHeaders, "pat@", "sam@", 1)+"Content-Type: text/plain\n\nfollow notice 19000101999\n", "")})
	if err != nil || d != Answered || len(tm.files("confirm.")) != 1 {
		t.Fatalf("follow of a notice not held: %v %v, confirmations %v", d, err, tm.files("confirm."))
	}
}

// TestLandWatchCarriesProjectMilestones: a land-lens watch follows the
// land projects' own milestones: nothing at activation (the baseline),
// then a digest item when a project reaches a new milestone, once; land
// filters outside the land lens are refused.
func TestLandWatchCarriesProjectMilestones(t *testing.T) {
	tm, be := followMailer(t, 1)
	ctx := context.Background()
	f := watch.Filter{Lens: record.LensLand}
	if _, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "lu@example.org", Filter: &f, Client: "192.0.2.7"}); err != nil {
		t.Fatal(err)
	}
	ws, _ := tm.st.ListWatches(ctx)
	base := 0
	for _, id := range ws[0].Seen {
		if watch.LandProjectID(id) != "" {
			base++
		}
	}
	if base == 0 {
		t.Fatal("the baseline holds no land project state")
	}
	tm.clock.Set(start.AddDate(0, 0, 1))
	if _, err := tm.RunDigests(ctx); err != nil {
		t.Fatal(err)
	}
	if got := tm.files("digest."); len(got) != 0 {
		t.Fatalf("a digest before any new milestone: %v", got)
	}
	ps, err := search.Find(ctx, be, land.ProjectKind, search.RecordQuery{Sort: search.RecordSortDateDesc, Limit: 1})
	if err != nil || len(ps.Items) == 0 {
		t.Fatal(ps, err)
	}
	p := ps.Items[0]
	moved := start.AddDate(0, 0, 1)
	p.CurrentMilestone = &land.DatedFact{Name: "City Council review (follow test)", Date: moved, Source: "test"}
	p.LastDate = moved
	if err := search.Put(ctx, be, land.ProjectKind, []land.Project{p}); err != nil {
		t.Fatal(err)
	}
	if err := be.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	tm.clock.Set(start.AddDate(0, 0, 2))
	if rep, err := tm.RunDigests(ctx); err != nil || rep.Sent != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	digests := tm.files("digest.")
	if len(digests) != 1 {
		t.Fatalf("digests %v", digests)
	}
	text := decodedText(t, digests[0])
	if strings.Count(text, "Land project "+p.ID) != 1 || !strings.Contains(text, "City Council review (follow test)") {
		t.Errorf("digest does not carry the new milestone once:\n%s", text)
	}
	tm.clock.Set(start.AddDate(0, 0, 3))
	if _, err := tm.RunDigests(ctx); err != nil {
		t.Fatal(err)
	}
	if got := tm.files("digest."); len(got) != 1 {
		t.Errorf("the milestone was delivered again: %v", got)
	}
	bad := watch.Filter{Lens: record.LensMoney, Stage: "certification"}
	if err := bad.Validate(); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("a stage on the money lens: %v", err)
	}
	bad = watch.Filter{Lens: record.LensLand, Stage: "lottery"}
	if err := bad.Validate(); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("an unknown stage: %v", err)
	}
}
