package indexer

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// checkbookFiles copies real Checkbook answers into an fs under dir.
func checkbookFiles(t *testing.T, fsys fstest.MapFS, dir string, paths ...string) {
	t.Helper()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fsys[dir+"/"+filepath.Base(p)] = &fstest.MapFile{Data: b}
	}
}

// heldLinks reads every link record held.
func heldLinks(t *testing.T, b search.Engine) map[string]record.Link {
	t.Helper()
	p, err := search.Find(context.Background(), b, joins.Kind, search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]record.Link{}
	for _, l := range p.Items {
		out[l.ID] = l
	}
	return out
}

// The pipeline's link stage writes joins as link records at index time: a
// real registration (contract CT185020151429177) and a payment naming its
// contract id are linked by exact contract id (high, the same contract),
// whichever of the two is loaded first; loading again writes the same
// links; a payment naming a contract not held is linked to nothing.
func TestPipelineWritesLinkRecords(t *testing.T) {
	ctx := context.Background()
	contracts := fstest.MapFS{}
	checkbookFiles(t, contracts, "c", "../testdata/sample/checkbook/contracts_active_expense_citywide.response.xml")
	payments := fstest.MapFS{}
	checkbookFiles(t, payments, "p", "../internal/procure/testdata/payment_fixtures/paid_by_contract.response.xml",
		"../testdata/sample/checkbook/spending_citywide.response.xml")

	var first map[string]record.Link
	for _, order := range [][]fstest.MapFS{{contracts, payments}, {payments, contracts}} {
		b, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		ix := sampleIndexer(b)
		for _, fsys := range order {
			dir := "c"
			if _, ok := fsys["p/spending_citywide.response.xml"]; ok {
				dir = "p"
			}
			if _, err := ix.Load(ctx, checkbookSource{}, fsys, dir); err != nil {
				t.Fatal(err)
			}
		}
		links := heldLinks(t, b)
		var pay []record.Link
		for _, l := range links {
			if l.From.Kind == record.RefContract && l.To.Kind == record.RefPayment {
				pay = append(pay, l)
			}
		}
		if len(pay) != 1 {
			t.Fatalf("contract-payment links %+v", pay)
		}
		l := pay[0]
		if l.Method != record.LinkExactContractID || l.Confidence != entity.ConfidenceHigh || !l.SameProcurement ||
			l.Key != "CT185020151429177" || l.Evidence == "" || l.To.ID != "checkbook:payment:20180011164-1-DSB-AD-BYCONTRACT" {
			t.Errorf("link %+v", l)
		}
		if first == nil {
			first = links
		} else if !slices.Equal(keys(first), keys(links)) {
			t.Errorf("links depend on the load order: %v vs %v", keys(first), keys(links))
		}
		// loading again writes the same links (stable ids)
		if _, err := ix.Load(ctx, checkbookSource{}, payments, "p"); err != nil {
			t.Fatal(err)
		}
		if again := heldLinks(t, b); len(again) != len(links) {
			t.Errorf("%d links, then %d", len(links), len(again))
		}
		if ix.Links() == 0 {
			t.Error("the indexer counts no link written")
		}
		b.Close()
	}
}

func keys(m map[string]record.Link) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
