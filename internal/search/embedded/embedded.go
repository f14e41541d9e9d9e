// Package embedded is the default search engine: Bleve indexes on local disk
// under the data directory, no server to install. One process owns the files
// (they are locked), which is why the "all" role runs API, indexer and mailer
// together over it.
package embedded

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/sourcegraph/conc/iter"
	"github.com/sourcegraph/conc/pool"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Backend is the Bleve engine.
type Backend struct {
	// closed is set by Close: reads answered from kept values (coverage,
	// sections) then fail as the indexes' reads do
	closed   atomic.Bool
	dir      string
	notices  bleve.Index
	passages bleve.Index
	records  bleve.Index // every read-model record: contracts, payments, lots, … (records.go)

	vec *vectors // record vectors' nearest-neighbour graphs (vectors.go)

	topNotices  *topIndex     // the ranked text path over notices (topk.go)
	topPassages *topIndex     // and over passages
	totals      recordTotals  // the records' totals columns (records_totals.go)
	noticeSums  *recordTotals // the notices' totals columns (notice_totals.go)

	mu       sync.Mutex // serializes observation updates
	cmu      sync.Mutex
	gen      uint64                   // bumped by every write
	coverage []record.SourceCoverage  // kept since the last notice write (coverage.go); nil: none
	sections []search.SectionCoverage // kept with it (Sections)
	// noticeGen counts notice writes; coverageGen is the count coverage
	// was computed after, coverageAt its future cutoff
	noticeGen, coverageGen uint64
	coverageAt             time.Time
	cov                    coverageFlight
	// recordCoverage is RecordCoverage's, cached the same way
	recordCoverage []record.SourceCoverage
	rcov           sync.Mutex // serializes RecordCoverage's computations
	rcovRuns       int        // computations done (tests count them)
	rcovSegs       recordCoverageFlight
	topRecords     *topIndex // the records' columns and facet values (records_coverage.go)

	bmu       sync.Mutex
	bulk      *bulkLoad // a first load in progress (bulk.go); nil: none
	bulkLoads int       // bulk loads done (BulkLoads)

	dmu    sync.Mutex
	damage []search.Damage // segments refused as damaged, not yet reloaded (integrity.go)

	// Now is the clock of the coverage's date bound
	// (record.FutureCutoff); nil: time.Now.
	Now func() time.Time
}

var (
	_ search.Engine    = (*Backend)(nil)
	_ search.Integrity = (*Backend)(nil)
)

// Open opens (or creates) the indexes under dir. It fails fast when another
// process holds them, naming that cause or any other (permissions, a file
// in place of the directory). Every segment is verified first and a
// damaged one refused (integrity.go: Damaged). Indexes in an older format
// are rebuilt first (migrate.go).
func Open(dir string) (*Backend, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, openFault(dir, err)
	}
	// before anything else: a swap stopped between its renames leaves no
	// notices.bleve, and the directory must not be taken for a new one
	if err := finishSwap(dir); err != nil {
		return nil, fmt.Errorf("embedded: finish an interrupted rebuild in %s: %w", dir, err)
	}
	// a bulk load a stopped process left (bulk.go): the indexes it was
	// to replace are still empty, and the load starts again
	if err := os.RemoveAll(filepath.Join(dir, bulkDir)); err != nil {
		return nil, openFault(dir, err)
	}
	damage, err := refuseDamaged(dir)
	if err != nil {
		return nil, err
	}
	b, err := openFormat(dir)
	if err != nil {
		return nil, err
	}
	b.damage = damage
	return b, nil
}

// refuseDamaged refuses the damaged segments under dir (checkSegments) and
// returns every damage not yet repaired, this open's and earlier ones'.
func refuseDamaged(dir string) ([]search.Damage, error) {
	damage, err := readDamage(dir)
	if err != nil {
		return nil, openFault(filepath.Join(dir, damageFile), err)
	}
	found, err := checkSegments(dir, time.Now())
	if err != nil {
		return nil, err
	}
	if len(found) > 0 {
		damage = append(damage, found...)
		if err := writeDamage(dir, damage); err != nil {
			return nil, fmt.Errorf("embedded: record the damaged segments: %w", err)
		}
	}
	return damage, nil
}

// openFormat opens the indexes under dir, rebuilding them first when they
// are of an older format.
func openFormat(dir string) (*Backend, error) {
	_, statErr := os.Stat(filepath.Join(dir, indexNames[0]))
	fresh := errors.Is(statErr, os.ErrNotExist)
	b, err := openAll(dir)
	if err != nil {
		return nil, err
	}
	format := formatVersion
	if !fresh {
		if format, err = readFormat(b.notices); err != nil {
			b.Close()
			return nil, fmt.Errorf("embedded: read the index format: %w", err)
		}
	}
	switch {
	case format == formatVersion && fresh:
		if err := writeFormat(b.notices); err != nil {
			b.Close()
			return nil, err
		}
	case format == formatVersion:
		// a rebuild from format 4 or older stopped before removing its
		// entries index
		if err := os.RemoveAll(filepath.Join(dir, legacyEntries)); err != nil {
			b.Close()
			return nil, fmt.Errorf("embedded: %w", err)
		}
	case format > formatVersion:
		b.Close()
		return nil, fmt.Errorf("embedded: %s was written by a newer Recordwatch (index format %d; this one reads %d)", dir, format, formatVersion)
	case format < formatVersion:
		if err := rebuild(dir, b, format); err != nil {
			return nil, err
		}
		nb, err := openAll(dir)
		if err != nil {
			return nil, err
		}
		nb.bulkLoads++ // the rebuild took the bulk path (bulk.go)
		return nb, nil
	}
	return b, nil
}

// openAll opens (or creates) the three indexes under dir as they are.
func openAll(dir string) (*Backend, error) {
	n, err := openIndex(filepath.Join(dir, indexNames[0]), noticeMapping())
	if err != nil {
		return nil, err
	}
	p, err := openIndex(filepath.Join(dir, indexNames[1]), passageMapping())
	if err != nil {
		n.Close()
		return nil, err
	}
	r, err := openIndex(filepath.Join(dir, indexNames[2]), recordMapping())
	if err != nil {
		n.Close()
		p.Close()
		return nil, err
	}
	b := &Backend{dir: dir, notices: n, passages: p, records: r, topNotices: newTopIndex(n), topPassages: newTopIndex(p), topRecords: newTopIndex(r),
		noticeSums: &recordTotals{fields: noticeColumns}}
	b.totals.fields = recordColumns
	shareWords(b.topRecords, b.topNotices, b.topPassages)
	if err := b.openVectors(); err != nil {
		b.Close()
		return nil, err
	}
	// every answer's scope reads the coverage: computed now, no request
	// computes it (one that fails leaves none kept: the first read does)
	_, _ = b.refreshCoverage(context.Background())
	b.recordsWritten()
	b.totals.warm(r)
	b.warm()
	onMerge(r, func() { b.totals.warmer.soon(func() { b.totals.warm(r) }) })
	onMerge(n, b.warmSoon)
	onMerge(p, b.warmSoon)
	return b, nil
}

// warm reads ahead, in the background, what the first queries after a
// start or a load would otherwise read: the notices' totals columns, and
// the commonest words and sort columns of notices and passages (warm.go).
func (b *Backend) warm() {
	b.noticeSums.warm(b.notices)
	cols := make([]string, 0, len(noticeSortKeys))
	for _, k := range noticeSortKeys {
		cols = append(cols, k.field)
	}
	slices.Sort(cols)
	facets := slices.Sorted(maps.Values(noticeFacets))
	b.topNotices.warm(warmSpec{field: "content", boostField: "title", pivot: NoticePivot, columns: cols, facets: facets})
	b.topPassages.warm(warmSpec{field: "text", pivot: PassagePivot})
}

// Warming says whether a warm-up runs or is asked for: from Open until
// the start-up's has read every segment's columns and commonest words
// (and again while one follows a load or a merge). Queries are answered
// meanwhile, the first ones reading what they need themselves; a
// benchmark waits for it to be false before it times them.
func (b *Backend) Warming() bool {
	return b.topNotices.warmer.busy() || b.topPassages.warmer.busy() || b.totals.warmer.busy() || b.noticeSums.warmer.busy()
}

// warmSoon is warm once the notices have been quiet (a merge's).
func (b *Backend) warmSoon() { b.topNotices.warmer.soon(b.warm) }

// postponeWarmUps tells the warm-ups waiting on merges that a write came.
func (b *Backend) postponeWarmUps() {
	b.topNotices.warmer.postpone()
	b.totals.warmer.postpone()
}

// scorchConfig is a new map each time: Bleve writes into the one it is
// given. (Batches stay synchronous: "unsafe_batch", which returns before a
// batch is on disk, gained nothing measurable in bulk loads, which are CPU
// bound on 2 cores.)
func scorchConfig() map[string]interface{} {
	return map[string]interface{}{"bolt_timeout": "1s", "eventCallbackName": eventCallback}
}

func openIndex(path string, m mapping.IndexMapping) (bleve.Index, error) {
	idx, err := bleve.OpenUsing(path, scorchConfig())
	if err == nil {
		return idx, nil
	}
	if !errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		return nil, openFault(path, err)
	}
	idx, err = bleve.NewUsing(path, m, bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, scorchConfig())
	if err != nil {
		return nil, fmt.Errorf("embedded: create %s: %w", path, err)
	}
	return idx, nil
}

// Name identifies the engine.
func (b *Backend) Name() string { return "embedded" }

// Close writes the nearest-neighbour graphs (when they changed) and closes
// the indexes.
func (b *Backend) Close() error {
	b.closed.Store(true)
	b.abandonBulk()
	for _, idx := range []bleve.Index{b.notices, b.passages, b.records} {
		forgetMerges(idx)
	}
	b.totals.halt()
	b.noticeSums.halt()
	b.topNotices.warmer.halt()
	b.topPassages.warmer.halt()
	var err error
	if b.vec != nil {
		err = b.saveVectors()
	}
	return errors.Join(err, b.notices.Close(), b.passages.Close(), b.records.Close())
}

// Generation counts the writes through this value (search.Engine).
func (b *Backend) Generation() uint64 {
	b.cmu.Lock()
	defer b.cmu.Unlock()
	return b.gen
}

func (b *Backend) stale() {
	b.cmu.Lock()
	b.gen++
	b.cmu.Unlock()
}

// ---- writing

func noticeFields(n record.Notice, passages int) (map[string]interface{}, error) {
	var src []byte
	if len(n.Raw) > 0 {
		var err error
		if src, err = encodeRaw(n.Raw, n.Body); err != nil { // without what Body holds (rawstore.go)
			return nil, err
		}
	}
	hit, body, text, err := noticeStored(n)
	if err != nil {
		return nil, err
	}
	content := strings.Join(nonEmpty(n.Title, n.AgencyName, n.VendorName, n.PIN, n.Text), "\n")
	d := map[string]interface{}{
		"request_id":       n.RequestID,
		"source":           n.Source,
		"section":          n.Section,
		"lenses":           n.Lenses,
		"notice_type":      n.NoticeType,
		"agency_id":        n.AgencyID,
		"agency_raw":       n.AgencyRaw,
		"vendor_stem":      n.VendorStem,
		"vendor_name":      n.VendorName,
		"pin":              n.PIN,
		"year":             n.Year(),
		"content":          content,
		"title":            n.Title,
		"amount_valid":     n.AmountValid,
		"due_rolling":      n.DueRolling,
		"sort_start_desc":  keyMissingLow,
		"sort_start_asc":   keyMissingHigh,
		"sort_due":         keyMissingHigh,
		"sort_event":       keyMissingHigh,
		"sort_amount_desc": keyMissingLow,
		"hit":              hit,
		"body":             body,
		"text":             text,
	}
	if n.AmountValid {
		d["amount"] = n.Amount
		d["sort_amount_desc"] = amountKey(n.Amount)
	}
	if !n.StartDate.IsZero() {
		d["start_date"] = n.StartDate
		k := timeKey(n.StartDate)
		d["sort_start_desc"] = k
		d["sort_start_asc"] = k
	}
	if !n.DueDate.IsZero() {
		d["due_date"] = n.DueDate
		d["sort_due"] = timeKey(n.DueDate)
	}
	if !n.EventDate.IsZero() {
		d["event_date"] = n.EventDate
		d["sort_event"] = timeKey(n.EventDate)
	}
	for k, v := range d {
		if s, ok := v.(string); ok && s == "" {
			delete(d, k)
		}
	}
	if src != nil {
		d["raw"] = string(src)
	}
	d["passage_count"] = float64(passages)
	return d, nil
}

// passageFields are the fields of p; body is its notice's body, from
// which its text is read again (passagestore.go).
func passageFields(p record.Passage, body string) (map[string]interface{}, error) {
	raw, err := encodePassage(p, body)
	if err != nil {
		return nil, err
	}
	d := map[string]interface{}{
		"id":         p.ID,
		"request_id": p.RequestID,
		"source":     p.Source,
		"lenses":     p.Lenses,
		"agency_id":  p.AgencyID,
		"text":       p.Text,
		"doc":        string(raw),
	}
	if !p.StartDate.IsZero() {
		d["start_date"] = p.StartDate
	}
	return d, nil
}

func nonEmpty(ss ...string) []string {
	out := ss[:0:0]
	for _, s := range ss {
		if strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return out
}

// passageCounts reads how many passages each notice was last written with:
// one doc-id search per batch over the notices' stored passage_count. (A
// per-notice internal key would be copied into every Bleve snapshot and make
// bulk loads quadratic.)
func (b *Backend) passageCounts(ids []string) map[string]int {
	out := make(map[string]int, len(ids))
	if len(ids) == 0 {
		return out
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.Fields = []string{"passage_count"}
	res, err := b.notices.Search(req)
	if err != nil {
		return out
	}
	for _, h := range res.Hits {
		if v, ok := h.Fields["passage_count"].(float64); ok {
			out[h.ID] = int(v)
		}
	}
	return out
}

// Upsert writes notices and their passages; a notice's passages from an
// earlier version are removed. A large call is cut into parts (upsertParts)
// written side by side, each a passages batch and then a notices batch, so
// a reader never sees a notice whose passages are missing. Every batch is
// built before any is written: a notice that cannot be encoded fails the
// call with nothing written.
func (b *Backend) Upsert(ctx context.Context, docs []search.Doc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		if d.Notice.RequestID == "" {
			return record.Invalid("request_id", "a notice without a request id cannot be indexed")
		}
		ids = append(ids, d.Notice.RequestID)
	}
	if done, err := b.upsertBulk(docs); done || err != nil {
		return err
	}
	b.postponeWarmUps()
	defer b.stale()
	defer b.noticesWritten()
	counts := b.passageCounts(ids)
	type batches struct {
		nb, pb *bleve.Batch
		err    error
	}
	built := iter.Map(partition(docs, upsertParts(len(docs))), func(part *[]search.Doc) batches {
		nb, pb, err := b.batches(*part, counts)
		return batches{nb, pb, err}
	})
	for _, bs := range built {
		if bs.err != nil {
			return bs.err
		}
	}
	writes := pool.New().WithErrors()
	for _, bs := range built {
		writes.Go(func() error {
			// passages first: a reader never sees a notice whose passages are missing
			if err := b.passages.Batch(bs.pb); err != nil {
				return fmt.Errorf("embedded: write passages: %w", err)
			}
			if err := b.notices.Batch(bs.nb); err != nil {
				return fmt.Errorf("embedded: write notices: %w", err)
			}
			return nil
		})
	}
	return writes.Wait()
}

// upsertPart is the fewest notices worth a part of their own: a Bleve batch
// builds its segment on one core (zap's interim.convert, about a third of
// indexing CPU), so two parts written side by side keep both cores of a
// small machine busy, and each part's segment stays as large as a whole
// batch of the indexer's used to be.
const upsertPart = 500

// upsertParts is how many parts n notices are written in.
func upsertParts(n int) int {
	return max(1, min(runtime.GOMAXPROCS(0), n/upsertPart))
}

// partition cuts docs into k parts by request id, in order within each part:
// copies of one notice land in the same part, where the last one wins.
func partition(docs []search.Doc, k int) [][]search.Doc {
	if k <= 1 {
		return [][]search.Doc{docs}
	}
	parts := make([][]search.Doc, k)
	for _, d := range docs {
		h := fnv.New32a()
		h.Write([]byte(d.Notice.RequestID))
		i := int(h.Sum32() % uint32(k))
		parts[i] = append(parts[i], d)
	}
	return slices.DeleteFunc(parts, func(p []search.Doc) bool { return len(p) == 0 })
}

// batches builds the notices batch and the passages batch of docs; counts
// (read-only) holds how many passages each notice was last written with.
func (b *Backend) batches(docs []search.Doc, counts map[string]int) (nb, pb *bleve.Batch, err error) {
	nb = b.notices.NewBatch()
	pb = b.passages.NewBatch()
	seen := make(map[string]int) // passages of a copy earlier in docs
	for _, d := range docs {
		id := d.Notice.RequestID
		fields, err := noticeFields(d.Notice, len(d.Passages))
		if err != nil {
			return nil, nil, err
		}
		if err := add(nb, b.notices.Mapping(), id, fields); err != nil {
			return nil, nil, err
		}
		old, ok := seen[id]
		if !ok {
			old = counts[id]
		}
		for ; old > len(d.Passages); old-- {
			pb.Delete(id + "#p" + strconv.Itoa(old))
		}
		for _, p := range d.Passages {
			pf, err := passageFields(p, d.Notice.Body)
			if err != nil {
				return nil, nil, err
			}
			if err := add(pb, b.passages.Mapping(), p.ID, pf); err != nil {
				return nil, nil, err
			}
		}
		seen[id] = len(d.Passages) // a later copy in the same batch sees this one
	}
	return nb, pb, nil
}

// Delete removes notices and their passages.
func (b *Backend) Delete(ctx context.Context, ids []string) error {
	if err := b.EndBulk(ctx); err != nil {
		return err
	}
	b.postponeWarmUps()
	defer b.stale()
	defer b.noticesWritten()
	nb := b.notices.NewBatch()
	pb := b.passages.NewBatch()
	counts := b.passageCounts(ids)
	for _, id := range ids {
		nb.Delete(id)
		for i := counts[id]; i > 0; i-- {
			pb.Delete(id + "#p" + strconv.Itoa(i))
		}
	}
	if err := b.passages.Batch(pb); err != nil {
		return err
	}
	return b.notices.Batch(nb)
}

var observationsKey = []byte("observations")

// Observe records when a source was observed.
func (b *Backend) Observe(ctx context.Context, o search.Observation) error {
	if b.observeBulk(o) {
		return nil // recorded when the bulk load ends (bulk.go)
	}
	defer b.warm() // a load ends here: its segments' columns and commonest words are read now (after stale)
	defer b.stale()
	defer b.noticesWritten()
	b.mu.Lock()
	defer b.mu.Unlock()
	all := b.observations()
	all[o.Source] = o
	v, err := json.Marshal(all)
	if err != nil {
		return err
	}
	return b.notices.SetInternal(observationsKey, v)
}

// Refresh writes the nearest-neighbour graphs when they changed, at most
// every VectorSaveEvery (vectors.go); a Bleve batch is visible, and on
// disk, once written.
func (b *Backend) Refresh(ctx context.Context) error { return b.refreshVectors() }

// ---- reading

func unavailable(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return fmt.Errorf("search: %w", err) // the request's deadline or client, said as such (record.ErrorMessage)
	}
	return record.CouldNotAnswer("the search index", err)
}

// Get returns one notice by exact request id.
func (b *Backend) Get(ctx context.Context, id string) (record.Notice, error) {
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery([]string{id}), 1, 0, false)
	req.Fields = []string{"hit", "body", "text", "raw"}
	res, err := b.notices.SearchInContext(ctx, req)
	if err != nil {
		return record.Notice{}, unavailable(err)
	}
	if len(res.Hits) == 0 {
		if b.lost("notices", id) {
			return record.Notice{}, lostError("notice", id)
		}
		return record.Notice{}, record.Errorf(record.ENOTFOUND, "no notice with request id %q is held", id)
	}
	stored := func(field string) string {
		s, _ := res.Hits[0].Fields[field].(string)
		return s
	}
	var hit []byte
	if s, ok := res.Hits[0].Fields["hit"].(string); ok {
		hit = []byte(s)
	}
	sh, err := decodeHit(hit)
	if err != nil {
		return record.Notice{}, err
	}
	n := sh.notice(stored("body"), stored("text"), false)
	if s, ok := res.Hits[0].Fields["raw"].(string); ok {
		if n.Raw, err = decodeRaw([]byte(s), n.Body); err != nil {
			return n, err
		}
	}
	return n, nil
}

// Search runs a notice query: a relevance search through the ranked text
// path, every other order through the sorted path (topk.go).
func (b *Backend) Search(ctx context.Context, q search.Query) (search.Result, error) {
	k, err := q.Normalize()
	if err != nil {
		return search.Result{}, err
	}
	after, err := search.DecodeCursor(q.Sort, q.Cursor)
	if err != nil {
		return search.Result{}, err
	}
	return b.searchNotices(ctx, q, k, after)
}

// noticeSortKeys are the keyword sort key of each order but relevance
// (sortkeys.go), and whether it runs descending; ties break on the
// request id, ascending.
var noticeSortKeys = map[string]struct {
	field string
	desc  bool
}{
	search.SortNewest:     {"sort_start_desc", true},
	search.SortOldest:     {"sort_start_asc", false},
	search.SortDueSoonest: {"sort_due", false},
	search.SortEvent:      {"sort_event", false},
	search.SortAmount:     {"sort_amount_desc", true},
}
