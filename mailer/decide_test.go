package mailer

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// realAwards returns n award notices of the bundled sample with a PIN, a
// vendor and a valid amount (real rows).
func realAwards(t *testing.T, n int) []record.Notice {
	t.Helper()
	res, err := backend.Search(context.Background(), search.Query{Lenses: []string{record.LensMoney}, NoticeTypes: []string{"Award"},
		ValidAmountOnly: true, Sort: search.SortNewest, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	var out []record.Notice
	for _, h := range res.Hits {
		if h.Notice.PIN != "" && h.Notice.VendorName != "" && watch.AwardIdentity(h.Notice) != "" {
			out = append(out, h.Notice)
		}
		if len(out) == n {
			return out
		}
	}
	t.Fatalf("only %d real awards with a PIN and a vendor", len(out))
	return nil
}

func hitsOf(ns ...record.Notice) []search.Hit {
	out := make([]search.Hit, len(ns))
	for i, n := range ns {
		out[i] = search.Hit{Notice: n}
	}
	return out
}

// republished is n as the City Record republishes it: a new request id,
// the same procurement identity and facts.
func republished(n record.Notice, id string) record.Notice {
	n.RequestID = id
	return n
}

// TestDigestDecision: the digest decision, case by case, over real award
// rows (a republication is the same row under a new request id).
func TestDigestDecision(t *testing.T) {
	aw := realAwards(t, 3)
	a, b, c := aw[0], aw[1], aw[2]
	act := time.Date(2026, 7, 1, 9, 0, 0, 0, record.NewYork)
	now := time.Date(2026, 8, 17, 7, 30, 0, 0, record.NewYork)
	daily := watch.Watch{ID: "w", Cadence: watch.CadenceDaily, ActivatedAt: act}
	weekly := daily
	weekly.Cadence = watch.CadenceWeekly
	with := func(w watch.Watch, p watch.Progress, last string) watch.Watch {
		w.Progress, w.LastWindow = p, last
		return w
	}
	baseline := watch.Progress{Seen: []string{a.RequestID}, Facts: []string{watch.AwardIdentity(a)}, QuietSince: now.AddDate(0, 0, -1)}
	changed := republished(a, "r-changed")
	changed.Amount += 1000
	type want struct {
		state, kind     string
		ids, updates    []string
		catchUp         string
		mergedFrom      []string
		quietSinceIsNow bool
	}
	cases := []struct {
		name string
		in   DigestInput
		want want
	}{
		{"new items", DigestInput{Watch: with(daily, baseline, "2026-08-16"), Hits: hitsOf(b, c, a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindDigest, ids: []string{b.RequestID, c.RequestID}, quietSinceIsNow: true}},
		{"weekly, nothing new: check-in", DigestInput{Watch: with(weekly, baseline, "2026-08-10"), Hits: hitsOf(a), ExpectedPrevious: "2026-08-10"},
			want{state: store.DeliveryPlanned, kind: store.KindCheckIn, quietSinceIsNow: true}},
		{"daily, quiet one day: no mail", DigestInput{Watch: with(daily, baseline, "2026-08-16"), Hits: hitsOf(a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryEmpty, kind: store.KindDigest}},
		{"daily, quiet two weeks: heartbeat", DigestInput{Watch: with(daily, watch.Progress{Seen: baseline.Seen, Facts: baseline.Facts,
			QuietSince: now.AddDate(0, 0, -14)}, "2026-08-16"), Hits: hitsOf(a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindHeartbeat, quietSinceIsNow: true}},
		{"daily, quiet since activation (never a digest): heartbeat", DigestInput{Watch: with(daily, watch.Progress{Seen: baseline.Seen}, "2026-08-16"),
			Hits: hitsOf(a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindHeartbeat, quietSinceIsNow: true}},
		{"republished award: not news", DigestInput{Watch: with(daily, baseline, "2026-08-16"), Hits: hitsOf(republished(a, "r-again"), a),
			ExpectedPrevious: "2026-08-16"}, want{state: store.DeliveryEmpty, kind: store.KindDigest}},
		{"republished twice in one window: one item", DigestInput{Watch: with(daily, watch.Progress{QuietSince: now}, "2026-08-16"),
			Hits: hitsOf(republished(b, "r-b2"), b), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindDigest, ids: []string{"r-b2"}, quietSinceIsNow: true}},
		{"republished with a changed amount: an update", DigestInput{Watch: with(daily, baseline, "2026-08-16"), Hits: hitsOf(changed, a),
			ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindDigest, ids: []string{"r-changed"}, updates: []string{"r-changed"}, quietSinceIsNow: true}},
		{"service down three days: catch-up", DigestInput{Watch: with(daily, baseline, "2026-08-13"), Hits: hitsOf(b, a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindDigest, ids: []string{b.RequestID}, catchUp: "2026-08-13", quietSinceIsNow: true}},
		{"relay refused yesterday's digest: folded in, catch-up", DigestInput{Watch: with(daily, watch.Progress{Seen: []string{a.RequestID, b.RequestID},
			QuietSince: now.AddDate(0, 0, -1)}, "2026-08-16"),
			Prev: &store.Delivery{WatchID: "w", Window: "2026-08-16", State: store.DeliveryFailed, RequestIDs: []string{b.RequestID}, Since: "2026-08-15",
				Cadence: watch.CadenceDaily},
			Hits: hitsOf(c, b, a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindDigest, ids: []string{b.RequestID, c.RequestID}, catchUp: "2026-08-15",
				mergedFrom: []string{"2026-08-16"}, quietSinceIsNow: true}},
		{"deferred by the day's cap, nothing new today: delivered now", DigestInput{Watch: with(daily, watch.Progress{Seen: []string{a.RequestID, b.RequestID},
			QuietSince: now.AddDate(0, 0, -1)}, "2026-08-16"),
			Prev: &store.Delivery{WatchID: "w", Window: "2026-08-16", State: store.DeliveryPlanned, RequestIDs: []string{b.RequestID}, Since: "2026-08-15"},
			Hits: hitsOf(b, a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindDigest, ids: []string{b.RequestID}, catchUp: "2026-08-15",
				mergedFrom: []string{"2026-08-16"}, quietSinceIsNow: true}},
		{"cadence changed weekly → daily: no false catch-up", DigestInput{Watch: with(daily, baseline, "2026-08-10"),
			Prev: &store.Delivery{Window: "2026-08-10", State: store.DeliverySent, Cadence: watch.CadenceWeekly}, Hits: hitsOf(b, a), ExpectedPrevious: "2026-08-16"},
			want{state: store.DeliveryPlanned, kind: store.KindDigest, ids: []string{b.RequestID}, quietSinceIsNow: true}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.in.Now, tc.in.QuietAfter = now, DefaultQuietAfter
			d, next := Decide(tc.in)
			w := tc.want
			if d.State != w.state || d.Kind != w.kind || !slices.Equal(d.RequestIDs, w.ids) || !slices.Equal(d.Updates, w.updates) ||
				d.CatchUpFrom != w.catchUp || !slices.Equal(d.MergedFrom, w.mergedFrom) {
				t.Errorf("got state %q kind %q ids %v updates %v catch-up %q merged %v", d.State, d.Kind, d.RequestIDs, d.Updates, d.CatchUpFrom, d.MergedFrom)
			}
			if next.QuietSince.Equal(now) != w.quietSinceIsNow {
				t.Errorf("quiet since %v", next.QuietSince)
			}
			// award identities delivered before are never forgotten
			for _, k := range tc.in.Watch.Facts {
				id, _ := watch.SplitIdentity(k)
				if !slices.ContainsFunc(next.Facts, func(n string) bool { nid, _ := watch.SplitIdentity(n); return nid == id }) {
					t.Errorf("identity %s forgotten: %v", id, next.Facts)
				}
			}
			for _, h := range tc.in.Hits {
				if !slices.Contains(next.Seen, h.Notice.RequestID) {
					t.Errorf("%s not remembered as seen", h.Notice.RequestID)
				}
			}
		})
	}
	// a heartbeat goes once: the next day (still quiet) sends nothing
	in := DigestInput{Watch: with(daily, watch.Progress{Seen: baseline.Seen, QuietSince: now.AddDate(0, 0, -15)}, "2026-08-16"),
		Hits: hitsOf(a), ExpectedPrevious: "2026-08-16", Now: now, QuietAfter: DefaultQuietAfter}
	d, next := Decide(in)
	if d.Kind != store.KindHeartbeat {
		t.Fatalf("no heartbeat %+v", d)
	}
	for day := 1; day < 14; day++ {
		in.Watch = with(daily, next, record.NewYorkDay(now.AddDate(0, 0, day-1)))
		in.Now, in.ExpectedPrevious, in.Prev = now.AddDate(0, 0, day), record.NewYorkDay(now.AddDate(0, 0, day-1)), &d
		if d, next = Decide(in); d.State != store.DeliveryEmpty {
			t.Fatalf("day %d after the heartbeat: %+v", day, d)
		}
	}
	in.Now = now.AddDate(0, 0, 14)
	if d, _ = Decide(in); d.Kind != store.KindHeartbeat {
		t.Errorf("after the next quiet stretch: %+v", d)
	}
}

// TestWhyMatched: the words found, the filters met and a highlighted
// snippet from the text with HTML stripped.
func TestWhyMatched(t *testing.T) {
	a := realAwards(t, 1)[0]
	word := strings.ToLower(strings.Fields(a.Title)[0])
	min := 1.0
	f := watch.Filter{Lens: record.LensMoney, AnyOf: []string{word, "zzzunfound"}, AgencyIDs: []string{a.AgencyID}, MinAmount: &min, Awards: true}
	a.Text = "<p>Notice &amp; " + a.Title + "</p>"
	m := WhyMatched(f, a)
	if !slices.Equal(m.Words, []string{word}) {
		t.Errorf("words %v", m.Words)
	}
	if strings.ContainsAny(m.Snippet, "<>") || strings.Contains(m.Snippet, "&amp;") || !strings.Contains(strings.ToLower(m.Snippet), "*"+word) {
		t.Errorf("snippet %q", m.Snippet)
	}
	joined := strings.Join(m.Filters, "; ")
	for _, want := range []string{"agency: " + a.AgencyName, "amount " + watch.Dollars(a.Amount) + ", at least $1", "kind: Award"} {
		if !strings.Contains(joined, want) {
			t.Errorf("filters %q lack %q", joined, want)
		}
	}
	// an invalid amount is never shown
	a.AmountValid, a.Amount = false, 0
	if j := strings.Join(WhyMatched(f, a).Filters, "; "); strings.Contains(j, "amount") {
		t.Errorf("invalid amount shown: %q", j)
	}
}

// threeWatches makes three active daily watches whose next digest holds
// what they match (no baseline).
func threeWatches(t *testing.T, tm *testMailer) []watch.Watch {
	t.Helper()
	ctx := context.Background()
	var out []watch.Watch
	for i, q := range []string{"Parks construction awards", "Parks reconstruction awards", "Parks design awards"} {
		u, err := tm.Watches().Understand(q)
		if err != nil {
			t.Fatal(err)
		}
		w := watch.Watch{ID: watch.NewID(), Email: "reader" + string(rune('a'+i)) + "@example.org", Filter: u.Filter, Scope: u.Scope,
			Form: 2, Status: watch.StatusActive, CreatedAt: tm.now().Add(time.Duration(i) * time.Second), ActivatedAt: tm.now()}
		if err := tm.st.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
			t.Fatal(err)
		}
		out = append(out, w)
	}
	return out
}

// TestDigestCapsDeferNeverDrop: with a per-run cap of one, the other
// digests wait for the next runs (oldest first) and all arrive; a per-day
// cap carries the rest to the next day, where it goes out as a catch-up.
func TestDigestCapsDeferNeverDrop(t *testing.T) {
	ctx := context.Background()
	t.Run("per run", func(t *testing.T) {
		tr := &flaky{}
		tm := newTestMailer(t, func(c *Config) { c.MaxDigestsPerRun = 1 }, tr)
		threeWatches(t, tm)
		tm.clock.Set(start.Add(20 * time.Hour))
		rep, _ := tm.RunDigests(ctx)
		if rep.Planned != 3 || rep.Sent != 1 || rep.Deferred != 2 {
			t.Fatalf("first run %+v", rep)
		}
		for i := 0; i < 2; i++ {
			if rep, _ := tm.RunDigests(ctx); rep.Sent != 1 {
				t.Fatalf("run %d %+v", i+2, rep)
			}
		}
		if rep, _ := tm.RunDigests(ctx); rep.Sent+rep.Deferred != 0 || tr.count("digest") != 3 {
			t.Errorf("after three runs %+v, %d sent", rep, tr.count("digest"))
		}
	})
	t.Run("per day", func(t *testing.T) {
		tr := &flaky{}
		tm := newTestMailer(t, func(c *Config) { c.MaxDigestsPerDay = 2 }, tr)
		ws := threeWatches(t, tm)
		tm.clock.Set(start.Add(20 * time.Hour))
		rep, _ := tm.RunDigests(ctx)
		if rep.Sent != 2 || rep.Deferred != 1 {
			t.Fatalf("day one %+v", rep)
		}
		tm.clock.Set(start.Add(22 * time.Hour))
		if rep, _ := tm.RunDigests(ctx); rep.Sent != 0 || rep.Deferred != 1 {
			t.Fatalf("day one, later %+v", rep)
		}
		// next day: the deferred digest goes out (folded into the new
		// window's, which says it is a catch-up); nothing is sent twice
		tm.clock.Set(start.Add(44 * time.Hour))
		rep, _ = tm.RunDigests(ctx)
		if rep.Sent != 1 || rep.CatchUps != 1 || rep.Merged != 1 {
			t.Fatalf("day two %+v", rep)
		}
		if tr.count("digest") != 3 {
			t.Errorf("%d digests", tr.count("digest"))
		}
		got := 0
		for _, w := range ws {
			for _, key := range []string{"2026-08-15", "2026-08-16"} {
				if d, ok, _ := tm.st.GetDelivery(ctx, w.ID, key); ok && d.State == store.DeliverySent {
					got++
					if len(d.RequestIDs) == 0 {
						t.Errorf("sent without records %+v", d)
					}
				}
			}
		}
		if got != 3 {
			t.Errorf("%d watches got their digest", got)
		}
	})
}

// TestDigestRelayDownThenUp: the relay refuses every digest for a day; the
// next day's run sends one catch-up per watch covering the gap, saying
// so, and nothing twice.
func TestDigestRelayDownThenUp(t *testing.T) {
	ctx := context.Background()
	tr := &flaky{fail: 1 << 20}
	tm := newTestMailer(t, nil, tr)
	activeWatch(t, tm, "Parks construction awards")
	w := forget(t, tm)
	for h := 20; h < 36; h++ { // the scheduler polls the rest of the day (windows open at midnight here); the relay refuses
		tm.clock.Set(start.Add(time.Duration(h) * time.Hour))
		if rep, _ := tm.RunDigests(ctx); rep.Dropped != 0 {
			t.Fatalf("dropped %+v", rep)
		}
	}
	d1, _, _ := tm.st.GetDelivery(ctx, w.ID, "2026-08-15")
	if d1.State != store.DeliveryFailed || len(d1.RequestIDs) == 0 {
		t.Fatalf("day one %+v", d1)
	}
	tr.mu.Lock()
	tr.fail = 0
	tr.mu.Unlock()
	tm.clock.Set(start.Add(44 * time.Hour))
	rep, _ := tm.RunDigests(ctx)
	if rep.Sent != 1 || rep.CatchUps != 1 {
		t.Fatalf("relay back %+v", rep)
	}
	d2, _, _ := tm.st.GetDelivery(ctx, w.ID, "2026-08-16")
	d1, _, _ = tm.st.GetDelivery(ctx, w.ID, "2026-08-15")
	if d1.State != store.DeliveryMerged || d1.MergedInto != "2026-08-16" || d2.State != store.DeliverySent ||
		!slices.Equal(d2.RequestIDs, d1.RequestIDs) {
		t.Errorf("day one %+v\nday two %+v", d1, d2)
	}
	if tr.count("digest") != 1 {
		t.Fatalf("%d digests", tr.count("digest"))
	}
	tr.mu.Lock()
	text := string(tr.sent[len(tr.sent)-1])
	tr.mu.Unlock()
	if !strings.Contains(text, "catch-up digest") || !strings.Contains(text, "nothing was dropped") {
		t.Errorf("catch-up mail:\n%s", text)
	}
	// a restart and later runs send nothing more
	m2, err := newMailer(ctx, tm.cfg, Deps{Store: tm.st, Search: backend, Now: tm.clock.Now, Logger: quiet, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if rep, _ := m2.RunDigests(ctx); rep.Sent != 0 {
			t.Errorf("restart sent again %+v", rep)
		}
	}
}

// TestDigestRepublishedAwardAcrossDigests: an award sent in one digest and
// republished (new request id, same identity and facts) is not sent
// again; republished with a changed amount it comes as an update.
func TestDigestRepublishedAwardAcrossDigests(t *testing.T) {
	ctx := context.Background()
	tr := &flaky{}
	tm := newTestMailer(t, nil, tr)
	activeWatch(t, tm, "Parks construction awards")
	forget(t, tm)
	tm.clock.Set(start.Add(20 * time.Hour))
	if rep, _ := tm.RunDigests(ctx); rep.Sent != 1 {
		t.Fatalf("first digest %+v", rep)
	}
	ws, _ := tm.st.ListWatches(ctx)
	d, _, _ := tm.st.GetDelivery(ctx, ws[0].ID, ws[0].LastWindow)
	var sent record.Notice
	for _, id := range d.RequestIDs {
		if n, err := backend.Get(ctx, id); err == nil && watch.AwardIdentity(n) != "" {
			sent = n
			break
		}
	}
	if sent.RequestID == "" {
		t.Fatal("no award with an identity in the first digest")
	}
	// the same award republished: indexed under new ids in the shared
	// backend, removed again when the test ends
	again := republished(sent, "29990101001")
	again.StartDate = sent.StartDate // same identity
	upd := republished(sent, "29990101002")
	upd.Amount += 5000
	t.Cleanup(func() {
		_ = backend.Delete(context.Background(), []string{again.RequestID, upd.RequestID})
		_ = backend.Refresh(context.Background())
	})
	if err := backend.Upsert(ctx, []search.Doc{{Notice: again}}); err != nil {
		t.Fatal(err)
	}
	_ = backend.Refresh(ctx)
	tm.clock.Set(start.Add(44 * time.Hour))
	if rep, _ := tm.RunDigests(ctx); rep.Sent != 0 || rep.Empty != 1 {
		t.Errorf("republished unchanged: %+v", rep)
	}
	if err := backend.Upsert(ctx, []search.Doc{{Notice: upd}}); err != nil {
		t.Fatal(err)
	}
	_ = backend.Refresh(ctx)
	tm.clock.Set(start.Add(68 * time.Hour))
	if rep, _ := tm.RunDigests(ctx); rep.Sent != 1 {
		t.Fatalf("republished with a changed amount: %+v", rep)
	}
	text := string(tr.sent[len(tr.sent)-1])
	if !strings.Contains(text, "UPDATE") || !strings.Contains(text, upd.RequestID) || strings.Contains(text, again.RequestID) {
		t.Errorf("update digest:\n%s", text)
	}
}

// TestDigestItemDisplayRules: a rolling deadline is labelled, never a
// date; an invalid amount is not shown; each item has its /r/ link.
func TestDigestItemDisplayRules(t *testing.T) {
	n := realAwards(t, 1)[0]
	n.DueRolling, n.DueDate = true, time.Time{}
	n.AmountValid, n.Amount, n.AmountRaw = false, 0, "999999999999"
	w := watch.Watch{Scope: "Parks awards"}
	text := digestText(w, store.Delivery{Window: "2026-08-17"}, []DigestItem{{Notice: n, Link: "http://rw.test/r/money/" + n.RequestID,
		Matched: WhyMatched(watch.Filter{Lens: record.LensMoney}, n)}}, "http://rw.test/manage/x", "http://rw.test/u/x")
	if !strings.Contains(text, record.RollingLabel) || strings.Contains(text, "999,999") || strings.Contains(text, "$999") ||
		!strings.Contains(text, "http://rw.test/r/money/"+n.RequestID) {
		t.Errorf("digest item:\n%s", text)
	}
}

// TestDigestItemPriorCycle: a solicitation in a digest says who held the
// work last time or that no earlier cycle was found in the records held.
func TestDigestItemPriorCycle(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	ctx := context.Background()
	for id, want := range map[string]string{"20260603042": "earlier cycle", "20260616061": "no earlier cycle found in the records held"} {
		n, err := backend.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		it := tm.digestItem(ctx, watch.Filter{Lens: record.LensMoney}, "money", n)
		if !strings.Contains(it.Cycle, want) {
			t.Errorf("%s: cycle line %q", id, it.Cycle)
		}
		text := digestText(watch.Watch{Scope: "x"}, store.Delivery{Window: "2026-08-17"}, []DigestItem{it}, "m", "u")
		if !strings.Contains(strings.Join(strings.Fields(text), " "), "Earlier cycle: "+it.Cycle) {
			t.Errorf("%s: digest\n%s", id, text)
		}
	}
}

// TestDigestCatchUpAfterServiceDown: the scheduler did not run for three
// days; the next run's digest holds what arrived meanwhile and says it is
// a catch-up since the last digest.
func TestDigestCatchUpAfterServiceDown(t *testing.T) {
	ctx := context.Background()
	tr := &flaky{}
	tm := newTestMailer(t, nil, tr)
	activeWatch(t, tm, "Parks construction awards")
	forget(t, tm)
	tm.clock.Set(start.Add(20 * time.Hour)) // 2026-08-15
	if rep, _ := tm.RunDigests(ctx); rep.Sent != 1 {
		t.Fatalf("day one %+v", rep)
	}
	// a record "arrives" while the service is down: it leaves the seen set
	ws, _ := tm.st.ListWatches(ctx)
	w := ws[0]
	arrived := w.Seen[0]
	w.Seen, w.Facts = w.Seen[1:], nil
	if _, err := tm.st.DeleteWatch(ctx, w.ID); err != nil {
		t.Fatal(err)
	}
	if err := tm.st.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	tm.clock.Set(start.Add(4*24*time.Hour + 20*time.Hour)) // 2026-08-19, three windows skipped
	rep, _ := tm.RunDigests(ctx)
	if rep.Sent != 1 || rep.CatchUps != 1 {
		t.Fatalf("after the outage %+v", rep)
	}
	d, _, _ := tm.st.GetDelivery(ctx, w.ID, "2026-08-19")
	if d.CatchUpFrom != "2026-08-15" || !slices.Equal(d.RequestIDs, []string{arrived}) {
		t.Errorf("catch-up delivery %+v", d)
	}
	tr.mu.Lock()
	text := string(tr.sent[len(tr.sent)-1])
	tr.mu.Unlock()
	if !strings.Contains(text, "catch-up digest") || !strings.Contains(text, "since 2026-08-15") {
		t.Errorf("catch-up mail:\n%s", text)
	}
}
