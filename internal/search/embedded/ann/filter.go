package ann

import "github.com/recordwatch/recordwatch/internal/search"

// Accept is a search's filter: whether the vector held under id, with the
// attributes it was added with (AddMeta), may be returned.
type Accept func(id string, meta []byte) bool

// How a filtered search chooses between the graph and an exact scan. A
// graph search under a filter walks through nodes the filter refuses to
// reach the ones it takes, so the fewer it takes the more it visits; an
// exact scan reads every node's attributes (Accept, about a third of a
// similarity's cost) and the vectors of the ones taken. An even sample of
// SampleNodes estimates the share p the filter takes; the scan costs about
// N·(1+3p)/4 visits' worth (a visit is one similarity and one Accept), so
// the graph search stops after that many visits and the scan answers. A
// filter no sampled node passes (under about one node in SampleNodes) goes
// to the scan at once, and so does every search of a graph of at most
// ScanBelow nodes.
const (
	SampleNodes = 512
	ScanBelow   = 2048
)

// SearchFiltered is Search among the live vectors accept takes: the k most
// similar to q with a similarity of at least minScore, best first, ties by
// id; k are returned whenever k taken vectors pass minScore (the graph
// search falls back to the exact scan when it finds fewer). exact reports
// whether the exact scan answered.
func (g *Graph) SearchFiltered(q []float32, k, ef int, minScore float32, accept Accept) (hits []Hit, exact bool) {
	if len(q) != g.dims || k <= 0 {
		return nil, false
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.entry < 0 {
		return nil, false
	}
	take := func(n int32) bool { return !g.dead[n] && accept(g.ids[n], g.metas[n]) }
	if len(g.ids) <= ScanBelow {
		return g.scan(q, k, minScore, take), true
	}
	p := g.sampleShare(take)
	if p == 0 {
		return g.scan(q, k, minScore, take), true
	}
	ef = max(ef, k, EfSearch)
	ep := g.entry
	for l := g.top; l > 0; l-- {
		ep = g.greedy(q, ep, l)
	}
	vis := g.visited()
	cands, ok := g.searchLayer(q, ep, ef, 0, vis, take, int(float64(len(g.ids))*(1+3*p)/4))
	g.visits.Put(vis)
	if !ok || len(cands) < k {
		return g.scan(q, k, minScore, take), true
	}
	out := make([]Hit, 0, min(k, len(cands)))
	for _, c := range cands {
		if c.sim >= minScore {
			out = append(out, Hit{ID: g.ids[c.node], Score: c.sim})
		}
	}
	search.SortNear(out)
	return out[:min(k, len(out))], false
}

// sampleShare is the share of an even sample of SampleNodes nodes that
// take takes.
func (g *Graph) sampleShare(take func(int32) bool) float64 {
	step := max(1, len(g.ids)/SampleNodes)
	taken, seen := 0, 0
	for n := 0; n < len(g.ids); n += step {
		seen++
		if take(int32(n)) {
			taken++
		}
	}
	return float64(taken) / float64(seen)
}

// scan is the exact k nearest among the nodes take takes.
func (g *Graph) scan(q []float32, k int, minScore float32, take func(int32) bool) []Hit {
	best := make([]Hit, 0, 2*k+1)
	worst := minScore
	for n := range g.ids {
		if !take(int32(n)) {
			continue
		}
		s := g.simQ(q, int32(n))
		if s < worst {
			continue
		}
		best = append(best, Hit{ID: g.ids[n], Score: s})
		if len(best) > 2*k {
			search.SortNear(best)
			best = best[:k]
			worst = max(minScore, best[k-1].Score)
		}
	}
	search.SortNear(best)
	return best[:min(k, len(best))]
}
