package indexer

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/link"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// The bundled record samples load once, also into an index whose notices
// were loaded before, and a second run changes nothing.
func TestEnsureSampleRecords(t *testing.T) {
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	ix := &Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return time.Date(2026, 8, 14, 0, 0, 0, 0, time.UTC) }}
	sample := os.DirFS("../testdata/sample")
	loaded, err := ix.EnsureSampleRecords(ctx, sample)
	if err != nil || !loaded {
		t.Fatalf("first load: %v %v", loaded, err)
	}
	want := map[string]int{"checkbook/contract": 6, "checkbook/payment": 1001, "checkbook/payment.payroll": 1, "contracts/contract": 552,
		"mappluto/lot": 776, "zap/lot": 15}
	checkCoverage(t, b, want)
	loaded, err = ix.EnsureSampleRecords(ctx, sample)
	if err != nil || loaded {
		t.Errorf("second load: %v %v", loaded, err)
	}
	res, err := search.Find(ctx, b, procure.ContractKind, search.RecordQuery{Keys: map[string][]string{search.KeyPINBase: {"85015B0065"}}})
	if err != nil || res.Total != 1 || res.Items[0].ContractID != "CT185020151429177" {
		t.Errorf("checkbook contract by base PIN: %+v %v", res, err)
	}
	t.Run("contract rows are stored once and read back whole", func(t *testing.T) {
		testContractRowsReadBack(t, b, sample)
	})
	t.Run("contract records of version 1 are reloaded", func(t *testing.T) {
		testOldLayoutReloaded(t, ix, b, sample)
	})
	t.Run("a data directory written with entries is reloaded", func(t *testing.T) {
		testEntriesReloaded(t, ix, b, sample, want)
	})
}

// checkCoverage compares the record coverage of the procurement and lot
// kinds, by source and kind, with want.
func checkCoverage(t *testing.T, b *embedded.Backend, want map[string]int) {
	t.Helper()
	cov, err := b.RecordCoverage(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, c := range cov {
		if slices.Contains(RetiredKinds, c.RecordType) {
			t.Errorf("records of a retired kind held: %+v", c)
		}
		got[c.Source+"/"+c.RecordType] = c.Records
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d records, want %d (all %v)", k, got[k], n, got)
		}
	}
}

// sampleContracts are the contracts of the bundled sample as the pipeline
// writes them (linked), by id.
func sampleContracts(t *testing.T, sample fs.FS) map[string]record.Contract {
	t.Helper()
	out := map[string]record.Contract{}
	for _, src := range []Source{checkbookSource{}, contractsSource{}} {
		bt, _ := src.Read(sample, src.Name())
		for _, set := range bt.Records {
			if s, ok := set.(Set[record.Contract]); ok {
				link.Linker{Crosswalk: entity.DefaultCrosswalk()}.Contracts(s.Items)
				for _, c := range s.Items {
					out[c.ID] = c
				}
			}
		}
	}
	return out
}

// Every contract row of the sample is one contract record, read back as
// it was written: dates (a pending row's received date), raw fields,
// amounts.
func testContractRowsReadBack(t *testing.T, b *embedded.Backend, sample fs.FS) {
	ctx := context.Background()
	want := sampleContracts(t, sample)
	received := 0
	q := search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
	n := 0
	for {
		p, err := search.Find(ctx, b, procure.ContractKind, q)
		if err != nil {
			t.Fatal(err)
		}
		for _, got := range p.Items {
			n++
			g, _ := json.Marshal(got)
			w, _ := json.Marshal(want[got.ID])
			if string(g) != string(w) {
				t.Errorf("contract %s read back\n got %s\nwant %s", got.ID, g, w)
			}
			if !got.ReceivedOn.IsZero() {
				received++
			}
		}
		if p.NextCursor == "" {
			break
		}
		q.Cursor = p.NextCursor
	}
	if n != len(want) || len(want) != 558 {
		t.Errorf("%d contract records, %d contract rows in the sample", n, len(want))
	}
	if received == 0 {
		t.Error("no pending contract read back with its received date")
	}
}

// A data directory written by an earlier layout (contract records of
// version 1: no kind_version, amount band, excluded-amount or registration
// key, no raw fields) is completed at the next start: the contracts are
// written again in the current layout.
func testOldLayoutReloaded(t *testing.T, ix *Indexer, b *embedded.Backend, sample fs.FS) {
	ctx := context.Background()
	all, err := search.Find(ctx, b, procure.ContractKind, search.RecordQuery{Sort: search.RecordSortID, Limit: search.MaxRecordLimit})
	if err != nil || all.Total != len(all.Items) {
		t.Fatalf("contracts held: %d of %d, %v", len(all.Items), all.Total, err)
	}
	var old []search.Record
	for _, c := range all.Items {
		r, err := procure.ContractKind.Encode(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{search.KeyKindVersion, procure.KeyAmountBand, procure.KeyAmountExcluded, procure.KeyRegistration} {
			delete(r.Keys, k)
		}
		c.Raw, c.ReceivedOn = nil, time.Time{}
		r.Body, _ = json.Marshal(c)
		old = append(old, r)
	}
	if err := b.PutRecords(ctx, old); err != nil {
		t.Fatal(err)
	}
	current := func() int {
		tot, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: []string{procure.ContractKind.Name},
			Keys: map[string][]string{search.KeyKindVersion: {procure.ContractKind.VersionKey()}}}, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		return tot.Count
	}
	if v := current(); v != 0 {
		t.Fatalf("old layout written: %d contracts of the current version", v)
	}
	loaded, err := ix.EnsureSampleRecords(ctx, sample)
	if err != nil || !loaded {
		t.Fatalf("an old layout is not reloaded: %v %v", loaded, err)
	}
	if v := current(); v != len(all.Items) {
		t.Errorf("after the reload: %d contracts of the current version, want %d", v, len(all.Items))
	}
	testContractRowsReadBack(t, b, sample)
	if loaded, err := ix.EnsureSampleRecords(ctx, sample); err != nil || loaded {
		t.Errorf("a current layout is reloaded: %v %v", loaded, err)
	}
}

// A data directory written when payments, lots and contract copies were
// entries (records of the retired kinds entry.payment, entry.payroll,
// entry.lot and entry.contract, and no payment or lot record) is put right
// at the next start: the retired records are deleted and the payments and
// lots of the sample are written as their kinds.
func testEntriesReloaded(t *testing.T, ix *Indexer, b *embedded.Backend, sample fs.FS, want map[string]int) {
	ctx := context.Background()
	var old []search.Record
	retire := func(kind, retired string) {
		var records []search.Record
		for cursor := "first"; cursor != ""; {
			q := search.RecordQuery{Kinds: []string{kind}, Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
			if cursor != "first" {
				q.Cursor = cursor
			}
			p, err := b.FindRecords(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			records, cursor = append(records, p.Records...), p.NextCursor
		}
		var ids []string
		for _, r := range records {
			ids = append(ids, r.ID)
			r.Kind = retired
			delete(r.Keys, search.KeyKindVersion)
			old = append(old, r)
		}
		if retired != "entry.contract" {
			if err := b.DeleteRecords(ctx, kind, ids); err != nil {
				t.Fatal(err)
			}
		}
	}
	retire(procure.KindPayment, "entry.payment")
	retire(procure.KindPayroll, "entry.payroll")
	retire(land.LotKind.Name, "entry.lot")
	retire(procure.ContractKind.Name, "entry.contract")
	if err := b.PutRecords(ctx, old); err != nil {
		t.Fatal(err)
	}
	loaded, err := ix.EnsureSampleRecords(ctx, sample)
	if err != nil || !loaded {
		t.Fatalf("a data directory with entries is not reloaded: %v %v", loaded, err)
	}
	checkCoverage(t, b, want)
	for kind, version := range map[string]string{procure.KindPayment: procure.PaymentKind.VersionKey(),
		procure.KindPayroll: procure.PaymentKind.VersionKey(), land.LotKind.Name: land.LotKind.VersionKey()} {
		tot, err := b.RecordTotals(ctx, search.RecordQuery{Kinds: []string{kind}, Keys: map[string][]string{search.KeyKindVersion: {version}}}, nil, 0)
		if err != nil || tot.Count == 0 {
			t.Errorf("%s records of version %s after the reload: %d %v", kind, version, tot.Count, err)
		}
	}
	if loaded, err := ix.EnsureSampleRecords(ctx, sample); err != nil || loaded {
		t.Errorf("reloaded again: %v %v", loaded, err)
	}
}
