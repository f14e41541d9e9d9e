package zap

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
)

func TestLoadRealLotFiles(t *testing.T) {
	es, errs := LoadDir(os.DirFS("testdata"), ".")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	byID := map[string]search.Entry{}
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
	if z.BBL != "4021790006" || z.Title != "108-05 68th Road Rezoning" || len(z.Geometry) == 0 || z.ObservedAt.IsZero() || z.Kind != search.EntryLot {
		t.Errorf("zap lot %+v", z)
	}
	for _, bad := range []string{"", "123", "6000000000", "10000000001"} {
		if ValidBBL(bad) {
			t.Errorf("ValidBBL(%q)", bad)
		}
	}
}
