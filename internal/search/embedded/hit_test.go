package embedded

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// fixtureNotices are the fixtures' notices by request id.
func fixtureNotices(docs []search.Doc) map[string]record.Notice {
	out := map[string]record.Notice{}
	for _, d := range docs {
		out[d.Notice.RequestID] = d.Notice
	}
	return out
}

// A notice is stored once per text ("hit", "body", "text" only when it
// is neither the body nor the body's plain text, "raw"; no "doc"), and read back whole by Get,
// whole but Raw by a search, and as search.BriefNotice by a brief search,
// which reads "body" or "text" only for a notice whose vendor a list
// reads from its text.
func TestStoredNoticeTextOnce(t *testing.T) {
	ctx := context.Background()
	docs := searchtest.Fixtures()
	// a text other than the body's plain text (another loader's): stored
	docs[3].Notice.Text = "As another loader wrote it: " + docs[3].Notice.Text
	want := fixtureNotices(docs)
	b := openWith(t, docs)

	var sameText, plainText, otherText, keeps, html, noBody int
	err := eachStored(b.notices, func(id string, fields map[string]index.Field) error {
		n := want[id]
		if _, ok := fields["doc"]; ok {
			t.Errorf("%s: a \"doc\" field is stored beside \"hit\"", id)
		}
		_, hasText := fields["text"]
		switch {
		case n.Text != "" && n.Text == n.Body:
			sameText++
			if hasText {
				t.Errorf("%s: text equal to its body is stored twice", id)
			}
		case n.Text != "" && n.Text == record.PlainText(n.Body):
			plainText++
			if hasText {
				t.Errorf("%s: text that is its body's plain text is stored apart", id)
			}
		case n.Text != "":
			otherText++
			if !hasText || string(fields["text"].Value()) != n.Text {
				t.Errorf("%s: text stored %v, want %q", id, hasText, n.Text)
			}
		}
		if _, ok := fields["body"]; ok != (n.Body != "") {
			t.Errorf("%s: body stored %v with a body of %d bytes", id, ok, len(n.Body))
		}
		if hit := string(fields["hit"].Value()); len(n.Text) > 40 && strings.Contains(hit, n.Text) {
			t.Errorf("%s: the stored hit holds the text", id)
		}
		if n.VendorInText() {
			keeps++
		}
		if n.SourceHTML() {
			html++
		}
		if !n.HasFullText() {
			noBody++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if sameText == 0 || plainText == 0 || otherText == 0 || keeps == 0 || html == 0 {
		t.Fatalf("the fixtures no longer cover each case: text = body %d, text = the body's plain text %d, another text %d, brief keeps text %d, HTML %d, no body %d",
			sameText, plainText, otherText, keeps, html, noBody)
	}

	for id, n := range want {
		got, err := b.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if a, w := mustJSON(t, got), mustJSON(t, n); a != w || got.Brief != (record.Brief{}) {
			t.Errorf("Get %s:\n got %s\nwant %s", id, a, w)
		}
	}
	for _, brief := range []bool{false, true} {
		for _, sort := range []string{search.SortRelevance, search.SortNewest} {
			q := search.Query{Sort: sort, Limit: search.MaxLimit, Brief: brief}
			if sort == search.SortRelevance {
				q.Text = "services construction notice award"
			}
			res, err := b.Search(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) < 3 {
				t.Fatalf("%s: %d hits", sort, len(res.Hits))
			}
			for _, h := range res.Hits {
				w := want[h.Notice.RequestID]
				w.Raw = nil
				if brief {
					w = search.BriefNotice(w)
				}
				if !sameNotice(t, h.Notice, w) {
					t.Errorf("brief %v, %s, %s:\n got %+v\nwant %+v", brief, sort, h.Notice.RequestID, h.Notice, w)
				}
			}
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A brief notice shows what a whole one does: BriefNotice keeps each
// fact a result list reads of the text.
func TestBriefNoticeKeepsTheListFacts(t *testing.T) {
	for _, d := range searchtest.Fixtures() {
		n := d.Notice
		br := search.BriefNotice(n)
		if br.Body != "" || br.Raw != nil || (br.Text != "") != (n.VendorInText() && n.Text != "") {
			t.Errorf("%s: brief notice keeps body %d, raw %d, text %d bytes", n.RequestID, len(br.Body), len(br.Raw), len(br.Text))
		}
		if br.HasFullText() != n.HasFullText() || br.SourceHTML() != n.SourceHTML() {
			t.Errorf("%s: brief full text %v html %v, whole %v %v", n.RequestID, br.HasFullText(), br.SourceHTML(), n.HasFullText(), n.SourceHTML())
		}
	}
}

// A rebuild reads a notice from either layout: "doc" (formats 1 to 9,
// TestOpenRebuildsFormat1 and TestOpenRebuildsFormat9) or "hit", "body"
// and "text" (format 10 on: a later format's rebuild reads these).
func TestOldNoticeReadsTheCurrentLayout(t *testing.T) {
	docs := searchtest.Fixtures()
	want := fixtureNotices(docs)
	b := openWith(t, docs)
	seen := 0
	err := eachStored(b.notices, func(id string, fields map[string]index.Field) error {
		seen++
		got, err := oldNotice(nil, fields)
		if err != nil {
			return err
		}
		w := want[id]
		w.Raw = nil
		if !sameNotice(t, got, w) {
			t.Errorf("%s:\n got %+v\nwant %+v", id, got, w)
		}
		return nil
	})
	if err != nil || seen != len(want) {
		t.Fatalf("read %d of %d: %v", seen, len(want), err)
	}
}

// format9Mapping is the notices' mapping of formats up to 9: the notice
// but Raw stored whole in "doc".
func format9Mapping() *mapping.IndexMappingImpl {
	m := noticeMapping()
	for _, f := range []string{"hit", "body", "text"} {
		delete(m.DefaultMapping.Properties, f)
	}
	m.DefaultMapping.AddFieldMappingsAt("doc", storedOnly())
	return m
}

// sameNotice: a and b encode alike and are as brief (reflect.DeepEqual
// would tell a zone read back from JSON from the zone written).
func sameNotice(t *testing.T, a, b record.Notice) bool {
	return mustJSON(t, a) == mustJSON(t, b) && a.Brief == b.Brief
}

// A data directory in format 9 (the notice but Raw in "doc") is rebuilt at
// Open: every notice reads back whole, and searches answer as on a
// directory indexed afresh.
func TestOpenRebuildsFormat9(t *testing.T) {
	ctx := context.Background()
	docs := searchtest.Fixtures()
	dir := t.TempDir()
	old, err := bleve.New(filepath.Join(dir, indexNames[0]), format9Mapping())
	if err != nil {
		t.Fatal(err)
	}
	batch := old.NewBatch()
	for _, d := range docs {
		f, err := noticeFields(d.Notice, len(d.Passages))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"hit", "body", "text"} {
			delete(f, k)
		}
		n := d.Notice
		n.Raw = nil
		f["doc"] = mustJSON(t, n)
		if err := batch.Index(d.Notice.RequestID, f); err != nil {
			t.Fatal(err)
		}
	}
	if err := old.Batch(batch); err != nil {
		t.Fatal(err)
	}
	if err := old.SetInternal(formatKey, []byte(strconv.Itoa(9))); err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}

	migrated, fresh := openRebuilt(t, dir), openWith(t, docs)
	for _, d := range docs {
		got, err := migrated.Get(ctx, d.Notice.RequestID)
		if err != nil {
			t.Fatal(err)
		}
		if a, w := mustJSON(t, got), mustJSON(t, d.Notice); a != w {
			t.Errorf("%s after rebuild:\n got %s\nwant %s", d.Notice.RequestID, a, w)
		}
	}
	for _, brief := range []bool{false, true} {
		q := search.Query{Text: "services award", Limit: search.MaxLimit, Brief: brief}
		a, err := migrated.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		f, err := fresh.Search(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Hits) == 0 || mustJSON(t, a.Hits) != mustJSON(t, f.Hits) || !reflect.DeepEqual(hitIDs(a), hitIDs(f)) {
			t.Errorf("brief %v: migrated %v, fresh %v", brief, hitIDs(a), hitIDs(f))
		}
	}
}

// The stored hit's codec holds every field of a notice but Body, Text,
// Raw and Brief: a field added to record.Notice fails here until it is
// stored (storedHit.strings, lists, times or encode's scalars).
func TestStoredHitHoldsEveryField(t *testing.T) {
	var sh storedHit
	covered := map[uintptr]bool{}
	for _, p := range sh.strings() {
		covered[uintptr(unsafe.Pointer(p))] = true
	}
	for _, p := range sh.lists() {
		covered[uintptr(unsafe.Pointer(p))] = true
	}
	for _, p := range sh.times() {
		covered[uintptr(unsafe.Pointer(p))] = true
	}
	for _, p := range []unsafe.Pointer{unsafe.Pointer(&sh.Amount), unsafe.Pointer(&sh.AmountValid), unsafe.Pointer(&sh.DueRolling)} {
		covered[uintptr(p)] = true
	}
	left := map[string]bool{"Body": true, "Text": true, "Raw": true, "Brief": true}
	var walk func(path string, v reflect.Value)
	walk = func(path string, v reflect.Value) {
		for i := range v.NumField() {
			f, fv := v.Type().Field(i), v.Field(i)
			name := path + f.Name
			if left[name] {
				continue
			}
			if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeFor[time.Time]() {
				walk(name+".", fv)
				continue
			}
			if !covered[fv.Addr().Pointer()] {
				t.Errorf("record.Notice.%s is not in the stored hit (hit.go)", name)
			}
		}
	}
	walk("", reflect.ValueOf(&sh.Notice).Elem())
}

// A stored hit reads back as it was written, nil and empty lists apart,
// and a damaged one is refused, never misread.
func TestStoredHitRoundTrip(t *testing.T) {
	for _, d := range searchtest.Fixtures() {
		for _, lenses := range [][]string{d.Notice.Lenses, nil, {}} {
			n := d.Notice
			n.Lenses = lenses
			hit, _, _, err := noticeStored(n)
			if err != nil {
				t.Fatal(err)
			}
			sh, err := decodeHit([]byte(hit))
			if err != nil {
				t.Fatalf("%s: %v", n.RequestID, err)
			}
			got := sh.notice("", "", true)
			want := search.BriefNotice(n)
			want.Text = ""
			if n.VendorInText() {
				got.Text = "" // read from "body" or "text"
			}
			if !sameNotice(t, got, want) || (got.Lenses == nil) != (lenses == nil) ||
				!got.StartDate.Equal(n.StartDate) || !got.DueDate.Equal(n.DueDate) || !got.EventDate.Equal(n.EventDate) {
				t.Errorf("%s:\n got %+v\nwant %+v", n.RequestID, got, want)
			}
			for cut := range len(hit) {
				if _, err := decodeHit([]byte(hit[:cut])); err == nil {
					t.Fatalf("%s: a hit cut at %d of %d bytes was read", n.RequestID, cut, len(hit))
				}
			}
			if _, err := decodeHit([]byte(hit + "x")); err == nil {
				t.Errorf("%s: a hit with a trailing byte was read", n.RequestID)
			}
		}
	}
}
