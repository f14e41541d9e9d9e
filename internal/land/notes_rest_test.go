package land_test

import (
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
)

// A hearing read from a Council item's history and a plan whose day went
// by are notes: English as the answers printed them before the notes,
// Spanish from the message file with the record values as printed.
func TestHearingHistoryAndPlannedNotes(t *testing.T) {
	at := time.Date(2026, 3, 4, 18, 30, 0, 0, time.UTC) // 1:30 PM in New York
	h := land.HistoryNote("Hearing Held by Committee", "Committee on Land Use", at)
	if got, want := h.String(), "its history records: Hearing Held by Committee (Committee on Land Use, 2026-03-04 1:30 PM)"; got != want {
		t.Errorf("history English %q, want %q", got, want)
	}
	if es := h.In("es"); es != "su historial registra: Hearing Held by Committee (Committee on Land Use, 2026-03-04 1:30 PM)" {
		t.Errorf("history Spanish %q", es)
	}
	p := land.PlannedPassedNote("2026-08-17", "2026-11-20")
	if got, want := p.String(), "planned for 2026-08-17; not observed since (as of 2026-11-20)"; got != want {
		t.Errorf("planned English %q, want %q", got, want)
	}
	if es := p.In("es"); strings.Contains(es, "planned") || !strings.Contains(es, "2026-08-17") || !strings.Contains(es, "no observada") {
		t.Errorf("planned Spanish %q", es)
	}
}
