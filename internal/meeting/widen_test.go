package meeting_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/meeting"
)

// An empty page of meetings offers the nearest widening: the same filters
// without the first of them that then match something (counted as the
// page would count it), else the same filters outside the date window,
// with the day of the nearest matching meeting; a page with meetings
// offers none.
func TestEmptyMeetingsPageOffersTheNearestWidening(t *testing.T) {
	svc, _ := loadSample(t)
	ctx := context.Background()
	f := meeting.Filter{From: "2026-08-01", To: "2026-09-30", Body: "Committee on Finance", Attendance: meeting.Remote}
	p, err := svc.Browse(ctx, f, "", 10)
	if err != nil || p.Total != 0 {
		t.Fatalf("%d %v", p.Total, err)
	}
	f.Attendance = ""
	all, err := svc.Browse(ctx, f, "", 1)
	if err != nil || all.Total == 0 {
		t.Fatal(err)
	}
	if w := p.Widening; w == nil || w.Without != "attendance" || w.Matched != all.Total || w.Newest != all.Meetings[0].When.Date ||
		!strings.Contains(w.Note, "without the way of attending") {
		t.Errorf("widening %+v, want attendance left out: %d from %s", w, all.Total, all.Meetings[0].When.Date)
	}
	if all.Widening != nil {
		t.Errorf("a page with meetings offers %+v", all.Widening)
	}
	// nothing of this body in a later month: the nearest one before it
	p, err = svc.Browse(ctx, meeting.Filter{Month: "2030-01", Body: "Committee on Finance"}, "", 10)
	if err != nil || p.Total != 0 {
		t.Fatalf("%d %v", p.Total, err)
	}
	w := p.Widening
	if w == nil || w.Without != "window" || w.Nearest == "" || w.Nearest >= "2030-01-01" || !strings.Contains(w.Note, "outside these dates") {
		t.Fatalf("widening %+v, want the window widened to an earlier meeting", w)
	}
	there, err := svc.Browse(ctx, meeting.Filter{Month: w.Nearest[:7], Body: "Committee on Finance"}, "", 100)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range there.Meetings {
		if m.When.Date > w.Nearest {
			t.Errorf("a later meeting %s (%s) than the nearest %s", m.ID, m.When.Date, w.Nearest)
		}
		found = found || m.When.Date == w.Nearest
	}
	if !found {
		t.Errorf("no Committee on Finance meeting on %s", w.Nearest)
	}
}
