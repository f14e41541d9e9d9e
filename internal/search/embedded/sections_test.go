package embedded_test

import (
	"context"
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// Notices without a section are counted under "" with their own dates, and
// every notice is counted once.
func TestSectionsCountsUnsectioned(t *testing.T) {
	ctx := context.Background()
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	docs := searchtest.Fixtures()
	docs[0].Notice.Section = ""
	docs[5].Notice.Section = ""
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	got, err := b.Sections(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := searchtest.WantSections(docs)
	if len(got) != len(want) {
		t.Fatalf("sections %+v, want %+v", got, want)
	}
	for _, c := range got {
		if c != want[[2]string{c.Source, c.Section}] {
			t.Errorf("got %+v, want %+v", c, want[[2]string{c.Source, c.Section}])
		}
	}
	if got[0].Section != "" || got[0].Records != 2 || got[0].FirstSourceDate != "2014-10-07" || got[0].LastSourceDate != "2026-07-01" {
		t.Errorf("unsectioned %+v", got[0])
	}
	empty, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer empty.Close()
	if s, err := empty.Sections(ctx); err != nil || s == nil || len(s) != 0 {
		t.Errorf("empty index: %v %v", s, err)
	}
	var _ search.Reader = b
}
