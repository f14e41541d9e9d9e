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

// The evidence of an event's join is a note stored with the link: its
// English is the evidence sentence as it was written before the notes,
// and its Spanish the message file's, the record values left as printed.
func TestEventLinkEvidenceIsANote(t *testing.T) {
	p := land.Project{ID: "2025K9999", Name: "Prospect Farm"}
	for _, e := range []land.Event{
		{Name: "LU 0001-2026", SourceLabel: "NYC Council"},
		{Name: "Brooklyn CB 6 minutes", SourceLabel: "minutes", Method: "text", Evidence: `"…the application C 250304 PQK…"`},
		{Name: "Brooklyn CB 6 minutes", SourceLabel: "minutes", Method: "text"},
		{Name: "BP row", SourceLabel: "BP", Method: "table", Evidence: "row 3"},
	} {
		how := "states"
		if e.Method != "" {
			how = "names in its " + e.Method
		}
		want := e.Name + " (" + e.SourceLabel + ") " + how + " application number C 250304 PQK, an action of land project 2025K9999 (Prospect Farm)"
		if e.Evidence != "" {
			want += ": " + e.Evidence
		}
		n := link.EventLinkNote(e, "C 250304 PQK", p)
		if n.String() != want {
			t.Errorf("English %q, want %q", n.String(), want)
		}
		es := n.In("es")
		if !strings.Contains(es, "el número de solicitud C 250304 PQK, una acción del proyecto de uso del suelo 2025K9999 (Prospect Farm)") ||
			strings.Contains(strings.TrimSuffix(es, e.Evidence), "application") || !strings.HasSuffix(es, e.Evidence) {
			t.Errorf("Spanish %q", es)
		}
	}
	ls := link.JoinEventsLand([]land.Event{{ID: "council:LU1", Name: "LU 0001-2026", ULURPNumbers: []string{"C 250304 PQK"}, ULURPKeys: []string{"250304PQK"}, SourceLabel: "NYC Council"}},
		[]land.Project{{ID: "2025K9999", Name: "Prospect Farm", Actions: []land.Action{{ULURPNumber: "C 250304 PQK", ULURPKey: "250304PQK"}}}})
	if len(ls) != 1 || ls[0].EvidenceKey == nil || ls[0].EvidenceKey.String() != ls[0].Evidence {
		t.Fatalf("link %+v", ls)
	}
}
