package indexer

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/internal/record"
)

// freshModel is what the rules of issue 46 item 2 say of one source after
// a sequence of loads: its own last good live fetch (zero: none), whether
// its last live fetch failed, and whether anything of it is held.
type freshModel struct {
	lastOK  time.Time
	failing bool
	held    bool
	maxAge  time.Duration
}

// The rules of item 2, checked after every step of random sequences of
// good, failing, empty and old-file loads per source, on the real engine
// with an injected clock: City Record (one source per job) and the
// meetings job (Legistar, City Record hearings and board calendars, each
// upstream good, failing or empty on its own; a calendar fails by being a
// PDF). After each step, for each source: fresh only after that source's
// own good fetch within its maximum age; failing after its failed live
// fetch until a good one, whatever its age; observed_at never moves
// backwards and an old file never moves it; an empty answer is typed
// upstream_failing for a failing source (unless the dates asked precede
// what it holds), outside_coverage for dates outside what it holds,
// stale for a stale one and none_found for a fresh one.
func TestFreshnessRulesProperty(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { freshnessProperty(t, seed, 14) })
	}
}

func freshnessProperty(t *testing.T, seed uint64, steps int) {
	ctx := context.Background()
	crolJob, meetJob := jobNamed("crol"), jobNamed("meetings")
	e := newFreshEnv(t, crolJob, meetJob)
	e.s.Config.CalendarURLs = []string{calendarURL}
	rng := rand.New(rand.NewPCG(seed, 46))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	model := map[string]*freshModel{
		record.SourceCROL:       {maxAge: crolJob.MaxAge},
		meetings.LegistarSource: {maxAge: meetJob.MaxAge},
		meetings.HearingSource:  {maxAge: meetJob.MaxAge},
		meetings.CalendarSource: {maxAge: meetJob.MaxAge},
	}
	fetched := func(src string, ok bool) {
		m := model[src]
		m.failing = !ok
		if ok {
			m.lastOK = e.now
		}
	}
	oldCROL := fstest.MapFS{"old/rows.json": {Data: mustRead(t, "../testdata/sample/crol/dg92-zbpx_pin_chain_rows_cityscroll_2026-08-18.json")}}
	sampleMeetings := os.DirFS("../testdata/sample")
	prev := map[string]time.Time{}
	var rawPrev time.Time
	for step := range steps {
		e.now = e.now.Add([]time.Duration{time.Minute, 30 * time.Minute, 2 * time.Hour, 7 * time.Hour}[rng.IntN(4)])
		var what string
		oldFile := ""
		if rng.IntN(2) == 0 {
			mode := pick("good", "failing", "empty", "old-file")
			what = "crol " + mode
			switch mode {
			case "old-file":
				oldFile = record.SourceCROL
				if _, err := e.ix.Load(ctx, crolSource{}, oldCROL, "old"); err != nil {
					t.Fatal(err)
				}
				model[record.SourceCROL].held = true
			default:
				e.up.set("crol", mode)
				rc := e.s.RunJob(ctx, crolJob)
				m := model[record.SourceCROL]
				// an empty answer is nothing new from a checkpoint; with
				// none, a fetch of everything that answers nothing fails
				ok := mode == "good" || (mode == "empty" && m.held)
				if (rc.Outcome == record.ReceiptOK) != ok {
					t.Fatalf("step %d %s: receipt %+v", step, what, rc)
				}
				fetched(record.SourceCROL, ok)
				m.held = m.held || mode == "good"
			}
		} else if rng.IntN(4) == 0 {
			what, oldFile = "meetings old-file", "meetings"
			if _, err := e.ix.Load(ctx, meetingsSource{}, sampleMeetings, "meetings"); err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{meetings.LegistarSource, meetings.HearingSource, meetings.CalendarSource} {
				model[s].held = true
			}
		} else {
			l, h, c := pick("good", "failing", "empty"), pick("good", "failing", "empty"), pick("good", "pdf")
			what = fmt.Sprintf("meetings legistar %s, hearings %s, calendar %s", l, h, c)
			e.up.set("legistar", l)
			e.up.set("hearings", h)
			e.up.set("calendar", c)
			e.s.RunJob(ctx, meetJob)
			fetched(meetings.LegistarSource, l != "failing")
			fetched(meetings.HearingSource, h != "failing")
			model[meetings.HearingSource].held = model[meetings.HearingSource].held || h == "good"
			if l != "failing" || h != "failing" { // both failing: the calendars are not fetched
				fetched(meetings.CalendarSource, c == "good")
				model[meetings.CalendarSource].held = model[meetings.CalendarSource].held || c == "good"
			}
		}
		// the engine's own observation (the live checkpoint, /healthz)
		// moves forward only, whatever loads
		if raw := crolObserved(t, e.b); raw.Before(rawPrev) || (oldFile == record.SourceCROL && !rawPrev.IsZero() && !raw.Equal(rawPrev)) {
			t.Fatalf("step %d (%s): the engine's City Record observation moved from %v to %v", step, what, rawPrev, raw)
		} else {
			rawPrev = raw
		}
		cov := e.coverage(t)
		var states []string
		for _, src := range []string{record.SourceCROL, meetings.LegistarSource, meetings.HearingSource, meetings.CalendarSource} {
			states = append(states, src+"="+cov[src].State)
		}
		t.Logf("step %d, %s: %s → %v", step, e.now.Format(time.RFC3339), what, states)
		for src, m := range model {
			c, ok := cov[src]
			if !ok {
				if m.held {
					t.Fatalf("step %d (%s): %s held but not in the coverage", step, what, src)
				}
				continue
			}
			want := record.Stale
			switch {
			case m.failing:
				want = record.Failing
			case !m.held:
				want = record.NeverLoaded
			case !m.lastOK.IsZero() && e.now.Sub(m.lastOK) <= m.maxAge:
				want = record.Fresh
			}
			if c.State != want {
				t.Fatalf("step %d (%s): %s is %s (%s), want %s (last good fetch %v, now %v)", step, what, src, c.State, c.FreshnessNote, want, m.lastOK, e.now)
			}
			if c.ObservedAt.Before(prev[src]) {
				t.Fatalf("step %d (%s): %s observed_at moved back from %v to %v", step, what, src, prev[src], c.ObservedAt)
			}
			byFile := oldFile == src || (oldFile == "meetings" && src != record.SourceCROL)
			if byFile && !prev[src].IsZero() && !c.ObservedAt.Equal(prev[src]) {
				t.Fatalf("step %d (%s): an old file moved %s's observed_at from %v to %v", step, what, src, prev[src], c.ObservedAt)
			}
			prev[src] = c.ObservedAt
			if m.held {
				checkAbsence(t, fmt.Sprintf("step %d (%s)", step, what), c)
			}
		}
	}
}

// checkAbsence checks the absence types of empty answers from c alone:
// dates before what it holds, within it, and after it.
func checkAbsence(t *testing.T, at string, c record.SourceCoverage) {
	t.Helper()
	within := map[string]string{record.Failing: record.UpstreamFailing, record.Stale: record.AbsentStale, record.Fresh: record.NoneFound}[c.State]
	after := record.OutsideCoverage
	if c.State == record.Failing {
		after = record.UpstreamFailing
	}
	for _, q := range []struct{ from, to, want string }{
		{"1900-01-01", "1900-12-31", record.OutsideCoverage},
		{c.FirstSourceDate, c.LastSourceDate, within},
		{"2099-01-01", "2099-12-31", after},
	} {
		s := record.NewScope(record.Searched{Kind: "record", Filters: map[string]string{"kind": c.RecordType, "source": c.Source, "from": q.from, "to": q.to}},
			[]record.SourceCoverage{c}, 0)
		if s.Empty == nil || s.Empty.Type != q.want {
			t.Fatalf("%s: %s %s (%s to %s): empty answer %+v, want %s", at, c.Source, c.State, q.from, q.to, s.Empty, q.want)
		}
	}
}

func mustRead(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
