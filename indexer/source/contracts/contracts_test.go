package contracts

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/golden"
)

const rawFile = "cityscroll_procurement_browse_rows_start_date_MMDDYYYY.json"

func TestReadRealContractRows(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "raw", rawFile))
	if err != nil {
		t.Fatal(err)
	}
	observed := time.Date(2026, 8, 18, 0, 0, 0, 0, time.UTC)
	rows, errs := ReadRows(data, "x.json", observed)
	if len(errs) > 0 || len(rows) != 21 {
		t.Fatalf("%d rows, %v", len(rows), errs)
	}
	for _, e := range rows {
		if e.Source != Source || !strings.HasPrefix(e.ID, "contracts:procurement:") || e.AgencyLabel == "" || !e.ObservedAt.Equal(observed) {
			t.Errorf("row %+v", e)
		}
		// the derived keys are the link stage's
		if e.AgencyID != "" || e.VendorStem != "" || e.PINBase != "" {
			t.Errorf("raw row carries derived keys: %+v", e)
		}
	}
}

// TestGolden reads the real rows and links them (the contracts as they
// are written); go test -run TestGolden -update rewrites testdata/golden.json.
func TestGolden(t *testing.T) {
	es, errs := LoadDir(os.DirFS("testdata/raw"), ".")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	link.Linker{Crosswalk: entity.DefaultCrosswalk()}.Contracts(es)
	for _, e := range es {
		if e.AgencyID == "" {
			t.Errorf("%s: no agency id after linking", e.ID)
		}
	}
	got, _ := json.MarshalIndent(map[string]any{"contracts": es}, "", "  ")
	got = append(got, '\n')
	golden.Assert(t, filepath.Join("testdata", "golden.json"), got)
}
