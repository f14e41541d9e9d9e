package link_test

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
)

// A meeting joins a land project when its agenda names one of the
// project's application numbers with the same ULURP key (high), or its
// text names the project's id (medium); near misses never join: the same
// digits with other letters, a modification "(A)" of the number, the
// number's digits alone, Council numbers (L.U., Res).
func TestJoinMeetingsLandKnownJoinAndNearMisses(t *testing.T) {
	project := land.Project{ID: "2024Q0113", Name: "50-20 108th Street Rezoning", Actions: []land.Action{
		{Code: "ZM", ULURPNumber: "C 250253 ZMQ", ULURPKey: "250253ZMQ"},
		{Code: "ZR", ULURPNumber: "N 250254 ZRQ", ULURPKey: "250254ZRQ"},
	}}
	other := land.Project{ID: "2024Q0164", Name: "164th Street Rezoning", Actions: []land.Action{{Code: "ZM", ULURPKey: "250290ZMQ"}}}
	mk := func(id, where, text string) meeting.Meeting {
		m := meeting.Meeting{ID: id, Body: "Land Use", When: meeting.When{Date: "2026-07-14"}}
		m.AddApplications(meeting.ApplicationsIn(where, text)...)
		return m
	}
	ms := []meeting.Meeting{
		mk("legistar:1", meeting.WhereAgendaItem, "LU 105 - Zoning, 50-20 108th Street Rezoning, Queens (C 250253 ZMQ)"),
		mk("legistar:2", meeting.WhereAgendaItem, "LU 106 - Zoning, Queens (C 250253 ZMK); N 250254 ZRQ(A); Res 0616-2026; 250253"),
		mk("cb-calendar:3", meeting.WhereText, "Public hearing on ZAP project 2024Q0113, 108th Street"),
	}
	if len(ms[1].Applications) != 2 {
		t.Fatalf("near-miss applications read %+v, want the two numbers only", ms[1].Applications)
	}
	got := map[string]record.Link{}
	for _, l := range link.JoinMeetingsLand(ms, []land.Project{project, other}) {
		got[l.ID] = l
	}
	if len(got) != 2 {
		t.Errorf("%d joins, want 2: %+v", len(got), got)
	}
	byNumber := got["meeting:legistar:1→land_project:2024Q0113"]
	if byNumber.Method != link.MethodMeetingULURP || byNumber.Confidence != meeting.High || byNumber.Key != "250253ZMQ" ||
		!strings.Contains(byNumber.Evidence, "an agenda item") || !strings.Contains(byNumber.Evidence, "C 250253 ZMQ") {
		t.Errorf("join by number %+v", byNumber)
	}
	byID := got["meeting:cb-calendar:3→land_project:2024Q0113"]
	if byID.Method != link.MethodMeetingProjectID || byID.Confidence != meeting.Medium || !strings.Contains(byID.Evidence, "its text") {
		t.Errorf("join by project id %+v", byID)
	}
}
