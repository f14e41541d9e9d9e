package embedded

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// A data directory indexed before notices carried the agency_raw keyword
// field still lists its raw agency strings (read document by document).
func TestAgencyNamesOnAnIndexWithoutTheField(t *testing.T) {
	dir := t.TempDir()
	old := noticeMapping()
	delete(old.DefaultMapping.Properties, "agency_raw")
	idx, err := bleve.New(filepath.Join(dir, "notices.bleve"), old)
	if err != nil {
		t.Fatal(err)
	}
	idx.Close()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if hasField(b.notices, "agency_raw") {
		t.Fatal("the old mapping has agency_raw")
	}
	ctx := context.Background()
	docs := searchtest.Fixtures()
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	names, err := b.AgencyNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{}
	for _, d := range docs {
		want[d.Notice.AgencyRaw]++
	}
	if len(names) != len(want) {
		t.Fatalf("%d names, want %d: %+v", len(names), len(want), names)
	}
	for _, n := range names {
		if n.Records != want[n.Raw] || n.Source != "crol" {
			t.Errorf("%+v, want %d records", n, want[n.Raw])
		}
	}
	var _ search.EntityReader = b
}
