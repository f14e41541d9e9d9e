package meeting_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

const hearingFile = "dg92-zbpx_hearings_with_event_date_cityscroll_asof_2026-08-14_event_2026-08-17_to_2026-09-03.json"

// newIndexer is an indexer over a fresh embedded engine, closed when t
// ends.
func newIndexer(t *testing.T) (*embedded.Backend, *indexer.Indexer) {
	t.Helper()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b, &indexer.Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return time.Date(2026, 8, 20, 0, 0, 0, 0, time.UTC) }}
}

// loadSample loads the City Record hearing notices (as notices), then the
// bundled meetings sample, into a fresh embedded engine.
func loadSample(t *testing.T) (*meeting.Service, indexer.Report) {
	t.Helper()
	ctx := context.Background()
	b, ix := newIndexer(t)
	data, err := os.ReadFile("../../testdata/sample/crol/" + hearingFile)
	if err != nil {
		t.Fatal(err)
	}
	crol, _ := indexer.LookupSource("crol")
	if _, err := ix.Load(ctx, crol, fstest.MapFS{"crol/" + hearingFile: {Data: data}}, "crol"); err != nil {
		t.Fatal(err)
	}
	src, err := indexer.LookupSource("meetings")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ix.Load(ctx, src, os.DirFS("../../testdata/sample"), "meetings")
	if err != nil {
		t.Fatal(err)
	}
	return &meeting.Service{Records: b, Notices: b, Now: func() time.Time { return time.Date(2026, 8, 20, 12, 0, 0, 0, time.UTC) }}, rep
}

// The real Legistar events (deferred ones included), calendar texts,
// hearing notices and board minutes load; each fact is right on hand-checked examples.
func TestMeetingsLoadWithFourIndependentFacts(t *testing.T) {
	svc, rep := loadSample(t)
	if rep.Rows != 88+13+8+82 {
		t.Errorf("rows read %d, want 191 (88 events, 13 hearing notices, 8 calendar texts, 82 minutes documents)", rep.Rows)
	}
	if len(rep.Errors) != 1 || !strings.Contains(rep.Errors[0].Error(), "image-only.txt") {
		t.Errorf("rejected %v; want only the image-only calendar (no text)", rep.Errors)
	}
	ctx := context.Background()
	type want struct{ held, minutes, notice, observed string }
	cases := map[string]want{
		// deferred, although its minutes status is Draft
		"legistar:22525": {meeting.NotHeld, meeting.MinutesNotPublished, meeting.NoticeUnknown, "2026-08-19"},
		"legistar:22600": {meeting.NotHeld, meeting.MinutesNotPublished, meeting.NoticeUnknown, "2026-08-19"},
		// held: final minutes linked and a roll call
		"legistar:22593": {meeting.Held, meeting.MinutesPublished, meeting.NoticeUnknown, "2026-08-19"},
		// held, minutes published; a City Record hearing (LPC) is held for that day, but no Council notice at all: unknown
		"legistar:22632": {meeting.Held, meeting.MinutesPublished, meeting.NoticeUnknown, "2026-08-19"},
		// scheduled after the observation: held unknown
		"legistar:22647": {meeting.HeldUnknown, meeting.MinutesNotPublished, meeting.NoticeUnknown, "2026-08-19"},
		// past, no minutes and no roll call
		"legistar:22295": {meeting.HeldUnknown, meeting.MinutesNotPublished, meeting.NoticeUnknown, "2026-08-19"},
		// the hearing notice itself
		"cityrecord-hearings:20260727031": {meeting.HeldUnknown, meeting.MinutesNotPublished, meeting.NoticeLinked, "2026-08-14"},
		// a DOT rules hearing is held for 2026-09-01; no community-board notice is held at all: unknown
		"cb-calendar:bx10-2026-09-01-economic-development": {meeting.HeldUnknown, meeting.MinutesNotPublished, meeting.NoticeUnknown, "2026-08-22"},
		"cb-calendar:qn08-2026-09-09-board-meeting":        {meeting.HeldUnknown, meeting.MinutesNotPublished, meeting.NoticeUnknown, "2026-08-22"},
	}
	for id, w := range cases {
		m, err := svc.Get(ctx, id)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		got := want{m.Held.State, m.Minutes.State, m.Notice.State, m.Observed.Date}
		if got != w {
			t.Errorf("%s: facts %+v, want %+v (held: %s; notice: %s)", id, got, w, m.Held.Evidence, m.Notice.Evidence)
		}
		for name, ev := range map[string]string{"held": m.Held.Evidence, "minutes": m.Minutes.Evidence, "notice": m.Notice.Evidence, "observed": m.Observed.Evidence} {
			if ev == "" {
				t.Errorf("%s: the %s fact has no evidence", id, name)
			}
		}
	}
	m, _ := svc.Get(ctx, "legistar:22525")
	if !strings.Contains(m.Held.Evidence, "Deferred") || m.Raw["minutes_status"] != "Draft" {
		t.Errorf("22525 evidence %q, minutes status %q", m.Held.Evidence, m.Raw["minutes_status"])
	}
	if m.When.Start == nil || m.When.Start.Format(time.RFC3339) != "2026-07-07T11:00:00-04:00" || m.Agency == nil || m.Agency.ID == "" {
		t.Errorf("22525 when %+v agency %+v", m.When, m.Agency)
	}
	lpc, _ := svc.Get(ctx, "cityrecord-hearings:20260727031")
	if lpc.Agency == nil || lpc.Agency.ID == "" || lpc.Notice.Method != "source" || lpc.Place.Text == "" {
		t.Errorf("LPC hearing: agency %+v notice %+v place %q", lpc.Agency, lpc.Notice, lpc.Place.Text)
	}
	if _, err := svc.Get(ctx, "legistar:1"); err == nil || !strings.Contains(err.Error(), "no meeting") {
		t.Errorf("unknown id: %v", err)
	}
}

// A meeting with unpublished minutes and no linked notice is still
// returned by a browse.
func TestUnpublishedUnlinkedMeetingIsBrowsed(t *testing.T) {
	svc, _ := loadSample(t)
	p, err := svc.Browse(context.Background(), meeting.Filter{From: "2026-09-01", To: "2026-09-01", Sources: []string{"cb-calendar"}}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range p.Meetings {
		if m.ID == "cb-calendar:bx10-2026-09-01-economic-development" {
			found = m.Minutes.State == meeting.MinutesNotPublished && m.Notice.State != meeting.NoticeLinked
		}
	}
	if !found {
		t.Errorf("the unpublished, unlinked Bronx CB10 meeting is missing: %+v", p.Meetings)
	}
	if len(p.Coverage) == 0 {
		t.Error("no per-source coverage")
	}
}

// Browse with a date window and the evening filter returns stable pages
// (no gaps, no repeats, the same order as one large page), only evening
// starts, and states the meetings it excluded because their start is
// unknown.
func TestBrowseEveningWindowStablePages(t *testing.T) {
	svc, _ := loadSample(t)
	ctx := context.Background()
	f := meeting.Filter{From: "2026-09-01", To: "2026-09-30", Time: meeting.TimeEvening}
	all, err := svc.Browse(ctx, f, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	if all.Total < 10 || all.Total != len(all.Meetings) {
		t.Fatalf("total %d, rows %d", all.Total, len(all.Meetings))
	}
	var walked []string
	cursor := ""
	for range 50 {
		p, err := svc.Browse(ctx, f, cursor, 4)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range p.Meetings {
			walked = append(walked, m.ID)
			if !m.When.StartKnown || m.When.Start.In(time.FixedZone("x", -4*3600)).Hour() < 17 {
				t.Errorf("%s is not an evening meeting: %+v", m.ID, m.When)
			}
			if m.When.Date < "2026-09-01" || m.When.Date > "2026-09-30" {
				t.Errorf("%s outside the window", m.ID)
			}
		}
		if cursor = p.NextCursor; cursor == "" {
			break
		}
	}
	if len(walked) != len(all.Meetings) {
		t.Fatalf("walked %d, one page %d", len(walked), len(all.Meetings))
	}
	for i := range walked {
		if walked[i] != all.Meetings[i].ID {
			t.Fatalf("page order differs at %d: %s vs %s", i, walked[i], all.Meetings[i].ID)
		}
	}
	ex := all.ExcludedUnknownStart
	if ex.Count == 0 || ex.Count != len(ex.Meetings) {
		t.Fatalf("excluded %+v", ex)
	}
	hasQn08 := false
	for _, b := range ex.Meetings {
		if b.ID == "cb-calendar:qn08-2026-09-09-board-meeting" {
			hasQn08 = true
		}
	}
	if !hasQn08 || all.Applied["time"] != meeting.TimeEvening || all.Applied["from"] != "2026-09-01" {
		t.Errorf("excluded %+v applied %v", ex.Meetings, all.Applied)
	}
	if _, err := svc.Browse(ctx, meeting.Filter{From: "2026-01-01", To: "2027-06-01"}, "", 10); err == nil {
		t.Error("a window over 366 days is accepted")
	}
	if _, err := svc.Browse(ctx, meeting.Filter{Time: "night"}, "", 10); err == nil {
		t.Error("an unknown time filter is accepted")
	}
}

// The link stage reads the hearing notices held (link.Env.Notices) by
// their event day: with no hearing row in the batch, the Council Finance
// meeting of 2026-08-18 sees the one LPC hearing held for that day; with
// City Council notices held (DCAS 2014 rows) it is not linked, without
// them it stays unknown.
func TestNoticeLinkReadsHeldNotices(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := &indexer.Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk()}
	data, err := os.ReadFile("../../testdata/sample/crol/" + hearingFile)
	if err != nil {
		t.Fatal(err)
	}
	crol, _ := indexer.LookupSource("crol")
	if _, err := ix.Load(ctx, crol, fstest.MapFS{"crol/" + hearingFile: {Data: data}}, "crol"); err != nil {
		t.Fatal(err)
	}
	council := councilMeetings(t)
	if errs := link.Meetings(ctx, link.Env{Linker: link.Linker{Crosswalk: entity.DefaultCrosswalk()}, Notices: b}, council); len(errs) != 0 {
		t.Fatal(errs)
	}
	for _, m := range council {
		if m.ID == "legistar:22632" && (m.Notice.State != meeting.NoticeUnknown || !strings.Contains(m.Notice.Evidence, "no City Record notice of this body's agency")) {
			t.Errorf("22632 with no Council notice held: %+v", m.Notice)
		}
	}
	const dcas = "procPublicationRequest_nonprocurement_startdate_2014-01_to_2014-11_part2.psv"
	psv, err := os.ReadFile("../../testdata/sample/crol/dcas_2014/" + dcas)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Load(ctx, crol, fstest.MapFS{"crol/" + dcas: {Data: psv}}, "crol"); err != nil {
		t.Fatal(err)
	}
	council = councilMeetings(t)
	if errs := link.Meetings(ctx, link.Env{Linker: link.Linker{Crosswalk: entity.DefaultCrosswalk()}, Notices: b}, council); len(errs) != 0 {
		t.Fatal(errs)
	}
	for _, m := range council {
		switch m.ID {
		case "legistar:22632":
			if m.Notice.State != meeting.NoticeNotLinked || len(m.Notice.Candidates) != 1 || m.Notice.Candidates[0] != "20260727031" {
				t.Errorf("22632: %+v", m.Notice)
			}
		case "legistar:22593":
			if m.Notice.State != meeting.NoticeUnknown {
				t.Errorf("22593: %+v", m.Notice)
			}
		case "cb-calendar:bx10-2026-09-01-economic-development": // an Agency Rules hearing that day; community-board notices held (2014)
			if m.Notice.State != meeting.NoticeNotLinked || len(m.Notice.Candidates) != 1 || m.Notice.Candidates[0] != "20260714029" {
				t.Errorf("bx10 2026-09-01: %+v", m.Notice)
			}
		}
	}
}

func councilMeetings(t *testing.T) []meeting.Meeting {
	t.Helper()
	res, _ := meetings.ReadDir(os.DirFS("../../testdata/sample"), "meetings")
	var council []meeting.Meeting
	for _, m := range res.Meetings {
		if m.Source == meetings.LegistarSource || m.ID == "cb-calendar:bx10-2026-09-01-economic-development" {
			council = append(council, m)
		}
	}
	return council
}

// Attendance, source and body filters: remote includes hybrid meetings;
// the body filter matches the body as the source writes it.
func TestBrowseAttendanceSourceAndBody(t *testing.T) {
	svc, _ := loadSample(t)
	ctx := context.Background()
	p, err := svc.Browse(ctx, meeting.Filter{From: "2026-08-01", To: "2026-09-30", Attendance: meeting.Remote}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, m := range p.Meetings {
		ids[m.ID] = m.Place.Attendance
	}
	if ids["cityrecord-hearings:20260728028"] != meeting.Remote || ids["cityrecord-hearings:20260810053"] != meeting.Hybrid || len(ids) != 3 {
		t.Errorf("remote meetings %v", ids)
	}
	p, err = svc.Browse(ctx, meeting.Filter{From: "2026-07-01", To: "2026-12-31", Body: "Committee on Finance", Sources: []string{"legistar"}}, "", 100)
	if err != nil || p.Total == 0 {
		t.Fatalf("body filter: %v %d", err, p.Total)
	}
	for _, m := range p.Meetings {
		if m.Body != "Committee on Finance" || m.Source != "legistar" {
			t.Errorf("body filter returned %s (%s)", m.ID, m.Body)
		}
	}
	if _, err := svc.Browse(ctx, meeting.Filter{Sources: []string{"twitter"}}, "", 10); err == nil {
		t.Error("an unknown source is accepted")
	}
}

// The borough filter keeps the meetings whose records place them: a
// community board's meetings by its board id's borough code, every other
// body's (the Council, agencies) under citywide_or_unknown, never guessed
// from a title or a place; the boroughs and the unplaced together are
// every meeting of the window, once each; any land spelling of a borough
// is read, an unknown one is refused.
func TestBrowseBoroughFromTheBoardID(t *testing.T) {
	svc, _ := loadSample(t)
	ctx := context.Background()
	window := meeting.Filter{From: "2026-01-01", To: "2026-12-31"}
	all, err := svc.Browse(ctx, window, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	sum, boards := 0, 0
	for _, b := range []string{"Manhattan", "bx", "brooklyn", "Q", "staten island", "unknown"} {
		f := window
		f.Borough = b
		p, err := svc.Browse(ctx, f, "", meeting.MaxLimit)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		sum += p.Total
		if !strings.Contains(p.Applied["borough"], "community board's id") {
			t.Errorf("%s: applied %q does not say how the borough is known", b, p.Applied["borough"])
		}
		for _, m := range p.Meetings {
			got := meeting.BoroughOf(m)
			if b == "unknown" {
				if got != meeting.BoroughNone || (m.BodyKind == meeting.BodyCommunityBoard && strings.Contains(m.SourceID, "-") && len(m.SourceID) > 4 && strings.Contains("bxbkmnqnsi", m.SourceID[:2])) {
					t.Errorf("unknown: %s (%s, %s) placed %s", m.ID, m.Body, m.BodyKind, got)
				}
				continue
			}
			boards++
			want := map[string]string{"Manhattan": "Manhattan", "bx": "Bronx", "brooklyn": "Brooklyn", "Q": "Queens", "staten island": "Staten Island"}[b]
			if m.BodyKind != meeting.BodyCommunityBoard || !strings.HasPrefix(m.Body, want+" Community Board") {
				t.Errorf("%s: %s (%s, %s) is not a %s board's meeting", b, m.ID, m.Body, m.BodyKind, want)
			}
		}
	}
	if sum != all.Total || boards == 0 {
		t.Errorf("the boroughs and the unplaced hold %d meetings (%d of boards), the window %d", sum, boards, all.Total)
	}
	if _, err := svc.Browse(ctx, meeting.Filter{Borough: "Atlantis"}, "", 10); err == nil || !strings.Contains(err.Error(), "citywide_or_unknown") {
		t.Errorf("an unknown borough: %v", err)
	}
}
