package mailer

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
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
// a meeting.
func followed(t *testing.T, be *embedded.Backend) (record.Notice, record.Contract, land.Project, meeting.Meeting) {
	t.Helper()
	ctx := context.Background()
	var n record.Notice
	q := search.Query{Lenses: []string{record.LensMoney}, NoticeTypes: []string{"Solicitation"}, Limit: search.MaxLimit}
	for n.RequestID == "" {
		res, err := be.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.Notice.PIN != "" && !h.Notice.DueDate.IsZero() && !entity.JunkPIN(h.Notice.PIN) {
				n = h.Notice
				break
			}
		}
		if n.RequestID == "" && res.NextCursor == "" {
			t.Fatal("the sample holds no solicitation with a PIN and a due date")
		}
		q.Cursor = res.NextCursor
	}
	cs, err := search.Find(ctx, be, procure.ContractKind, search.RecordQuery{Limit: 1})
	if err != nil || len(cs.Items) == 0 {
		t.Fatalf("contracts %v %v", cs.Items, err)
	}
	ps, err := search.Find(ctx, be, land.ProjectKind, search.RecordQuery{Limit: 1})
	if err != nil || len(ps.Items) == 0 {
		t.Fatalf("land projects %v %v", ps.Items, err)
	}
	ms, err := search.Find(ctx, be, meeting.Kind, search.RecordQuery{Limit: 1})
	if err != nil || len(ms.Items) == 0 {
		t.Fatalf("meetings %v %v", ms.Items, err)
	}
	return n, cs.Items[0], ps.Items[0], ms.Items[0]
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
		// one client each: the address's welcome mails per client are capped
		out, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "pat@example.org", Follow: &f, Client: "192.0.2." + strconv.Itoa(i+1), Channel: watch.ChannelWeb})
		if err != nil {
			t.Fatalf("%s: %v", f.Noun(), err)
		}
		if out.Status != watch.StatusActive || !strings.HasPrefix(out.Scope, "Changes to "+f.Noun()) {
			t.Errorf("%s: %+v", f.Noun(), out)
		}
	}
	tm.Flush()
	if got := len(tm.files("welcome.")); got != len(follows) {
		t.Errorf("welcome mails %d, want %d", got, len(follows))
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
	oldDue, newDue := n.DueDate, n.DueDate.AddDate(0, 0, 14)
	n2 := n
	n2.DueDate = newDue
	award := n
	award.RequestID, award.NoticeType, award.VendorName, award.Title = "29990101001", "Award", "ACME FOLLOW TEST LLC", "Award: "+n.Title
	award.DueDate, award.StartDate, award.EndDate = time.Time{}, start.AddDate(0, 0, 1), start.AddDate(0, 0, 1)
	if err := be.Upsert(ctx, []search.Doc{{Notice: n2}, {Notice: award}}); err != nil {
		t.Fatal(err)
	}
	k2 := k
	k2.Amount, k2.AmountValid, k2.AmountRaw = k.Amount+12345, true, ""
	p2 := p
	p2.PublicStatus = "Completed (follow test)"
	m2 := mt
	m2.Place.Text = "Room 9, 1 Follow Test Plaza"
	if err := search.Put(ctx, be, procure.ContractKind, []record.Contract{k2}); err != nil {
		t.Fatal(err)
	}
	if err := search.Put(ctx, be, land.ProjectKind, []land.Project{p2}); err != nil {
		t.Fatal(err)
	}
	if err := search.Put(ctx, be, meeting.Kind, []meeting.Meeting{m2}); err != nil {
		t.Fatal(err)
	}
	if err := be.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	rep := run(2)
	mails := tm.files("change.")
	if len(mails) != len(follows) || rep.Sent != len(follows) {
		t.Fatalf("change mails %d (report %+v), want one per follow (%d)", len(mails), rep, len(follows))
	}
	want := map[string]string{
		n.RequestID:    "due date: " + oldDue.In(record.NewYork).Format("2006-01-02") + " → " + newDue.In(record.NewYork).Format("2006-01-02"),
		"PIN " + n.PIN: "award: (none) → award to ACME FOLLOW TEST LLC",
		k.ID:           "registered amount: ",
		p.ID:           "public status: " + p.PublicStatus + " → Completed (follow test)",
		mt.ID:          "place: ",
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
	if !strings.Contains(all, "→ Room 9, 1 Follow Test Plaza") || !strings.Contains(all, "notices in the matter: ") {
		t.Errorf("meeting place or matter notices not said old → new:\n%s", all)
	}
	// each change is mailed once
	run(3)
	if got := tm.files("change."); len(got) != len(follows) {
		t.Errorf("change mails after a quiet run: %d, want %d", len(got), len(follows))
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
