package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"
	"time"

	ical "github.com/emersion/go-ical"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// calEvent is one VEVENT as the three parsers read it.
type calEvent struct {
	UID, Start, Status, LastModified string
	Sequence                         int
}

// parseWithGoICal reads every VEVENT with go-ical (the first of the three
// third-party parsers).
func parseWithGoICal(t *testing.T, b []byte) []calEvent {
	t.Helper()
	cal := parseICS(t, b)
	var out []calEvent
	tz := false
	for _, c := range cal.Children {
		if c.Name == ical.CompTimezone && c.Props.Get(ical.PropTimezoneID).Value == feed.TZID {
			tz = true
		}
	}
	if !tz {
		t.Error("go-ical: no America/New_York VTIMEZONE")
	}
	for _, ev := range cal.Events() {
		e := calEvent{UID: ev.Props.Get(ical.PropUID).Value, Start: ev.Props.Get(ical.PropDateTimeStart).Value}
		if p := ev.Props.Get(ical.PropStatus); p != nil {
			e.Status = p.Value
		}
		if p := ev.Props.Get(ical.PropLastModified); p != nil {
			e.LastModified = p.Value
		}
		if p := ev.Props.Get(ical.PropSequence); p != nil {
			n, err := p.Int()
			if err != nil {
				t.Errorf("go-ical: SEQUENCE %q: %v", p.Value, err)
			}
			e.Sequence = n
		}
		out = append(out, e)
	}
	return out
}

// pythonParsers reads every VEVENT with Python's icalendar and vobject
// (Debian's python3-icalendar and python3-vobject under /usr/bin/python3):
// UID, SEQUENCE and STATUS as each reads them. A parser that is not
// installed is skipped with a message (CI installs both).
func pythonParsers(t *testing.T, b []byte) map[string][]calEvent {
	t.Helper()
	scripts := map[string]string{
		"icalendar": `import sys, json, icalendar
c = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
print(json.dumps([{"UID": str(e["UID"]), "Sequence": int(e.get("SEQUENCE", 0)), "Status": str(e.get("STATUS", "")),
  "Start": e.decoded("DTSTART").isoformat()} for e in c.walk("VEVENT")]))`,
		"vobject": `import sys, json, vobject
c = vobject.readOne(sys.stdin.buffer.read().decode("utf-8"))
print(json.dumps([{"UID": e.uid.value, "Sequence": int(e.sequence.value) if hasattr(e, "sequence") else 0,
  "Status": e.status.value if hasattr(e, "status") else "", "Start": e.dtstart.value.isoformat()} for e in c.contents.get("vevent", [])]))`,
	}
	out := map[string][]calEvent{}
	for name, script := range scripts {
		if exec.Command("/usr/bin/python3", "-c", "import "+name).Run() != nil {
			t.Logf("python %s not installed (Debian python3-%s under /usr/bin/python3): skipped", name, name)
			continue
		}
		cmd := exec.Command("/usr/bin/python3", "-c", script)
		cmd.Stdin = bytes.NewReader(b)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		raw, err := cmd.Output()
		if err != nil {
			t.Errorf("python %s refuses the calendar: %v %s", name, err, stderr.Bytes())
			continue
		}
		var evs []calEvent
		if err := json.Unmarshal(raw, &evs); err != nil {
			t.Fatalf("python %s: %v %s", name, err, raw)
		}
		out[name] = evs
	}
	return out
}

// eventsByUID finds uid among evs: the event and how many carry it.
func eventsByUID(evs []calEvent, uid string) (calEvent, int) {
	var e calEvent
	n := 0
	for _, x := range evs {
		if x.UID == uid {
			e, n = x, n+1
		}
	}
	return e, n
}

// TestCalendarTracksAnInPlaceDateChange replays the in-place change the
// held rows show (shared/data/real/README.md: City Record request
// 20260521015, "Bid Extension: … Ashokan Headworks", was republished under
// the same request id with a later due date; the later value is not
// held, so the replay moves the held row's due date a week on and
// re-indexes it). The calendar keeps the event's UID, raises SEQUENCE and
// sets LAST-MODIFIED, never duplicates it; withdrawn, it stays as
// STATUS:CANCELLED, also after a restart, for 30 days. Each version is
// read by three third-party parsers (go-ical, Python icalendar, vobject).
func TestCalendarTracksAnInPlaceDateChange(t *testing.T) {
	e := newEntityEnv(t, Config{})
	ctx := context.Background()
	const rid = "20260521015"
	uid := rid + "-due@rw.test"
	path := "/feed.ics?lens=entity&kind=agency&name=DEP&q=Ashokan"
	read := func(ts *httptest.Server) (calEvent, int, []byte) {
		t.Helper()
		res, err := ts.Client().Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var buf bytes.Buffer
		_, _ = buf.ReadFrom(res.Body)
		b := buf.Bytes()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, res.StatusCode, b)
		}
		evs := parseWithGoICal(t, b)
		ev, n := eventsByUID(evs, uid)
		for name, pevs := range pythonParsers(t, b) {
			pe, pn := eventsByUID(pevs, uid)
			if pn != n || pe.Sequence != ev.Sequence || pe.Status != ev.Status || len(pevs) != len(evs) {
				t.Errorf("python %s reads %d events, %s ×%d seq %d %s; go-ical %d events, ×%d seq %d %s",
					name, len(pevs), uid, pn, pe.Sequence, pe.Status, len(evs), n, ev.Sequence, ev.Status)
			}
		}
		return ev, n, b
	}
	ev, n, b := read(e.ts)
	if n != 1 || ev.Sequence != 0 || ev.Status != "CONFIRMED" || ev.Start != "20260811T100000" || ev.LastModified == "" {
		t.Fatalf("held row: %+v ×%d\n%s", ev, n, b)
	}
	if !bytes.Contains(b, []byte("DTSTART;TZID=America/New_York:20260811T100000")) {
		t.Error("the due time is not written in America/New_York")
	}
	if ev2, _, _ := read(e.ts); ev2 != ev {
		t.Errorf("an unchanged calendar changed: %+v → %+v", ev, ev2)
	}

	// the row changes in place: same request id, a later due date
	n0, err := e.be.Get(ctx, rid)
	if err != nil {
		t.Fatal(err)
	}
	n1 := n0
	n1.DueDate = n0.DueDate.AddDate(0, 0, 7)
	if err := e.be.Upsert(ctx, []search.Doc{{Notice: n1, Passages: crol.Passages(n1)}}); err != nil {
		t.Fatal(err)
	}
	if err := e.be.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	ev, n, b = read(e.ts)
	if n != 1 || ev.Sequence != 1 || ev.Status != "CONFIRMED" || ev.Start != "20260818T100000" || ev.LastModified == "" {
		t.Fatalf("after the in-place change: %+v ×%d\n%s", ev, n, b)
	}

	// withdrawn at the source: kept as CANCELLED, with a higher SEQUENCE
	if err := e.be.Delete(ctx, []string{rid}); err != nil {
		t.Fatal(err)
	}
	if err := e.be.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	ev, n, b = read(e.ts)
	if n != 1 || ev.Sequence != 2 || ev.Status != "CANCELLED" || ev.Start != "20260818T100000" {
		t.Fatalf("after withdrawal: %+v ×%d\n%s", ev, n, b)
	}

	// a restart (a new server over the same index and state) serves the
	// same UID, SEQUENCE and status; 30 days on, the cancelled event goes
	restart := func(now time.Time) *httptest.Server {
		cfg := Config{BaseURL: "http://rw.test", RatePerSecond: 1e6, Burst: 1e6, Engine: "embedded"}
		srv := newServer(cfg, Deps{Search: e.be, Store: e.st, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return now }})
		ts := httptest.NewServer(srv)
		t.Cleanup(ts.Close)
		return ts
	}
	if ev2, n2, _ := read(restart(fixedNow.Add(time.Hour))); n2 != 1 || ev2.Sequence != 2 || ev2.Status != "CANCELLED" {
		t.Errorf("after a restart: %+v ×%d", ev2, n2)
	}
	if _, n2, b2 := read(restart(fixedNow.Add(feed.CancelledKeep + 48*time.Hour))); n2 != 0 {
		t.Errorf("a cancelled event kept past 30 days:\n%s", b2)
	}
}

// TestReviseAllDayAndReappear: an all-day event whose date moves is
// revised once; an event seen cancelled that comes back is revised again
// (not left cancelled); an event that only leaves the feed is forgotten,
// not cancelled.
func TestReviseAllDayAndReappear(t *testing.T) {
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	ev := func(day int, cancelled bool) *feed.Feed {
		return &feed.Feed{Items: []feed.Item{{Event: &feed.Event{UID: "m@rw", Start: now.AddDate(0, 0, day), AllDay: true, Cancelled: cancelled}}}}
	}
	var st feed.CalendarState
	refs := map[string]string{"m@rw": "m"}
	for i, c := range []struct {
		f         *feed.Feed
		withdrawn bool
		seq       int
		extra     int
		status    bool
	}{
		{ev(1, false), false, 0, 0, false},
		{ev(1, false), false, 0, 0, false},
		{ev(2, false), false, 1, 0, false},
		{ev(2, true), false, 2, 0, true},   // recorded as not held
		{ev(2, false), false, 3, 0, false}, // held after all
		{&feed.Feed{}, true, 4, 1, true},   // withdrawn: served cancelled
	} {
		extra, _ := feed.Revise(&st, c.f, refs, map[string]bool{"m": c.withdrawn}, now.Add(time.Duration(i)*time.Hour))
		var got *feed.Event
		if len(c.f.Items) > 0 {
			got = c.f.Items[0].Event
		} else if len(extra) > 0 {
			got = extra[0].Event
		}
		if got == nil || got.Sequence != c.seq || len(extra) != c.extra || got.Cancelled != c.status {
			t.Errorf("step %d: %+v, %d extra; want seq %d, %d extra, cancelled %v", i, got, len(extra), c.seq, c.extra, c.status)
		}
	}
	var left feed.CalendarState
	feed.Revise(&left, ev(1, false), refs, nil, now)
	if extra, _ := feed.Revise(&left, &feed.Feed{}, refs, nil, now.Add(time.Hour)); len(extra) != 0 || len(left.Events) != 0 {
		t.Errorf("an event that left the feed: %d extra, %d kept", len(extra), len(left.Events))
	}
	if !strings.HasPrefix(feed.Fingerprint(*ev(1, false).Items[0].Event), "2026-08-15|") {
		t.Error("an all-day event's fingerprint is not its date")
	}
}
