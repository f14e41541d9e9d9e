package mcp_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
)

var loadMeetings sync.Once

// withMeetings loads the bundled meetings sample into the fixture's
// engine (after its notices, as the sample load does).
func withMeetings(t *testing.T) {
	t.Helper()
	loadMeetings.Do(func() {
		ix := &indexer.Indexer{Backend: fx.be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }}
		src, err := indexer.LookupSource("meetings")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Load(context.Background(), src, os.DirFS("../../testdata/sample"), "meetings"); err != nil {
			t.Fatal(err)
		}
	})
}

func TestMeetingTools(t *testing.T) {
	withMeetings(t)
	s := connect(t, 1)
	got := structured[mcp.MeetingOut](t, call(t, s, "get_meeting", map[string]any{"id": "legistar:22525"}))
	if got.Status != "found" || got.Meeting == nil || got.Meeting.Held.State != meeting.NotHeld || got.Meeting.Minutes.State != meeting.MinutesNotPublished {
		t.Fatalf("get_meeting 22525: %+v", got)
	}
	miss := structured[mcp.MeetingOut](t, call(t, s, "get_meeting", map[string]any{"id": "legistar:1"}))
	if miss.Status != "not_found" || miss.Message == "" {
		t.Errorf("unknown meeting: %+v", miss)
	}
	args := map[string]any{"from": "2026-09-01", "to": "2026-09-30", "time": "evening", "limit": 5}
	p := structured[meeting.Page](t, call(t, s, "browse_meetings", args))
	if len(p.Meetings) != 5 || p.NextCursor == "" || p.Total <= 5 || p.ExcludedUnknownStart.Count == 0 || len(p.Coverage) == 0 || p.Applied["time"] != "evening" {
		t.Fatalf("browse_meetings: total %d rows %d cursor %q excluded %+v coverage %v", p.Total, len(p.Meetings), p.NextCursor, p.ExcludedUnknownStart, p.Coverage)
	}
	args["cursor"] = p.NextCursor
	p2 := structured[meeting.Page](t, call(t, s, "browse_meetings", args))
	if len(p2.Meetings) == 0 || p2.Meetings[0].ID == p.Meetings[4].ID {
		t.Errorf("second page %+v", p2.Meetings)
	}
}

// preview_watch on the meetings lens shows the meeting records a watch
// follows (the same rule as its digests and the lens feeds): soonest
// first, with facts and permalinks, and no hearing twice.
func TestPreviewWatchMeetings(t *testing.T) {
	withMeetings(t)
	s := connect(t, 1)
	got := structured[mcp.PreviewOut](t, call(t, s, "preview_watch", map[string]any{"lens": "meetings"}))
	if got.Meetings == nil || got.Meetings.Total < 50 || len(got.Meetings.Meetings) != 10 || got.Meetings.Rule == "" {
		t.Fatalf("preview meetings: %+v", got.Meetings)
	}
	prev := ""
	for _, m := range got.Meetings.Meetings {
		if m.Date < prev || m.Permalink != meeting.Permalink("http://rw.test", m.ID) || m.Held == "" || m.Minutes == "" || m.Notice == "" || m.When == "" {
			t.Errorf("meeting %+v", m)
		}
		prev = m.Date
	}
	for _, r := range got.Results {
		if _, err := fx.be.GetRecord(context.Background(), meeting.Kind.Name, meeting.HearingID(r.RequestID)); err == nil {
			t.Errorf("notice %s is held as a meeting and shown again as a notice", r.RequestID)
		}
	}
}

// get_meeting answers every meeting browse_meetings returns over the
// bundled sample, whatever its source (the meetings read from community
// board minutes, cb-minutes, were refused by the id pattern): the browse
// walks each year the sample holds, every page.
func TestGetMeetingAnswersEveryBrowsedMeeting(t *testing.T) {
	withMeetings(t)
	s := connect(t, 1)
	bySource := map[string]int{}
	for y := 2000; y <= 2027; y++ {
		args := map[string]any{"from": fmt.Sprintf("%d-01-01", y), "to": fmt.Sprintf("%d-12-31", y), "limit": meeting.MaxLimit}
		for {
			// a page over 64 KiB is read with its continuations
			ps := parts[meeting.Page](t, s, "browse_meetings", args)
			p := ps[0]
			for _, more := range ps[1:] {
				p.Meetings = append(p.Meetings, more.Meetings...)
			}
			for _, m := range p.Meetings {
				bySource[m.Source]++
				res := call(t, s, "get_meeting", map[string]any{"id": m.ID})
				if res.IsError {
					t.Errorf("get_meeting %s: %s", m.ID, text(res))
					continue
				}
				if got := structured[mcp.MeetingOut](t, res); got.Status != "found" || got.Meeting == nil || got.Meeting.ID != m.ID {
					t.Errorf("get_meeting %s: status %s", m.ID, got.Status)
				}
			}
			if p.NextCursor == "" {
				break
			}
			args["cursor"] = p.NextCursor
		}
	}
	// every source of the sample is walked, the board minutes' 82 meetings among them
	if len(bySource) != 4 || bySource["cb-minutes"] != 82 {
		t.Errorf("meetings browsed by source: %v", bySource)
	}
}

// browse_meetings' month is the calendar month's window (the meeting
// service's rule, as on /api/meetings and the calendar page), and its
// body_kind keeps meetings of that kind only.
func TestBrowseMeetingsMonthAndKind(t *testing.T) {
	withMeetings(t)
	s := connect(t, 1)
	byMonth := structured[meeting.Page](t, call(t, s, "browse_meetings", map[string]any{"month": "2026-07", "limit": 100}))
	byDays := structured[meeting.Page](t, call(t, s, "browse_meetings", map[string]any{"from": "2026-07-01", "to": "2026-07-31", "limit": 100}))
	if byMonth.Total == 0 || byMonth.Total != byDays.Total || byMonth.Applied["from"] != "2026-07-01" || byMonth.Applied["to"] != "2026-07-31" {
		t.Fatalf("month 2026-07: total %d applied %v; from/to total %d", byMonth.Total, byMonth.Applied, byDays.Total)
	}
	sum := 0
	for _, kind := range meeting.BodyKinds {
		p := structured[meeting.Page](t, call(t, s, "browse_meetings", map[string]any{"month": "2026-07", "body_kind": kind, "limit": 100}))
		for _, m := range p.Meetings {
			if m.BodyKind != kind {
				t.Errorf("body_kind %s kept %s of kind %q", kind, m.ID, m.BodyKind)
			}
		}
		sum += p.Total
	}
	if sum == 0 || sum > byMonth.Total {
		t.Errorf("kinds sum to %d of July's %d meetings", sum, byMonth.Total)
	}
}
