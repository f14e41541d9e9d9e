package link_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// Land projects link to the real City Record notices that name their
// application (ULURP) or CEQR numbers, with the evidence stated; a
// project no notice names gets no link; no notices held leaves links
// undecided. The projects are test fixtures carrying numbers printed in
// real 2014 notices (C 140411 HAK, 695 Grand Street; 14DCP135K, 5402 Fort
// Hamilton Parkway); no bundled ZAP project is named by a bundled notice.
func TestLandProjectLinks(t *testing.T) {
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
	if _, err := ix.LoadCROLDir(context.Background(), os.DirFS("../../testdata/sample"), "crol"); err != nil {
		t.Fatal(err)
	}
	_, keys := land.ULURPKeys("C 140411 HAK")
	items := []land.Project{
		{ID: "2014K9991", Name: "fixture: 695 Grand Street", Actions: []land.Action{{Code: "HA", ULURPNumber: "C140411HAK", ULURPKey: keys[0]}},
			Lots: []land.Lot{{BBL: "3027820036"}}},
		{ID: "2014K9992", Name: "fixture: 5402 Fort Hamilton Parkway", Environmental: land.Environmental{CEQRNumber: "14DCP135K"}},
		{ID: "2014K9993", Name: "fixture: named by no notice", Actions: []land.Action{{Code: "ZM", ULURPNumber: "C999999ZMK", ULURPKey: "999999ZMK"}}},
	}
	if errs := link.LandProjects(context.Background(), link.Env{Notices: be}, items); len(errs) > 0 {
		t.Fatal(errs)
	}
	grand := items[0].Links
	if len(grand) == 0 {
		t.Fatal("695 Grand Street: no link")
	}
	for _, l := range grand {
		if l.Method != link.LandByULURP || l.Confidence != "high" || len(l.Evidence) == 0 || !strings.Contains(l.Evidence[0], "140411") || l.RequestID == "" {
			t.Errorf("link %+v", l)
		}
	}
	fort := items[1].Links
	if len(fort) == 0 || fort[0].Method != link.LandByCEQR || !strings.Contains(fort[0].Evidence[0], "14DCP135K") {
		t.Errorf("CEQR links %+v", fort)
	}
	if items[2].Links == nil || len(items[2].Links) != 0 {
		t.Errorf("a project no notice names: links %#v, want decided and empty", items[2].Links)
	}
	t.Logf("695 Grand Street: %+v", grand)
	undecided := []land.Project{{ID: "2014K9991", Actions: items[0].Actions}}
	if errs := link.LandProjects(context.Background(), link.Env{}, undecided); len(errs) > 0 || undecided[0].Links != nil {
		t.Errorf("without notices: %+v %v", undecided[0].Links, errs)
	}
}

// A notice whose event falls on a hearing date the project records and
// whose text names the project links with medium confidence; the same
// name on another day does not. The notice is the real CPC hearing notice
// 20260805038 (event 2026-08-26); the projects are fixtures named by its
// text.
func TestLandHearingDateLinks(t *testing.T) {
	be, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk()}
	if _, err := ix.LoadCROLDir(context.Background(), os.DirFS("../../testdata/sample"), "crol"); err != nil {
		t.Fatal(err)
	}
	on := time.Date(2026, 8, 26, 0, 0, 0, 0, record.NewYork)
	items := []land.Project{
		{ID: "2026M9991", Name: "City Planning Commission Public Hearing", Milestones: []land.Milestone{{Milestone: "CPC Public Meeting - Public Hearing", ReviewMeeting: on}}},
		{ID: "2026M9992", Name: "City Planning Commission Public Hearing", Milestones: []land.Milestone{{Milestone: "CPC Public Meeting - Public Hearing", ReviewMeeting: on.AddDate(0, 0, -9)}}},
	}
	if errs := link.LandProjects(context.Background(), link.Env{Notices: be}, items); len(errs) > 0 {
		t.Fatal(errs)
	}
	if l := items[0].Links; len(l) != 1 || l[0].RequestID != "20260805038" || l[0].Method != link.LandByHearing || l[0].Confidence != "medium" ||
		!strings.Contains(l[0].Evidence[0], "2026-08-26") {
		t.Errorf("hearing-day link %+v", l)
	}
	if l := items[1].Links; len(l) != 0 {
		t.Errorf("another day linked %+v", l)
	}
}
