package ann

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
)

// buildMeta is build with each node's attribute: one byte, its number
// modulo 100 (so a filter of one value takes 1% of the nodes, of fifty
// values half of them).
func buildMeta(t testing.TB, n, dims int) (*Graph, []string, [][]float32, [][]int8, []float32) {
	return buildWith(t, n, dims, func(i int) []byte { return []byte{byte(i % 100)} })
}

// below takes the nodes whose attribute is under n (n% of them).
func below(n byte) Accept { return func(_ string, m []byte) bool { return len(m) == 1 && m[0] < n } }

func liveBelow(ids []string, n int) map[string]bool {
	live := map[string]bool{}
	for i, id := range ids {
		if i%100 < n {
			live[id] = true
		}
	}
	return live
}

// TestFilteredOverlapWithExact: a filtered search returns k of the nodes
// the filter takes, agreeing with the exact scan over them on at least 95%
// of top-10, top-100 and top-1000, for a broad filter (85% of the nodes,
// answered by the graph), half the nodes, a selective one (2%, by the
// exact scan) and one that takes fewer than k (all of them come back).
func TestFilteredOverlapWithExact(t *testing.T) {
	g, ids, fs, qs, ss := buildMeta(t, 10000, 128)
	qfs := fs[10000:]
	// (of 10,000 nodes, at ef 200 the graph answers top-10 for filters
	// over about 76% of them: either may answer half)
	for _, c := range []struct {
		share     byte
		k         int
		wantExact *bool
	}{{85, 10, &no}, {85, 100, &no}, {50, 10, nil}, {50, 1000, nil}, {2, 10, &yes}, {2, 1000, &yes}} {
		live := liveBelow(ids, int(c.share))
		var sum float64
		n := min(len(qfs), 40)
		for _, q := range qfs[:n] {
			got, isExact := g.SearchFiltered(q, c.k, 0, -1, below(c.share))
			if c.wantExact != nil && isExact != *c.wantExact {
				t.Fatalf("%d%% k=%d: exact scan %v, want %v", c.share, c.k, isExact, *c.wantExact)
			}
			want := exact(q, ids, qs, ss, live, c.k, -1)
			if len(got) != len(want) {
				t.Fatalf("%d%% k=%d: %d found, %d match", c.share, c.k, len(got), len(want))
			}
			for _, h := range got {
				if !live[h.ID] {
					t.Fatalf("%d%%: %s is not taken by the filter", c.share, h.ID)
				}
			}
			sum += overlap(got, want)
		}
		if o := sum / float64(n); o < 0.95 {
			t.Fatalf("%d%% k=%d: overlap %.4f, want ≥ 0.95", c.share, c.k, o)
		} else {
			t.Logf("%d%% k=%d: overlap %.4f", c.share, c.k, o)
		}
	}
	// fewer taken than k: every taken node, best first
	one := func(id string, _ []byte) bool { return id == ids[17] || id == ids[4000] }
	if got, _ := g.SearchFiltered(qfs[0], 10, 0, -1, one); len(got) != 2 {
		t.Fatalf("two taken: %v", got)
	}
	if got, _ := g.SearchFiltered(qfs[0], 10, 0, -1, func(string, []byte) bool { return false }); len(got) != 0 {
		t.Fatalf("none taken: %v", got)
	}
	// the floor still holds; a removed node is never taken
	g.Remove(ids[0])
	for _, h := range mustFiltered(g, qfs[1], 500, 0.5, below(50)) {
		if h.Score < 0.5 || h.ID == ids[0] {
			t.Fatalf("%v under the floor or removed", h)
		}
	}
}

var yes, no = true, false

func mustFiltered(g *Graph, q []float32, k int, floor float32, a Accept) []search.Near {
	h, _ := g.SearchFiltered(q, k, 0, floor, a)
	return h
}

// TestFilteredSmallGraphScans: a graph of at most ScanBelow nodes is
// scanned, so its answer is the exact one.
func TestFilteredSmallGraphScans(t *testing.T) {
	g, ids, fs, qs, ss := buildMeta(t, 1000, 32)
	got, isExact := g.SearchFiltered(fs[1000], 10, 0, -1, below(30))
	want := exact(fs[1000], ids, qs, ss, liveBelow(ids, 30), 10, -1)
	if !isExact || len(got) != 10 || overlap(got, want) != 1 {
		t.Fatalf("exact %v: %v, want %v", isExact, got, want)
	}
}

// TestFileKeepsAttributes: attributes are written with the graph and read
// back; Compact keeps them.
func TestFileKeepsAttributes(t *testing.T) {
	g, _, fs, _, _ := buildMeta(t, 3000, 32)
	var buf bytes.Buffer
	if err := g.WriteTo(&buf, 9); err != nil {
		t.Fatal(err)
	}
	h, _, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		a, _ := g.SearchFiltered(fs[3000+i], 20, 0, -1, below(40))
		b, _ := h.SearchFiltered(fs[3000+i], 20, 0, -1, below(40))
		if fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 20 {
			t.Fatalf("query %d: %v, read back %v", i, a, b)
		}
	}
	for i := 0; i < 3000; i += 2 {
		h.Remove(fmt.Sprintf("n%05d", i))
	}
	if !h.Compact() {
		t.Fatal("not compacted")
	}
	for _, x := range mustFiltered(h, fs[3001], 50, -1, below(40)) {
		var i int
		fmt.Sscanf(x.ID, "n%05d", &i)
		if i%2 == 0 || i%100 >= 40 {
			t.Fatalf("after compacting: %s", x.ID)
		}
	}
}

// A file of version 1 (before attributes) is refused: its graphs are
// rebuilt from the stored records.
func TestFileVersionOneRefused(t *testing.T) {
	g, _, _, _, _ := buildMeta(t, 10, 8)
	var buf bytes.Buffer
	if err := g.WriteTo(&buf, 1); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	b[len(magic)] = 1 // the version
	if _, _, err := Read(bytes.NewReader(b)); err != ErrCorrupt {
		t.Fatalf("version 1 read: %v", err)
	}
}

// A file of version 2 (before satellites) is read with every node linked,
// answers as written, and a copy of one of its vectors added afterwards
// becomes a satellite, found with it.
func TestFileVersionTwoRead(t *testing.T) {
	g, ids, fs, _, _ := buildMeta(t, 600, 16)
	var buf bytes.Buffer
	if err := g.writeVersion(&buf, 9, 2); err != nil {
		t.Fatal(err)
	}
	h, stamp, err := Read(bytes.NewReader(buf.Bytes()))
	if err != nil || stamp != 9 || h.Len() != 600 {
		t.Fatalf("version 2 read: %v, stamp %d", err, stamp)
	}
	for i := range 20 {
		if a, b := fmt.Sprint(g.Search(fs[i], 10, 0, -1)), fmt.Sprint(h.Search(fs[i], 10, 0, -1)); a != b {
			t.Fatalf("query %d: %s, read back %s", i, b, a)
		}
	}
	h.Add("copy", h.vec(3), h.scales[3])
	if len(h.sats[3]) != 1 || h.links[h.byID["copy"]] != nil {
		t.Fatalf("a copy of node 3 added: satellites %v", h.sats[3])
	}
	got := h.Search(h.dequantize(3), 2, 0, -1)
	if len(got) != 2 || got[0].ID != "copy" || got[1].ID != ids[3] {
		t.Fatalf("node 3's vector: %v, want copy and %s", got, ids[3])
	}
}

// BenchmarkSearchFiltered: top-10 under a broad (50%) and a selective (2%)
// filter in a graph of 5,000.
func BenchmarkSearchFiltered(b *testing.B) {
	g, _, fs, _, _ := buildMeta(b, 5000, 128)
	for _, share := range []byte{50, 2} {
		b.Run(fmt.Sprintf("%d%%", share), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				g.SearchFiltered(fs[i%len(fs)], 10, 0, -1, below(share))
			}
		})
	}
}
