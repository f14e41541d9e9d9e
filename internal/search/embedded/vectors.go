package embedded

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	index "github.com/blevesearch/bleve_index_api"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded/ann"
)

// Record vectors (search.Record.Vector) are indexed in an HNSW graph per
// record kind (package ann), held in memory and kept in vectors.ann beside
// the indexes. Each vector is also stored with its record (the stored
// field "vec": kind, id and the quantized vector), the source the graphs
// are rebuilt from when vectors.ann is missing or older than the records.
//
// Whether vectors.ann is current is told by a stamp: every records batch
// that changes a vector raises the stamp held in records.bleve (written in
// the same batch), and vectors.ann is written with the stamp it reflects.
// It is written on Close, and on Refresh when vectors changed and it was
// last written VectorSaveEvery ago or more (a live fetch refreshes every
// few minutes; a graph of a million vectors is some 300 MB to write).

const vectorsFile = "vectors.ann"

// VectorSaveEvery bounds how often Refresh writes vectors.ann.
const VectorSaveEvery = time.Minute

var vectorStampKey = []byte("vector_stamp")

// vectors is the nearest-neighbour state of a Backend.
type vectors struct {
	mu      sync.RWMutex
	graphs  map[string]*ann.Graph // by record kind
	stamp   uint64                // of the last batch that changed a vector
	applied uint64                // of the last batch the graphs reflect
	saved   uint64                // the stamp vectors.ann holds
	savedAt time.Time
	save    sync.Mutex
	work    graphWork
}

// graphWork applies records writes to the graphs in the background, in the
// order they were written, so a load goes on with its next batch (on the
// other core) while the graphs take in the last: inserting 20,000 vectors
// is tens of seconds. Every read of the graphs waits for the changes
// queued before it (settle), so a write is visible to nearest-neighbour
// reads when PutRecords returns, as search.Records promises.
type graphWork struct {
	mu           sync.Mutex
	cond         *sync.Cond
	jobs         []func()
	queued, done uint64
	running      bool
}

// graphJobsWaiting bounds the writes queued and not yet started: a writer
// faster than the graphs waits (the memory the queue holds, and how far
// the graphs fall behind, stay bounded).
const graphJobsWaiting = 2

// queue runs job after the jobs queued before it, on a goroutine that
// ends when the queue is empty; it waits while graphJobsWaiting are.
func (w *graphWork) queue(job func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cond == nil {
		w.cond = sync.NewCond(&w.mu)
	}
	for len(w.jobs) >= graphJobsWaiting {
		w.cond.Wait()
	}
	w.jobs = append(w.jobs, job)
	w.queued++
	if !w.running {
		w.running = true
		go w.run()
	}
}

func (w *graphWork) run() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for len(w.jobs) > 0 {
		job := w.jobs[0]
		w.jobs[0] = nil
		w.jobs = w.jobs[1:]
		w.mu.Unlock()
		job()
		w.mu.Lock()
		w.done++
		w.cond.Broadcast()
	}
	w.jobs = nil
	w.running = false
}

// settle waits until the jobs queued before the call have run.
func (w *graphWork) settle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for target := w.queued; w.done < target; {
		w.cond.Wait()
	}
}

// encodeVec is a record's stored "vec" field: kind, id and the vector.
func encodeVec(kind, id string, v []int8, scale float32) string {
	b := make([]byte, len(v)+4)
	for i, x := range v {
		b[i] = byte(x)
	}
	binary.LittleEndian.PutUint32(b[len(v):], math.Float32bits(scale))
	return kind + "\n" + id + "\n" + base64.RawStdEncoding.EncodeToString(b)
}

func decodeVec(s string) (kind, id string, v []int8, scale float32, ok bool) {
	kind, rest, ok1 := strings.Cut(s, "\n")
	id, enc, ok2 := strings.Cut(rest, "\n")
	b, err := base64.RawStdEncoding.DecodeString(enc)
	if !ok1 || !ok2 || err != nil || len(b) < 5 {
		return "", "", nil, 0, false
	}
	v = make([]int8, len(b)-4)
	for i := range v {
		v[i] = int8(b[i])
	}
	return kind, id, v, math.Float32frombits(binary.LittleEndian.Uint32(b[len(v):])), true
}

// openVectors reads vectors.ann, or rebuilds the graphs from the stored
// records when it is missing, unreadable or older than the records.
func (b *Backend) openVectors() error {
	b.vec = &vectors{graphs: map[string]*ann.Graph{}}
	raw, err := b.records.GetInternal(vectorStampKey)
	if err != nil {
		return err
	}
	if raw != nil {
		if b.vec.stamp, err = strconv.ParseUint(string(raw), 10, 64); err != nil {
			return fmt.Errorf("embedded: vector stamp %q: %w", raw, err)
		}
	}
	if b.vec.stamp == 0 {
		return nil // no vector was ever written
	}
	graphs, stamp, err := readVectors(filepath.Join(b.dir, vectorsFile))
	if err == nil && stamp == b.vec.stamp {
		b.vec.graphs, b.vec.saved, b.vec.applied = graphs, stamp, stamp
		return nil
	}
	slog.Info("embedded: rebuilding the nearest-neighbour index from the stored vectors", "reason", fmt.Sprint("file stamp ", stamp, ", records stamp ", b.vec.stamp, ", ", err))
	return b.rebuildGraphs()
}

// rebuildGraphs builds the graphs afresh from the stored vectors and
// writes vectors.ann (openVectors; and once after a bulk load's text,
// bulk.go).
func (b *Backend) rebuildGraphs() error {
	b.vec.work.settle()
	b.vec.mu.Lock()
	b.vec.graphs = map[string]*ann.Graph{}
	b.vec.mu.Unlock()
	err := eachStored(b.records, func(_ string, fields map[string]index.Field) error {
		f, ok := fields["vec"]
		if !ok {
			return nil
		}
		kind, id, v, scale, ok := decodeVec(string(f.Value()))
		if !ok {
			return errors.New("stored vector is unreadable")
		}
		doc, ok := fields["doc"]
		if !ok {
			return errors.New("stored record is missing")
		}
		r, err := decodeRecord(string(doc.Value()))
		if err != nil {
			return err
		}
		b.vec.graph(kind, len(v)).AddMeta(id, v, scale, vectorMeta(r))
		return nil
	})
	if err != nil {
		return fmt.Errorf("embedded: rebuild the nearest-neighbour index: %w", err)
	}
	b.vec.mu.Lock()
	b.vec.applied = b.vec.stamp
	b.vec.mu.Unlock()
	return b.saveVectors()
}

// graph is kind's graph, made when missing; the caller holds no lock.
func (v *vectors) graph(kind string, dims int) *ann.Graph {
	v.mu.Lock()
	defer v.mu.Unlock()
	g := v.graphs[kind]
	if g == nil {
		g = ann.New(dims)
		v.graphs[kind] = g
	}
	return g
}

func readVectors(path string) (map[string]*ann.Graph, uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var hdr [8]byte
	if _, err := f.Read(hdr[:]); err != nil {
		return nil, 0, ann.ErrCorrupt
	}
	stamp, n := binary.LittleEndian.Uint64(hdr[:]), 0
	graphs := map[string]*ann.Graph{}
	var kinds uint64
	if err := binary.Read(f, binary.LittleEndian, &kinds); err != nil || kinds > 1<<10 {
		return nil, 0, ann.ErrCorrupt
	}
	for ; n < int(kinds); n++ {
		var l uint32
		if err := binary.Read(f, binary.LittleEndian, &l); err != nil || l > 1<<10 {
			return nil, 0, ann.ErrCorrupt
		}
		name := make([]byte, l)
		if _, err := f.Read(name); err != nil {
			return nil, 0, ann.ErrCorrupt
		}
		var size uint64
		if err := binary.Read(f, binary.LittleEndian, &size); err != nil {
			return nil, 0, ann.ErrCorrupt
		}
		g, gs, err := ann.Read(&limited{f, int64(size)})
		if err != nil || gs != stamp {
			return nil, 0, ann.ErrCorrupt
		}
		graphs[string(name)] = g
	}
	return graphs, stamp, nil
}

// limited reads at most n bytes (ann.Read buffers ahead, so each graph is
// cut to its own length).
type limited struct {
	f *os.File
	n int64
}

func (l *limited) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errEOF
	}
	if int64(len(p)) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= int64(n)
	return n, err
}

var errEOF = errors.New("EOF")

// saveVectors writes vectors.ann when it is older than the graphs: every
// graph (compacted first when many of its nodes are dead) after the stamp
// of the last batch they took in, to a new file renamed over the old one.
func (b *Backend) saveVectors() error {
	v := b.vec
	v.save.Lock()
	defer v.save.Unlock()
	v.work.settle()
	v.mu.RLock()
	stamp, saved := v.applied, v.saved
	kinds := make([]string, 0, len(v.graphs))
	for k := range v.graphs {
		kinds = append(kinds, k)
	}
	v.mu.RUnlock()
	if stamp == saved {
		return nil
	}
	slices.Sort(kinds)
	path := filepath.Join(b.dir, vectorsFile)
	tmp := path + ".new"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = writeVectors(f, v, kinds, stamp)
	if err == nil {
		err = f.Sync()
	}
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("embedded: write %s: %w", vectorsFile, err)
	}
	v.mu.Lock()
	v.saved, v.savedAt = stamp, time.Now()
	v.mu.Unlock()
	return nil
}

// refreshVectors is Refresh's part: vectors.ann written when it is older
// than the graphs and was written VectorSaveEvery ago or more.
func (b *Backend) refreshVectors() error {
	b.vec.mu.RLock()
	recent := time.Since(b.vec.savedAt) < VectorSaveEvery
	b.vec.mu.RUnlock()
	if recent {
		return nil
	}
	return b.saveVectors()
}

func writeVectors(f *os.File, v *vectors, kinds []string, stamp uint64) error {
	if err := binary.Write(f, binary.LittleEndian, stamp); err != nil {
		return err
	}
	if err := binary.Write(f, binary.LittleEndian, uint64(len(kinds))); err != nil {
		return err
	}
	for _, k := range kinds {
		v.mu.RLock()
		g := v.graphs[k]
		v.mu.RUnlock()
		g.Compact()
		if err := binary.Write(f, binary.LittleEndian, uint32(len(k))); err != nil {
			return err
		}
		if _, err := f.WriteString(k); err != nil {
			return err
		}
		at, err := f.Seek(0, 1)
		if err != nil {
			return err
		}
		if err := binary.Write(f, binary.LittleEndian, uint64(0)); err != nil {
			return err
		}
		if err := g.WriteTo(f, stamp); err != nil {
			return err
		}
		end, err := f.Seek(0, 1)
		if err != nil {
			return err
		}
		if _, err := f.WriteAt(binary.LittleEndian.AppendUint64(nil, uint64(end-at-8)), at); err != nil {
			return err
		}
	}
	return nil
}

// vectorFields adds a record's vector to its indexed fields.
func vectorFields(r search.Record, d map[string]interface{}) {
	if len(r.Vector) == 0 {
		return
	}
	q, scale := ann.Quantize(r.Vector)
	d["vec"] = encodeVec(r.Kind, r.ID, q, scale)
	d["has_vec"] = r.Kind
}

// nextVectorStamp is the stamp a batch that changes vectors writes.
func (b *Backend) nextVectorStamp() uint64 {
	b.vec.mu.Lock()
	defer b.vec.mu.Unlock()
	if b.vec.stamp == 0 {
		// a first stamp no earlier file (of a directory since rebuilt)
		// can hold
		b.vec.stamp = uint64(time.Now().UnixNano())
	}
	b.vec.stamp++
	return b.vec.stamp
}

// indexVectors updates the graphs after a records batch of stamp was
// written: a record with a vector holds it, one without holds none. The
// graphs of the batch's kinds are made now (hasVectors reads them) and
// the vectors inserted in the background (graphWork), from copies: the
// caller may reuse rs once PutRecords returns.
func (b *Backend) indexVectors(rs []search.Record, stamp uint64) {
	type change struct {
		g     *ann.Graph
		id    string
		vec   []int8 // nil: removed
		scale float32
		meta  []byte
	}
	cs := make([]change, 0, len(rs))
	for _, r := range rs {
		if len(r.Vector) == 0 {
			b.vec.mu.RLock()
			g := b.vec.graphs[r.Kind]
			b.vec.mu.RUnlock()
			if g != nil {
				cs = append(cs, change{g: g, id: r.ID})
			}
			continue
		}
		q, scale := ann.Quantize(r.Vector)
		cs = append(cs, change{b.vec.graph(r.Kind, len(q)), r.ID, q, scale, vectorMeta(r)})
	}
	b.vec.work.queue(func() {
		for _, c := range cs {
			if c.vec == nil {
				c.g.Remove(c.id)
			} else {
				c.g.AddMeta(c.id, c.vec, c.scale, c.meta)
			}
		}
		b.vec.appliedUpTo(stamp)
	})
}

func (b *Backend) unindexVectors(kind string, ids []string, stamp uint64) {
	b.vec.mu.RLock()
	g := b.vec.graphs[kind]
	b.vec.mu.RUnlock()
	ids = slices.Clone(ids)
	b.vec.work.queue(func() {
		if g != nil {
			for _, id := range ids {
				g.Remove(id)
			}
		}
		b.vec.appliedUpTo(stamp)
	})
}

// appliedUpTo notes that the graphs reflect the batch of stamp.
func (v *vectors) appliedUpTo(stamp uint64) {
	v.mu.Lock()
	v.applied = max(v.applied, stamp)
	v.mu.Unlock()
}

// hasVectors reports whether kind has a graph (a batch of it changes the
// stamp only then, or when it brings vectors).
func (b *Backend) hasVectors(kind string) bool {
	b.vec.mu.RLock()
	defer b.vec.mu.RUnlock()
	return b.vec.graphs[kind] != nil
}

// NearestRecords answers from kind's graph (search.RecordReader). A
// filtered query is answered by the graph's filtered search over the
// vectors' attributes (vecfilter.go): the graph walk keeps only the
// records the filter matches, or, when the filter matches few, an exact
// scan of those (ann.SearchFiltered states the rule).
func (b *Backend) NearestRecords(ctx context.Context, q search.NearQuery) ([]search.Near, error) {
	if err := q.Check(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.vec.work.settle() // the writes returned before this read
	b.vec.mu.RLock()
	g := b.vec.graphs[q.Kind]
	b.vec.mu.RUnlock()
	if g == nil {
		return []search.Near{}, nil
	}
	if g.Dims() != len(q.Vector) {
		return nil, record.Invalid("vector", "%s vectors have %d components, not %d", q.Kind, g.Dims(), len(q.Vector))
	}
	var out []search.Near
	if q.Filtered() {
		f := q.RecordFilter()
		if err := f.Normalize(); err != nil {
			return nil, err
		}
		out, _ = g.SearchFiltered(q.Vector, q.K, 0, q.MinScore, compileVecFilter(f).accept)
	} else {
		out = g.Search(q.Vector, q.K, 0, q.MinScore)
	}
	if out == nil {
		return []search.Near{}, nil
	}
	return out, nil
}
