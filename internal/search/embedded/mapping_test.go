package embedded

import (
	"context"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// Keyword fields keep no locations (format 11); text fields keep them (the
// phrase matcher reads their positions).
func TestKeywordFieldsKeepNoLocations(t *testing.T) {
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	checkKeywordLocations(t, b)
}

// An index of format 10 (keyword fields with term vectors) is rebuilt at
// Open into the current format: its keywords then keep no locations, and
// every notice is still held.
func TestFormat10IsRebuiltWithoutKeywordLocations(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	withVectors := func(m *mapping.IndexMappingImpl) *mapping.IndexMappingImpl {
		for _, p := range m.DefaultMapping.Properties {
			for _, f := range p.Fields {
				if f.Analyzer == keyword.Name {
					f.IncludeTermVectors = true
				}
			}
		}
		return m
	}
	for i, m := range []*mapping.IndexMappingImpl{noticeMapping(), passageMapping(), recordMapping()} {
		idx, err := openIndex(filepath.Join(dir, indexNames[i]), withVectors(m))
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if err := idx.SetInternal(formatKey, []byte(strconv.Itoa(10))); err != nil {
				t.Fatal(err)
			}
		}
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
	}
	old, err := openAll(dir) // as they are: format 10
	if err != nil {
		t.Fatal(err)
	}
	docs := searchtest.Fixtures()
	if err := old.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	b := openRebuilt(t, dir)
	res, err := b.Search(ctx, search.Query{Limit: 1})
	if err != nil || res.Total != len(docs) {
		t.Fatalf("after the rebuild: %d notices (%v), want %d", res.Total, err, len(docs))
	}
	checkKeywordLocations(t, b)
}

// checkKeywordLocations writes a notice and reads its postings' locations.
func checkKeywordLocations(t *testing.T, b *Backend) {
	t.Helper()
	ctx := context.Background()
	n := record.Notice{RequestID: "20260101001", Source: "crol", AgencyID: "dcas", Lenses: []string{"procurement", "awards"},
		Title: "quokka repair", Text: "repair of the quokka pen at the depot"}
	if err := b.Upsert(ctx, []search.Doc{{Notice: n}}); err != nil {
		t.Fatal(err)
	}
	snap, err := indexSnapshot(b.notices)
	if err != nil {
		t.Fatal(err)
	}
	defer snap.Close()
	locations := func(field, term string) (docs, locs int) {
		for _, s := range snap.Segments() {
			d, err := s.Segment().Dictionary(field)
			if err != nil {
				t.Fatal(err)
			}
			pl, err := d.PostingsList([]byte(term), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			it := pl.Iterator(true, true, true, nil)
			for p, err := it.Next(); p != nil || err != nil; p, err = it.Next() {
				if err != nil {
					t.Fatal(err)
				}
				docs++
				locs += len(p.Locations())
			}
		}
		return docs, locs
	}
	for _, kw := range [][2]string{{"agency_id", "dcas"}, {"source", "crol"}, {"lenses", "awards"}, {"request_id", n.RequestID}} {
		if docs, locs := locations(kw[0], kw[1]); docs == 0 || locs != 0 {
			t.Errorf("keyword %s=%s: %d documents, %d locations; want some and none", kw[0], kw[1], docs, locs)
		}
	}
	if docs, locs := locations("content", "quokka"); docs != 1 || locs != 2 {
		t.Errorf("text content \"quokka\": %d documents, %d locations; want 1 and 2", docs, locs)
	}
}
