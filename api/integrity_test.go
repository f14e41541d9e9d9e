package api

import (
	"encoding/binary"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
)

// The sample's notices with 200 bytes flipped in the stored fields of
// their largest segment (the report: garbled notices served as normal
// answers, /readyz ready): the engine refuses the segment at open, and
// the API says so — /readyz 503 with index_integrity naming the segment,
// /api/sources listing it under unavailable with the ids it held — and a
// notice it held answers 503 "unavailable", never its garbled text.
func TestDamagedSegmentIsReportedNotServed(t *testing.T) {
	dir := t.TempDir()
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), sampletest.Notices, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	if err := be.Close(); err != nil {
		t.Fatal(err)
	}
	zaps, _ := filepath.Glob(filepath.Join(dir, "index", "notices.bleve", "store", "*.zap"))
	var seg string
	var size int64
	for _, z := range zaps {
		if st, err := os.Stat(z); err == nil && st.Size() > size {
			seg, size = z, st.Size()
		}
	}
	raw, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	stored := int(binary.BigEndian.Uint64(raw[len(raw)-28:])) // zap v17 footer: the stored fields' index offset
	for i := range 200 {
		raw[i*stored/200] ^= 0x5a
	}
	if err := os.WriteFile(seg, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	be, err = embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := newServer(Config{Engine: "embedded", RatePerSecond: 1e6, Burst: 1e6}, Deps{Search: be, Store: st, Integrity: be,
		Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return fixedNow }})
	e := &env{srv: srv, ts: httptest.NewServer(srv), be: be, st: st}
	defer e.ts.Close()
	name := filepath.Base(seg)

	res, b := get(t, e, "/readyz")
	ready := decode[struct {
		Status string            `json:"status"`
		Parts  map[string]string `json:"parts"`
	}](t, b)
	if res.StatusCode != http.StatusServiceUnavailable || ready.Status != "not ready" ||
		!strings.Contains(ready.Parts["index_integrity"], "degraded") || !strings.Contains(ready.Parts["index_integrity"], name) {
		t.Errorf("readyz with a refused segment: %d %s", res.StatusCode, b)
	}

	res, b = get(t, e, "/api/sources")
	rep := decode[SourcesReport](t, b)
	if res.StatusCode != 200 || len(rep.Unavailable) != 1 || rep.Unavailable[0].Segment != name || rep.Unavailable[0].Records <= 0 ||
		len(rep.Unavailable[0].IDs) == 0 {
		t.Fatalf("sources with a refused segment: %d, unavailable %+v", res.StatusCode, rep.Unavailable)
	}
	served := 0
	for _, id := range rep.Unavailable[0].IDs {
		res, b := get(t, e, "/api/notices/"+id)
		if res.StatusCode == http.StatusOK {
			served++
			continue
		}
		if res.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(b), `"status":"unavailable"`) {
			t.Errorf("notice %s of the refused segment: %d %s", id, res.StatusCode, b)
		}
	}
	if served > 0 {
		t.Errorf("%d notices of the refused segment served as normal answers", served)
	}

	// rebuilt (here: the engine is told so), the index is whole again
	if err := be.Repaired(t.Context()); err != nil {
		t.Fatal(err)
	}
	if res, b := get(t, e, "/readyz"); !strings.Contains(string(b), `"index_integrity":"up"`) {
		t.Errorf("readyz once repaired: %d %s", res.StatusCode, b)
	}
}
