package embedded

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"testing"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// A format-11 index (Raw stored as a JSON object, the text a second time)
// is rebuilt at Open through the bulk path into format 12, whose "raw"
// holds the values Body holds as places in it: every notice reads back
// the same (Get, Raw included), every search and passage answer is the
// same as before the rebuild, and the stored Raw is smaller.
func TestOpenRebuildsFormat11StoringTextOnce(t *testing.T) {
	ctx := context.Background()
	docs := searchtest.Fixtures()
	dir := t.TempDir()
	old, err := openAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	nb, pb := old.notices.NewBatch(), old.passages.NewBatch()
	oldRaw := 0
	for _, d := range docs {
		f, err := noticeFields(d.Notice, len(d.Passages))
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Notice.Raw) > 0 {
			js, _ := json.Marshal(d.Notice.Raw) // format 11's "raw"
			f["raw"] = string(js)
			oldRaw += len(js)
		}
		if err := add(nb, old.notices.Mapping(), d.Notice.RequestID, f); err != nil {
			t.Fatal(err)
		}
		for _, p := range d.Passages {
			pf, _ := passageFields(p, "") // a whole passage, as formats before 13 stored it
			if err := add(pb, old.passages.Mapping(), p.ID, pf); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := old.passages.Batch(pb); err != nil {
		t.Fatal(err)
	}
	if err := old.notices.Batch(nb); err != nil {
		t.Fatal(err)
	}
	if err := old.notices.SetInternal(formatKey, []byte(strconv.Itoa(11))); err != nil {
		t.Fatal(err)
	}
	old.noticesWritten() // the coverage of the batches written here, as Upsert keeps it
	// the answers before the rebuild
	type answers struct {
		gets     []string
		searches []string
		passages []string
	}
	queries := []search.Query{{Limit: 100, Facets: true}, {Text: "services", Limit: 100, Facets: true}, {Text: `"child care"`, Limit: 100}}
	read := func(b *Backend) answers {
		var a answers
		for _, d := range docs {
			n, err := b.Get(ctx, d.Notice.RequestID)
			if err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(n)
			a.gets = append(a.gets, string(js))
		}
		for _, q := range queries {
			r, err := b.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(r)
			a.searches = append(a.searches, string(js))
		}
		for _, text := range []string{"", "services"} {
			r, err := b.Passages(ctx, search.PassageQuery{Text: text, Limit: 100})
			if err != nil {
				t.Fatal(err)
			}
			js, _ := json.Marshal(r)
			a.passages = append(a.passages, string(js))
		}
		return a
	}
	before := read(old)
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	b := openRebuilt(t, dir)
	if got := b.BulkLoads(); got != 1 {
		t.Errorf("the rebuild took the bulk path %d times, want 1", got)
	}
	after := read(b)
	for i := range before.gets {
		if before.gets[i] != after.gets[i] {
			t.Errorf("get changed by the rebuild:\nbefore %s\n after %s", before.gets[i], after.gets[i])
		}
	}
	for i := range before.searches {
		if before.searches[i] != after.searches[i] {
			t.Errorf("search %+v changed by the rebuild:\nbefore %s\n after %s", queries[i], before.searches[i], after.searches[i])
		}
	}
	for i := range before.passages {
		if before.passages[i] != after.passages[i] {
			t.Errorf("passages changed by the rebuild:\nbefore %s\n after %s", before.passages[i], after.passages[i])
		}
	}
	for i, d := range docs {
		var n struct {
			Raw map[string]string `json:"raw"`
		}
		_ = json.Unmarshal([]byte(after.gets[i]), &n)
		if !reflect.DeepEqual(n.Raw, d.Notice.Raw) {
			t.Errorf("%s: Raw %v, want %v", d.Notice.RequestID, n.Raw, d.Notice.Raw)
		}
	}
	newRaw := 0
	if err := eachStored(b.notices, func(_ string, fields map[string]index.Field) error {
		if f, ok := fields["raw"]; ok {
			if f.Value()[0] != rawForm {
				t.Errorf("raw stored in the old form: %.60s", f.Value())
			}
			newRaw += len(f.Value())
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if newRaw == 0 || newRaw >= oldRaw {
		t.Errorf("stored raw: %d bytes after the rebuild, %d before", newRaw, oldRaw)
	}
	t.Logf("stored raw: %d bytes in format 11, %d in format 12", oldRaw, newRaw)
	// and each passage's text once, in its notice's body (format 13)
	whole := 0
	if err := eachStored(b.passages, func(id string, fields map[string]index.Field) error {
		if fields["doc"].Value()[0] != passageForm {
			whole++
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if whole > 0 {
		t.Errorf("%d passages stored whole after the rebuild; want each without its text", whole)
	}
}

// decodeRaw refuses a place outside Body, and reads both forms.
func TestDecodeRaw(t *testing.T) {
	body := "Notice of a public hearing on the budget of the department"
	raw := map[string]string{"a": body, "b": "short", "c": "not in the body at all, but long enough to be a reference"}
	enc, err := encodeRaw(raw, body)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeRaw(enc, body)
	if err != nil || !reflect.DeepEqual(got, raw) {
		t.Errorf("round trip: %v %v", got, err)
	}
	if _, err := decodeRaw(enc, body[:10]); err == nil {
		t.Error("a place past the end of Body was read")
	}
	old, _ := json.Marshal(raw)
	if got, err := decodeRaw(old, ""); err != nil || !reflect.DeepEqual(got, raw) {
		t.Errorf("format 11: %v %v", got, err)
	}
	if _, err := decodeRaw([]byte("X{}"), body); err == nil {
		t.Error("an unknown form was read")
	}
}
