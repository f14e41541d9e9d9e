package mailer

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// DigestKeep is how long finished deliveries are remembered: they are
// each watch's ledger (watch.LedgerKeep); their mail text goes after
// watch.BodyKeep.
const DigestKeep = watch.LedgerKeep

// Window is the daily digest window that now falls in, and whether it is
// open for sending: daily windows are named by their New York day and open
// at DigestHour; shorter periods are named by their UTC start. A weekly
// watch's window is WindowFor's.
func (m *core) Window(now time.Time) (key string, open bool) {
	key, _ = m.WindowFor(watch.CadenceDaily, now)
	return key, true
}

// WindowFor is the window a cadence's digest for now belongs to, with its
// start. Daily: the New York day, from DigestHour. Weekly: the week from
// watch.WeeklyDay at DigestHour, named by that day. With a period shorter
// than a day (tests, demos) daily windows are one period long and weekly
// ones seven periods.
func (m *core) WindowFor(cadence string, now time.Time) (key string, start time.Time) {
	if m.cfg.DigestEvery == 24*time.Hour {
		ny := now.In(record.NewYork)
		day := time.Date(ny.Year(), ny.Month(), ny.Day(), m.cfg.DigestHour, 0, 0, 0, record.NewYork)
		if ny.Before(day) {
			day = day.AddDate(0, 0, -1)
		}
		if cadence == watch.CadenceWeekly {
			back := (int(day.Weekday()) - int(watch.WeeklyDay) + 7) % 7
			day = day.AddDate(0, 0, -back)
		}
		return record.NewYorkDay(day), day
	}
	period := m.cfg.DigestEvery
	if cadence == watch.CadenceWeekly {
		period *= 7
	}
	t := now.UTC().Truncate(period)
	return t.Format("2006-01-02T15:04Z"), t
}

// previousWindow is the window before the one starting at start.
func (m *core) previousWindow(cadence string, start time.Time) string {
	if m.cfg.DigestEvery == 24*time.Hour {
		days := -1
		if cadence == watch.CadenceWeekly {
			days = -7
		}
		prev := start.In(record.NewYork).AddDate(0, 0, days)
		return record.NewYorkDay(prev)
	}
	period := m.cfg.DigestEvery
	if cadence == watch.CadenceWeekly {
		period *= 7
	}
	return start.Add(-period).Format("2006-01-02T15:04Z")
}

// DigestReport says what one digest run did.
type DigestReport struct {
	Window     string // the daily window
	Planned    int    // deliveries planned now with new records
	CheckIns   int    // weekly check-ins planned (nothing new)
	Heartbeats int    // heartbeats planned (a daily watch quiet for long)
	CatchUps   int    // deliveries planned that cover a gap
	Empty      int    // watches with nothing new and no mail due
	Sent       int
	Failed     int
	Dropped    int
	Merged     int // open deliveries folded into a later catch-up
	// Deferred are deliveries left for the next run by the per-run or
	// per-day cap (oldest are sent first; none is dropped).
	Deferred int
	// Missed are due watches this run left without a ledger entry (their
	// run could not be planned): an operator error, logged and counted
	// (store.CounterDigestRunMissed).
	Missed int
}

// RunDigests plans the current window's digest for every active watch
// that has none yet (each by its cadence), then works through every open
// delivery whose time has come, oldest first, within the per-run and
// per-day caps. Planning stores the chosen records and advances the watch
// before any mail leaves, so a restart resends the same planned digest at
// most (and over a relay, where a cut-short send cannot be known, not at
// all): a digest is never sent twice. An item is marked sent only after the
// transport accepted the message. Each watch's delivery is retried on its
// own; one still undelivered when the watch's next window is planned is
// folded into that window's (catch-up) digest, never dropped.
func (m *Digests) RunDigests(ctx context.Context) (DigestReport, error) {
	now := m.now()
	key, _ := m.Window(now)
	rep := DigestReport{Window: key}
	watches, err := m.deps.Store.ListWatches(ctx)
	if err != nil {
		return rep, err
	}
	for _, w := range watches {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		if w.Status != watch.StatusActive {
			continue
		}
		wkey, wstart := m.WindowFor(w.CadenceOf(), now)
		// a window that began before the watch did is covered by its
		// baseline: the first digest is the next window's
		if w.LastWindow >= wkey || wstart.Before(w.ActivatedAt) {
			continue
		}
		d, merged, err := m.plan(ctx, w, wkey, wstart, now)
		if err == nil {
			_, ok, gerr := m.deps.Store.GetDelivery(ctx, w.ID, wkey)
			if err = gerr; err == nil && !ok {
				err = errors.New("the planned run is not in the store")
			}
		}
		if err != nil {
			// every due watch's run leaves a ledger entry; one that does
			// not is an operator error (the run is retried next poll)
			rep.Missed++
			m.log().Error("mailer: operator error: a due watch has no ledger entry for this run; will retry", "window", wkey, "err", err)
			_ = store.CountEvent(ctx, m.deps.Store, store.CounterDigestRunMissed, now, 1)
			continue
		}
		rep.Merged += merged
		switch {
		case d.State == store.DeliveryEmpty:
			rep.Empty++
		case d.Kind == store.KindCheckIn:
			rep.CheckIns++
		case d.Kind == store.KindHeartbeat:
			rep.Heartbeats++
		default:
			rep.Planned++
		}
		if d.CatchUpFrom != "" && d.State != store.DeliveryEmpty {
			rep.CatchUps++
		}
	}
	open, err := m.deps.Store.OpenDeliveries(ctx)
	if err != nil {
		return rep, err
	}
	// oldest first: what the caps defer is what waited least
	sort.SliceStable(open, func(i, j int) bool {
		if !open[i].PlannedAt.Equal(open[j].PlannedAt) {
			return open[i].PlannedAt.Before(open[j].PlannedAt)
		}
		return open[i].Window < open[j].Window
	})
	sent := 0
	// the caps are asked just before a send; a send that then fails has
	// used its unit of the day's cap (the cap errs on sending less)
	allow := func() string {
		if sent >= m.cfg.MaxDigestsPerRun {
			return "the per-run cap of " + strconv.Itoa(m.cfg.MaxDigestsPerRun) + " digest mails was reached; it goes at the next run"
		}
		a, err := m.deps.Store.Take(ctx, CeilingDigestsPerDay, "*", m.cfg.MaxDigestsPerDay, now)
		if err != nil {
			return "the state store could not answer for the daily cap; it goes at the next run"
		}
		if !a.Allowed {
			return "the daily cap of " + strconv.Itoa(m.cfg.MaxDigestsPerDay) + " digest mails was reached; it goes after " +
				a.ResetAt.In(record.NewYork).Format("Jan 2, 2006 3:04 PM") + " New York time"
		}
		return ""
	}
	// one digest mail per address per window: an address's deliveries
	// due now go out together, one section per watch
	groups := byAddress(open, watches)
	_, windowStart := m.WindowFor(watch.CadenceDaily, now)
	for _, g := range groups {
		if ctx.Err() != nil {
			return rep, ctx.Err()
		}
		if !slices.ContainsFunc(g.deliveries, func(d store.Delivery) bool { return !d.NextAttempt.After(now) }) {
			continue
		}
		var outcomes []string
		if a, err := m.deps.Store.Address(ctx, g.address); err != nil {
			m.log().Warn("mailer: the address budget could not be read; its digest waits", "err", err)
			continue
		} else if !a.DigestAt.Before(windowStart) {
			// this address had its digest mail in this window already
			// (a catch-up or a retry): the rest waits for the next
			// window's, which folds it in
			for _, d := range g.deliveries {
				d.Deferred = "this address had its one digest mail of this window; it goes with the next one"
				_, _ = m.deps.Store.PutDelivery(ctx, d)
				outcomes = append(outcomes, deferred)
			}
		} else {
			outcomes = m.deliverGroup(ctx, g, allow)
		}
		for _, o := range outcomes {
			switch o {
			case store.DeliverySent:
				rep.Sent++
			case store.DeliveryFailed:
				rep.Failed++
			case store.DeliveryDropped:
				rep.Dropped++
			case store.DeliveryMerged:
				rep.Merged++
			case deferred:
				rep.Deferred++
			}
		}
		if slices.Contains(outcomes, store.DeliverySent) {
			sent++
		}
	}
	return rep, nil
}

// CeilingDigestsPerDay is the state-store ceiling of digest mails sent per
// New York day (Config.MaxDigestsPerDay).
const CeilingDigestsPerDay = "digests-day"

// deferred is deliver's outcome when a cap leaves the delivery open for
// the next run.
const deferred = "deferred"

// plan chooses what is new to this watch, decides which mail (if any) its
// window gets, and stores the delivery with the watch's next progress. It
// returns the delivery and how many earlier open deliveries it folded in.
//
// The decision:
//   - records not delivered before (by request id; an award republished
//     with its procurement identity and facts unchanged is not new, one
//     with a fact changed is an update; for a people-lens watch, also the
//     roster releases that changed a followed agency's leader, by change
//     id) → a digest of them;
//   - nothing new on a weekly watch → a check-in stating the scope;
//   - nothing new on a daily watch quiet for QuietAfter → one heartbeat,
//     then again only after the next quiet stretch;
//   - else no mail.
//
// An earlier delivery of the watch still undelivered (failed, or deferred
// by a cap) is folded in, and a window skipped while the service was down
// is covered: the digest then says it is a catch-up and since when.
func (m *Digests) plan(ctx context.Context, w watch.Watch, key string, start, now time.Time) (store.Delivery, int, error) {
	if w.Follow != nil {
		return m.planFollow(ctx, w, key, now)
	}
	// the watch's one answer (notices.Service.Filter): what its preview
	// showed, now
	a, err := m.deps.Notices.Filter(ctx, w.Filter, notices.AnswerOptions{Form: w.Form, Links: view.Links{Base: m.cfg.BaseURL, Form: m.cfg.Form}})
	if err != nil {
		return store.Delivery{}, 0, err
	}
	res := a.FilterResult
	var prev *store.Delivery
	if w.LastWindow != "" {
		if pd, ok, err := m.deps.Store.GetDelivery(ctx, w.ID, w.LastWindow); err != nil {
			return store.Delivery{}, 0, err
		} else if ok {
			prev = &pd
		}
	}
	in := DigestInput{Watch: w, Hits: a.Hits, Roster: people.Changes(a.Roster), Prev: prev, Now: now, QuietAfter: m.cfg.QuietAfter,
		ExpectedPrevious: m.previousWindow(w.CadenceOf(), start)}
	if a.Meetings != nil {
		in.Meetings = a.Meetings.Meetings
	}
	if a.Land != nil {
		in.Land = a.Land.Items
	}
	d, next := Decide(in)
	d.WatchID, d.Window, d.PlannedAt = w.ID, key, now
	d.Matched = matched(in)
	d.MessageID = m.messageID("digest", w.ID+"."+key)
	if d.Kind == store.KindCheckIn || d.Kind == store.KindHeartbeat || len(res.Scope.StaleSources()) > 0 {
		d.Covered = covered(res.Scope) // a digest states its sources when one is not fresh
	}
	return m.storePlan(ctx, d, next, prev)
}

// storePlan stores a planned delivery with the watch's next progress and,
// when it folds in prev (prev's window among its MergedFrom), marks prev
// as carried by it. It returns the delivery stored (an earlier one for the
// same window when there was one) and how many it folded in.
func (m *Digests) storePlan(ctx context.Context, d store.Delivery, next watch.Progress, prev *store.Delivery) (store.Delivery, int, error) {
	got, created, err := m.deps.Store.PlanDigest(ctx, d, next)
	if err != nil || !created || prev == nil || !slices.Contains(got.MergedFrom, prev.Window) {
		return got, 0, err
	}
	p := *prev
	p.State, p.MergedInto = store.DeliveryMerged, d.Window
	if _, err := m.deps.Store.PutDelivery(ctx, p); err != nil {
		m.log().Warn("mailer: folded delivery not marked; it is skipped when its turn comes", "err", err)
	}
	return got, 1, nil
}

// matched are the ids a run matched, as its ledger lists them (bounded).
func matched(in DigestInput) []string {
	var ids []string
	for _, h := range in.Hits {
		ids = append(ids, h.Notice.RequestID)
	}
	for _, mt := range in.Meetings {
		ids = append(ids, mt.ID)
	}
	for _, c := range in.Roster {
		ids = append(ids, c.ID)
	}
	for _, it := range in.Land {
		ids = append(ids, it.ID)
	}
	return ids[:min(len(ids), 2*watch.FeedLimit)]
}

// transportName is how mail leaves: "outbox" (.eml files) or "relay".
func (m *core) transportName() string {
	if _, ok := m.transport.(*Outbox); ok {
		return "outbox"
	}
	return "relay"
}

// DigestInput is what the digest decision reads.
type DigestInput struct {
	Watch watch.Watch
	// Hits are what the watch's filter matches now (newest first for
	// awards).
	Hits []search.Hit
	// Roster are the leader changes a people-lens watch with agencies
	// follows now (notices.Service.Roster), each delivered once by its id.
	Roster []people.LeaderChange
	// Meetings are the meeting records a meetings-lens watch follows now
	// (notices.Service.Filter, its meetings block: Form 1); a meeting is new when its id was
	// not seen before (nor, for a meeting read from a City Record notice,
	// that notice's request id).
	Meetings []meeting.Meeting
	// Land are the land projects a land-lens watch follows now
	// (notices.Service.Filter, its land block: Form 1), each state (a new milestone, stage or
	// decision) delivered once by its id.
	Land []watch.LandItem
	// Prev is the watch's delivery for its last window, if still held.
	Prev *store.Delivery
	// ExpectedPrevious is the window before the one being planned: a last
	// window older than it means windows were skipped (the service was
	// down).
	ExpectedPrevious string
	Now              time.Time
	QuietAfter       time.Duration
}

// Decide is the digest decision for one watch and window (see plan): the
// delivery to store (without its watch id, window, message id and time)
// and the watch's next progress. It reads nothing but its input.
func Decide(in DigestInput) (store.Delivery, watch.Progress) {
	w := in.Watch
	facts := map[string]string{}
	for _, k := range w.Facts {
		id, fp := watch.SplitIdentity(k)
		facts[id] = fp
	}
	d := store.Delivery{State: store.DeliveryPlanned, Kind: store.KindDigest, Since: w.LastWindow,
		Cadence: w.CadenceOf()}
	var fresh, updates, seen, newFacts []string
	inDigest := map[string]bool{}
	for _, h := range in.Hits {
		n := h.Notice
		seen = append(seen, n.RequestID)
		if slices.Contains(w.Seen, n.RequestID) {
			continue
		}
		if k := watch.AwardIdentity(n); k != "" {
			id, fp := watch.SplitIdentity(k)
			if inDigest[id] {
				continue // the same award twice in this window: one item
			}
			inDigest[id] = true
			if old, ok := facts[id]; ok {
				if old == fp {
					continue // republished unchanged: delivered before
				}
				updates = append(updates, n.RequestID)
			}
			newFacts = append(newFacts, k)
		}
		fresh = append(fresh, n.RequestID)
	}
	// a people-lens watch: roster releases that changed a leader, by id
	for _, c := range in.Roster {
		seen = append(seen, c.ID)
		if !slices.Contains(w.Seen, c.ID) {
			fresh = append(fresh, c.ID)
		}
	}
	for _, it := range in.Land {
		seen = append(seen, it.ID)
		if !slices.Contains(w.Seen, it.ID) {
			fresh = append(fresh, it.ID)
		}
	}
	for _, mt := range in.Meetings {
		seen = append(seen, mt.ID)
		if slices.Contains(w.Seen, mt.ID) || mt.Source == meeting.SourceHearings && slices.Contains(w.Seen, mt.SourceID) {
			continue
		}
		fresh = append(fresh, mt.ID)
	}
	// an earlier delivery still undelivered is folded in (its records
	// first: they are older)
	if p := in.Prev; p != nil && (p.State == store.DeliveryPlanned || p.State == store.DeliveryFailed) &&
		(p.Kind == store.KindDigest || len(fresh) > 0 || w.CadenceOf() == watch.CadenceWeekly) {
		var ids []string
		for _, id := range p.RequestIDs {
			if !slices.Contains(fresh, id) {
				ids = append(ids, id)
			}
		}
		fresh = append(ids, fresh...)
		for _, id := range p.Updates {
			if !slices.Contains(updates, id) {
				updates = append(updates, id)
			}
		}
		d.MergedFrom = append(append([]string{}, p.MergedFrom...), p.Window)
		d.CatchUpFrom = p.CatchUpFrom
		if d.CatchUpFrom == "" {
			d.CatchUpFrom = p.Since
		}
		if d.CatchUpFrom == "" {
			d.CatchUpFrom = record.NewYorkDay(w.ActivatedAt)
		}
	}
	// windows skipped while the service was down (not a cadence change)
	if d.CatchUpFrom == "" && w.LastWindow != "" && w.LastWindow < in.ExpectedPrevious &&
		(in.Prev == nil || in.Prev.Cadence == "" || in.Prev.Cadence == w.CadenceOf()) {
		d.CatchUpFrom = w.LastWindow
	}
	d.RequestIDs, d.Updates = fresh, updates

	next := watch.Progress{Seen: seen, QuietSince: w.QuietSince}
	if next.QuietSince.IsZero() {
		next.QuietSince = w.ActivatedAt
	}
	// keep ids that left the result but were seen, so a record that comes
	// back into view is not new again (bounded)
	for _, id := range w.Seen {
		if !slices.Contains(seen, id) && len(next.Seen) < 4*watch.FeedLimit {
			next.Seen = append(next.Seen, id)
		}
	}
	next.Facts = newFacts
	replaced := map[string]bool{}
	for _, k := range newFacts {
		id, _ := watch.SplitIdentity(k)
		replaced[id] = true
	}
	for _, k := range w.Facts {
		id, _ := watch.SplitIdentity(k)
		if !replaced[id] && len(next.Facts) < watch.MaxFacts {
			next.Facts = append(next.Facts, k)
		}
	}
	switch {
	case len(fresh) > 0:
		next.QuietSince = in.Now
	case w.CadenceOf() == watch.CadenceWeekly:
		d.Kind = store.KindCheckIn
		next.QuietSince = in.Now
	case in.Now.Sub(next.QuietSince) >= in.QuietAfter:
		d.Kind = store.KindHeartbeat
		next.QuietSince = in.Now
	default:
		d.State = store.DeliveryEmpty
		d.MergedFrom = nil
		if d.CatchUpFrom != "" && (in.Prev == nil || !in.Prev.Open()) {
			d.CatchUpFrom = ""
		}
	}
	return d, next
}

// covered states what a check-in or heartbeat searched: the sources with
// their dates, and the corpus's observation time.
func covered(sc record.Scope) string {
	var parts []string
	for _, c := range sc.Sources {
		p := c.Label
		if p == "" {
			p = c.Source
		}
		if c.FirstSourceDate != "" || c.LastSourceDate != "" {
			p += " (" + c.FirstSourceDate + " to " + c.LastSourceDate + ")"
		}
		if c.State != "" { // its freshness (record.Freshen), where a schedule is known
			p += ", " + c.State
			if !c.StateSince.IsZero() {
				p += " since " + c.StateSince.In(record.NewYork).Format("Jan 2, 2006 3:04 PM")
			}
			if !c.ObservedAt.IsZero() {
				p += ", observed " + c.ObservedAt.In(record.NewYork).Format("Jan 2, 2006 3:04 PM")
			}
			if c.NewestSourceDate != "" {
				p += ", newest source date " + c.NewestSourceDate
			}
		}
		parts = append(parts, p)
	}
	s := "Searched: " + strings.Join(parts, "; ")
	if len(parts) == 0 {
		s = "Searched: the records held"
	}
	if !sc.CorpusObservedAt.IsZero() {
		s += ". Records as observed " + sc.CorpusObservedAt.In(record.NewYork).Format("Jan 2, 2006 3:04 PM") + " New York time"
	}
	return s + "."
}

func backoff(attempts int) time.Duration {
	d := 5 * time.Minute
	for i := 1; i < attempts && d < 6*time.Hour; i++ {
		d *= 2
	}
	return min(d, 6*time.Hour)
}

// deliver sends one open delivery and records the outcome. allow is asked
// just before the send (the caps); when it refuses (saying why), the
// delivery stays open for the next run, its ledger entry deferred with
// the reason.
func (m *Digests) deliver(ctx context.Context, d store.Delivery, allow func() string) string {
	msg, outcome := m.prepare(ctx, d)
	if outcome != "" || msg == nil {
		return outcome
	}
	return m.sendDelivery(ctx, d, *msg, allow, m.now())
}

// prepare settles what an open delivery needs before its mail: nothing
// when it was folded into a later one, interrupted over a relay, or its
// watch has ended (the outcome, recorded), else the mail to send.
func (m *Digests) prepare(ctx context.Context, d store.Delivery) (*Message, string) {
	if d.MergedInto != "" {
		return nil, ""
	}
	if d.State == store.DeliverySending && !m.transport.Idempotent() {
		// a send began before a restart: whether it left is unknown, and a
		// relay cannot take it back, so it is not sent again
		d.State, d.LastError = store.DeliveryDropped, "interrupted while sending; not resent to avoid a duplicate"
		_, _ = m.deps.Store.PutDelivery(ctx, d)
		return nil, d.State
	}
	w, err := m.deps.Store.GetWatch(ctx, d.WatchID)
	if err != nil {
		return nil, "" // ended meanwhile: its deliveries went with it
	}
	if w.LastWindow > d.Window {
		// a later window was planned; if it folded this one in (a planner
		// stopped before marking it), this one is not sent on its own
		if later, ok, err := m.deps.Store.GetDelivery(ctx, w.ID, w.LastWindow); err == nil && ok && slices.Contains(later.MergedFrom, d.Window) {
			d.State, d.MergedInto = store.DeliveryMerged, later.Window
			_, _ = m.deps.Store.PutDelivery(ctx, d)
			return nil, d.State
		}
	}
	if d.Kind == store.KindChange {
		manage, unsub, err := m.tokens.ManageLinks(w.ID)
		if err != nil {
			return nil, m.failed(ctx, d, err)
		}
		msg := m.changeMessage(w, d, manage, unsub)
		return m.unasked(w, msg)
	}
	var items []DigestItem
	kind := w.Filter.Lens
	if kind == watch.LensEntity || kind == "" {
		kind = "notice"
	}
	var roster []people.LeaderChange
	rosterRead := false
	for _, id := range d.RequestIDs {
		if strings.HasPrefix(id, people.ChangePrefix) { // a leader change of the people lens
			if !rosterRead {
				as, err := m.deps.Notices.Roster(ctx, w.Filter)
				if err != nil {
					return nil, m.failed(ctx, d, err)
				}
				roster, rosterRead = people.Changes(as), true
			}
			i := slices.IndexFunc(roster, func(c people.LeaderChange) bool { return c.ID == id })
			if i < 0 {
				continue // its release is no longer held
			}
			items = append(items, DigestItem{Roster: &roster[i], Link: m.cfg.BaseURL + roster[i].Page})
			continue
		}
		if pid := watch.LandProjectID(id); pid != "" { // a land project's milestone (land lens, Form 1)
			it, err := m.deps.Notices.LandItem(ctx, pid, view.Links{Base: m.cfg.BaseURL, Form: m.cfg.Form})
			if err != nil {
				if record.ErrorCode(err) == record.ENOTFOUND {
					continue // withdrawn since planning
				}
				return nil, m.failed(ctx, d, err)
			}
			items = append(items, DigestItem{Land: &it, Link: it.Link})
			continue
		}
		if meeting.IsID(id) { // a meeting record (meetings lens, Form 1)
			mt, err := m.deps.Meetings.Get(ctx, id)
			if err != nil {
				if record.ErrorCode(err) == record.ENOTFOUND {
					continue // withdrawn since planning
				}
				return nil, m.failed(ctx, d, err)
			}
			items = append(items, DigestItem{Meeting: &mt, Link: meeting.Permalink(m.cfg.BaseURL, id)})
			continue
		}
		n, err := m.deps.Search.Get(ctx, id)
		if err != nil {
			if record.ErrorCode(err) == record.ENOTFOUND {
				continue // withdrawn since planning
			}
			return nil, m.failed(ctx, d, err)
		}
		it := m.digestItem(ctx, w.Filter, kind, n)
		it.Update = slices.Contains(d.Updates, id)
		items = append(items, it)
	}
	if d.Kind == store.KindDigest && len(items) == 0 {
		d.State = store.DeliveryEmpty
		_, _ = m.deps.Store.PutDelivery(ctx, d)
		return nil, d.State
	}
	manage, unsub, err := m.tokens.ManageLinks(w.ID)
	if err != nil {
		return nil, m.failed(ctx, d, err)
	}
	msg := Message{Kind: "digest", To: w.Email, MessageID: d.MessageID, Unsubscribe: unsub, Bulk: true}
	scope := oneLine(mailSafe(w.Scope), 70)
	switch d.Kind {
	case store.KindCheckIn:
		msg.Subject = "Recordwatch weekly check-in: nothing new — " + scope
		msg.Text = quietText(w, d, m.schedule(w.CadenceOf()), manage, unsub)
	case store.KindHeartbeat:
		msg.Subject = "Recordwatch: your watch is running, nothing new — " + scope
		msg.Text = quietText(w, d, m.schedule(w.CadenceOf()), manage, unsub)
	default:
		subject := "Recordwatch: 1 new record"
		if len(items) != 1 {
			subject = "Recordwatch: " + strconv.Itoa(len(items)) + " new records"
		}
		if d.CatchUpFrom != "" {
			subject = "Recordwatch catch-up: " + strconv.Itoa(len(items)) + " records since " + d.CatchUpFrom
		}
		msg.Subject = subject + " — " + scope
		msg.Text = digestText(w, d, items, manage, unsub)
	}
	return m.unasked(w, msg)
}

// unasked gives the mail of a watch its owner never acted on (no link of
// one of its mails used) "this wasn't me — remove everything", in its
// text and as its one-click List-Unsubscribe: for all its address knows,
// nobody asked for it.
func (m *Digests) unasked(w watch.Watch, msg Message) (*Message, string) {
	if !w.Untouched {
		return &msg, ""
	}
	remove, err := m.tokens.RemoveAllLink(w.Email)
	if err != nil {
		m.log().Warn("mailer: no remove-everything link for an untouched watch's mail", "err", err)
		return &msg, ""
	}
	if body, sig, ok := strings.Cut(msg.Text, "\n-- \n"); ok {
		msg.Text = body + "\n" + removeAllText(remove) + "-- \n" + sig
	}
	msg.Unsubscribe = remove
	return &msg, ""
}

// sendDelivery sends a delivery's message within the caps (allow) and
// records the outcome: sending before, sent only once the transport
// accepted it, failed (retried) otherwise.
func (m *Digests) sendDelivery(ctx context.Context, d store.Delivery, msg Message, allow func() string, now time.Time) string {
	if reason := allow(); reason != "" {
		d.Deferred = reason
		_, _ = m.deps.Store.PutDelivery(ctx, d)
		return deferred
	}
	d.State = store.DeliverySending
	d.Attempts++
	// the ledger: what is sent and how (its text is kept watch.BodyKeep)
	d.Subject, d.Body, d.Transport = msg.Subject, msg.Text, m.transportName()
	if kept, err := m.deps.Store.PutDelivery(ctx, d); err != nil || !kept {
		return ""
	}
	if err := m.send(ctx, msg); err != nil {
		return m.failed(ctx, d, err)
	}
	// marked sent only now that the transport accepted it
	d.State, d.SentAt, d.LastError = store.DeliverySent, now, ""
	if _, err := m.deps.Store.PutDelivery(ctx, d); err != nil {
		m.log().Error("mailer: digest sent but its state was not saved", "err", err)
	}
	_ = store.CountEvent(ctx, m.deps.Store, store.CounterDigestSent, now, 1)
	return d.State
}

// digestItem is one record as a digest shows it: its /r/ link, why it
// matched and, for a solicitation or intent, its earlier cycle in one line
// ("last awarded to … in 2023", or that none was found in the records held).
func (m *Digests) digestItem(ctx context.Context, f watch.Filter, kind string, n record.Notice) DigestItem {
	links := view.Links{Base: m.cfg.BaseURL, Form: m.cfg.Form}
	it := DigestItem{Notice: n, Link: links.Digest(kind, n.RequestID), Matched: WhyMatched(f, n)}
	if pc := cycle.For(ctx, m.deps.Search, n, links); pc != nil {
		it.Cycle = pc.Summary
	}
	return it
}

func (m *Digests) failed(ctx context.Context, d store.Delivery, err error) string {
	m.log().Warn("mailer: digest delivery failed; will retry", "window", d.Window, "attempt", d.Attempts, "err", err)
	d.LastError = err.Error()
	// never given up: retried with backoff (at most every 6 hours), and
	// folded into the watch's next digest if still undelivered then
	d.State = store.DeliveryFailed
	d.NextAttempt = m.now().Add(backoff(d.Attempts))
	_, _ = m.deps.Store.PutDelivery(ctx, d)
	return d.State
}

// RunScheduler runs digests every PollEvery until ctx ends, and sweeps old
// delivery state once a day.
func (m *Digests) RunScheduler(ctx context.Context) {
	t := time.NewTicker(m.cfg.PollEvery)
	defer t.Stop()
	var swept time.Time
	for {
		started := m.now()
		rep, err := m.RunDigests(ctx)
		m.digestReceipt(ctx, started, rep, err)
		if err != nil && !errors.Is(err, context.Canceled) {
			m.log().Warn("mailer: digest run", "err", err)
		} else if rep.Sent+rep.Failed+rep.Dropped+rep.Deferred+rep.Missed > 0 {
			m.log().Info("mailer: digests", "window", rep.Window, "sent", rep.Sent, "failed", rep.Failed, "dropped", rep.Dropped,
				"empty", rep.Empty, "deferred", rep.Deferred, "merged", rep.Merged, "missed", rep.Missed)
		}
		if now := m.now(); now.Sub(swept) > 24*time.Hour {
			if _, err := m.deps.Store.SweepWatches(ctx, now, DigestKeep); err != nil {
				m.log().Warn("mailer: sweep", "err", err)
			}
			swept = now
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
