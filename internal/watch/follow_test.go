package watch

import (
	"errors"
	"reflect"
	"testing"

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
