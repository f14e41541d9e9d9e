package meeting

import (
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// FeedItem is the one meeting → feed item rule: timed in New York when
// the start is known, all-day when only the day is, no item without a
// date; the description holds the four facts and the permalink.
func TestFeedItem(t *testing.T) {
	st := time.Date(2026, 8, 18, 13, 0, 0, 0, time.UTC)
	base := Meeting{ID: "legistar:22632", Source: "legistar", Title: "Committee on Finance", Body: "Committee on Finance", BodyKind: BodyCouncil,
		Held: Fact{State: Held, Evidence: "EventAgendaStatusName Final"}, Minutes: Fact{State: MinutesPublished, Evidence: "minutes linked"},
		Notice:   NoticeLink{State: NoticeNotLinked, Evidence: "no notice names the body"},
		Observed: Observation{Date: "2026-08-19", Evidence: "LastModified"}, Place: Place{Attendance: InPerson}}
	timed := base
	timed.When = When{Date: "2026-08-18", Start: &st, StartKnown: true, TimeZone: TimeZone}
	it, ok := FeedItem("http://rw.test", timed)
	if !ok || it.Event == nil || it.Event.AllDay || it.Event.Start.Location() != record.NewYork || it.Event.Start.Hour() != 9 {
		t.Fatalf("timed: %+v", it.Event)
	}
	for _, want := range []string{"Held: held (EventAgendaStatusName Final)", "Observed: 2026-08-19 (LastModified)", "Minutes: published",
		"City Record notice: not_linked", "On Recordwatch: http://rw.test/meetings/legistar:22632"} {
		if !strings.Contains(it.Event.Description, want) || !strings.Contains(it.Content, want) {
			t.Errorf("description lacks %q:\n%s", want, it.Event.Description)
		}
	}
	if it.URL != Permalink("http://rw.test", "legistar:22632") || it.Event.UID != "legistar:22632@recordwatch" {
		t.Errorf("links %q %q", it.URL, it.Event.UID)
	}
	day := base
	day.When = When{Date: "2026-09-09", TimeZone: TimeZone, Note: "the calendar gives no time"}
	it, ok = FeedItem("http://rw.test", day)
	if !ok || !it.Event.AllDay || it.Event.Start.Format("2006-01-02") != "2026-09-09" || !strings.Contains(it.Event.Description, "Start time unknown: the calendar gives no time") {
		t.Errorf("all-day: %+v", it.Event)
	}
	if _, ok := FeedItem("http://rw.test", base); ok {
		t.Error("a meeting with no date became an item")
	}
	for id, want := range map[string]bool{"legistar:22632": true, "cb-minutes:mn01-2004-04-20-full-board": true, HearingID("20260727031"): true, "20260727031": false, "twitter:1": false, "legistar:": false} {
		if IsID(id) != want {
			t.Errorf("IsID(%q) = %v", id, !want)
		}
	}
}
