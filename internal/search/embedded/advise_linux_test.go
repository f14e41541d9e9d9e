//go:build linux

package embedded

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
	segment "github.com/blevesearch/scorch_segment_api/v2"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

type advised struct {
	path  string
	h     hint
	bytes int
}

// recordHints records every hint given until the test ends.
func recordHints(t *testing.T) func() []advised {
	var mu sync.Mutex
	var got []advised
	f := func(path string, h hint, bytes int) {
		mu.Lock()
		got = append(got, advised{path, h, bytes})
		mu.Unlock()
	}
	adviseHook.Store(&f)
	t.Cleanup(func() { adviseHook.Store(nil) })
	return func() []advised {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(got)
	}
}

// vmFlags are the VmFlags of this process's mappings of path, from
// /proc/self/smaps (one line per mapping).
func vmFlags(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	var out []string
	in := false
	for line := range strings.SplitSeq(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) >= 5 && strings.Contains(f[0], "-") && !strings.HasSuffix(f[0], ":") {
			in = len(f) >= 6 && f[len(f)-1] == path
			continue
		}
		if v, ok := strings.CutPrefix(line, "VmFlags:"); ok && in {
			out = append(out, strings.TrimSpace(v))
		}
	}
	return out
}

func hintNotices(n int) []search.Doc {
	docs := make([]search.Doc, 0, n)
	for i := range n {
		docs = append(docs, search.Doc{Notice: record.Notice{RequestID: fmt.Sprintf("2026%07d", i), Source: "crol", Title: fmt.Sprintf("notice %d", i),
			Text: strings.Repeat(fmt.Sprintf("words of notice %d about contract %d and agency %d ", i, i*7, i%13), 8)}})
	}
	return docs
}

// A segment file opened to serve is advised random access over its data
// (the kernel shows it: "rr" in the mapping's flags), and the inputs of a
// merge sequential access while it reads them, random again after.
func TestSegmentFilesCarryReadHints(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	docs := hintNotices(1200)
	for i := 0; i < len(docs); i += 400 {
		if err := b.Upsert(ctx, docs[i:i+400]); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}

	files, _ := filepath.Glob(filepath.Join(dir, indexNames[0], "store", "*.zap"))
	var large []string // with a whole page before the sections index
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() >= int64(4*pageSize) {
			large = append(large, f)
		}
	}
	if len(large) < 2 {
		t.Fatalf("%d notice segment files large enough to check, want 2 or more", len(large))
	}
	// copies nothing else maps or merges, for the kernel's flags and a merge
	copies := t.TempDir()
	for i, f := range large[:2] {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		large[i] = filepath.Join(copies, filepath.Base(f))
		if err := os.WriteFile(large[i], b, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	hints := recordHints(t)
	if b, err = Open(dir); err != nil { // a start: every segment file is opened to serve
		t.Fatal(err)
	}
	defer b.Close()
	advisedRandom := map[string]bool{}
	for _, a := range hints() {
		if a.h == hintRandom && a.bytes > 0 {
			advisedRandom[a.path] = true
		}
	}
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() >= int64(4*pageSize) && !advisedRandom[f] {
			t.Errorf("%s (%d bytes) was not advised random access when the index opened", filepath.Base(f), st.Size())
		}
	}

	hasFlag := func(flags []string, flag string) bool {
		return slices.ContainsFunc(flags, func(v string) bool { return slices.Contains(strings.Fields(v), flag) })
	}
	p := &advisedZap{}
	var segs []segment.Segment
	for _, f := range large[:2] {
		s, err := p.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		segs = append(segs, s)
		if flags := vmFlags(t, f); !hasFlag(flags, "rr") || hasFlag(flags, "sr") {
			t.Errorf("%s opened to serve: mapping flags %q, want one advised random access (rr)", filepath.Base(f), flags)
		}
	}
	// a merge of the two
	before := len(hints())
	out := filepath.Join(t.TempDir(), "merged.zap")
	drops := make([]*roaring.Bitmap, len(segs))
	if _, _, err := p.Merge(segs, drops, out, nil, nil); err != nil {
		t.Fatal(err)
	}
	got := hints()[before:]
	for _, f := range large[:2] {
		var seq []hint
		for _, a := range got {
			if a.path == f {
				seq = append(seq, a.h)
			}
		}
		if !slices.Equal(seq, []hint{hintSequential, hintRandom}) {
			t.Errorf("%s: hints around the merge %v, want sequential (%d) then random (%d)", filepath.Base(f), seq, hintSequential, hintRandom)
		}
		if flags := vmFlags(t, f); !hasFlag(flags, "rr") || hasFlag(flags, "sr") {
			t.Errorf("%s after the merge: mapping flags %q, want random access again", filepath.Base(f), flags)
		}
	}
	m, err := p.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	var want uint64
	for _, s := range segs {
		want += s.Count()
	}
	if m.Count() != want {
		t.Errorf("merged segment holds %d documents, want %d", m.Count(), want)
	}
}
