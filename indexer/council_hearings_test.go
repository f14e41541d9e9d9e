package indexer

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A Council land-use item's history records the hearings its committees
// held on the application (the real LU 0001-2026, C 250304 PQK: a
// subcommittee hearing on 2026-01-27 at 11:00, a subcommittee hearing and
// the Committee on Land Use's on 2026-02-23 at 11:30 and 12:00). Loaded
// with the land files, the item is joined to the project that carries
// the number, and each of those hearings is a hearing of the project:
// held, at the day and time the history records, before the body that
// held it, keyed by its Legistar event (so a meeting record of that
// session is the same hearing), with the join's method. Actions that are
// not hearings (referral, approval) are not hearings.
func TestCouncilItemHearingsAreProjectHearings(t *testing.T) {
	kinds := []string{"embedded"}
	if os.Getenv("OPENSEARCH_URL") != "" {
		kinds = append(kinds, "opensearch")
	}
	for _, kind := range kinds {
		t.Run(kind, func(t *testing.T) {
			b := drillEngine(t, kind)
			ctx := context.Background()
			ix := sampleIndexer(b)
			p := land.Project{ID: "2025K9998", Name: "fixture: Prospect Farm Acquisition", ProcedureID: "ulurp",
				Actions: []land.Action{{Code: "PQ", ULURPNumber: "C 250304 PQK", ULURPKey: "250304PQK"}}}
			if err := search.Put(ctx, b, land.ProjectKind, []land.Project{p}); err != nil {
				t.Fatal(err)
			}
			if _, err := ix.Load(ctx, landSource{}, os.DirFS("../testdata/sample"), "land"); err != nil {
				t.Fatal(err)
			}
			r, err := land.New(b).Project(ctx, p.ID)
			if err != nil {
				t.Fatal(err)
			}
			type seen struct{ id, body, date, time, status string }
			var got []seen
			for _, h := range r.Hearings {
				if h.SourceKind != "land_event" {
					continue
				}
				got = append(got, seen{h.ID, h.Body, h.Date, h.Time, h.Status})
				if h.LinkMethod != "ulurp_number" || h.LinkConfidence != "high" || len(h.Evidence) != 2 || !strings.Contains(h.Evidence[1], h.Body) {
					t.Errorf("hearing %s: join %s/%s evidence %q", h.ID, h.LinkMethod, h.LinkConfidence, h.Evidence)
				}
				if h.When != land.HearingPastWhen {
					t.Errorf("hearing %s reads %q, want past", h.ID, h.When)
				}
			}
			want := []seen{ // past hearings, newest first
				{"meeting:legistar:22172", "Committee on Land Use", "2026-02-23", "12:00 PM", land.HearingHeld},
				{"meeting:legistar:22171", "Subcommittee on Landmarks, Public Sitings, Resiliency and Dispositions", "2026-02-23", "11:30 AM", land.HearingHeld},
				{"meeting:legistar:22123", "Subcommittee on Landmarks, Public Sitings, Resiliency and Dispositions", "2026-01-27", "11:00 AM", land.HearingHeld},
			}
			if len(got) != len(want) {
				t.Fatalf("hearings from the Council item: %+v, want %+v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("hearing %d: %+v, want %+v", i, got[i], want[i])
				}
			}
			if !strings.Contains(r.HearingsNote, "Council land-use item") {
				t.Errorf("the note does not say where these hearings come from: %q", r.HearingsNote)
			}
		})
	}
}
