package embedded_test

import (
	"context"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// A form's blank (a run of underscores) is not a word: the words around
// it are adjacent, so a phrase across it is found (as OpenSearch, SQLite
// and PostgreSQL find it), and searching for the blank finds nothing;
// a stop word still leaves its gap.
func TestPhraseAcrossAFormBlank(t *testing.T) {
	b, err := embedded.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	day := time.Date(2011, 12, 5, 0, 0, 0, 0, record.NewYork)
	text := "Pursuant to NYC Charter Section 197c on December 5, 2011 (CPC Appl. __________ Application is to legalize a fence)"
	if err := b.Upsert(ctx, []search.Doc{{Notice: record.Notice{RequestID: "1", Source: "crol", Section: "Public Hearings and Meetings",
		Lens: record.LensMoney, Lenses: []string{record.LensMoney}, NoticeType: "Notice", Title: "LANDMARKS PRESERVATION COMMISSION",
		StartDate: day, Body: text, Text: text}}}); err != nil {
		t.Fatal(err)
	}
	for q, want := range map[string]int{
		`"apple applicable"`:           1, // appl applic: the stems of "Appl." and "Application"
		`"appl application"`:           1,
		`"cpc appl application"`:       1,
		`__________`:                   0,
		`"application legalize"`:       0, // "is to" are stop words: their gap stays
		`"application is to legalize"`: 1,
	} {
		res, err := b.Search(ctx, search.Query{Text: q, Limit: 5})
		if err != nil || res.Total != want {
			t.Errorf("%s: %d found (%v), want %d", q, res.Total, err, want)
		}
	}
}
