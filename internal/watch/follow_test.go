package watch

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

func TestParseFollow(t *testing.T) {
	for text, want := range map[string]Follow{
		"follow PIN 85619B0012":                                {FollowMatter, "85619B0012"},
		"Follow notice 20240115001.":                           {FollowNotice, "20240115001"},
		"tell me when project 2021K0001 changes":               {FollowLandProject, "2021K0001"},
		"tell me when the land use project P2018X0210 changes": {FollowLandProject, "P2018X0210"},
		"track contract CT1-846-20231234":                      {FollowContract, "CT1-846-20231234"},
		"follow meeting legistar-12345":                        {FollowMeeting, "legistar-12345"},
	} {
		got, ok := ParseFollow(text)
		if !ok || got != want {
			t.Errorf("%q: %+v %v, want %+v", text, got, ok, want)
		}
	}
	for _, text := range []string{"Parks construction awards over $1 million", "follow the money", "follow PIN", "rezonings in the Bronx"} {
		if f, ok := ParseFollow(text); ok {
			t.Errorf("%q read as a follow: %+v", text, f)
		}
	}
	u, err := Parse("follow PIN 85619B0012 weekly", ParseOptions{Form: 2})
	if err != nil || u.Follow == nil || *u.Follow != (Follow{FollowMatter, "85619B0012"}) || u.Cadence != CadenceWeekly || u.Filter.Lens != record.LensMoney {
		t.Errorf("Parse of a follow: %+v %v", u, err)
	}
	if _, err := Parse("follow project 2021K0001", ParseOptions{Form: 2}); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("a land project follow in Form 2: %v, want EINVALID", err)
	}
}

func TestFollowCheck(t *testing.T) {
	f, err := Follow{Kind: " Land_Project ", ID: " p2018x0210 "}.Check(1)
	if err != nil || f != (Follow{FollowLandProject, "P2018X0210"}) {
		t.Errorf("%+v %v", f, err)
	}
	for _, c := range []struct {
		f     Follow
		form  int
		param string
	}{{Follow{"planet", "x"}, 1, "follow.kind"}, {Follow{FollowNotice, ""}, 1, "follow.id"},
		{Follow{FollowNotice, "a\nb"}, 1, "follow.id"}, {Follow{FollowContract, "x"}, 2, "follow.kind"},
		{Follow{FollowNotice, string(make([]byte, 300))}, 1, "follow.id"}} {
		_, err := c.f.Check(c.form)
		var re *record.Error
		if !errors.As(err, &re) || re.Code != record.EINVALID || re.Param != c.param {
			t.Errorf("%+v form %d: %v, want EINVALID %s", c.f, c.form, err, c.param)
		}
	}
}

func TestDiff(t *testing.T) {
	before := []Field{{"status", "held"}, {"due date", "2026-09-01"}, {"amount", ""}, {"vendor", "ACME"}}
	now := []Field{{"status", "held"}, {"due date", "2026-09-15"}, {"amount", "$1,000"}, {"documents", "2 documents"}}
	got := Diff(before, now)
	want := []Change{{"due date", "2026-09-01", "2026-09-15"}, {"amount", "", "$1,000"}, {"documents", "", "2 documents"}, {"vendor", "ACME", ""}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Diff = %+v, want %+v", got, want)
	}
	if s := got[1].String(); s != "amount: (none) → $1,000" {
		t.Errorf("change in words %q", s)
	}
	if d := Diff(now, now); len(d) != 0 {
		t.Errorf("no change: %+v", d)
	}
}

// A followed land project's hearing is one field, named the same whichever
// record it is read from (its City Record notice, or the meeting record
// of that notice), so a hearing set, moved, cancelled or past is one
// change old → new, and one read from another record is no change.
func TestHearingFieldChanges(t *testing.T) {
	at := func(hh, mm int) time.Time { return time.Date(2026, 12, 16, hh, mm, 0, 0, record.NewYork) }
	h := land.Hearing{ID: "notice:1", Notice: "1", Body: "City Planning Commission", Place: "120 Broadway", Status: land.HearingScheduled,
		SourceKind: record.RefNotice, SourceID: "1", HowToTestify: "To testify, sign up."}
	h.SetStart(at(10, 0), true)
	set := hearingField(h)
	if set.Name != "hearing: City Planning Commission (City Record notice 1)" || set.Value != "2026-12-16 10:00 AM, 120 Broadway; scheduled; how to take part: To testify, sign up." {
		t.Errorf("set: %+v", set)
	}
	asMeeting := h
	asMeeting.SourceKind, asMeeting.SourceID = record.RefMeeting, "cityrecord-hearings:1"
	if got := hearingField(asMeeting); got != set {
		t.Errorf("read from its meeting record: %+v, from its notice %+v", got, set)
	}
	moved := h
	moved.SetStart(at(14, 0), true)
	cancelled := h
	cancelled.Status = land.HearingCancelled
	past := h
	past.Status = land.HearingPast
	noTime := h
	noTime.Time, noTime.Place = "", ""
	for name, c := range map[string]struct {
		h    land.Hearing
		want string
	}{
		"moved":     {moved, "2026-12-16 2:00 PM, 120 Broadway; scheduled"},
		"cancelled": {cancelled, "; cancelled;"},
		"past":      {past, "the date has passed (whether it was held is not recorded)"},
		"no time":   {noTime, "2026-12-16 (time not stated), place not stated; scheduled"},
	} {
		ch := Diff([]Field{set}, []Field{hearingField(c.h)})
		if len(ch) != 1 || ch[0].Old != set.Value || !strings.Contains(ch[0].New, c.want) {
			t.Errorf("%s: %+v, want one change to %q", name, ch, c.want)
		}
	}
	if ch := Diff(nil, []Field{set}); len(ch) != 1 || ch[0].Old != "" || ch[0].String() != set.Name+": (none) → "+set.Value {
		t.Errorf("a hearing set: %+v", ch)
	}
}

// A Council land-use item's hearing at a Legistar meeting is the same
// followed field as that meeting's own record of the hearing, so a
// follower is not mailed a hearing gone and another set when the meeting
// record is loaded after the item (or before it).
func TestCouncilItemHearingIsTheMeetingsField(t *testing.T) {
	fromItem := land.Hearing{ID: "meeting:legistar:22172", Body: "Committee on Land Use", SourceKind: record.RefLandEvent,
		SourceID: "council-land-use:LU 0001-2026", Status: land.HearingHeld, Date: "2026-02-23", Time: "12:00 PM"}
	fromMeeting := fromItem
	fromMeeting.SourceKind, fromMeeting.SourceID = record.RefMeeting, "legistar:22172"
	if a, b := hearingField(fromItem), hearingField(fromMeeting); a != b {
		t.Errorf("item %+v, meeting %+v", a, b)
	}
	alone := fromItem
	alone.ID = "event:council-land-use:LU 0001-2026@2026-02-23T12:00:00-05:00"
	if f := hearingField(alone); !strings.Contains(f.Name, "Council land-use item council-land-use:LU 0001-2026") {
		t.Errorf("a hearing of no meeting: %+v", f)
	}
}
