package api

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"

	"github.com/recordwatch/recordwatch/internal/feed"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// windowMeetings lists, through the JSON twin, every meeting id of the
// meetings lens's window at fixedNow (2026-08-14 to 180 days ahead).
func windowMeetings(t *testing.T, e *env) []string {
	t.Helper()
	var ids []string
	cursor := ""
	for {
		_, body := get(t, e, "/api/meetings?from=2026-08-14&to=2027-02-10&limit=100&cursor="+url.QueryEscape(cursor))
		pg := decode[meeting.Page](t, body)
		for _, m := range pg.Meetings {
			ids = append(ids, m.ID)
		}
		if cursor = pg.NextCursor; cursor == "" {
			return ids
		}
	}
}

// icsUIDs are the VEVENT UIDs of a calendar, in order.
func icsUIDs(ics []byte) []string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(string(ics), "\r\n ", ""), "\r\n") {
		if uid, ok := strings.CutPrefix(l, "UID:"); ok && !strings.HasPrefix(uid, "http") && !strings.HasPrefix(uid, "tag:") {
			out = append(out, uid)
		}
	}
	return out
}

// The meetings lens of /feed.* serves the meeting records (the same
// records and the same meeting→event rule as /meetings.ics): one event per
// dated meeting of the window, the four facts and the permalink in its
// description, each hearing once (a matched notice held as a meeting is
// not listed again as a notice), notices not held as meetings kept.
func TestMeetingsLensFeed(t *testing.T) {
	e := newEntityEnv(t, Config{})
	want := windowMeetings(t, e)
	if len(want) < 50 {
		t.Fatalf("only %d meetings in the window", len(want))
	}
	// the notices the lens's compiled query matches, and which of them are
	// held as meeting records
	f := watch.Filter{Lens: record.LensMeetings}
	// (the filter's answer without a lens block: its notices alone)
	a, err := e.srv.deps.Notices.Filter(context.Background(), f, notices.AnswerOptions{Form: 2})
	if err != nil {
		t.Fatal(err)
	}
	res := a.FilterResult
	var held, kept []string
	for _, h := range res.Hits {
		id := meeting.HearingID(h.Notice.RequestID)
		if r, _ := get(t, e, "/api/meetings/"+url.PathEscape(id)); r.StatusCode == http.StatusOK {
			held = append(held, id)
		} else {
			kept = append(kept, h.Notice.RequestID+"-event@rw.test")
		}
	}
	if len(held) == 0 {
		t.Fatal("no matched hearing notice is held as a meeting: the dedup is not exercised")
	}

	r, ics := get(t, e, "/feed.ics?lens=meetings")
	if r.StatusCode != http.StatusOK || r.Header.Get("Content-Type") != feed.ContentTypeICS {
		t.Fatalf("ics: %d %s", r.StatusCode, ics)
	}
	uids := icsUIDs(ics)
	if n := validateICS(t, ics); n != len(uids) {
		t.Fatalf("%d events, %d uids", n, len(uids))
	}
	for _, id := range append(slices.Clone(want), held...) {
		if !slices.Contains(uids, id+"@recordwatch") {
			t.Errorf("meeting %s is not an event of the lens feed", id)
		}
	}
	for _, id := range held {
		rid := strings.TrimPrefix(id, meeting.SourceHearings+":")
		if slices.Contains(uids, rid+"-event@rw.test") {
			t.Errorf("hearing %s is listed twice: as its meeting and as its notice", rid)
		}
	}
	for _, uid := range kept {
		if !slices.Contains(uids, uid) {
			t.Errorf("notice event %s (not held as a meeting) was dropped", uid)
		}
	}
	unfolded := strings.ReplaceAll(string(ics), "\r\n ", "")
	for _, s := range []string{
		"DTSTART;TZID=America/New_York:20260818T130000", // Council Finance, 1 PM
		"DTSTART;VALUE=DATE:20260909",                   // Queens CB8, start unknown
		`DESCRIPTION:Held: unknown`, `\nObserved: 2026-08-`, `\nMinutes: `, `\nCity Record notice: `,
		`\nOn Recordwatch: ` + meeting.Permalink("http://rw.test", "legistar:22632"),
	} {
		if !strings.Contains(unfolded, s) {
			t.Errorf("lens calendar lacks %q", s)
		}
	}
	// /meetings.ics renders the same meetings by the same rule: its events
	// are the lens feed's meeting events
	_, mics := get(t, e, "/meetings.ics")
	for _, uid := range icsUIDs(mics) {
		if !slices.Contains(uids, uid) {
			t.Errorf("/meetings.ics event %s is not in the lens feed", uid)
		}
	}
	if py, err := exec.LookPath("/usr/bin/python3"); err == nil && exec.Command(py, "-c", "import icalendar").Run() == nil {
		cmd := exec.Command(py, "-c", "import sys, icalendar; c = icalendar.Calendar.from_ical(sys.stdin.buffer.read()); "+
			"ev = c.walk('VEVENT'); assert all(e.get('dtstart') for e in ev); print(len(ev))")
		cmd.Stdin = bytes.NewReader(ics)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != strconv.Itoa(len(uids)) {
			t.Errorf("python icalendar: %v %s (want %d events)", err, out, len(uids))
		}
	} else {
		t.Log("python3-icalendar not installed: structural check only")
	}

	// Atom and JSON Feed: the same items, parsed by gofeed and (Atom), when
	// installed, by Python's feedparser
	for _, c := range []struct{ path, typ string }{{"/feed.xml?lens=meetings", "atom"}, {"/feed.json?lens=meetings", "json"}} {
		r, b := get(t, e, c.path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", c.path, r.StatusCode)
		}
		pf := parseFeed(t, b, c.typ)
		if len(pf.Items) != len(uids) {
			t.Errorf("%s: %d items, calendar %d events", c.path, len(pf.Items), len(uids))
		}
		link := meeting.Permalink("http://rw.test", "legistar:22632")
		if !slices.ContainsFunc(pf.Items, func(it *gofeed.Item) bool {
			return it.Link == link && strings.Contains(it.Content, "Minutes: published")
		}) {
			t.Errorf("%s: no item for legistar:22632 linking its permalink with its facts", c.path)
		}
		// Debian's feedparser (6.0) reads Atom, not JSON Feed
		if py, err := exec.LookPath("/usr/bin/python3"); err == nil && c.typ == "atom" && exec.Command(py, "-c", "import feedparser").Run() == nil {
			cmd := exec.Command(py, "-c", "import sys, feedparser; d = feedparser.parse(sys.stdin.buffer.read()); "+
				"assert not d.bozo, d.bozo_exception; print(len(d.entries))")
			cmd.Stdin = bytes.NewReader(b)
			if out, err := cmd.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != strconv.Itoa(len(uids)) {
				t.Errorf("%s: feedparser: %v %s", c.path, err, out)
			}
		}
	}

	// with keywords the meeting records are those read from the notices
	// the keywords matched: no Council or community-board meeting
	_, kics := get(t, e, "/feed.ics?lens=meetings&q=landmarks")
	kuids := icsUIDs(kics)
	if len(kuids) == 0 {
		t.Fatal("no event for lens=meetings&q=landmarks")
	}
	for _, uid := range kuids {
		if strings.HasPrefix(uid, "legistar:") || strings.HasPrefix(uid, "cb-calendar:") {
			t.Errorf("keyword feed holds %s, which no keyword can match", uid)
		}
	}

	// golden bodies: the calendar of the whole lens, Atom and JSON of one
	// agency's meetings
	golden(t, "feed_meetings_lens.ics", ics)
	for _, g := range []struct{ path, file string }{
		{"/feed.xml?lens=meetings&agency=" + url.QueryEscape("Landmarks Preservation Commission"), "feed_meetings_lens_lpc.xml"},
		{"/feed.json?lens=meetings&agency=" + url.QueryEscape("Landmarks Preservation Commission"), "feed_meetings_lens_lpc.json"},
	} {
		r, b := get(t, e, g.path)
		if r.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", g.path, r.StatusCode, b)
		}
		golden(t, g.file, b)
	}
}

// The watch preview of the meetings lens (Form 1) shows the meeting
// records a watch follows, by the lens rule of the feeds and digests.
func TestMeetingsLensPreview(t *testing.T) {
	e := newEntityEnv(t, Config{})
	want := windowMeetings(t, e)
	r, body := get(t, e, "/api/watches/preview?lens=meetings")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("preview: %d %s", r.StatusCode, body)
	}
	v := decode[PreviewResponse](t, body)
	if v.Meetings == nil || v.Meetings.Total != len(want) || len(v.Meetings.Meetings) != previewHits {
		t.Fatalf("preview meetings: %+v (window holds %d)", v.Meetings, len(want))
	}
	for i, m := range v.Meetings.Meetings {
		if m.ID != want[i] || m.Permalink != meeting.Permalink("http://rw.test", m.ID) {
			t.Errorf("preview meeting %d: %+v, want %s", i, m, want[i])
		}
	}
	for _, h := range v.Hits {
		if r, _ := get(t, e, "/api/meetings/"+url.PathEscape(meeting.HearingID(h.RequestID))); r.StatusCode == http.StatusOK {
			t.Errorf("notice %s is held as a meeting and shown again", h.RequestID)
		}
	}
	// the watch's own window applies to its meeting records: with until,
	// the preview lists only meetings on or before it, as /api/meetings
	// counts them for the same days
	_, body = get(t, e, "/api/meetings?from=2026-08-14&to=2026-09-01&limit=100")
	inWindow := decode[meeting.Page](t, body)
	_, body = get(t, e, "/api/watches/preview?lens=meetings&until=2026-09-01")
	v = decode[PreviewResponse](t, body)
	if v.Meetings == nil || v.Meetings.Total != inWindow.Total || inWindow.Total >= len(want) {
		t.Errorf("preview until 2026-09-01: %d meetings, /api/meetings holds %d in those days (%d in the feed window)",
			v.Meetings.Total, inWindow.Total, len(want))
	}
	for _, m := range v.Meetings.Meetings {
		if m.Date > "2026-09-01" {
			t.Errorf("preview until 2026-09-01 lists %s on %s", m.ID, m.Date)
		}
	}
	// Form 2 keeps the notices (meeting records are Form 1)
	e2 := newEntityEnv(t, Config{Form: 2})
	_, body = get(t, e2, "/api/watches/preview?text="+url.QueryEscape("public hearings"))
	if v := decode[PreviewResponse](t, body); v.Meetings != nil || len(v.Hits) == 0 {
		t.Errorf("form 2 preview: %s", body)
	}
}

// /api/search on the meetings lens carries the meeting records of the
// same event window (their own scope and coverage) and the /api/meetings
// address that pages on through them.
func TestMeetingsLensSearch(t *testing.T) {
	e := newEntityEnv(t, Config{})
	r, body := get(t, e, "/api/search?lens=meetings&event_from=2026-09-08&event_to=2026-09-10")
	if r.StatusCode != http.StatusOK {
		t.Fatalf("search: %d %s", r.StatusCode, body)
	}
	sr := decode[SearchResponse](t, body)
	_, body2 := get(t, e, "/api/meetings?from=2026-09-08&to=2026-09-10")
	want := decode[meeting.Page](t, body2)
	m := sr.Meetings
	if m == nil || m.Total != want.Total || m.Total == 0 || len(m.Coverage) == 0 || m.Scope.Searched.Kind != "meetings" ||
		m.Applied["from"] != "2026-09-08" || m.Applied["to"] != "2026-09-10" || m.Note == "" {
		t.Fatalf("meetings block: %+v", m)
	}
	for i := range want.Meetings {
		if m.Meetings[i].ID != want.Meetings[i].ID {
			t.Errorf("meeting %d: %s, /api/meetings %s", i, m.Meetings[i].ID, want.Meetings[i].ID)
		}
	}
	u, _ := url.Parse(m.Browse)
	if r, _ := get(t, e, u.RequestURI()); r.StatusCode != http.StatusOK || u.Path != "/api/meetings" {
		t.Errorf("browse link %s: %d", m.Browse, r.StatusCode)
	}
	var pretty bytes.Buffer
	b, _ := json.Marshal(m)
	json.Indent(&pretty, b, "", "  ")
	golden(t, "search_meetings_block.json", pretty.Bytes())

	// other lenses carry no block; a window too long for meeting records
	// keeps the search valid and says why no meeting is listed
	if _, body := get(t, e, "/api/search?lens=money"); decode[SearchResponse](t, body).Meetings != nil {
		t.Error("money search carries a meetings block")
	}
	r, body = get(t, e, "/api/search?lens=meetings&event_from=2025-01-01&event_to=2026-12-31")
	if sr := decode[SearchResponse](t, body); r.StatusCode != http.StatusOK || sr.Meetings == nil || sr.Meetings.Error == "" || len(sr.Meetings.Meetings) != 0 {
		t.Errorf("long window: %d %+v", r.StatusCode, sr.Meetings)
	}
}
