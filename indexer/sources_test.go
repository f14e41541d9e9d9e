package indexer

import (
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The one list is what -source accepts (main.go calls LookupSource), and
// every source has a bundled sample directory named after it.
func TestSourcesList(t *testing.T) {
	want := []string{"crol", "checkbook", "contracts", "zap", "payroll", "land", "meetings", "leaders", "civillist"}
	// mappluto is fetched live only, for the BBLs held: the bundled sample
	// has no directory of it (its lots read "MapPLUTO not fetched")
	if got := SourceNames(); strings.Join(got, ",") != strings.Join(append(want, "mappluto"), ",") {
		t.Fatalf("sources %v, want %v and mappluto", got, want)
	}
	if _, err := fs.Stat(os.DirFS("../testdata/sample"), "mappluto"); err == nil {
		t.Error("the bundled sample holds a mappluto directory: its fixture rows are constructed for tests, never sample data")
	}
	sample := os.DirFS("../testdata/sample")
	for _, name := range want {
		src, err := LookupSource(name)
		if err != nil || src.Name() != name {
			t.Errorf("LookupSource(%q) = %v, %v", name, src, err)
			continue
		}
		if h := src.Holds(); h != HoldsNotices && h != HoldsRecords {
			t.Errorf("%s holds %q", name, h)
		}
		if _, err := fs.Stat(sample, name); err != nil {
			t.Errorf("%s: no bundled sample directory: %v", name, err)
		}
		b, errs := src.Read(sample, name)
		records := 0
		for _, set := range b.Records {
			records += set.Len()
		}
		if len(b.Notices)+records == 0 {
			t.Errorf("%s read nothing from its sample (%v)", name, errs)
		}
		if (src.Holds() == HoldsNotices) != (len(b.Notices) > 0) {
			t.Errorf("%s holds %s but read %d notices, %d records", name, src.Holds(), len(b.Notices), records)
		}
	}
	if src, _ := LookupSource("crol"); src.Name() != record.SourceCROL {
		t.Error("crol is the City Record source")
	}
	var live []string
	for _, src := range Sources {
		if _, ok := src.(LiveSource); ok {
			live = append(live, src.Name())
		}
	}
	if want := "crol,checkbook,payroll,land,meetings,leaders,mappluto"; strings.Join(live, ",") != want {
		t.Errorf("live sources %v, want %s", live, want)
	}
	_, err := LookupSource("lots")
	if err == nil || !strings.Contains(err.Error(), "available: crol, checkbook, contracts, zap, payroll, land, meetings, leaders, civillist, mappluto") {
		t.Errorf("unknown source: %v", err)
	}
}

// Sources give raw records: the derived keys are filled by the link stage
// only.
func TestSourcesReadRaw(t *testing.T) {
	sample := os.DirFS("../testdata/sample")
	for _, src := range Sources {
		b, _ := src.Read(sample, src.Name())
		for _, n := range b.Notices {
			if n.AgencyID != "" || n.VendorStem != "" {
				t.Fatalf("%s: notice %s read with derived keys %q %q", src.Name(), n.RequestID, n.AgencyID, n.VendorStem)
			}
		}
		for _, set := range b.Records {
			switch s := set.(type) {
			case Set[record.Contract]:
				for _, c := range s.Items {
					if c.AgencyID != "" || c.VendorStem != "" || c.PINBase != "" {
						t.Fatalf("%s: contract %s read with derived keys", src.Name(), c.ID)
					}
				}
			case Set[procure.Payment]:
				for _, p := range s.Items {
					if p.AgencyID != "" || p.VendorStem != "" || p.PINBase != "" {
						t.Fatalf("%s: payment %s read with derived keys", src.Name(), p.ID)
					}
				}
			}
		}
	}
}
