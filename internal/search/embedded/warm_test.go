package embedded

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// The warm-up reads ahead, for every segment, the words with at least
// WarmWordDocs postings, the sort columns and the facet fields' values, and
// no other word; searches answer the same with all that read ahead as read
// on demand.
func TestWarmUpReadsTheCommonestWordsAhead(t *testing.T) {
	defer func(n uint64, q time.Duration) { WarmWordDocs, WarmQuiet = n, q }(WarmWordDocs, WarmQuiet)
	WarmWordDocs, WarmQuiet = 40, 50*time.Millisecond
	ctx := context.Background()
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for batch := 0; batch < 3; batch++ { // three segments
		var docs []search.Doc
		for i := 0; i < 60; i++ {
			text := "common words here"
			if i == 7 {
				text += " scarce"
			}
			agency := []string{"dcas", "dot", "hpd"}[i%3]
			docs = append(docs, search.Doc{Notice: record.Notice{RequestID: fmt.Sprintf("2026%03d%04d", batch, i), Source: "crol", Title: "notice", Text: text, AgencyID: agency}})
		}
		if err := b.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	queries := []search.Query{{Text: "common"}, {Text: "scarce"}, {Text: "common", Sort: search.SortNewest}, {Text: "words here", Limit: 100}, {Text: "scarce common", Facets: true}}
	var before []search.Result
	for _, q := range queries {
		res, err := b.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		before = append(before, res)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err = Open(dir); err != nil { // a start: nothing read yet but what the warm-up reads
		t.Fatal(err)
	}
	defer b.Close()
	// the warm-up at open, and (a merge or persist after the start may
	// leave a new segment) the one after it once writes are quiet
	problems := func() []string {
		snap, err := indexSnapshot(b.notices)
		if err != nil {
			t.Fatal(err)
		}
		segs := snap.Segments()
		snap.Close()
		if len(segs) == 0 {
			t.Fatal("no segments")
		}
		var out []string
		for _, s := range segs {
			for term, want := range map[string]bool{"common": true, "word": true, "scarce": false, "notic": true} {
				_, got := b.topNotices.words.Get(wordKey{s.Id(), "content+title", term})
				if s.Segment().Count() < WarmWordDocs {
					want = false
				}
				if got != want {
					out = append(out, fmt.Sprintf("segment %d (%d notices): %q read ahead %v, want %v", s.Id(), s.Segment().Count(), term, got, want))
				}
			}
			if _, ok := b.topNotices.columns.Get(columnKey{s.Id(), "sort_start_desc"}); !ok {
				out = append(out, fmt.Sprintf("segment %d: the newest-first column was not read ahead", s.Id()))
			}
			for _, field := range noticeFacets {
				if _, ok := b.topNotices.facets.Get(facetKey{s.Id(), field}); !ok {
					out = append(out, fmt.Sprintf("segment %d: the facet values of %s were not read ahead", s.Id(), field))
				}
			}
		}
		return out
	}
	b.topNotices.warmer.wg.Wait()
	for deadline := time.Now().Add(20 * time.Second); len(problems()) > 0 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	for _, p := range problems() {
		t.Error(p)
	}
	for i, q := range queries {
		res, err := b.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		res.Scope, before[i].Scope = record.Scope{}, record.Scope{}
		if !reflect.DeepEqual(res, before[i]) {
			t.Errorf("%+v: after the warm-up %+v, before %+v", q, res, before[i])
		}
	}
}

// A merge's new segment is read ahead too, once writes are quiet: after
// batches written with no load's end (no Observe) and no restart, the
// segments left by the merges hold their commonest words read.
func TestWarmUpFollowsMerges(t *testing.T) {
	defer func(n uint64, q time.Duration) { WarmWordDocs, WarmQuiet = n, q }(WarmWordDocs, WarmQuiet)
	WarmWordDocs, WarmQuiet = 40, 50*time.Millisecond
	ctx := context.Background()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const batches = 30
	for batch := 0; batch < batches; batch++ {
		var docs []search.Doc
		for i := 0; i < 50; i++ {
			docs = append(docs, search.Doc{Notice: record.Notice{RequestID: fmt.Sprintf("2026%03d%04d", batch, i), Source: "crol", Title: "notice", Text: "common words here"}})
		}
		if err := b.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		snap, err := indexSnapshot(b.notices)
		if err != nil {
			t.Fatal(err)
		}
		segs := snap.Segments()
		snap.Close()
		cold := 0
		for _, s := range segs {
			if _, ok := b.topNotices.words.Get(wordKey{s.Id(), "content+title", "common"}); !ok {
				cold++
			}
		}
		if cold == 0 && len(segs) < batches {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d segments (of %d batches), %d without their words read ahead", len(segs), batches, cold)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Warming is true while a warm-up runs, and ends only once the start-up's
// has read every segment it found: then each of those segments still held
// has its columns and facet values read.
func TestWarmingEndsWithTheStartUpWarmUp(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for batch := range 3 {
		var docs []search.Doc
		for i := range 60 {
			docs = append(docs, search.Doc{Notice: record.Notice{RequestID: fmt.Sprintf("2026%03d%04d", batch, i), Source: "crol", Title: "notice", Text: "common words"}})
		}
		if err := b.Upsert(ctx, docs); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	if b, err = Open(dir); err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	// a warm-up held: Warming says so until it ends
	release := make(chan struct{})
	b.topPassages.warmer.run(func() { <-release })
	if !b.Warming() {
		t.Error("not warming while a warm-up runs")
	}
	close(release)
	snap, err := indexSnapshot(b.notices)
	if err != nil {
		t.Fatal(err)
	}
	found := snap.Segments()
	snap.Close()
	for deadline := time.Now().Add(20 * time.Second); b.Warming(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("still warming after 20 s")
		}
	}
	if snap, err = indexSnapshot(b.notices); err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	held := map[uint64]bool{}
	for _, s := range snap.Segments() {
		held[s.Id()] = true
	}
	for _, s := range found {
		if !held[s.Id()] {
			continue // merged away
		}
		if _, ok := b.topNotices.columns.Get(columnKey{s.Id(), "sort_start_desc"}); !ok {
			t.Errorf("segment %d: warming ended without its newest-first column read", s.Id())
		}
		if _, ok := b.topNotices.facets.Get(facetKey{s.Id(), "agency_id"}); !ok {
			t.Errorf("segment %d: warming ended without its agency values read", s.Id())
		}
	}
}
