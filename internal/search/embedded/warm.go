package embedded

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// A ranked search reads, per segment, the impacts of each of its words
// (readWord) and the sort columns of its order, and keeps them (they never
// change for a segment). Read on demand, the first query after a start, a
// load or a merge pays for the commonest words: a word's read is linear in
// its postings (0.1–0.7 s at 1.1M for the commonest). The warm-up reads
// them instead, in the background, when the engine opens and after each
// load (Observe) or merge: the words of each new segment with at least
// WarmWordDocs postings, commonest first, within WarmWordBytes per run, and
// the sort columns.

// afterMerge maps an open index (its *scorch.Scorch) to what a merge
// calls: a merge introduces a new segment whose columns and words nobody
// has read, so its warm-up runs again once writes are quiet
// (eventCallback, warmer.soon).
var afterMerge sync.Map

// eventCallback is the name of the engine's scorch event callback
// (scorchConfig).
const eventCallback = "recordwatch-embedded"

func init() {
	scorch.RegistryEventCallbacks[eventCallback] = func(e scorch.Event) bool {
		// a merge of files, or a persist (which may merge the segments in
		// memory first), changed the segments
		if e.Kind == scorch.EventKindMergeTaskIntroduction || e.Kind == scorch.EventKindPersisterProgress {
			if f, ok := afterMerge.Load(e.Scorch); ok {
				f.(func())() // a warm-up once writes are quiet (warmer.soon)
			}
		}
		return true // (the answer matters only to check events: go on)
	}
}

// onMerge runs f after each merge of idx until forgetMerges.
func onMerge(idx bleve.Index, f func()) {
	if adv, err := idx.Advanced(); err == nil {
		if s, ok := adv.(*scorch.Scorch); ok {
			afterMerge.Store(s, f)
		}
	}
}

func forgetMerges(idx bleve.Index) {
	if adv, err := idx.Advanced(); err == nil {
		if s, ok := adv.(*scorch.Scorch); ok {
			afterMerge.Delete(s)
		}
	}
}

// WarmWordDocs is the fewest postings a word needs to be read ahead.
var WarmWordDocs uint64 = 2048

// WarmWordBytes caps the word data one warm-up reads: a quarter of the
// words' cache, for each of the two indexes warmed (notices and
// passages); queries' own words keep the other half.
const WarmWordBytes = WordCacheBytes / 4

// warmer runs one warm-up at a time in the background; one asked for
// while another runs follows it (a segment written or merged meanwhile is
// read then), and none starts once the engine is closing.
type warmer struct {
	stop    atomic.Bool // the engine is closing: warm-ups give up
	running atomic.Bool
	pending atomic.Bool
	wg      sync.WaitGroup

	mu    sync.Mutex
	done  map[uint64]bool // segments already warmed
	timer *time.Timer     // a warm-up after merges, once writes are quiet (soon)
}

// WarmQuiet is how long an index must have had no write and no merge
// before a merge's warm-up runs: during a bulk load segments are merged
// away as fast as they are made, and reading them ahead would only take
// the load's CPU.
var WarmQuiet = 2 * time.Second

// soon calls f once the index has been quiet for WarmQuiet (f starts the
// warm-up: it calls run, never f's work itself); each call, and each
// postpone, restarts the wait.
func (w *warmer) soon(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stop.Load() {
		return
	}
	if w.timer == nil {
		w.timer = time.AfterFunc(WarmQuiet, f)
		return
	}
	w.timer.Reset(WarmQuiet)
}

// postpone restarts a pending soon's wait (a write).
func (w *warmer) postpone() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.timer != nil && w.timer.Stop() {
		w.timer.Reset(WarmQuiet)
	}
}

// run runs f in the background, now or right after the warm-up running.
func (w *warmer) run(f func()) {
	w.pending.Store(true)
	if w.stop.Load() || !w.running.CompareAndSwap(false, true) {
		return // the one running sees pending
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for {
			for w.pending.Swap(false) && !w.stop.Load() {
				f()
			}
			w.running.Store(false)
			// a request between the last Swap and the Store found running set: take it
			if w.stop.Load() || !w.pending.Load() || !w.running.CompareAndSwap(false, true) {
				return
			}
		}
	}()
}

// busy says whether a warm-up runs or is asked for.
func (w *warmer) busy() bool { return w.running.Load() || w.pending.Load() }

// halt stops the warm-up and waits for it.
func (w *warmer) halt() {
	w.stop.Store(true)
	w.mu.Lock()
	if w.timer != nil {
		w.timer.Stop()
	}
	w.mu.Unlock()
	w.wg.Wait()
}

// warmSpec is what a ranked index reads ahead: its text field (with the
// title boost) and pivot, and its sort columns.
type warmSpec struct {
	field, boostField string
	pivot             float64
	columns           []string
	facets            []string // facet fields (their values' documents, facets.go)
}

// warm reads ahead, in the background, the commonest words and the sort
// columns of the segments not yet warmed.
func (t *topIndex) warm(spec warmSpec) {
	t.warmer.run(func() { _ = t.warmNow(spec) })
}

// warmNow is one warm-up, in the caller's goroutine.
func (t *topIndex) warmNow(spec warmSpec) error {
	w := &t.warmer
	snap, err := indexSnapshot(t.idx)
	if err != nil {
		return err // closed meanwhile
	}
	defer snap.Close()
	budget := int64(WarmWordBytes)
	live := map[uint64]bool{}
	for _, s := range snap.Segments() {
		live[s.Id()] = true
		w.mu.Lock()
		seen := w.done[s.Id()]
		w.mu.Unlock()
		if seen {
			continue
		}
		for _, c := range spec.columns {
			if w.stop.Load() {
				return bleve.ErrorIndexClosed
			}
			if _, err := t.column(s, c); err != nil {
				return err
			}
		}
		for _, f := range spec.facets {
			if w.stop.Load() {
				return bleve.ErrorIndexClosed
			}
			if _, err := t.facetValuesOf(s, f); err != nil {
				return err
			}
		}
		seg := s.Segment()
		dict, err := seg.Dictionary(spec.field)
		if err != nil {
			return err
		}
		type common struct {
			term string
			docs uint64
		}
		var words []common
		itr := dict.AutomatonIterator(everything{}, nil, nil)
		for {
			e, err := itr.Next()
			if err != nil {
				return err
			}
			if e == nil {
				break
			}
			if e.Count >= WarmWordDocs {
				words = append(words, common{e.Term, e.Count})
			}
		}
		slices.SortFunc(words, func(a, b common) int { return int(b.docs) - int(a.docs) })
		var bdict segment.TermDictionary
		if spec.boostField != "" {
			if bdict, err = seg.Dictionary(spec.boostField); err != nil {
				return err
			}
		}
		for _, c := range words {
			if w.stop.Load() {
				return bleve.ErrorIndexClosed
			}
			key := wordKey{s.Id(), spec.field + "+" + spec.boostField, c.term}
			if _, ok := t.words.Get(key); ok {
				continue
			}
			ws := &wordScorer{field: spec.field, boostField: spec.boostField, term: []byte(c.term), pivot: spec.pivot,
				pls: make([]segment.PostingsList, 1), boost: make([]segment.PostingsList, 1)}
			if ws.pls[0], err = dict.PostingsList(ws.term, nil, nil); err != nil {
				return err
			}
			if bdict != nil {
				if ws.boost[0], err = bdict.PostingsList(ws.term, nil, nil); err != nil {
					return err
				}
			}
			wd, err := readWord(ws, 0)
			if err != nil {
				return err
			}
			t.words.Put(key, wd)
			if budget -= wd.size(); budget <= 0 {
				return nil // the next warm-up goes on with this segment
			}
		}
		w.mu.Lock()
		if w.done == nil {
			w.done = map[uint64]bool{}
		}
		w.done[s.Id()] = true
		w.mu.Unlock()
	}
	w.mu.Lock()
	for id := range w.done { // merged away
		if !live[id] {
			delete(w.done, id)
		}
	}
	w.mu.Unlock()
	return nil
}
