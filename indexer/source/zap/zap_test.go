package zap

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/recordwatch/recordwatch/internal/land"
)

func TestLoadRealLotFiles(t *testing.T) {
	es, errs := LoadDir(os.DirFS("testdata"), ".")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	byID := map[string]land.LotLocation{}
	for _, e := range es {
		byID[e.ID] = e
	}
	if len(es) != 776+2 {
		t.Errorf("%d lots, want 776 centroids and the 2 lots of 2024Q0292", len(es))
	}
	c := byID["mappluto:lot:1000380001"]
	var p struct {
		Type        string    `json:"type"`
		Coordinates []float64 `json:"coordinates"`
	}
	if err := json.Unmarshal(c.Geometry, &p); err != nil || p.Type != "Point" || p.Coordinates[0] != -74.0067554 || p.Coordinates[1] != 40.7052441 {
		t.Errorf("centroid %+v %s", c, c.Geometry)
	}
	z := byID["zap:lot:2024Q0292:4021790006"]
	if z.BBL != "4021790006" || z.Title != "108-05 68th Road Rezoning" || len(z.Geometry) == 0 || z.ObservedAt.IsZero() {
		t.Errorf("zap lot %+v", z)
	}
	if r, err := land.LotKind.Encode(z); err != nil || r.Kind != "lot" || r.Keys[land.KeyBBL][0] != "4021790006" {
		t.Errorf("zap lot record %+v %v", r, err)
	}
	for _, bad := range []string{"", "123", "6000000000", "10000000001"} {
		if ValidBBL(bad) {
			t.Errorf("ValidBBL(%q)", bad)
		}
	}
}
