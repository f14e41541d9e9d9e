package embedded

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// copyDir copies what is on disk under src right now: what a crash would
// leave behind.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	// Bleve's merger may remove a segment file between the listing and
	// its copy (a later root no longer needs it): such a copy is taken
	// again, whole, as a crash would leave one consistent listing
	var err error
	for try := 0; try < 20; try++ {
		if err = os.RemoveAll(dst); err != nil {
			t.Fatal(err)
		}
		if err = copyTree(src, dst); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		out, err := os.Create(to)
		if err != nil {
			return err
		}
		defer out.Close()
		_, err = io.Copy(out, in)
		return err
	})
}

// Once Observe returns, the notices, passages and records written before it
// and the observation itself are on disk, as a copy of the directory taken
// at that moment (a crash) shows: the observation is the watermark the
// indexer fetches from next time, so nothing before it may be lost.
func TestObserveIsDurable(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	docs := searchtest.Fixtures()
	entries := searchtest.SourceRecordFixtures()
	for i := range docs { // one batch per notice: many segments in flight
		if err := b.Upsert(ctx, docs[i:i+1]); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.PutRecords(ctx, entries); err != nil {
		t.Fatal(err)
	}
	obs := search.Observation{Source: "crol", Label: "City Record", RecordType: "notice", ObservedAt: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}
	if err := b.Observe(ctx, obs); err != nil {
		t.Fatal(err)
	}
	crashed := t.TempDir()
	copyDir(t, dir, crashed)

	c, err := Open(crashed)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.Search(ctx, search.Query{Limit: 1})
	if err != nil || res.Total != len(docs) {
		t.Fatalf("after the crash: %d notices (%v), want %d", res.Total, err, len(docs))
	}
	want := 0
	for _, d := range docs {
		want += len(d.Passages)
	}
	pr, err := c.Passages(ctx, search.PassageQuery{Limit: 1})
	if err != nil || pr.Total != want {
		t.Fatalf("after the crash: %d passages (%v), want %d", pr.Total, err, want)
	}
	er, err := c.FindRecords(ctx, search.RecordQuery{Limit: 1})
	if err != nil || er.Total != len(entries) {
		t.Fatalf("after the crash: %d records (%v), want %d", er.Total, err, len(entries))
	}
	if got := c.observations()["crol"]; !got.ObservedAt.Equal(obs.ObservedAt) {
		t.Fatalf("after the crash the observation is %+v", got)
	}
}

// Facet counts read the raw doc values (rawDocValues); after updates,
// deletes and the merges and persists that follow, every notice is counted
// once. (zapx mishandles SkipDVCompression without SkipDVChunking when it
// merges segments: a whole chunk was counted for one document.)
func TestRawDocValuesSurviveMerges(t *testing.T) {
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	docs := searchtest.Fixtures()
	for round := 0; round < 3; round++ {
		if err := b.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	changed := docs[7]
	changed.Passages = changed.Passages[:1]
	if err := b.Upsert(ctx, []search.Doc{changed}); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := b.Delete(ctx, []string{docs[7].Notice.RequestID}); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := b.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := b.Search(ctx, search.Query{Limit: 100, Facets: true, Sort: search.SortNewest})
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != len(docs)-1 || len(res.Hits) != res.Total {
			t.Fatalf("%d notices, want %d", res.Total, len(docs)-1)
		}
		lensed := 0
		for _, f := range res.Facets[search.FacetType] {
			lensed += f.Count
		}
		if lensed != res.Total {
			t.Fatalf("notice-type facet counts %d notices, want %d: %+v", lensed, res.Total, res.Facets[search.FacetType])
		}
		for j := 1; j < len(res.Hits); j++ { // newest first, undated last
			a, b := res.Hits[j-1].Notice.StartDate, res.Hits[j].Notice.StartDate
			if !b.IsZero() && (a.IsZero() || a.Before(b)) {
				t.Fatalf("hit %d (%v) sorts after hit %d (%v)", j, b, j-1, a)
			}
		}
	}
}
