// Package ann is an approximate nearest-neighbour index: a hierarchical
// navigable small-world graph (HNSW, Malkov and Yashunin 2016) over vectors
// of unit length stored as int8 components with one scale each (the form
// internal/semantic quantizes to), so a vector takes dims bytes and a
// 128-dimension index of a million vectors fits in a few hundred MB.
// Similarity is the dot product: the cosine for unit vectors.
//
// A node is added once and never moved: replacing or removing an id marks
// its node dead (still walked through, never returned), and Compact
// rebuilds the graph from the live nodes when the dead outnumber a share of
// them. The graph is safe for concurrent use: one writer, many readers.
//
// A vector identical to one already in the graph (many notices carry the
// same words) is not linked: it becomes a satellite of that node, returned
// with it at the same similarity. Linked copies would fill a search's
// candidate list with one vector, after which the search takes in only
// vectors more similar than that one and cannot walk around it (at 1.1
// million notices overlap@10 with the exact scan fell to 0.80).
package ann

import (
	"cmp"
	"container/heap"
	"encoding/binary"
	"hash/maphash"
	"math"
	"slices"
	"sync"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Graph parameters: M links per node on the upper layers and 2M on the
// bottom one, candidate lists of EfConstruction while inserting and at least
// EfSearch while searching (Search widens it to k). An EfConstruction of
// 48 costs some 20-30% less insertion CPU, but on the benchmark's 100k notice
// vectors overlap@1000 (semantic search's candidates) fell from 0.936 to
// 0.921 (64: 0.931); overlap@10 held (docs/benchmarks.md, issue 36).
const (
	M              = 16
	EfConstruction = 80
	EfSearch       = search.NearCandidates
	maxLevel       = 16
)

// Graph is the index. The zero value is not usable: call New.
type Graph struct {
	mu     sync.RWMutex
	dims   int
	ids    []string
	byID   map[string]int32
	vecs   []int8
	scales []float32
	// the caller's attributes of each node (AddMeta), for filters, side by
	// side in one buffer (a scan reads them in order): node n's end at
	// metaEnd[n], its start at the end of n-1
	metaBuf []byte
	metaEnd []uint32
	links   [][][]int32 // node → layer → neighbours (none for a satellite)
	// sats are a linked node's satellites (nodes with its vector, never
	// linked) in id order; byVec finds a linked node by its vector's hash
	// (vecHash)
	sats   map[int32][]int32
	byVec  map[uint64]int32
	hseed  maphash.Seed
	dead   []bool
	ndead  int
	entry  int32 // -1 when empty
	top    int
	seed   uint64
	visits sync.Pool
}

// New is an empty graph of vectors with dims components.
func New(dims int) *Graph {
	return &Graph{dims: dims, byID: map[string]int32{}, entry: -1, seed: 0x9e3779b97f4a7c15,
		sats: map[int32][]int32{}, byVec: map[uint64]int32{}, hseed: maphash.MakeSeed()}
}

// Dims is the length of the graph's vectors.
func (g *Graph) Dims() int { return g.dims }

// Len is the number of live vectors.
func (g *Graph) Len() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return len(g.byID)
}

// Dead is the number of dead nodes (replaced or removed vectors).
func (g *Graph) Dead() int {
	g.mu.RLock()
	defer g.mu.RUnlock()
	return g.ndead
}

// Quantize is v as int8 components and the scale that brings them back.
func Quantize(v []float32) ([]int8, float32) {
	var peak float32
	for _, x := range v {
		peak = max(peak, float32(math.Abs(float64(x))))
	}
	out := make([]int8, len(v))
	if peak == 0 {
		return out, 1
	}
	scale := peak / 127
	for i, x := range v {
		out[i] = int8(math.Round(float64(x / scale)))
	}
	return out, scale
}

// Add holds vec (quantized, with its scale) under id, replacing the vector
// id had. A vector of another length is ignored (false).
func (g *Graph) Add(id string, vec []int8, scale float32) bool {
	return g.AddMeta(id, vec, scale, nil)
}

// AddMeta is Add with the caller's attributes of the vector (meta, kept
// as given and persisted with the graph), which a filtered search's Accept
// reads.
func (g *Graph) AddMeta(id string, vec []int8, scale float32, meta []byte) bool {
	if len(vec) != g.dims {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	g.removeLocked(id)
	g.insert(id, vec, scale, meta)
	return true
}

// Remove drops id's vector; false when none is held.
func (g *Graph) Remove(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.removeLocked(id)
}

func (g *Graph) removeLocked(id string) bool {
	n, ok := g.byID[id]
	if !ok {
		return false
	}
	delete(g.byID, id)
	g.dead[n] = true
	g.ndead++
	return true
}

// Has reports whether a vector is held for id.
func (g *Graph) Has(id string) bool {
	g.mu.RLock()
	defer g.mu.RUnlock()
	_, ok := g.byID[id]
	return ok
}

func (g *Graph) randomLevel() int {
	// splitmix64: deterministic for one sequence of writes
	g.seed += 0x9e3779b97f4a7c15
	z := g.seed
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	u := (float64(z>>11) + 0.5) / float64(1<<53)
	l := int(-math.Log(u) / math.Log(M))
	return min(l, maxLevel)
}

func (g *Graph) vec(n int32) []int8 { return g.vecs[int(n)*g.dims : int(n+1)*g.dims] }

// meta is node n's attributes (not to be appended to).
func (g *Graph) meta(n int32) []byte {
	var start uint32
	if n > 0 {
		start = g.metaEnd[n-1]
	}
	return g.metaBuf[start:g.metaEnd[n]:g.metaEnd[n]]
}

// simQ is the similarity of a float query to node n (four sums side by
// side: the loop is bound by the additions' latency otherwise).
func (g *Graph) simQ(q []float32, n int32) float32 {
	v := g.vec(n)
	q = q[:len(v)]
	var s0, s1, s2, s3 float32
	d := 0
	for ; d+4 <= len(v); d += 4 {
		s0 += q[d] * float32(v[d])
		s1 += q[d+1] * float32(v[d+1])
		s2 += q[d+2] * float32(v[d+2])
		s3 += q[d+3] * float32(v[d+3])
	}
	for ; d < len(v); d++ {
		s0 += q[d] * float32(v[d])
	}
	return (s0 + s1 + s2 + s3) * g.scales[n]
}

// simN is the similarity of two nodes.
func (g *Graph) simN(a, b int32) float32 {
	va, vb := g.vec(a), g.vec(b)
	vb = vb[:len(va)]
	var s0, s1, s2, s3 int32
	d := 0
	for ; d+4 <= len(va); d += 4 {
		s0 += int32(va[d]) * int32(vb[d])
		s1 += int32(va[d+1]) * int32(vb[d+1])
		s2 += int32(va[d+2]) * int32(vb[d+2])
		s3 += int32(va[d+3]) * int32(vb[d+3])
	}
	for ; d < len(va); d++ {
		s0 += int32(va[d]) * int32(vb[d])
	}
	return float32(s0+s1+s2+s3) * g.scales[a] * g.scales[b]
}

func (g *Graph) dequantize(n int32) []float32 {
	out := make([]float32, g.dims)
	s := g.scales[n]
	for d, v := range g.vec(n) {
		out[d] = float32(v) * s
	}
	return out
}

func maxLinks(layer int) int {
	if layer == 0 {
		return 2 * M
	}
	return M
}

// vecHash is the hash of a vector and its scale (byVec's key).
func (g *Graph) vecHash(vec []int8, scale float32) uint64 {
	var h maphash.Hash
	h.SetSeed(g.hseed)
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], math.Float32bits(scale))
	h.Write(b[:])
	for _, v := range vec {
		h.WriteByte(byte(v))
	}
	return h.Sum64()
}

// sameVec is whether linked node r holds vec with scale.
func (g *Graph) sameVec(r int32, vec []int8, scale float32) bool {
	return g.scales[r] == scale && slices.Equal(g.vec(r), vec)
}

// addSat makes n a satellite of linked node r, in id order.
func (g *Graph) addSat(r, n int32) {
	ss := g.sats[r]
	i, _ := slices.BinarySearchFunc(ss, g.ids[n], func(x int32, id string) int { return cmp.Compare(g.ids[x], id) })
	g.sats[r] = slices.Insert(ss, i, n)
}

func (g *Graph) insert(id string, vec []int8, scale float32, meta []byte) {
	n := int32(len(g.ids))
	g.ids = append(g.ids, id)
	g.metaBuf = append(g.metaBuf, meta...)
	g.metaEnd = append(g.metaEnd, uint32(len(g.metaBuf)))
	g.vecs = append(g.vecs, vec...)
	g.scales = append(g.scales, scale)
	g.dead = append(g.dead, false)
	g.byID[id] = n
	h := g.vecHash(vec, scale)
	r, ok := g.byVec[h]
	if ok && g.sameVec(r, vec, scale) {
		g.links = append(g.links, nil)
		g.addSat(r, n)
		return
	}
	if !ok {
		g.byVec[h] = n
	}
	level := g.randomLevel()
	g.links = append(g.links, make([][]int32, level+1))
	if g.entry < 0 {
		g.entry, g.top = n, level
		return
	}
	q := g.dequantize(n)
	ep := g.entry
	for l := g.top; l > level; l-- {
		ep = g.greedy(q, ep, l)
	}
	vis := g.visited()
	defer g.visits.Put(vis)
	for l := min(level, g.top); l >= 0; l-- {
		cands, _ := g.searchLayer(q, ep, EfConstruction, l, vis, nil, 0)
		ep = cands[0].node
		live := cands[:0:0]
		for _, c := range cands {
			if !g.dead[c.node] {
				live = append(live, c)
			}
		}
		g.links[n][l] = g.selectNeighbours(live, maxLinks(l))
		for _, nb := range g.links[n][l] {
			g.link(nb, n, l)
		}
	}
	if level > g.top {
		g.entry, g.top = n, level
	}
}

// link adds to from's neighbours on layer l. Past half again the layer's
// bound they are pruned back to it by the heuristic of selectNeighbours:
// pruning at every overflow (~M² similarities each time) cost most of an
// insertion, and dropping just the least similar link cut clusters apart
// (overlap@1000 fell to 0.70 on the synthetic corpus).
func (g *Graph) link(from, to int32, l int) {
	ls := append(g.links[from][l], to)
	if len(ls) <= maxLinks(l)+maxLinks(l)/2 {
		g.links[from][l] = ls
		return
	}
	cs := make([]cand, 0, len(ls))
	for _, x := range ls {
		if !g.dead[x] {
			cs = append(cs, cand{x, g.simN(from, x)})
		}
	}
	sortCands(cs)
	g.links[from][l] = g.selectNeighbours(cs, maxLinks(l))
}

// selectNeighbours keeps, best first, a candidate closer to the base than
// to every one kept before it (the HNSW heuristic, which keeps links into
// other clusters), then fills up with the best left.
func (g *Graph) selectNeighbours(cs []cand, m int) []int32 {
	out := make([]int32, 0, m)
	var skipped []int32
	for _, c := range cs {
		if len(out) >= m {
			break
		}
		good := true
		for _, o := range out {
			if g.simN(c.node, o) > c.sim {
				good = false
				break
			}
		}
		if good {
			out = append(out, c.node)
		} else {
			skipped = append(skipped, c.node)
		}
	}
	for _, s := range skipped {
		if len(out) >= m {
			break
		}
		out = append(out, s)
	}
	return out
}

type cand struct {
	node int32
	sim  float32
}

func sortCands(cs []cand) {
	slices.SortFunc(cs, func(a, b cand) int { return cmp.Or(cmp.Compare(b.sim, a.sim), cmp.Compare(a.node, b.node)) })
}

func (g *Graph) greedy(q []float32, ep int32, l int) int32 {
	best, bestSim := ep, g.simQ(q, ep)
	for changed := true; changed; {
		changed = false
		for _, nb := range g.links[best][l] {
			if s := g.simQ(q, nb); s > bestSim {
				best, bestSim, changed = nb, s, true
			}
		}
	}
	return best
}

// visited marks nodes seen in one search: a stamp per node, so it is
// cleared by raising the stamp.
type visited struct {
	marks []uint32
	stamp uint32
}

func (g *Graph) visited() *visited {
	v, _ := g.visits.Get().(*visited)
	if v == nil {
		v = &visited{}
	}
	if len(v.marks) < len(g.ids) {
		v.marks = append(v.marks, make([]uint32, len(g.ids)-len(v.marks)+len(g.ids)/8)...)
	}
	v.stamp++
	if v.stamp == 0 {
		clear(v.marks)
		v.stamp = 1
	}
	return v
}

func (v *visited) seen(n int32) bool {
	if v.marks[n] == v.stamp {
		return true
	}
	v.marks[n] = v.stamp
	return false
}

// searchLayer is the ef nodes of layer l nearest q found from ep, best
// first. With accept (a filtered search) it walks through every node but
// keeps only the live ones accept takes, ef of them, and gives up after
// visiting budget nodes (ok false; 0 is no bound).
func (g *Graph) searchLayer(q []float32, ep int32, ef int, l int, vis *visited, accept func(int32) bool, budget int) (out []cand, ok bool) {
	if vis != nil {
		vis.stamp++
		if vis.stamp == 0 {
			clear(vis.marks)
			vis.stamp = 1
		}
	}
	vis.seen(ep)
	start := cand{ep, g.simQ(q, ep)}
	frontier := candHeap{best: true}
	found := candHeap{}
	frontier.push(start)
	if accept == nil || accept(ep) {
		found.push(start)
	}
	visits := 1
	for frontier.len() > 0 {
		c := frontier.pop()
		if found.len() >= ef && c.sim < found.peek().sim {
			break
		}
		for _, nb := range g.links[c.node][l] {
			if vis.seen(nb) {
				continue
			}
			if visits++; budget > 0 && visits > budget {
				return nil, false
			}
			s := g.simQ(q, nb)
			if found.len() < ef || s > found.peek().sim {
				frontier.push(cand{nb, s})
				if accept != nil && !accept(nb) {
					continue
				}
				found.push(cand{nb, s})
				if found.len() > ef {
					found.pop()
				}
			}
		}
	}
	out = found.items
	sortCands(out)
	return out, true
}

// Search is the k live vectors most similar to q with a similarity of at
// least minScore, best first, ties by id. ef is the candidate list (at
// least k and EfSearch).
func (g *Graph) Search(q []float32, k, ef int, minScore float32) []search.Near {
	if len(q) != g.dims || k <= 0 {
		return nil
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.entry < 0 {
		return nil
	}
	ef = max(ef, k, EfSearch)
	ep := g.entry
	for l := g.top; l > 0; l-- {
		ep = g.greedy(q, ep, l)
	}
	vis := g.visited()
	defer g.visits.Put(vis)
	cands, _ := g.searchLayer(q, ep, ef, 0, vis, nil, 0)
	return g.expand(cands, k, minScore, func(n int32) bool { return !g.dead[n] })
}

// expand is the k best of cands (best first) that take takes, each with
// its satellites, at least minScore, sorted by search.SortNear.
func (g *Graph) expand(cands []cand, k int, minScore float32, take func(int32) bool) []search.Near {
	out := make([]search.Near, 0, min(k, len(cands)))
	for i, c := range cands {
		if c.sim < minScore {
			break
		}
		if take(c.node) {
			out = append(out, search.Near{ID: g.ids[c.node], Score: c.sim})
		}
		// the satellites are in id order: k of them are enough
		kept := 0
		for _, s := range g.sats[c.node] {
			if kept >= k {
				break
			}
			if take(s) {
				out = append(out, search.Near{ID: g.ids[s], Score: c.sim})
				kept++
			}
		}
		// cands come best first: once k are held, a less similar one
		// cannot enter
		if len(out) >= k && i+1 < len(cands) && cands[i+1].sim < c.sim {
			break
		}
	}
	search.SortNear(out)
	if len(out) > k {
		out = out[:k]
	}
	return out
}

// Compact rebuilds the graph from its live nodes when dead nodes are more
// than a quarter of all; true when it did.
func (g *Graph) Compact() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ndead == 0 || g.ndead*4 < len(g.ids) {
		return false
	}
	ids, vecs, scales, dead, live := g.ids, g.vecs, g.scales, g.dead, len(g.byID)
	metas := make([][]byte, len(ids))
	for n := range ids {
		metas[n] = g.meta(int32(n))
	}
	g.ids, g.vecs, g.scales, g.metaBuf, g.metaEnd, g.links, g.dead = nil, nil, nil, nil, nil, nil, nil
	g.byID, g.ndead, g.entry, g.top = make(map[string]int32, live), 0, -1, 0
	g.sats, g.byVec = map[int32][]int32{}, map[uint64]int32{}
	g.visits = sync.Pool{}
	for n := range ids {
		if !dead[n] {
			g.insert(ids[n], vecs[n*g.dims:(n+1)*g.dims], scales[n], metas[n])
		}
	}
	return true
}

// candHeap is a heap of candidates (container/heap): the best on top when
// best, else the worst.
type candHeap struct {
	items []cand
	best  bool
}

func (h *candHeap) Len() int { return len(h.items) }
func (h *candHeap) Less(i, j int) bool {
	if h.best {
		return h.items[i].sim > h.items[j].sim
	}
	return h.items[i].sim < h.items[j].sim
}
func (h *candHeap) Swap(i, j int) { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *candHeap) Push(x any)    { h.items = append(h.items, x.(cand)) }
func (h *candHeap) Pop() any {
	last := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return last
}

func (h *candHeap) len() int    { return len(h.items) }
func (h *candHeap) peek() cand  { return h.items[0] }
func (h *candHeap) push(c cand) { heap.Push(h, c) }
func (h *candHeap) pop() cand   { return heap.Pop(h).(cand) }
