package land

import (
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A project's hearings read next first, then later ones, then past ones
// newest first, then undated; a cancelled hearing is never the next; a
// scheduled hearing whose day has passed reads past (not held: that is
// not recorded); a held one stays held.
func TestHearingsOrderNextFirst(t *testing.T) {
	at := func(d string, hh int) time.Time {
		day, _ := time.ParseInLocation("2006-01-02", d, record.NewYork)
		return day.Add(time.Duration(hh) * time.Hour)
	}
	mk := func(id, d string, hh int, status string) Hearing {
		h := Hearing{ID: id, Status: status}
		if d != "" {
			h.SetStart(at(d, hh), true)
		}
		return h
	}
	hs := orderHearings([]Hearing{
		mk("past-old", "2026-09-01", 10, HearingScheduled),
		mk("later", "2027-01-20", 18, HearingScheduled),
		mk("undated", "", 0, HearingScheduled),
		mk("cancelled-soon", "2026-12-10", 10, HearingCancelled),
		mk("next", "2026-12-16", 14, HearingScheduled),
		mk("past-held", "2026-11-02", 0, HearingHeld),
	}, at("2026-12-06", 9))
	want := []struct{ id, when, status string }{
		{"cancelled-soon", HearingUpcoming, HearingCancelled},
		{"next", HearingNext, HearingScheduled},
		{"later", HearingUpcoming, HearingScheduled},
		{"past-held", HearingPastWhen, HearingHeld},
		{"past-old", HearingPastWhen, HearingPast},
		{"undated", HearingUndated, HearingScheduled},
	}
	for i, w := range want {
		if hs[i].ID != w.id || hs[i].When != w.when || hs[i].Status != w.status {
			t.Errorf("%d: %s %s %s, want %s %s %s", i, hs[i].ID, hs[i].When, hs[i].Status, w.id, w.when, w.status)
		}
	}
	if r := (ProjectRead{Hearings: hs}); r.nextHearing() == nil || r.nextHearing().ID != "next" {
		t.Errorf("next hearing %+v", r.nextHearing())
	}
	if hs[1].Time != "2:00 PM" || hs[3].Time != "" || hs[3].Date != "2026-11-02" {
		t.Errorf("times: %q (2:00 PM), %q (midnight: no time stated) on %s", hs[1].Time, hs[3].Time, hs[3].Date)
	}
}

// A notice's hearing carries its event date, time and place, its
// sentence on testifying as printed, and reads cancelled when its title
// says so; a notice with no event date is no hearing.
func TestNoticeHearing(t *testing.T) {
	ev, _ := time.ParseInLocation("2006-01-02T15:04", "2026-12-16T10:00", record.NewYork)
	n := record.Notice{RequestID: "1", AgencyName: "City Planning Commission", Title: "Public hearing", EventDate: ev, EventPlace: "120 Broadway",
		Text: "IN THE MATTER OF an application (C 260234 ZMQ). To testify, sign up on the website by 5:00 PM the day before. Accessibility questions: 212."}
	h, ok := NoticeHearing(n, NoticeLink{Method: "ulurp_number", Confidence: "high"})
	if !ok || h.Date != "2026-12-16" || h.Time != "10:00 AM" || h.Place != "120 Broadway" || h.Status != HearingScheduled ||
		h.HowToTestify != "To testify, sign up on the website by 5:00 PM the day before." {
		t.Errorf("%+v", h)
	}
	n.Title = "CANCELLED: Public hearing"
	if h, _ := NoticeHearing(n, NoticeLink{}); h.Status != HearingCancelled {
		t.Errorf("cancelled title: %s", h.Status)
	}
	n.EventDate = time.Time{}
	if _, ok := NoticeHearing(n, NoticeLink{}); ok {
		t.Error("a notice with no event date made a hearing")
	}
}
