package embedded

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// formatVersion names the layout of the indexed fields. Indexes written in
// an older layout are rebuilt at Open from their own stored documents, so an
// upgrade never needs the sources fetched again.
//
//	1: numeric sort keys, passage counts partly in internal keys
//	2: keyword sort keys (sortkeys.go), passage_count stored on every notice
//	3: uncompressed, unchunked doc values for sort keys, ids and facets
//	   (rawDocValues); zapx must not merge these with compressed segments
//	   of the same field
//	4: a notice's Raw source fields stored apart ("raw"), so searches do not
//	   decode them
//	5: entries.bleve (the retired entry documents) replaced by
//	   records.bleve (search.Record documents of every kind); a rebuild
//	   from an older format removes entries.bleve without converting it:
//	   the records of its sources are loaded again (indexer.EnsureSample)
//	6: text fields analyzed by recordwatch_en (search.CleanText before
//	   Bleve's "en" analysis: words joined by ':', '.' or an apostrophe
//	   are split, possessives removed)
//	7: records carry their vector (search.Record.Vector) in the stored
//	   field "vec" and the keyword "has_vec" (vectors.go); the graphs are
//	   in vectors.ann. A rebuild from 6 has no vector to carry (the
//	   semantic service writes them again); a later rebuild copies "vec"
//	   and the vector stamp
//	8: notices carry the keyword "vendor_name", which notice totals group
//	   by from columns (notice_totals.go)
//	9: text fields drop the tokens with no letter and no digit (a run of
//	   underscores), closing the gap (analysis.go wordsFilter)
//	10: a notice is stored as "hit" (what a result list reads, without
//	   its full text), "body" and "text" (each text once) and "raw",
//	   instead of "doc" (hit.go); a rebuild reads either
//	11: keyword fields keep no term vectors (keywordField): their postings
//	   carry no locations
//	12: "raw" holds the Raw values that Body holds verbatim as their place
//	   in Body, not a second copy (rawstore.go); a rebuild reads either
//	13: a passage whose text record.PassageAt renders again from its
//	   place in its notice's body is stored without it, rendered again
//	   when read (passagestore.go), and a notice's text that is its body's plain
//	   text (record.PlainText) is not stored apart (hit.go
//	   TextIsPlainBody); a rebuild reads either
const formatVersion = 13

// legacyEntries is the entries index of formats 1-4; a rebuild removes it.
const legacyEntries = "entries.bleve"

var formatKey = []byte("format")

// indexNames are the index directories under the data directory.
var indexNames = [...]string{"notices.bleve", "passages.bleve", "records.bleve"}

const (
	nextDir    = "next"     // a rebuild in progress
	oldDir     = "previous" // the indexes a finished rebuild replaces
	doneMarker = "complete" // in nextDir once the rebuild is whole
)

func readFormat(idx bleve.Index) (int, error) {
	v, err := idx.GetInternal(formatKey)
	if err != nil {
		return 0, err
	}
	if v == nil {
		return 1, nil // written before the format was recorded
	}
	return strconv.Atoi(string(v))
}

func writeFormat(idx bleve.Index) error {
	return idx.SetInternal(formatKey, []byte(strconv.Itoa(formatVersion)))
}

// finishSwap completes or discards a rebuild a stopped process left behind:
// a whole rebuild is moved into place, a partial one is removed (the old
// indexes are still in place and are rebuilt again).
func finishSwap(dir string) error {
	next := filepath.Join(dir, nextDir)
	if _, err := os.Stat(next); errors.Is(err, os.ErrNotExist) {
		return os.RemoveAll(filepath.Join(dir, oldDir))
	}
	if _, err := os.Stat(filepath.Join(next, doneMarker)); err != nil {
		return os.RemoveAll(next)
	}
	old := filepath.Join(dir, oldDir)
	if err := os.MkdirAll(old, 0o755); err != nil {
		return err
	}
	for _, name := range indexNames {
		src := filepath.Join(next, name)
		if _, err := os.Stat(src); err != nil {
			continue // already moved
		}
		cur := filepath.Join(dir, name)
		if _, err := os.Stat(cur); err == nil {
			if err := os.Rename(cur, filepath.Join(old, name)); err != nil {
				return err
			}
		}
		if err := os.Rename(src, cur); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(next); err != nil {
		return err
	}
	return os.RemoveAll(old)
}

// rebuild copies every stored notice, passage and record and the source
// observations of b (an older format) into new indexes under dir/next, then
// swaps them in and removes entries.bleve (formats before 5). b is closed.
func rebuild(dir string, b *Backend, from int) error {
	start := time.Now()
	slog.Info("embedded: rebuilding the indexes in the current format (once; the stored documents are kept)",
		"dir", dir, "from_format", from, "to_format", formatVersion)
	next := filepath.Join(dir, nextDir)
	if err := os.RemoveAll(next); err != nil {
		return err
	}
	// the bulk path (bulk.go): each index built by Bleve's offline builder
	var nb [len(indexNames)]*bulkIndex
	for i, m := range []*mapping.IndexMappingImpl{noticeMapping(), passageMapping(), recordMapping()} {
		bi, err := newBulkIndex(filepath.Join(next, indexNames[i]), m)
		if err != nil {
			for _, made := range nb[:i] {
				made.abandon()
			}
			b.Close()
			return err
		}
		nb[i] = bi
	}
	notices, passages, records := nb[0], nb[1], nb[2]
	counts, err := copyNotices(b.notices, notices)
	if err == nil {
		err = copyPassages(b.notices, b.passages, passages)
	}
	if err == nil {
		err = copyDocs(b.records, records, func(raw []byte, stored map[string]index.Field) (string, map[string]interface{}, error) {
			if raw == nil {
				return "", nil, errNoStored
			}
			var r search.Record
			if err := json.Unmarshal(raw, &r); err != nil {
				return "", nil, err
			}
			f, err := recordFields(r)
			if v, ok := stored["vec"]; ok && err == nil { // from format 7 on: the vector is carried as stored
				f["vec"], f["has_vec"] = string(v.Value()), r.Kind
			}
			return search.RecordDocID(r.Kind, r.ID), f, err
		})
	}
	if err == nil { // the graphs file stays in dir: its stamp still matches
		var stamp []byte
		if stamp, err = b.records.GetInternal(vectorStampKey); err == nil && stamp != nil {
			records.internal[string(vectorStampKey)] = stamp
		}
	}
	if err == nil {
		var obs []byte
		if obs, err = b.notices.GetInternal(observationsKey); err == nil && obs != nil {
			notices.internal[string(observationsKey)] = obs
		}
	}
	notices.internal[string(formatKey)] = []byte(strconv.Itoa(formatVersion))
	if err == nil {
		// each index's last segment and final merge, side by side
		errs := make([]error, len(nb))
		var wg sync.WaitGroup
		for i, bi := range nb {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = bi.close()
			}()
		}
		wg.Wait()
		err = errors.Join(errs...)
	} else {
		for _, bi := range nb {
			bi.abandon()
		}
	}
	err = errors.Join(err, b.Close())
	if err != nil {
		return fmt.Errorf("embedded: rebuild: %w", err)
	}
	if err := os.WriteFile(filepath.Join(next, doneMarker), nil, 0o644); err != nil {
		return err
	}
	if err := finishSwap(dir); err != nil {
		return fmt.Errorf("embedded: rebuild: %w", err)
	}
	// the entries of formats 1-4 are not converted: their kinds are
	// retired, and the records of their sources are loaded again
	// (indexer.EnsureSample); a stop before this leaves a stale directory
	// that the next Open removes
	if from < 5 {
		slog.Info("embedded: the entries index of an older format is removed; the payments, contracts and lots are loaded again from their sources")
	}
	if err := os.RemoveAll(filepath.Join(dir, legacyEntries)); err != nil {
		return fmt.Errorf("embedded: rebuild: %w", err)
	}
	slog.Info("embedded: rebuild done", "notices", counts, "took", time.Since(start).Round(time.Millisecond))
	return nil
}

// eachStored calls fn with the stored fields of every document in idx.
func eachStored(idx bleve.Index, fn func(id string, fields map[string]index.Field) error) error {
	ai, err := idx.Advanced()
	if err != nil {
		return err
	}
	r, err := ai.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	all, err := r.DocIDReaderAll()
	if err != nil {
		return err
	}
	defer all.Close()
	for {
		iid, err := all.Next()
		if err != nil {
			return err
		}
		if iid == nil {
			return nil
		}
		id, err := r.ExternalID(iid)
		if err != nil {
			return err
		}
		doc, err := r.Document(id)
		if err != nil {
			return err
		}
		if doc == nil {
			continue
		}
		fields := map[string]index.Field{}
		doc.VisitFields(func(f index.Field) { fields[f.Name()] = f })
		if err := fn(id, fields); err != nil {
			return fmt.Errorf("%s: %w", id, err)
		}
	}
}

const rebuildBatch = 1000

// errNoStored: a document without its stored JSON.
var errNoStored = errors.New("stored document is missing")

// copyDocs re-indexes every stored document of src into dst (the bulk
// path: analysed in parallel, rebuildBatch at a time): decode turns its
// stored fields (the JSON "doc", nil when absent, and all of them) into an
// id and fields.
func copyDocs(src bleve.Index, dst *bulkIndex, decode func(raw []byte, stored map[string]index.Field) (string, map[string]interface{}, error)) error {
	type decoded struct {
		id     string
		fields map[string]interface{}
	}
	batch := make([]decoded, 0, rebuildBatch)
	flush := func() error {
		docs, err := analyseAll(dst.m, batch, func(d decoded) (string, map[string]interface{}, error) { return d.id, d.fields, nil })
		if err != nil {
			return err
		}
		batch = batch[:0]
		return dst.add(docs)
	}
	err := eachStored(src, func(_ string, fields map[string]index.Field) error {
		var raw []byte
		if f, ok := fields["doc"]; ok {
			raw = f.Value()
		}
		id, doc, err := decode(raw, fields)
		if err != nil {
			return err
		}
		batch = append(batch, decoded{id, doc})
		if len(batch) >= rebuildBatch {
			return flush()
		}
		return nil
	})
	if err != nil {
		return err
	}
	return flush()
}

// copyNotices re-indexes every notice with its passage count: the stored
// passage_count, or in format 1 possibly an internal "pc:<id>" key. A
// notice is read from "doc" (formats 1 to 9) or from "hit", "body" and
// "text" (format 10 on).
func copyNotices(src bleve.Index, dst *bulkIndex) (int, error) {
	n := 0
	err := copyDocs(src, dst, func(raw []byte, stored map[string]index.Field) (string, map[string]interface{}, error) {
		no, err := oldNotice(raw, stored)
		if err != nil {
			return "", nil, err
		}
		if f, ok := stored["raw"]; ok { // format 4 keeps Raw apart
			if no.Raw, err = decodeRaw(f.Value(), no.Body); err != nil {
				return "", nil, err
			}
		}
		count := 0
		if nf, ok := stored["passage_count"].(index.NumericField); ok {
			v, err := nf.Number()
			if err != nil {
				return "", nil, err
			}
			count = int(v)
		} else if v, err := src.GetInternal([]byte("pc:" + no.RequestID)); err != nil {
			return "", nil, err
		} else if v != nil {
			if count, err = strconv.Atoi(string(v)); err != nil {
				return "", nil, err
			}
		}
		f, err := noticeFields(no, count)
		n++
		return no.RequestID, f, err
	})
	return n, err
}

// oldNotice is a stored notice but Raw: doc's JSON (formats 1 to 9), or
// read from "hit", "body" and "text".
func oldNotice(doc []byte, stored map[string]index.Field) (record.Notice, error) {
	if doc != nil {
		var n record.Notice
		err := json.Unmarshal(doc, &n)
		return n, err
	}
	value := func(name string) []byte {
		if f, ok := stored[name]; ok {
			return f.Value()
		}
		return nil
	}
	sh, err := decodeHit(value("hit"))
	if err != nil {
		return record.Notice{}, err
	}
	return sh.notice(string(value("body")), string(value("text")), false), nil
}
