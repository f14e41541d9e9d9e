package indexer

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// A notices segment of the loaded sample with 200 bytes flipped in its
// stored fields is refused when the index opens (its notices answer
// "unavailable", never garbled); the next EnsureSample, told of the damage
// (Integrity), loads the bundled sample again, every notice the refused
// segment held reads again exactly as from a clean load, and the damage
// is cleared — also after a restart.
func TestEnsureSampleRebuildsRefusedSegments(t *testing.T) {
	ctx := context.Background()
	sample := os.DirFS("../testdata/sample")
	cleanDir, dir := filepath.Join(t.TempDir(), "clean"), filepath.Join(t.TempDir(), "damaged")
	b, err := embedded.Open(cleanDir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sampleIndexer(b).EnsureSample(ctx, sample); err != nil {
		t.Fatal(err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, os.DirFS(cleanDir)); err != nil {
		t.Fatal(err)
	}
	clean, err := embedded.Open(cleanDir)
	if err != nil {
		t.Fatal(err)
	}
	defer clean.Close()

	// the largest notices segment, 200 bytes flipped in its stored fields
	zaps, _ := filepath.Glob(filepath.Join(dir, "notices.bleve", "store", "*.zap"))
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

	be, err := embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	dmg := be.Damaged()
	if len(dmg) != 1 || len(dmg[0].IDs) == 0 {
		t.Fatalf("damage: %+v", dmg)
	}
	ids := dmg[0].IDs
	for _, id := range ids[:min(len(ids), 20)] {
		if _, err := be.Get(ctx, id); record.ErrorCode(err) != record.EUNAVAILABLE {
			t.Fatalf("notice %s of the refused segment before the rebuild: %v, want unavailable", id, err)
		}
	}
	ix := sampleIndexer(be)
	ix.Integrity = be
	if loaded, err := ix.EnsureSample(ctx, sample); err != nil || !loaded {
		t.Fatalf("EnsureSample with a refused segment: loaded %v, %v; want the sample loaded again", loaded, err)
	}
	if d := be.Damaged(); len(d) != 0 {
		t.Errorf("rebuilt, the damage is still reported: %+v", d)
	}
	for _, id := range ids {
		want, err := clean.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		got, err := be.Get(ctx, id)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("notice %s after the rebuild: %v; equal to a clean load: %v", id, err, reflect.DeepEqual(got, want))
		}
	}
	if err := be.Close(); err != nil {
		t.Fatal(err)
	}
	be, err = embedded.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer be.Close()
	if d := be.Damaged(); len(d) != 0 {
		t.Errorf("after a restart, the repaired damage is reported: %+v", d)
	}
	t.Logf("%d notices of the refused segment %s rebuilt from the bundled sample", len(ids), filepath.Base(seg))
}
