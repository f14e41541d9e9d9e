package link_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/indexer/source/meetings"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Meetings are linked to the hearing-notice rows of the same batch when
// no notices are held: a body with the same agency, day, time and place
// links (high); the same body at another time and place stays unknown; a
// day covered by notices of other bodies is not linked when notices of
// the body's agency are held on another day, and unknown when none are; a
// day no notice covers is unknown.
func TestMeetingNoticeLinksWithinTheBatch(t *testing.T) {
	res, errs := meetings.ReadDir(os.DirFS("../../testdata/sample"), "meetings")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "image-only.txt: rejected: no text") {
		t.Fatalf("read: %v; want only the image-only calendar rejected", errs)
	}
	at := func(h int) *time.Time {
		t := time.Date(2026, 8, 26, h, 0, 0, 0, record.NewYork)
		return &t
	}
	cpc := func(id string, h int, place string) meeting.Meeting {
		return meeting.Meeting{ID: "test:" + id, Source: "test", Body: "City Planning Commission", BodyKind: meeting.BodyAgency,
			Agency: &meeting.AgencyRef{Raw: "City Planning Commission"},
			When:   meeting.When{Date: "2026-08-26", Start: at(h), StartKnown: true}, Place: meeting.Place{Text: place}}
	}
	lpc := cpc("lpc", 14, "253 Broadway")
	lpc.Body, lpc.Agency = "Landmarks Preservation Commission", &meeting.AgencyRef{Raw: "Landmarks Preservation Commission"}
	ms := append(res.Meetings, cpc("same", 10, "120 Broadway, Lower Level"), cpc("other", 14, "22 Reade Street"), lpc)
	if errs := link.Meetings(context.Background(), link.Env{Linker: link.Linker{Crosswalk: entity.DefaultCrosswalk()}}, ms); len(errs) != 0 {
		t.Fatal(errs)
	}
	got := map[string]meeting.NoticeLink{}
	for _, m := range ms {
		got[m.ID] = m.Notice
	}
	if l := got["test:same"]; l.State != meeting.NoticeLinked || l.RequestID != "20260805038" || l.Method != link.MethodMeetingBodyTime || l.Confidence != meeting.High {
		t.Errorf("same body, day, time and place: %+v", l)
	}
	if l := got["test:other"]; l.State != meeting.NoticeUnknown || len(l.Candidates) == 0 {
		t.Errorf("same body, other time and place: %+v", l)
	}
	if l := got["test:lpc"]; l.State != meeting.NoticeNotLinked || l.NoticesSeen != 2 {
		t.Errorf("LPC on 2026-08-26 (its notices held on another day; CPC and DOT hearings that day): %+v", l)
	}
	if l := got["legistar:22632"]; l.State != meeting.NoticeUnknown || l.NoticesSeen != 1 {
		t.Errorf("Finance on 2026-08-18 (an LPC hearing that day, no Council notice anywhere): %+v", l)
	}
	if l := got["legistar:22593"]; l.State != meeting.NoticeUnknown {
		t.Errorf("no notice covers 2026-07-01: %+v", l)
	}
	if l := got["cityrecord-hearings:20260805038"]; l.State != meeting.NoticeLinked || l.Method != "source" {
		t.Errorf("the notice's own meeting: %+v", l)
	}
}
