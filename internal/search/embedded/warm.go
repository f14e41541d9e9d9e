package embedded

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/blevesearch/bleve/v2"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// A ranked search reads, per segment, the impacts of each of its words
// (readWord) and the sort columns of its order, and keeps them (they never
// change for a segment). Read on demand, the first query after a start, a
// load or a merge pays for the commonest words: a word's read is linear in
// its postings (0.1–0.7 s at 1.1M for the commonest). The warm-up reads
// them instead, in the background, when the engine opens and after each
// load (Observe): the words of each new segment with at least
// WarmWordDocs postings, commonest first, within WarmWordBytes per run, and
// the sort columns.

// WarmWordDocs is the fewest postings a word needs to be read ahead.
var WarmWordDocs uint64 = 2048

// WarmWordBytes caps the word data one warm-up reads (half the words'
// cache: queries' own words keep the other half).
const WarmWordBytes = WordCacheBytes / 2

// warmer runs one warm-up at a time and stops when the engine closes.
type warmer struct {
	stop    atomic.Bool
	running atomic.Bool
	wg      sync.WaitGroup

	mu   sync.Mutex
	done map[uint64]bool // segments already warmed
}

// halt stops the warm-up and waits for it.
func (w *warmer) halt() {
	w.stop.Store(true)
	w.wg.Wait()
}

// warmSpec is what a ranked index reads ahead: its text field (with the
// title boost) and pivot, and its sort columns.
type warmSpec struct {
	field, boostField string
	pivot             float64
	columns           []string
	first             func() // before the words (when set): what every first query reads
}

// warm reads ahead, in the background, the commonest words and the sort
// columns of the segments not yet warmed.
func (t *topIndex) warm(spec warmSpec) {
	w := &t.warmer
	if w.stop.Load() || !w.running.CompareAndSwap(false, true) {
		return
	}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		defer w.running.Store(false)
		_ = t.warmNow(spec)
	}()
}

// warmNow is one warm-up, in the caller's goroutine.
func (t *topIndex) warmNow(spec warmSpec) error {
	w := &t.warmer
	snap, err := indexSnapshot(t.idx)
	if err != nil {
		return err // closed meanwhile
	}
	defer snap.Close()
	if spec.first != nil {
		spec.first()
	}
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
			t.words.Put(key, wd, wd.size())
			t.words.Trim(0, WordCacheBytes)
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
