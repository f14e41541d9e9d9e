package embedded

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
)

// TestVecFilterMatchesReference: the compiled filter over a vector's
// attributes agrees with search.RecordQuery.Matches on random records and
// filters (keys of several names and values, sources, ids, date ranges
// with undated records, amount bounds with invalid amounts).
func TestVecFilterMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	day := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	pick := func(vs ...string) []string {
		var out []string
		for _, v := range vs {
			if r.IntN(3) == 0 {
				out = append(out, v)
			}
		}
		return out
	}
	var recs []search.Record
	for i := 0; i < 300; i++ {
		rec := search.Record{Kind: "derived.k", ID: fmt.Sprint("r", i), Source: []string{"a", "b"}[r.IntN(2)], Keys: map[string][]string{}}
		for _, name := range []string{"lenses", "agency_id", "notice_type"} {
			if vs := pick("x", "y", "z"); len(vs) > 0 {
				rec.Keys[name] = vs
			}
		}
		if r.IntN(5) > 0 {
			rec.Date = day.AddDate(0, 0, r.IntN(60))
		}
		if r.IntN(3) > 0 {
			rec.Amount, rec.AmountValid = float64(r.IntN(1000)), true
		}
		recs = append(recs, rec)
	}
	for i := 0; i < 400; i++ {
		q := search.RecordQuery{Kinds: []string{"derived.k"}, Keys: map[string][]string{}}
		for _, name := range []string{"lenses", "agency_id", "notice_type"} {
			if r.IntN(2) == 0 {
				q.Keys[name] = pick("x", "y", "z", "w")
			}
		}
		if r.IntN(4) == 0 {
			q.Sources = pick("a", "b")
		}
		if r.IntN(6) == 0 {
			q.IDs = []string{"r1", "r7", "r100"}
		}
		if r.IntN(2) == 0 {
			q.From = day.AddDate(0, 0, r.IntN(40))
		}
		if r.IntN(2) == 0 {
			q.To = day.AddDate(0, 0, 20+r.IntN(40))
		}
		if r.IntN(3) == 0 {
			m := float64(r.IntN(500))
			q.MinAmount = &m
		}
		if r.IntN(3) == 0 {
			q.ValidAmountOnly = true
		}
		if err := q.Normalize(); err != nil {
			continue
		}
		f := compileVecFilter(q)
		for _, rec := range recs {
			if got, want := f.accept(rec.ID, vectorMeta(rec)), q.Matches(rec); got != want {
				t.Fatalf("filter %+v on %+v: %v, reference %v", q, rec, got, want)
			}
		}
	}
	if compileVecFilter(search.RecordQuery{}).accept("x", nil) {
		t.Fatal("a vector without attributes matched")
	}
}

func filteredRecords(from, to int) []search.Record {
	rs := vectorRecords(from, to)
	for i := range rs {
		n := from + i
		rs[i].Keys = map[string][]string{"agency_id": {fmt.Sprint("a", n%10)}}
		rs[i].Date = time.Date(2025, 1, 1+n%30, 12, 0, 0, 0, time.UTC)
	}
	return rs
}

func nearestFiltered(t *testing.T, b *Backend, i, k int, f search.RecordQuery) []search.Near {
	t.Helper()
	got, err := b.NearestRecords(context.Background(), search.NearQuery{Kind: "derived.test_vector", Vector: testVector(i), K: k, MinScore: -1, Filter: f})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestFilteredNearestPersistAndRebuild: a filtered nearest search returns
// k records of the filter (every one of them when fewer), and the
// attributes it reads are kept in vectors.ann across a reopen, rebuilt
// from the stored records when the file is missing, and rebuilt when the
// file is of the layout before attributes.
func TestFilteredNearestPersistAndRebuild(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PutRecords(ctx, filteredRecords(0, 300)); err != nil {
		t.Fatal(err)
	}
	agency3 := search.RecordQuery{Keys: map[string][]string{"agency_id": {"a3"}}}
	days := search.RecordQuery{Keys: map[string][]string{"agency_id": {"a3", "a4"}},
		From: time.Date(2025, 1, 5, 0, 0, 0, 0, time.UTC), To: time.Date(2025, 1, 9, 23, 0, 0, 0, time.UTC)}
	check := func(when string) {
		t.Helper()
		got := nearestFiltered(t, b, 17, 20, agency3)
		if len(got) != 20 {
			t.Fatalf("%s: %d of agency a3, want 20", when, len(got))
		}
		for _, g := range got {
			var n int
			fmt.Sscanf(g.ID, "v%03d", &n)
			if n%10 != 3 {
				t.Fatalf("%s: %s is not of agency a3", when, g.ID)
			}
		}
		// a3 or a4 (n%10 is 3 or 4) dated the 5th to the 9th (n%30 is 4
		// to 8): all of them, fewer than k
		var want []string
		for n := 0; n < 300; n++ {
			if (n%10 == 3 || n%10 == 4) && n%30 >= 4 && n%30 <= 8 {
				want = append(want, fmt.Sprintf("v%03d", n))
			}
		}
		got = nearestFiltered(t, b, 17, 100, days)
		ids := make([]string, 0, len(got))
		for _, g := range got {
			ids = append(ids, g.ID)
		}
		slices.Sort(ids)
		if !slices.Equal(ids, want) {
			t.Fatalf("%s: agencies and days %v, want %v", when, ids, want)
		}
	}
	check("written")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	check("reopened")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(filepath.Join(dir, vectorsFile))
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, vectorsFile))
	if b, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	check("rebuilt")
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// the same file with its graph of the layout before attributes (ann
	// file version 1, the byte after the graph's magic): rebuilt
	at := 8 + 8 + 4 + len("derived.test_vector") + 8 + len("RWANN")
	if string(saved[at-len("RWANN"):at]) != "RWANN" {
		t.Fatalf("no graph at %d", at)
	}
	saved[at] = 1
	if err := os.WriteFile(filepath.Join(dir, vectorsFile), saved, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	check("rebuilt from an older layout")
	if _, err := b.NearestRecords(ctx, search.NearQuery{Kind: "derived.test_vector", Vector: testVector(1), K: 3, Filter: search.RecordQuery{Kinds: []string{"x"}}}); err == nil {
		t.Fatal("a filter naming kinds was accepted")
	}
}
