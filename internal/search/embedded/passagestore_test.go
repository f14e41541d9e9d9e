package embedded

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// passageCuts pins record.PassageAt and record.PlainText, as they render
// the bundled sample's passages and notices, to the index format that
// stores passages and a notice's plain text without their text: an index
// of format 13 reads them by rendering its notice's body again, so a change
// to either needs a new format (a rebuild, which stores every notice
// again).
var passageCuts = map[int]string{
	13: "e400c4368daf513a89b1fcdd833bb7d1d6022975f996a07f7906085fb383c48a",
}

func sampleNotices(t *testing.T) []record.Notice {
	t.Helper()
	c, errs := crol.Scan(os.DirFS("../../../testdata/sample"), "crol", entity.DefaultCrosswalk())
	if len(errs) > 0 || len(c.Notices) < 1000 {
		t.Fatalf("sample: %d notices, %v", len(c.Notices), errs)
	}
	return c.Notices
}

// The rendering of the sample's passages and plain texts is the one this
// index format was written with (passageCuts), and nearly every passage
// the indexer cuts is stored without its text.
func TestPassageCutIsPartOfTheFormat(t *testing.T) {
	h := sha256.New()
	textless, whole := 0, 0
	for _, d := range indexer.Docs(sampleNotices(t)) {
		h.Write([]byte(record.PlainText(d.Notice.Body)))
		for _, p := range d.Passages {
			js, _ := json.Marshal([]any{p.ID, p.Start, p.End, record.PassageAt(d.Notice.Body, p.Start, p.End)})
			h.Write(js)
			b, err := encodePassage(p, d.Notice.Body)
			if err != nil {
				t.Fatal(err)
			}
			if b[0] == passageForm {
				textless++
			} else {
				whole++
			}
		}
	}
	got := hex.EncodeToString(h.Sum(nil))
	if want, ok := passageCuts[formatVersion]; !ok || got != want {
		t.Errorf("the passages and plain texts of the sample render as %s; format %d was written with %q: a changed rendering needs a new formatVersion (migrate.go), pinned here", got, formatVersion, want)
	}
	t.Logf("the indexer's passages of the sample: %d stored without their text, %d whole", textless, whole)
	if whole*20 > textless {
		t.Errorf("the indexer's passages: %d stored without their text, %d whole; want at least 95%% without", textless, whole)
	}
}

// A passage is stored without its text when its notice's body cuts it
// again, whole when it does not, and reads back as written either way.
func TestPassagesStoreTheirTextOnce(t *testing.T) {
	ctx := context.Background()
	docs := searchtest.Fixtures()
	// a passage no cut of its body gives (another cutter's): kept whole
	odd := &docs[1].Passages[0]
	odd.Text += " (as another cutter wrote it)"
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Upsert(ctx, docs); err != nil {
		t.Fatal(err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	textless, whole := 0, 0
	if err := eachStored(b.passages, func(id string, fields map[string]index.Field) error {
		v := fields["doc"].Value()
		switch {
		case v[0] == passageForm && id != odd.ID:
			textless++
			var p record.Passage
			if err := json.Unmarshal(v[1:], &p); err != nil || p.Text != "" {
				t.Errorf("%s: stored without its text, but holds %q (%v)", id, p.Text, err)
			}
		case v[0] == '{' && id == odd.ID:
			whole++
		default:
			t.Errorf("%s stored as %.40s", id, v)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := map[string]record.Passage{}
	for _, d := range docs {
		for _, p := range d.Passages {
			want[p.ID] = p
		}
	}
	if whole != 1 || textless != len(want)-1 {
		t.Errorf("%d stored without their text, %d whole; want %d and 1", textless, whole, len(want)-1)
	}
	res, err := b.Passages(ctx, search.PassageQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Passages) != len(want) {
		t.Fatalf("%d passages read, want %d", len(res.Passages), len(want))
	}
	for _, h := range res.Passages {
		w := want[h.Passage.ID]
		got, _ := json.Marshal(h.Passage)
		exp, _ := json.Marshal(w)
		if string(got) != string(exp) {
			t.Errorf("%s read as\n%+v\nwant\n%+v", h.Passage.ID, h.Passage, w)
		}
	}
	// and a search by the words of a passage stored without its text
	res, err = b.Passages(ctx, search.PassageQuery{Text: "Spector Hall", Limit: 10})
	if err != nil || len(res.Passages) == 0 || res.Passages[0].Passage.Text == "" {
		t.Fatalf("a passage search: %+v %v", res.Passages, err)
	}
}
