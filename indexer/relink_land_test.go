package indexer

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A data directory whose land events were written before their joins to
// land projects were link records (land_event version 0: the project
// read found them by application number) gets the events written again
// with their joins at the next start, so the project still lists them;
// an event naming no project held gets none. Re-linking again finds
// nothing to do.
func TestRelinkJoinsLandEventsOfAnOlderLayout(t *testing.T) {
	b := drillEngine(t, "embedded")
	ctx := context.Background()
	ix := sampleIndexer(b)
	p := land.Project{ID: "2025K9999", Name: "fixture: Prospect Farm Acquisition", ProcedureID: "ulurp",
		Actions: []land.Action{{Code: "PQ", ULURPNumber: "C 250304 PQK", ULURPKey: "250304PQK"}}}
	if err := search.Put(ctx, b, land.ProjectKind, []land.Project{p}); err != nil {
		t.Fatal(err)
	}
	event := func(id, num, key string) search.Record {
		r, err := land.EventKind.Encode(land.Event{ID: id, Type: "council_item", Name: "LU " + id, ULURPNumbers: []string{num}, ULURPKeys: []string{key},
			Date: time.Date(2026, 2, 24, 0, 0, 0, 0, record.NewYork), Source: "council", SourceLabel: "NYC Council"})
		if err != nil {
			t.Fatal(err)
		}
		delete(r.Keys, search.KeyKindVersion) // version 0
		return r
	}
	if err := b.PutRecords(ctx, []search.Record{event("council:1", "C 250304 PQK", "250304PQK"), event("council:2", "C 999999 ZMK", "999999ZMK")}); err != nil {
		t.Fatal(err)
	}
	rep, err := ix.Relink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records != 2 {
		t.Errorf("re-linked %+v, want the 2 events", rep)
	}
	ls, complete, err := joins.Read(ctx, b, []record.Ref{{Kind: record.RefLandProject, ID: p.ID}}, joins.Pair(record.RefLandEvent, record.RefLandProject))
	if err != nil || !complete {
		t.Fatal(err, complete)
	}
	if len(ls) != 1 || ls[0].From.ID != "council:1" || ls[0].Method != link.MethodEventULURP || ls[0].Confidence != "high" {
		t.Fatalf("links %+v", ls)
	}
	r, err := land.New(b).Project(ctx, p.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range r.Events {
		ids = append(ids, e.ID)
	}
	if !slices.Equal(ids, []string{"council:1"}) {
		t.Errorf("events %v", ids)
	}
	if again, err := ix.Relink(ctx); err != nil || again != (RelinkReport{}) {
		t.Errorf("re-linking again: %+v %v", again, err)
	}
}
