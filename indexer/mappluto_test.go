package indexer_test

import (
	"context"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/indexer/source/zap"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// The live MapPLUTO run over the bundled sample, against a replay of the
// fixture: it asks for the BBLs of the property-disposition notices and
// land projects held that no lot location places (never those the
// centroid file or a ZAP outline places), in bounded batches; the lots
// answered are placed at their centroid, the others held unresolved "not
// in MapPLUTO". A second run asks only those again.
func TestPLUTORunAsksForTheBBLsHeld(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ix := &indexer.Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
	if _, err := ix.EnsureSample(ctx, os.DirFS("../testdata/sample")); err != nil {
		t.Fatal(err)
	}
	replay, err := sampletest.NewPLUTOReplay("../testdata/mappluto/64uk-42ks_replay_rows.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(replay)
	defer srv.Close()
	src, err := indexer.LookupSource("mappluto")
	if err != nil {
		t.Fatal(err)
	}
	live := src.(indexer.LiveSource)
	client := fetch.New()
	client.MaxRetries = -1
	cfg := indexer.LiveConfig{Client: client, PLUTOEndpoint: srv.URL}
	rep, err := ix.RunLive(ctx, live, cfg)
	if err != nil {
		t.Fatal(err)
	}
	asked := replay.AskedBBLs()
	// 1006440001 and 4158530040 are printed in notices; 1012620009, a lot
	// of land project 2020M0429, is placed by the centroid file
	if !slices.Contains(asked, "1006440001") || !slices.Contains(asked, "4158530040") || slices.Contains(asked, "1012620009") {
		t.Errorf("asked %d BBLs: %v", len(asked), asked)
	}
	if want := (len(asked) + zap.DefaultPLUTOBatch - 1) / zap.DefaultPLUTOBatch; replay.Requests != want {
		t.Errorf("%d requests for %d BBLs, want %d (batches of %d)", replay.Requests, len(asked), want, zap.DefaultPLUTOBatch)
	}
	if rep.Indexed != len(asked) || rep.Rows != 7 {
		t.Errorf("indexed %d rows %d for %d asked: %v", rep.Indexed, rep.Rows, len(asked), rep.Errors)
	}
	lots, fetched, err := land.LotsHeld(ctx, b, asked)
	if err != nil || !fetched {
		t.Fatalf("lots held: %v (fetched %v)", err, fetched)
	}
	placed := 0
	for _, bbl := range asked {
		p := land.PlaceLot(bbl, lots[bbl], false, fetched)
		switch {
		case p.Kind == land.LocationLot:
			placed++
			if p.Method != land.LotMethodCentroid || p.Confidence != "high" || p.Point == nil {
				t.Errorf("%s placed %+v", bbl, p)
			}
		case p.Reason != land.LotNotInPLUTO || p.AskedAt.IsZero():
			t.Errorf("%s unresolved %+v", bbl, p)
		}
	}
	if placed != 7 {
		t.Errorf("%d of %d placed, want the fixture's 7", placed, len(asked))
	}
	before := len(asked)
	if _, err := ix.RunLive(ctx, live, cfg); err != nil {
		t.Fatal(err)
	}
	again := replay.AskedBBLs()[before:]
	if len(again) != before-7 || slices.Contains(again, "1006440001") {
		t.Errorf("the second run asked %d BBLs, want the %d unresolved", len(again), before-7)
	}
}
