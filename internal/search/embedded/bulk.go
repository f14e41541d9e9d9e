package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/util"
	index "github.com/blevesearch/bleve_index_api"
	"github.com/sourcegraph/conc/iter"

	"github.com/recordwatch/recordwatch/internal/search"
)

// The bulk load path (issue 50, item 5). A first load (the notices and
// passages indexes empty: BeginBulk) and a format rebuild (migrate.go) do
// not write through the live indexes batch by batch, where every batch is
// a snapshot, an in-memory segment merged again and again as the index
// grows, and after each write the coverage and, once writes are quiet, the
// warm-up read the new segments. They go through Bleve's offline builder
// (scorch.Builder): documents are analysed in parallel, on as many
// goroutines as GOMAXPROCS, into segments of BulkSegmentDocs written once
// each, merged BulkMergeWidth at a time into one segment when the load
// ends; no
// coverage, warm-up or word read runs meanwhile. The records' vectors
// written during a bulk load go to the records index as always but not
// into the nearest-neighbour graphs: those are built once after the text,
// from the stored vectors (EndBulk).
//
// A bulk load is visible when it ends (EndBulk): until then reads answer
// from the indexes as they were (empty). A process stopped during one
// leaves the indexes empty and its files under "bulk", removed at the next
// Open; the load starts again (indexer.EnsureSample). A notice written
// twice in one load ends the bulk load there (Bleve's builder takes each
// document once): the rest is written through the live indexes, which
// replace a copy with the next.

// BulkSegmentDocs is how many documents the builder puts in each segment
// before it merges them (bigger segments, fewer merges; each holds its
// analysed documents in memory until written).
var BulkSegmentDocs = 1000

// BulkMergeWidth is how many of its segments the builder merges into one
// at a time when the load ends (Bleve's default is 10): a wider merge
// writes each document fewer times (at 1,000 documents a segment, one
// level of merges up to 100,000 documents, two up to ten million).
var BulkMergeWidth = 100

// bulkDir is where a bulk load builds its indexes, under the data
// directory.
const bulkDir = "bulk"

// bulkIndex is one index being built by Bleve's offline builder. Its
// builder writes on a goroutine of its own, while the next documents are
// analysed: at most bulkQueued batches wait for it.
type bulkIndex struct {
	path     string // the index directory (index_meta.json, store)
	m        mapping.IndexMapping
	b        *scorch.Builder
	internal map[string][]byte // written with the index when it closes
	docs     int

	queue chan []index.Document
	done  chan struct{} // closed when the writer has stopped
	mu    sync.Mutex
	err   error // the writer's first error
}

// bulkQueued bounds the analysed batches waiting for a builder.
const bulkQueued = 1

// newBulkIndex starts building the index of mapping m at path (which must
// not exist): its index_meta.json as bleve.New writes it, its store left
// to the builder, whose segments are written under path too.
func newBulkIndex(path string, m *mapping.IndexMappingImpl) (*bulkIndex, error) {
	idx, err := bleve.NewUsing(path, m, bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, scorchConfig())
	if err != nil {
		return nil, fmt.Errorf("embedded: create %s: %w", path, err)
	}
	if err := idx.Close(); err != nil {
		return nil, err
	}
	store := filepath.Join(path, "store")
	if err := os.RemoveAll(store); err != nil {
		return nil, err
	}
	mb, err := util.MarshalJSON(m)
	if err != nil {
		return nil, err
	}
	internal := map[string][]byte{string(util.MappingInternalKey): mb}
	b, err := scorch.NewBuilder(map[string]interface{}{
		"path":            store,
		"buildPathPrefix": path,
		"batchSize":       BulkSegmentDocs,
		"mergeMax":        BulkMergeWidth,
		"internal":        internal, // the builder keeps this map: keys set before Close are written
	})
	if err != nil {
		return nil, fmt.Errorf("embedded: bulk builder for %s: %w", path, err)
	}
	bi := &bulkIndex{path: path, m: m, b: b, internal: internal,
		queue: make(chan []index.Document, bulkQueued), done: make(chan struct{})}
	go bi.write()
	return bi, nil
}

// write gives the builder each batch queued, in order, until the queue
// closes (after an error it only drains the queue).
func (bi *bulkIndex) write() {
	defer close(bi.done)
	for docs := range bi.queue {
		if bi.failed() != nil {
			continue
		}
		for _, d := range docs {
			if err := bi.b.Index(d); err != nil {
				bi.mu.Lock()
				bi.err = fmt.Errorf("embedded: bulk write to %s: %w", bi.path, err)
				bi.mu.Unlock()
				break
			}
		}
	}
}

func (bi *bulkIndex) failed() error {
	bi.mu.Lock()
	defer bi.mu.Unlock()
	return bi.err
}

// add queues documents analysed already (analyse) for the builder, in
// order; it fails with the builder's error once it has one.
func (bi *bulkIndex) add(docs []index.Document) error {
	if err := bi.failed(); err != nil {
		return err
	}
	bi.queue <- docs
	bi.docs += len(docs)
	return nil
}

// stop waits for the builder to take every batch queued.
func (bi *bulkIndex) stop() error {
	if bi.queue != nil {
		close(bi.queue)
		bi.queue = nil
		<-bi.done
	}
	return bi.failed()
}

// close writes the last segment and merges them all into one. An index
// that took no document is left as an empty index.
func (bi *bulkIndex) close() error {
	if err := bi.stop(); err != nil {
		return err
	}
	if bi.docs == 0 {
		// Bleve's builder cannot close without a segment: an empty index
		idx, err := bleve.NewUsing(bi.path+".empty", bi.m, bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, scorchConfig())
		if err != nil {
			return err
		}
		for k, v := range bi.internal {
			if k == string(util.MappingInternalKey) {
				continue
			}
			if err := idx.SetInternal([]byte(k), v); err != nil {
				idx.Close()
				return err
			}
		}
		if err := idx.Close(); err != nil {
			return err
		}
		if err := os.RemoveAll(bi.path); err != nil {
			return err
		}
		return os.Rename(bi.path+".empty", bi.path)
	}
	return bi.b.Close()
}

// abandon stops the builder and removes what it wrote.
func (bi *bulkIndex) abandon() {
	_ = bi.stop()
	_ = os.RemoveAll(bi.path)
}

// analysed is a document whose fields a bulk worker analysed already: the
// builder's own analysis, on its one goroutine, is then a no-op.
type analysed struct{ *document.Document }

// AddIDField: added (and analysed) by analyse.
func (analysed) AddIDField() {}

func (d analysed) VisitFields(visit index.FieldVisitor) {
	d.Document.VisitFields(func(f index.Field) { visit(analysedField{f}) })
}

// analysedField is a field analysed already.
type analysedField struct{ index.Field }

func (analysedField) Analyze() {}

// analyse maps fields through m (mapDoc) and analyses the document as the
// builder would (its id field included).
func analyse(m mapping.IndexMapping, id string, fields map[string]interface{}) (index.Document, error) {
	doc, err := mapDoc(m, id, fields)
	if err != nil {
		return nil, err
	}
	doc.AddIDField()
	doc.VisitFields(func(f index.Field) {
		if !f.Options().IsIndexed() {
			return
		}
		f.Analyze()
		if doc.HasComposite() && f.Name() != "_id" {
			doc.VisitComposite(func(cf index.CompositeField) {
				cf.Compose(f.Name(), f.AnalyzedLength(), f.AnalyzedTokenFrequencies())
			})
		}
	})
	return analysed{doc}, nil
}

// analyseAll analyses items in parallel (at most GOMAXPROCS at a time),
// keeping their order; each item gives its id and fields.
func analyseAll[T any](m mapping.IndexMapping, items []T, fields func(T) (string, map[string]interface{}, error)) ([]index.Document, error) {
	type out struct {
		doc index.Document
		err error
	}
	it := iter.Mapper[T, out]{MaxGoroutines: runtime.GOMAXPROCS(0)}
	res := it.Map(items, func(v *T) out {
		id, f, err := fields(*v)
		if err != nil {
			return out{err: err}
		}
		d, err := analyse(m, id, f)
		return out{d, err}
	})
	docs := make([]index.Document, len(res))
	for i, r := range res {
		if r.err != nil {
			return nil, r.err
		}
		docs[i] = r.doc
	}
	return docs, nil
}

// bulkLoad is a first load in progress (BeginBulk to EndBulk).
type bulkLoad struct {
	dir                string // dir/bulk
	notices, passages  *bulkIndex
	seen               map[string]bool // request ids written
	observations       map[string]search.Observation
	vectorsDeferred    bool // records' vectors written meanwhile: the graphs are built at the end
	started            time.Time
	noticeN, passageN  int
	finished, abandons int
}

// BulkLoads counts the bulk loads that ended with their indexes swapped in
// (a first load's, EndBulk's, and a format rebuild's): tests read which
// path a load took.
func (b *Backend) BulkLoads() int {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	return b.bulkLoads
}

// BeginBulk starts a bulk load when the notices and passages indexes are
// empty and none is running, and reports whether it did. Until EndBulk,
// notices written (Upsert) and sources observed (Observe) go to the bulk
// load, invisible to reads.
func (b *Backend) BeginBulk(ctx context.Context) (bool, error) {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	if b.bulk != nil {
		return false, nil
	}
	for _, idx := range []bleve.Index{b.notices, b.passages} {
		n, err := idx.DocCount()
		if err != nil {
			return false, unavailable(err)
		}
		if n > 0 {
			return false, nil
		}
	}
	dir := filepath.Join(b.dir, bulkDir)
	if err := os.RemoveAll(dir); err != nil {
		return false, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	nb, err := newBulkIndex(filepath.Join(dir, indexNames[0]), noticeMapping())
	if err != nil {
		return false, err
	}
	pb, err := newBulkIndex(filepath.Join(dir, indexNames[1]), passageMapping())
	if err != nil {
		os.RemoveAll(dir)
		return false, err
	}
	b.bulk = &bulkLoad{dir: dir, notices: nb, passages: pb, seen: map[string]bool{},
		observations: map[string]search.Observation{}, started: time.Now()}
	slog.Debug("embedded: bulk load started", "dir", dir)
	return true, nil
}

// Bulk reports whether a bulk load is running.
func (b *Backend) Bulk() bool {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	return b.bulk != nil
}

// upsertBulk writes docs to the bulk load running, if any, and reports
// whether it did; a notice written before in this load ends the bulk load
// (Upsert then writes them through the live indexes). Upsert's postponing
// of warm-ups and coverage do not run for a bulk write.
func (b *Backend) upsertBulk(docs []search.Doc) (bool, error) {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	if b.bulk == nil {
		return false, nil
	}
	done, err := b.bulkUpsert(docs)
	if done || err != nil {
		return true, err
	}
	slog.Info("embedded: a notice written twice in one load: the load goes on through the live indexes")
	return false, b.endBulk()
}

// observeBulk records o for the bulk load running, if any, and reports
// whether it did.
func (b *Backend) observeBulk(o search.Observation) bool {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	if b.bulk == nil {
		return false
	}
	b.bulk.observations[o.Source] = o
	return true
}

// deferVectors reports whether a bulk load runs, noting that the graphs
// are to be built when it ends (PutRecords then leaves them alone).
func (b *Backend) deferVectors() bool {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	if b.bulk == nil {
		return false
	}
	b.bulk.vectorsDeferred = true
	return true
}

// bulkUpsert writes docs to the bulk load (bmu held). It reports false,
// having written nothing, when one of them was written before in this load:
// the caller ends the bulk load and writes them through the live indexes.
func (b *Backend) bulkUpsert(docs []search.Doc) (bool, error) {
	bl := b.bulk
	// a copy later in docs replaces an earlier one (as Upsert's parts do)
	last := make(map[string]int, len(docs))
	for i, d := range docs {
		if bl.seen[d.Notice.RequestID] {
			return false, nil
		}
		last[d.Notice.RequestID] = i
	}
	kept := make([]search.Doc, 0, len(last))
	for i, d := range docs {
		if last[d.Notice.RequestID] == i {
			kept = append(kept, d)
		}
	}
	nd, err := analyseAll(bl.notices.m, kept, func(d search.Doc) (string, map[string]interface{}, error) {
		f, err := noticeFields(d.Notice, len(d.Passages))
		return d.Notice.RequestID, f, err
	})
	if err != nil {
		return true, err
	}
	var ps []bodyPassage
	for _, d := range kept {
		for _, p := range d.Passages {
			ps = append(ps, bodyPassage{p, d.Notice.Body})
		}
	}
	pd, err := analyseAll(bl.passages.m, ps, func(p bodyPassage) (string, map[string]interface{}, error) {
		f, err := passageFields(p.Passage, p.body)
		return p.ID, f, err
	})
	if err != nil {
		return true, err
	}
	// the two builders write their segments side by side, and while the
	// next batch is analysed
	if err := errors.Join(bl.notices.add(nd), bl.passages.add(pd)); err != nil {
		return true, err
	}
	for _, d := range kept {
		bl.seen[d.Notice.RequestID] = true
	}
	bl.noticeN += len(nd)
	bl.passageN += len(pd)
	return true, nil
}

// EndBulk ends the bulk load running, if any: the builders' segments are
// merged, the indexes built replace the empty ones, the sources observed
// meanwhile are recorded, and the nearest-neighbour graphs are built from
// the stored vectors when vectors were written meanwhile. The coverage and
// the warm-up run as after an Open. Reads must not run while it swaps the
// indexes (a first load runs before the service serves).
func (b *Backend) EndBulk(ctx context.Context) error {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	return b.endBulk()
}

// endBulk is EndBulk with bmu held.
func (b *Backend) endBulk() error {
	bl := b.bulk
	if bl == nil {
		return nil
	}
	b.bulk = nil
	fail := func(err error) error {
		bl.notices.abandon()
		bl.passages.abandon()
		_ = os.RemoveAll(bl.dir)
		return fmt.Errorf("embedded: end the bulk load: %w", err)
	}
	obs, err := json.Marshal(bl.observations)
	if err != nil {
		return fail(err)
	}
	if len(bl.observations) > 0 {
		// with those held before (none: the index was empty; kept anyway)
		held := b.observations()
		for k, v := range bl.observations {
			held[k] = v
		}
		if obs, err = json.Marshal(held); err != nil {
			return fail(err)
		}
		bl.notices.internal[string(observationsKey)] = obs
	}
	bl.notices.internal[string(formatKey)] = []byte(fmt.Sprint(formatVersion))
	// the graphs (from the records index) are built while the builders
	// merge their segments
	var wg sync.WaitGroup
	var perr, gerr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		perr = bl.passages.close()
	}()
	if bl.vectorsDeferred {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gerr = b.rebuildGraphs()
		}()
	}
	nerr := bl.notices.close()
	wg.Wait()
	if err := errors.Join(nerr, perr); err != nil {
		return fail(errors.Join(err, gerr))
	}
	if err := b.swapText(bl.dir); err != nil {
		return fail(errors.Join(err, gerr))
	}
	_ = os.RemoveAll(bl.dir)
	if gerr != nil {
		return gerr
	}
	b.bulkLoads++
	b.stale()
	slog.Info("embedded: bulk load done", "notices", bl.noticeN, "passages", bl.passageN,
		"took", time.Since(bl.started).Round(time.Millisecond))
	return nil
}

// abandonBulk drops a bulk load not ended (Close).
func (b *Backend) abandonBulk() {
	b.bmu.Lock()
	defer b.bmu.Unlock()
	if b.bulk != nil {
		b.bulk.notices.abandon()
		b.bulk.passages.abandon()
		_ = os.RemoveAll(b.bulk.dir)
		b.bulk = nil
	}
}

// swapText replaces the (empty) notices and passages indexes with those
// built under from, and starts their caches, coverage and warm-up afresh
// as Open does.
func (b *Backend) swapText(from string) error {
	for _, idx := range []bleve.Index{b.notices, b.passages} {
		forgetMerges(idx)
	}
	b.noticeSums.halt()
	b.topNotices.warmer.halt()
	b.topPassages.warmer.halt()
	if err := errors.Join(b.notices.Close(), b.passages.Close()); err != nil {
		return err
	}
	for _, name := range indexNames[:2] {
		cur := filepath.Join(b.dir, name)
		if err := os.RemoveAll(cur); err != nil {
			return err
		}
		if err := os.Rename(filepath.Join(from, name), cur); err != nil {
			return err
		}
	}
	n, err := openIndex(filepath.Join(b.dir, indexNames[0]), noticeMapping())
	if err != nil {
		return err
	}
	p, err := openIndex(filepath.Join(b.dir, indexNames[1]), passageMapping())
	if err != nil {
		n.Close()
		return err
	}
	b.notices, b.passages = n, p
	b.topNotices, b.topPassages = newTopIndex(n), newTopIndex(p)
	shareWords(b.topRecords, b.topNotices, b.topPassages)
	b.noticeSums = &recordTotals{fields: noticeColumns}
	b.cov.mu.Lock()
	b.cov.segs = nil
	b.cov.mu.Unlock()
	b.cmu.Lock()
	b.noticeGen++
	b.coverage = nil
	b.cmu.Unlock()
	_, _ = b.refreshCoverage(context.Background())
	b.warm()
	onMerge(n, b.warmSoon)
	onMerge(p, b.warmSoon)
	return nil
}
