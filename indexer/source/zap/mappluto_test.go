package zap_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/indexer/source/zap"
	"github.com/recordwatch/recordwatch/internal/fetch"
	"github.com/recordwatch/recordwatch/internal/land"
)

func plutoClient() *fetch.Client {
	c := fetch.New()
	c.MaxRetries = -1
	return c
}

// The live MapPLUTO fetch against a local replay of the fixture: the
// BBLs asked go in batches of `$where=bbl in (…)`; a row answered is the
// lot's centroid (the real centroid file's coordinates for the real
// rows), with method and confidence; a BBL not answered is unresolved
// "not in MapPLUTO"; a malformed BBL is never asked; past Max, BBLs are
// left for the next run.
func TestPLUTOFetcherReplay(t *testing.T) {
	replay, err := sampletest.NewPLUTOReplay("../../../testdata/mappluto/64uk-42ks_replay_rows.json")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(replay)
	defer srv.Close()
	var centroids map[string]struct{ Lat, Lon float64 }
	data, err := os.ReadFile("testdata/mappluto_bbl_centroids_cityscroll_2026-08-18_boroughs_1_2_3_5.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &centroids); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	f := &zap.PLUTOFetcher{Client: plutoClient(), URL: srv.URL, Batch: 2, Max: 5, Now: func() time.Time { return at }}
	ask := []string{"1000380001", "1000690001", "12345", "1000690006", "1006440001", "1000010001", "1000380001", "5006840261"}
	got, errs, err := f.Fetch(context.Background(), ask)
	if err != nil {
		t.Fatal(err)
	}
	if replay.Requests != 3 || got.Asked != 5 || got.Left != 1 || strings.Join(replay.AskedBBLs(), ",") != "1000380001,1000690001,1000690006,1006440001,1000010001" {
		t.Errorf("requests %d, asked %d %v, left %d", replay.Requests, got.Asked, replay.AskedBBLs(), got.Left)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), `"12345" is not a BBL`) {
		t.Errorf("errors %v", errs)
	}
	if len(got.Lots) != 4 || len(got.Unresolved) != 1 {
		t.Fatalf("lots %d unresolved %+v", len(got.Lots), got.Unresolved)
	}
	for _, l := range got.Lots {
		lat, lon, ok := land.GeometryMiddle(l.Geometry)
		if !ok || l.ID != "mappluto:lot:"+l.BBL || l.Source != "mappluto" || l.Method != land.LotMethodCentroid || l.Confidence != "high" || !l.AskedAt.Equal(at) {
			t.Errorf("lot %+v", l)
		}
		if c, real := centroids[l.BBL]; real && (abs(c.Lat-lat) > 1e-6 || abs(c.Lon-lon) > 1e-6) {
			t.Errorf("%s at %f,%f; the real centroid file says %f,%f", l.BBL, lat, lon, c.Lat, c.Lon)
		}
	}
	if u := got.Unresolved[0]; u.BBL != "1000010001" || u.Unresolved != land.LotNotInPLUTO || len(u.Geometry) != 0 || u.ID != "mappluto:lot:1000010001" {
		t.Errorf("unresolved %+v", u)
	}
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

// A batch MapPLUTO fails to answer leaves its BBLs unresolved with the
// failure as the reason and the run goes on; every batch failing fails
// the run.
func TestPLUTOFetcherFailures(t *testing.T) {
	replay, err := sampletest.NewPLUTOReplay("../../../testdata/mappluto/64uk-42ks_replay_rows.json")
	if err != nil {
		t.Fatal(err)
	}
	var calls, failFrom atomic.Int32
	failFrom.Store(2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) >= failFrom.Load() {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		replay.ServeHTTP(w, r)
	}))
	defer srv.Close()
	f := &zap.PLUTOFetcher{Client: plutoClient(), URL: srv.URL, Batch: 1}
	got, errs, err := f.Fetch(context.Background(), []string{"1000380001", "1006440001"})
	if err != nil || len(got.Lots) != 1 || len(got.Unresolved) != 1 || len(errs) != 1 {
		t.Fatalf("err %v lots %d unresolved %+v errs %v", err, len(got.Lots), got.Unresolved, errs)
	}
	if u := got.Unresolved[0]; u.BBL != "1006440001" || u.Unresolved != "MapPLUTO did not answer: HTTP 503" {
		t.Errorf("unresolved %+v", u)
	}
	calls.Store(0)
	failFrom.Store(1)
	if _, _, err := f.Fetch(context.Background(), []string{"1000380001", "1006440001"}); err == nil || !strings.Contains(err.Error(), "every request failed") {
		t.Errorf("every batch failing: %v", err)
	}
}

// MapPLUTO answers bbl as a number with decimals; a row without a
// position in the city is rejected with the reason, never placed.
func TestReadPLUTORows(t *testing.T) {
	lots, n, errs := zap.ReadPLUTORows([]byte(`[{"bbl":"1000380001.00000000","latitude":"40.705244","longitude":"-74.006755","cd":"101","address":"1 BATTERY PARK"},
		{"bbl":"1000380002","latitude":"0","longitude":"0"},{"bbl":"x"}]`), "test", time.Time{})
	if n != 3 || len(lots) != 1 || len(errs) != 2 || lots[0].BBL != "1000380001" || lots[0].Raw["cd"] != "101" {
		t.Errorf("n %d lots %+v errs %v", n, lots, errs)
	}
	if _, n, errs := zap.ReadPLUTORows([]byte(`{"error":true}`), "test", time.Time{}); n != -1 || len(errs) != 1 {
		t.Errorf("not an array: n %d errs %v", n, errs)
	}
}
