package embedded

import (
	"context"
	"encoding/binary"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// damageDocs are the notices of the damage tests: 400 copies of the
// fixtures, written in one batch (one segment).
func damageDocs() []search.Doc { return copies(400) }

// fixtureIndex is a closed index under dir holding damageDocs, and the
// notices as they read back before any damage.
func fixtureIndex(t *testing.T, dir string) map[string]record.Notice {
	t.Helper()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := b.Upsert(ctx, damageDocs()); err != nil {
		t.Fatal(err)
	}
	want := map[string]record.Notice{}
	for _, d := range damageDocs() {
		n, err := b.Get(ctx, d.Notice.RequestID)
		if err != nil {
			t.Fatal(err)
		}
		want[n.RequestID] = n
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	return want
}

// noticeSegment is the one segment file of the notices index under dir.
func noticeSegment(t *testing.T, dir string) string {
	t.Helper()
	zaps, _ := filepath.Glob(filepath.Join(dir, "notices.bleve", "store", "*.zap"))
	if len(zaps) != 1 {
		t.Fatalf("notices segments: %v, want one", zaps)
	}
	return zaps[0]
}

// answersNeverGarbled reads every notice: each is either exactly what was
// written or "unavailable" — never other text as a normal answer, never
// "not found" — and reports how many were unavailable.
func answersNeverGarbled(t *testing.T, b *Backend, want map[string]record.Notice) int {
	t.Helper()
	unavailable := 0
	for id, w := range want {
		n, err := b.Get(context.Background(), id)
		switch {
		case err == nil && !reflect.DeepEqual(n, w):
			t.Errorf("notice %s served with other content: title %q, want %q", id, n.Title, w.Title)
		case err != nil && record.ErrorCode(err) != record.EUNAVAILABLE:
			t.Errorf("notice %s: %v (code %s), want the notice or unavailable", id, err, record.ErrorCode(err))
		case err != nil:
			unavailable++
		}
	}
	return unavailable
}

// 200 bytes flipped in the stored-fields part of a notices segment (the
// report: 77 notices served with garbled text, 15 as "try again later",
// /readyz ready): the segment fails its checksum at open and is refused,
// moved to quarantine; every notice it held answers "unavailable", none
// with garbled text; the damage is reported (Damaged) with the ids it
// held, and outlives a restart until the records are loaded again and
// Repaired is called; loaded again, they read as they were written.
func TestFlippedBytesInAStoredFieldsSegment(t *testing.T) {
	dir := t.TempDir()
	want := fixtureIndex(t, dir)
	seg := noticeSegment(t, dir)
	raw, err := os.ReadFile(seg)
	if err != nil {
		t.Fatal(err)
	}
	// zap v17's footer, from the end: crc 4, version 4, chunk mode 4,
	// sections index 8, stored index 8: the stored fields lie before it
	stored := int(binary.BigEndian.Uint64(raw[len(raw)-28:]))
	if stored <= 200 || stored >= len(raw) {
		t.Fatalf("stored index offset %d in a %d-byte segment", stored, len(raw))
	}
	for i := range 200 {
		raw[i*stored/200] ^= 0x5a
	}
	if err := os.WriteFile(seg, raw, 0o644); err != nil {
		t.Fatal(err)
	}

	b, err := Open(dir)
	if err != nil {
		t.Fatalf("an index with one damaged segment does not open: %v", err)
	}
	if n := answersNeverGarbled(t, b, want); n != len(want) {
		t.Errorf("%d of %d notices of the refused segment answered unavailable", n, len(want))
	}
	dmg := b.Damaged()
	if len(dmg) != 1 || dmg[0].Index != "notices" || dmg[0].Segment != filepath.Base(seg) || !strings.Contains(dmg[0].Reason, "checksum") ||
		dmg[0].Records != len(want) {
		t.Fatalf("damage reported: %+v", dmg)
	}
	if _, err := os.Stat(dmg[0].Quarantine); err != nil {
		t.Errorf("the refused segment is not in quarantine: %v", err)
	}
	if res, err := b.Search(context.Background(), search.Query{Limit: 50}); err != nil || res.Total != 0 {
		t.Errorf("a search over the refused segment: %d hits, %v; want none served", res.Total, err)
	}
	b.Close()

	// a restart before the reload still knows
	b, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if d := b.Damaged(); len(d) != 1 {
		t.Fatalf("after a restart the damage is %+v", d)
	}
	ctx := context.Background()
	if err := b.Upsert(ctx, damageDocs()); err != nil {
		t.Fatal(err)
	}
	if err := b.Repaired(ctx); err != nil {
		t.Fatal(err)
	}
	if d := b.Damaged(); len(d) != 0 {
		t.Errorf("repaired, the damage is still %+v", d)
	}
	if n := answersNeverGarbled(t, b, want); n != 0 {
		t.Errorf("loaded again, %d notices are unavailable", n)
	}
}

// A truncated segment (the report: "is another Recordwatch process using
// this data directory?") is refused like a damaged one: the index opens,
// the damage names the truncation, and since its ids cannot be read every
// notice not found answers "unavailable" until the reload.
func TestTruncatedSegment(t *testing.T) {
	dir := t.TempDir()
	want := fixtureIndex(t, dir)
	seg := noticeSegment(t, dir)
	st, _ := os.Stat(seg)
	if err := os.Truncate(seg, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	b, err := Open(dir)
	if err != nil {
		t.Fatalf("an index with a truncated segment does not open: %v", err)
	}
	defer b.Close()
	if n := answersNeverGarbled(t, b, want); n != len(want) {
		t.Errorf("%d of %d notices unavailable", n, len(want))
	}
	dmg := b.Damaged()
	if len(dmg) != 1 || dmg[0].Segment != filepath.Base(seg) || dmg[0].Records != -1 {
		t.Fatalf("damage reported: %+v", dmg)
	}
	t.Log(dmg[0].Reason)
	if _, err := b.Get(context.Background(), "never-held"); record.ErrorCode(err) != record.EUNAVAILABLE {
		t.Errorf("an id the refused segment may have held: %v, want unavailable", err)
	}
}

// The causes of an index that cannot be opened are told apart: a held
// lock is "another process", a file where the directory belongs says so,
// permission denied names the user and chown — never "another process".
func TestIndexOpenFaultsNameTheirCause(t *testing.T) {
	dir := t.TempDir()
	b, err := Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Open(filepath.Join(dir, "index"))
	b.Close()
	if err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Errorf("a held lock: %v", err)
	}

	file := filepath.Join(dir, "data")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = Open(filepath.Join(file, "index"))
	if err == nil || !strings.Contains(err.Error(), "a file stands where a directory belongs") || strings.Contains(err.Error(), "another process") {
		t.Errorf("a file in place of the data directory: %v", err)
	}

	owned := filepath.Join(dir, "owned")
	if os.Geteuid() == 0 {
		// root reads and writes any file: the refusal is injected into
		// the classification of a real open's error
		t.Log("running as root: permission denied is classified from an injected error")
		err = openFault(owned, &fs.PathError{Op: "open", Path: owned, Err: syscall.EACCES})
	} else {
		b, err := Open(owned)
		if err != nil {
			t.Fatal(err)
		}
		b.Close()
		if err := os.Chmod(filepath.Join(owned, "notices.bleve", "store", "root.bolt"), 0o400); err != nil {
			t.Fatal(err)
		}
		_, err = Open(owned)
	}
	if err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "chown") ||
		strings.Contains(err.Error(), "another process") {
		t.Errorf("an index this user may not write: %v", err)
	}
}
