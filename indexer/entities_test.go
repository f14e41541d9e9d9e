package indexer

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
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
	t.Run("contract rows are stored once and read back whole", func(t *testing.T) {
		testContractRowsReadBack(t, b, sample)
	})
	t.Run("contract records of version 1 are reloaded", func(t *testing.T) {
		testOldLayoutReloaded(t, ix, b, sample, false)
	})
	t.Run("the old layout with its entry.contract copies is reloaded", func(t *testing.T) {
		testOldLayoutReloaded(t, ix, b, sample, true)
	})
}

// sampleContractEntries are the contract entries of the bundled sample as
// the pipeline writes them (linked), by id.
func sampleContractEntries(t *testing.T, sample fs.FS) map[string]search.Entry {
	t.Helper()
	out := map[string]search.Entry{}
	for _, src := range []Source{checkbookSource{}, contractsSource{}} {
		bt, _ := src.Read(sample, src.Name())
		link.Linker{Crosswalk: entity.DefaultCrosswalk()}.Entries(bt.Entries)
		for _, e := range bt.Entries {
			if e.Kind == search.EntryContract {
				out[e.ID] = e
			}
		}
	}
	return out
}

// Every contract row of the sample is one contract record (no second
// copy), and the entity views read it back as the entry that was written:
// dates with their labels (a pending row's received date), raw fields,
// amounts.
func testContractRowsReadBack(t *testing.T, b *embedded.Backend, sample fs.FS) {
	ctx := context.Background()
	want := sampleContractEntries(t, sample)
	cov, err := b.RecordCoverage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	contracts := 0
	for _, c := range cov {
		if c.RecordType == search.LegacyContractEntryKind {
			t.Errorf("contract rows stored twice: %+v", c)
		}
		if c.RecordType == search.ContractKind.Name {
			contracts += c.Records
		}
	}
	if contracts != len(want) || len(want) != 558 {
		t.Errorf("%d contract records, %d contract rows in the sample", contracts, len(want))
	}
	received := 0
	q := search.EntryQuery{Kinds: []string{search.EntryContract}, Limit: search.MaxEntryLimit}
	for {
		res, err := search.View(b).Entries(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range res.Entries {
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want[got.ID])
			if string(g) != string(w) {
				t.Errorf("contract entry %s read back\n got %s\nwant %s", got.ID, g, w)
			}
			if got.DateLabel == "received" {
				received++
			}
		}
		if res.NextCursor == "" {
			break
		}
		q.Cursor = res.NextCursor
	}
	if received == 0 {
		t.Error("no pending contract read back with its received date")
	}
}

// A data directory written by the layout before contract records were the
// one store (contract records of version 1: no kind_version, amount band,
// excluded-amount or registration key, no raw fields; and every row also
// as an entry.contract record) is completed at the next start: the
// contracts are written again in the current layout and the old copies
// are deleted. Without copies, version 1 records alone are reloaded.
func testOldLayoutReloaded(t *testing.T, ix *Indexer, b *embedded.Backend, sample fs.FS, copies bool) {
	ctx := context.Background()
	all, err := search.Find(ctx, b, search.ContractKind, search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
	if err != nil || all.Total != len(all.Items) {
		t.Fatalf("contracts held: %d of %d, %v", len(all.Items), all.Total, err)
	}
	var old []search.Record
	for _, c := range all.Items {
		r, err := search.ContractKind.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{search.KeyKindVersion, search.KeyAmountBand, search.KeyAmountExcluded, search.KeyRegistration} {
			delete(r.Keys, k)
		}
		e := search.EntryOf(c)
		c.Raw, c.ReceivedOn = nil, time.Time{}
		r.Body, _ = json.Marshal(c)
		old = append(old, r)
		if !copies {
			continue
		}
		legacy := r
		legacy.Kind, legacy.Date, legacy.DateLabel = search.LegacyContractEntryKind, e.Date, e.DateLabel
		legacy.Body, _ = json.Marshal(e)
		old = append(old, legacy)
	}
	if err := b.PutRecords(ctx, old); err != nil {
		t.Fatal(err)
	}
	current := func() (legacy, v2 int) {
		cov, err := b.RecordCoverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cov {
			if c.RecordType == search.LegacyContractEntryKind {
				legacy += c.Records
			}
		}
		tot, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: []string{search.ContractKind.Name},
			Keys: map[string][]string{search.KeyKindVersion: {"2"}}}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return legacy, tot.Count
	}
	want := 0
	if copies {
		want = len(all.Items)
	}
	if legacy, v2 := current(); legacy != want || v2 != 0 {
		t.Fatalf("old layout written: %d entry.contract, %d contract v2", legacy, v2)
	}
	loaded, err := ix.EnsureSampleEntries(ctx, sample)
	if err != nil || !loaded {
		t.Fatalf("an old layout is not reloaded: %v %v", loaded, err)
	}
	if legacy, v2 := current(); legacy != 0 || v2 != len(all.Items) {
		t.Errorf("after the reload: %d entry.contract (want 0), %d contract v2 (want %d)", legacy, v2, len(all.Items))
	}
	testContractRowsReadBack(t, b, sample)
	if loaded, err := ix.EnsureSampleEntries(ctx, sample); err != nil || loaded {
		t.Errorf("a current layout is reloaded: %v %v", loaded, err)
	}
}
