package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

// writeFormat1 writes docs, entries (the retired entry documents, as JSON
// objects) and one observation the way format 1 did: numeric sort keys, no agency_raw field, no format key, and the
// passage count of every other notice in an internal "pc:<id>" key.
func writeFormat1(t *testing.T, dir string, docs []search.Doc, entries []map[string]any, obs search.Observation) {
	t.Helper()
	old := format9Mapping()
	delete(old.DefaultMapping.Properties, "agency_raw")
	for _, f := range []string{"sort_start_desc", "sort_start_asc", "sort_due", "sort_event", "sort_amount_desc"} {
		delete(old.DefaultMapping.Properties, f)
		old.DefaultMapping.AddFieldMappingsAt(f, numField())
	}
	create := func(name string, m *mapping.IndexMappingImpl) bleve.Index {
		idx, err := bleve.New(filepath.Join(dir, name), m)
		if err != nil {
			t.Fatal(err)
		}
		return idx
	}
	notices, passages, ents := create("notices.bleve", old), create("passages.bleve", passageMapping()), create("entries.bleve", legacyEntryMapping())
	for i, d := range docs {
		f, err := noticeFields(d.Notice, len(d.Passages))
		if err != nil {
			t.Fatal(err)
		}
		delete(f, "agency_raw")
		delete(f, "raw") // format 1 kept Raw inside the stored notice
		// nor format 10's layout
		for _, k := range []string{"hit", "body", "text"} {
			delete(f, k)
		}
		full, err := json.Marshal(d.Notice)
		if err != nil {
			t.Fatal(err)
		}
		f["doc"] = string(full)
		for k, v := range f {
			if s, ok := v.(string); ok && len(k) > 5 && k[:5] == "sort_" {
				num, _ := strconv.ParseFloat(s, 64) // the old keys were plain numbers
				f[k] = num
			}
		}
		if i%2 == 1 {
			delete(f, "passage_count")
			if err := notices.SetInternal([]byte("pc:"+d.Notice.RequestID), []byte(strconv.Itoa(len(d.Passages)))); err != nil {
				t.Fatal(err)
			}
		}
		if err := notices.Index(d.Notice.RequestID, f); err != nil {
			t.Fatal(err)
		}
		for _, p := range d.Passages {
			pf, _ := passageFields(p, "") // a whole passage, as formats before 13 stored it
			if err := passages.Index(p.ID, pf); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, e := range entries {
		ef, _ := legacyEntryFields(e)
		if err := ents.Index(e["id"].(string), ef); err != nil {
			t.Fatal(err)
		}
	}
	v, _ := json.Marshal(map[string]search.Observation{obs.Source: obs})
	if err := notices.SetInternal(observationsKey, v); err != nil {
		t.Fatal(err)
	}
	for _, idx := range []bleve.Index{notices, passages, ents} {
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// legacyEntryMapping is the part of the entries index of formats 1-4 a
// rebuild reads: the entry as stored JSON.
func legacyEntryMapping() *mapping.IndexMappingImpl {
	return newMapping(map[string]*mapping.FieldMapping{"id": keywordField(), "kind": keywordField(), "doc": storedOnly()})
}

func legacyEntryFields(e map[string]any) (map[string]interface{}, error) {
	raw, err := json.Marshal(e)
	return map[string]interface{}{"id": e["id"], "kind": e["kind"], "doc": string(raw)}, err
}

// A data directory in format 1 is rebuilt at Open from its stored
// documents: every notice, passage, passage count and observation is kept,
// and every query answers as on a directory indexed afresh. Its entries
// (a retired generation) are not converted: the entries index is removed
// and no record is held until the sources are loaded again
// (indexer.EnsureSample, tested there).
func TestOpenRebuildsFormat1(t *testing.T) {
	ctx := context.Background()
	docs := searchtest.Fixtures()
	entries := []map[string]any{
		{"id": "checkbook:payment:1", "source": "checkbook", "kind": "payment", "amount": 12.5, "amount_valid": true},
		{"id": "mappluto:lot:1000380001", "source": "mappluto", "kind": "lot", "bbl": "1000380001"},
	}
	obs := search.Observation{Source: "crol", Label: "City Record", RecordType: "notice",
		ObservedAt: time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC)}

	dir := t.TempDir()
	writeFormat1(t, dir, docs, entries, obs)
	migrated := openRebuilt(t, dir)
	if got := migrated.BulkLoads(); got != 1 {
		t.Errorf("the rebuild took the bulk path %d times, want 1 (bulk.go)", got)
	}
	for _, leftover := range []string{nextDir, oldDir, legacyEntries} {
		if _, err := os.Stat(filepath.Join(dir, leftover)); !os.IsNotExist(err) {
			t.Errorf("%s left behind: %v", leftover, err)
		}
	}

	fresh := openWith(t, docs)
	if err := fresh.Observe(ctx, obs); err != nil {
		t.Fatal(err)
	}

	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		ids = append(ids, d.Notice.RequestID)
		got, err := migrated.Get(ctx, d.Notice.RequestID)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(d.Notice)
		if string(a) != string(b) || len(got.Raw) == 0 {
			t.Errorf("%s after rebuild:\n got %s\nwant %s", d.Notice.RequestID, a, b)
		}
	}
	if got, want := migrated.passageCounts(ids), fresh.passageCounts(ids); !reflect.DeepEqual(got, want) {
		t.Errorf("passage counts %v, want %v", got, want)
	}
	for _, sort := range []string{search.SortRelevance, search.SortNewest, search.SortOldest, search.SortDueSoonest, search.SortEvent, search.SortAmount} {
		q := search.Query{Sort: sort, Limit: 3, Facets: true}
		if sort == search.SortRelevance {
			q.Text = "construction"
		}
		for page := 0; page < 10; page++ {
			a, err := migrated.Search(ctx, q)
			if err != nil {
				t.Fatal(sort, err)
			}
			b, err := fresh.Search(ctx, q)
			if err != nil {
				t.Fatal(sort, err)
			}
			if !reflect.DeepEqual(hitIDs(a), hitIDs(b)) || a.Total != b.Total || !reflect.DeepEqual(a.Facets, b.Facets) ||
				!reflect.DeepEqual(a.Scope, b.Scope) {
				t.Fatalf("%s page %d: migrated %v (%d), fresh %v (%d)", sort, page, hitIDs(a), a.Total, hitIDs(b), b.Total)
			}
			if a.NextCursor == "" {
				break
			}
			q.Cursor = a.NextCursor
		}
	}
	pa, err := migrated.Passages(ctx, search.PassageQuery{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := fresh.Passages(ctx, search.PassageQuery{Limit: 100})
	if pa.Total == 0 || pa.Total != pb.Total {
		t.Errorf("passages: %d after rebuild, %d fresh", pa.Total, pb.Total)
	}
	rp, err := migrated.FindRecords(ctx, search.RecordQuery{Limit: 100})
	if err != nil || rp.Total != 0 {
		t.Errorf("records after rebuild: %d (%v), want none: entries are not converted", rp.Total, err)
	}
	na, err := migrated.NoticeAgencyNames(ctx)
	if err != nil {
		t.Fatal(err)
	}
	nb, _ := fresh.NoticeAgencyNames(ctx)
	if len(na) == 0 || !reflect.DeepEqual(na, nb) {
		t.Errorf("agency names %+v, want %+v", na, nb)
	}
}

// openRebuilt opens dir, which holds an older format, and checks that it
// was rebuilt in the current one; it is closed when t ends.
func openRebuilt(t *testing.T, dir string) *Backend {
	t.Helper()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if f, err := readFormat(b.notices); err != nil || f != formatVersion {
		t.Fatalf("format after rebuild: %d, %v", f, err)
	}
	return b
}

// openWith is a new engine holding docs, closed when t ends.
func openWith(t *testing.T, docs []search.Doc) *Backend {
	t.Helper()
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	if err := b.Upsert(context.Background(), docs); err != nil {
		t.Fatal(err)
	}
	return b
}

func hitIDs(r search.Result) []string {
	out := []string{}
	for _, h := range r.Hits {
		out = append(out, h.Notice.RequestID)
	}
	return out
}

// A rebuild stopped before it finished is discarded (the old indexes are
// rebuilt again); one stopped during the swap is completed.
func TestOpenFinishesOrDiscardsAnInterruptedRebuild(t *testing.T) {
	docs := searchtest.Fixtures()
	obs := search.Observation{Source: "crol", ObservedAt: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)}

	partial := t.TempDir()
	writeFormat1(t, partial, docs, nil, obs)
	if err := os.MkdirAll(filepath.Join(partial, nextDir, "notices.bleve"), 0o755); err != nil {
		t.Fatal(err)
	}
	b, err := Open(partial)
	if err != nil {
		t.Fatal(err)
	}
	res, err := b.Search(context.Background(), search.Query{Limit: 1})
	b.Close()
	if err != nil || res.Total != len(docs) {
		t.Fatalf("after a discarded partial rebuild: %d notices, %v", res.Total, err)
	}

	// a finished rebuild whose swap stopped after the notices were moved
	swap := t.TempDir()
	writeFormat1(t, swap, docs, nil, obs)
	b, err = Open(swap) // rebuilds and swaps
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	next := filepath.Join(swap, nextDir)
	if err := os.MkdirAll(filepath.Join(swap, oldDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(next, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range indexNames[1:] { // passages and entries not yet moved
		if err := os.Rename(filepath.Join(swap, name), filepath.Join(next, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(next, doneMarker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err = Open(swap)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	pr, err := b.Passages(context.Background(), search.PassageQuery{Limit: 1})
	if err != nil || pr.Total == 0 {
		t.Fatalf("passages after finishing the swap: %d, %v", pr.Total, err)
	}
	if _, err := os.Stat(next); !os.IsNotExist(err) {
		t.Errorf("next left behind: %v", err)
	}
}

// A swap stopped between moving the old notices index aside and moving the
// rebuilt one in leaves no notices.bleve: Open finishes the swap instead of
// starting an empty index.
func TestOpenFinishesASwapStoppedBetweenItsRenames(t *testing.T) {
	docs := searchtest.Fixtures()
	dir := t.TempDir()
	writeFormat1(t, dir, docs, nil, search.Observation{Source: "crol", ObservedAt: time.Date(2026, 8, 1, 0, 0, 0, 0, time.UTC)})
	b, err := Open(dir) // rebuilds and swaps
	if err != nil {
		t.Fatal(err)
	}
	b.Close()
	// put the state back to "notices moved aside, rebuilt one not yet in"
	next, prev := filepath.Join(dir, nextDir), filepath.Join(dir, oldDir)
	for _, d := range []string{next, prev} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Rename(filepath.Join(dir, indexNames[0]), filepath.Join(next, indexNames[0])); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(next, doneMarker), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	b, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	res, err := b.Search(context.Background(), search.Query{Limit: 1})
	if err != nil || res.Total != len(docs) {
		t.Fatalf("after finishing the swap: %d notices (%v), want %d", res.Total, err, len(docs))
	}
}

// An index from a newer Recordwatch is refused, not rewritten.
func TestOpenRefusesANewerFormat(t *testing.T) {
	dir := t.TempDir()
	b, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.notices.SetInternal(formatKey, []byte(strconv.Itoa(formatVersion+1))); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if b, err := Open(dir); err == nil {
		b.Close()
		t.Fatal("a newer format was opened")
	}
}

// A cursor written with format 1's numeric keys is refused with EINVALID
// instead of paging from the wrong place.
func TestFormat1CursorIsRefused(t *testing.T) {
	b, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	if err := b.Upsert(ctx, searchtest.Fixtures()); err != nil {
		t.Fatal(err)
	}
	for sort, v := range map[string]string{search.SortNewest: "1412654400", search.SortAmount: "1158788"} {
		_, err := b.Search(ctx, search.Query{Sort: sort, Limit: 2, Cursor: search.EncodeCursor(sort, []string{v, "20140930007"})})
		var re *record.Error
		if !errors.As(err, &re) || re.Code != record.EINVALID {
			t.Errorf("%s cursor %q: want EINVALID, got %v", sort, v, err)
		}
		res, err := b.Search(ctx, search.Query{Sort: sort, Limit: 2})
		if err != nil || res.NextCursor == "" {
			t.Fatalf("%s: %v", sort, err)
		}
		if _, err := b.Search(ctx, search.Query{Sort: sort, Limit: 2, Cursor: res.NextCursor}); err != nil {
			t.Errorf("%s: a current cursor was refused: %v", sort, err)
		}
	}
}
