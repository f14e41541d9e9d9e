package indexer

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// The bundled entity samples load once, also into an index whose notices
// were loaded before, and a second run changes nothing.
func TestEnsureSampleEntries(t *testing.T) {
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	ix := &Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
	sample := os.DirFS("../testdata/sample")
	loaded, err := ix.EnsureSampleEntries(ctx, sample)
	if err != nil || !loaded {
		t.Fatalf("first load: %v %v", loaded, err)
	}
	cov, err := search.View(b).EntryCoverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, c := range cov {
		got[c.Source+"/"+c.RecordType] = c.Records
	}
	want := map[string]int{"checkbook/contract": 6, "checkbook/payment": 1, "checkbook/payroll": 1, "contracts/contract": 552,
		"mappluto/lot": 776, "zap/lot": 15}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d entries, want %d (all %v)", k, got[k], n, got)
		}
	}
	loaded, err = ix.EnsureSampleEntries(ctx, sample)
	if err != nil || loaded {
		t.Errorf("second load: %v %v", loaded, err)
	}
	res, err := search.View(b).Entries(ctx, search.EntryQuery{PINBases: []string{"85015B0065"}})
	if err != nil || res.Total != 1 || res.Entries[0].ContractID != "CT185020151429177" {
		t.Errorf("checkbook contract by base PIN: %+v %v", res, err)
	}
}
