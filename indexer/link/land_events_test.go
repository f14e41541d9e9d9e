package link_test

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Events join the projects whose application numbers they name, by the
// exact ULURP key (a modification's "(A)" is another application): high
// for a number a publisher states in a field of its own, the event's own
// confidence for one read from free text, with the evidence saying which
// event named which number of which project.
func TestJoinEventsLand(t *testing.T) {
	ps := []land.Project{
		{ID: "2025K9999", Name: "Prospect Farm", Actions: []land.Action{{ULURPNumber: "C 250304 PQK", ULURPKey: "250304PQK"}}},
		{ID: "2025K9998", Name: "Prospect Farm modification", Actions: []land.Action{{ULURPNumber: "C 250304 PQK (A)", ULURPKey: "250304PQK(A)"}}},
	}
	es := []land.Event{
		{ID: "council:LU1", Name: "LU 0001-2026", ULURPNumbers: []string{"C 250304 PQK"}, ULURPKeys: []string{"250304PQK"}, SourceLabel: "NYC Council"},
		{ID: "cb:K06-2026-01-10:250304PQK", Name: "Brooklyn CB 6 minutes", ULURPNumbers: []string{"250304PQK"}, ULURPKeys: []string{"250304PQK"},
			Method: "text", Confidence: "medium", Evidence: `"…the application C 250304 PQK…"`, SourceLabel: "minutes"},
		{ID: "council:LU2", Name: "LU 0002-2026", ULURPNumbers: []string{"C 999999 ZMK"}, ULURPKeys: []string{"999999ZMK"}},
	}
	ls := link.JoinEventsLand(es, ps)
	if len(ls) != 2 {
		t.Fatalf("links %+v", ls)
	}
	for _, l := range ls {
		if l.To != (record.Ref{Kind: record.RefLandProject, ID: "2025K9999"}) || l.From.Kind != record.RefLandEvent ||
			l.Method != link.MethodEventULURP || l.Key != "250304PQK" || !strings.Contains(l.Evidence, "2025K9999") {
			t.Errorf("link %+v", l)
		}
		switch l.From.ID {
		case "council:LU1":
			if l.Confidence != "high" || !strings.Contains(l.Evidence, "states application number C 250304 PQK") {
				t.Errorf("council link %+v", l)
			}
		case "cb:K06-2026-01-10:250304PQK":
			if l.Confidence != "medium" || !strings.Contains(l.Evidence, "names in its text") || !strings.Contains(l.Evidence, "the application C 250304 PQK") {
				t.Errorf("minutes link %+v", l)
			}
		default:
			t.Errorf("unexpected link %+v", l)
		}
	}
}
