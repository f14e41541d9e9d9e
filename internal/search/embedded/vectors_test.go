package embedded

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

func testVector(i int) []float32 {
	v := make([]float32, search.VectorDims)
	var n float64
	for d := range v {
		v[d] = float32(math.Sin(float64(i*7+d*(i%5+1)) * 0.37))
		n += float64(v[d] * v[d])
	}
	for d := range v {
		v[d] /= float32(math.Sqrt(n))
	}
	return v
}

func vectorRecords(from, to int) []search.Record {
	var rs []search.Record
	for i := from; i < to; i++ {
		rs = append(rs, search.Record{Kind: "derived.test_vector", ID: fmt.Sprintf("v%03d", i), Source: "test", Vector: testVector(i)})
	}
	return rs
}

func nearest(t *testing.T, b *Backend, i int) []search.Near {
	t.Helper()
	got, err := b.NearestRecords(context.Background(), search.NearQuery{Kind: "derived.test_vector", Vector: testVector(i), K: 3, MinScore: -1})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestRecordVectorsPersistAndRebuild: vectors written with records are
// found nearest to themselves, removed with their record, kept in
// vectors.ann across a reopen, and rebuilt from the stored records when
// that file is older than the records (a stop before it was written).
func TestRecordVectorsPersistAndRebuild(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PutRecords(ctx, vectorRecords(0, 200)); err != nil {
		t.Fatal(err)
	}
	if got := nearest(t, b, 17); len(got) == 0 || got[0].ID != "v017" || got[0].Score < 0.99 {
		t.Fatalf("nearest to v017's vector: %v", got)
	}
	if err := b.DeleteRecords(ctx, "derived.test_vector", []string{"v017"}); err != nil {
		t.Fatal(err)
	}
	if got := nearest(t, b, 17); len(got) == 0 || got[0].ID == "v017" {
		t.Fatalf("a deleted record's vector is found: %v", got)
	}
	// a record written again without a vector holds none
	if err := b.PutRecords(ctx, []search.Record{{Kind: "derived.test_vector", ID: "v018", Source: "test"}}); err != nil {
		t.Fatal(err)
	}
	if got := nearest(t, b, 18); len(got) == 0 || got[0].ID == "v018" {
		t.Fatalf("a vector replaced by none is found: %v", got)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(filepath.Join(dir, vectorsFile))
	if err != nil {
		t.Fatal(err)
	}
	b, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := nearest(t, b, 42); len(got) == 0 || got[0].ID != "v042" || b.vec.graphs["derived.test_vector"].Len() != 198 {
		t.Fatalf("after reopening: %v", got)
	}
	if err := b.PutRecords(ctx, vectorRecords(200, 230)); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// the file as it was before the last write: older than the records
	if err := os.WriteFile(filepath.Join(dir, vectorsFile), saved, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if got := nearest(t, b, 215); len(got) == 0 || got[0].ID != "v215" {
		t.Fatalf("after rebuilding from the stored vectors: %v", got)
	}
	if n := b.vec.graphs["derived.test_vector"].Len(); n != 228 {
		t.Fatalf("rebuilt graph holds %d vectors, want 228", n)
	}
	// a bad query is refused
	if _, err := b.NearestRecords(ctx, search.NearQuery{Kind: "derived.test_vector", Vector: []float32{1}, K: 3}); err == nil {
		t.Fatal("a vector of the wrong length was accepted")
	}
	if got, err := b.NearestRecords(ctx, search.NearQuery{Kind: "other", Vector: testVector(1), K: 3}); err != nil || len(got) != 0 {
		t.Fatalf("a kind without vectors: %v %v", got, err)
	}
}

// TestRebuildFromFormat7KeepsVectors: a format rebuild copies each
// record's stored vector and the vector stamp, so the graphs file still
// matches and, when it is gone, the graphs are rebuilt from the copied
// vectors; the rebuilt notices group their totals by printed vendor name
// (format 8's "vendor_name").
func TestRebuildFromFormat7KeepsVectors(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PutRecords(ctx, vectorRecords(0, 50)); err != nil {
		t.Fatal(err)
	}
	n := record.Notice{RequestID: "20260101001", Source: "crol", Title: "award", VendorName: "Acme Paving Corp.", VendorStem: "ACME PAVING", AmountValid: true, Amount: 12.5}
	if err := b.Upsert(ctx, []search.Doc{{Notice: n}}); err != nil {
		t.Fatal(err)
	}
	if err := b.notices.SetInternal(formatKey, []byte("7")); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	reopen := func(what string) *Backend {
		b, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := nearest(t, b, 33); len(got) == 0 || got[0].ID != "v033" || b.vec.graphs["derived.test_vector"].Len() != 50 {
			t.Fatalf("%s: nearest to v033: %v", what, got)
		}
		return b
	}
	b = reopen("after the rebuild")
	if f, err := readFormat(b.notices); err != nil || f != formatVersion {
		t.Fatalf("format %d (%v) after the rebuild", f, err)
	}
	tot, err := b.NoticeTotals(ctx, search.Query{}, []string{search.GroupVendorName}, 0)
	if err != nil || len(tot.Groups[search.GroupVendorName]) != 1 || tot.Groups[search.GroupVendorName][0].Value != n.VendorName {
		t.Fatalf("totals by vendor name after the rebuild: %+v %v", tot, err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, vectorsFile)); err != nil {
		t.Fatal(err)
	}
	reopen("rebuilt from the copied vectors").Close()
}

// TestRecordVectorsVisibleOnReturn: the graphs take in vectors in the
// background (graphWork), yet a nearest-neighbour read right after
// PutRecords or DeleteRecords returns sees the write, and Close writes
// vectors.ann with every vector written and the records' stamp.
func TestRecordVectorsVisibleOnReturn(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for from := 0; from < 600; from += 150 {
		if err := b.PutRecords(ctx, vectorRecords(from, from+150)); err != nil {
			t.Fatal(err)
		}
		last := from + 149
		if got := nearest(t, b, last); len(got) == 0 || got[0].ID != fmt.Sprintf("v%03d", last) {
			t.Fatalf("right after writing v%03d: %v", last, got)
		}
	}
	if err := b.DeleteRecords(ctx, "derived.test_vector", []string{"v599"}); err != nil {
		t.Fatal(err)
	}
	if got := nearest(t, b, 599); len(got) == 0 || got[0].ID == "v599" {
		t.Fatalf("right after deleting v599: %v", got)
	}
	// written and closed at once: the file holds them all
	if err := b.PutRecords(ctx, vectorRecords(600, 700)); err != nil {
		t.Fatal(err)
	}
	stamp := b.vec.stamp
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	graphs, fileStamp, err := readVectors(filepath.Join(dir, vectorsFile))
	if err != nil || fileStamp != stamp {
		t.Fatalf("vectors.ann: stamp %d, records %d, %v", fileStamp, stamp, err)
	}
	if n := graphs["derived.test_vector"].Len(); n != 699 {
		t.Fatalf("vectors.ann holds %d vectors, want 699", n)
	}
}

// TestGraphWorkOrderAndBound: queued jobs run one at a time in queue
// order, a writer waits while graphJobsWaiting jobs wait, and settle
// returns once the jobs queued before it have run.
func TestGraphWorkOrderAndBound(t *testing.T) {
	var w graphWork
	started, release := make(chan struct{}), make(chan struct{})
	var ran []int
	w.queue(func() { close(started); <-release; ran = append(ran, 0) }) // running, holds the queue
	<-started
	for i := 1; i <= graphJobsWaiting; i++ {
		w.queue(func() { ran = append(ran, i) })
	}
	queued := make(chan struct{})
	go func() {
		w.queue(func() { ran = append(ran, graphJobsWaiting+1) })
		close(queued)
	}()
	select {
	case <-queued:
		t.Fatalf("a write was queued with %d waiting", graphJobsWaiting)
	case <-time.After(100 * time.Millisecond):
	}
	close(release)
	<-queued
	w.settle()
	if fmt.Sprint(ran) != fmt.Sprint([]int{0, 1, 2, 3}) {
		t.Fatalf("ran %v", ran)
	}
}
