package ann

import (
	"math"

	"github.com/recordwatch/recordwatch/internal/search"
)

// Accept is a search's filter: whether the vector held under id, with the
// attributes it was added with (AddMeta), may be returned.
type Accept func(id string, meta []byte) bool

// How a filtered search chooses between the graph and an exact scan. A
// graph search under a filter walks through nodes the filter refuses to
// reach the ones it takes: taking a share p of the nodes, it costs about
// 1/p times what an unfiltered search of the same ef does. An exact scan
// reads every node's attributes (Accept) and compares the m = p·N vectors
// it takes: about N+m node readings. An even sample of SampleNodes nodes
// estimates p; the scan answers when m·(N+m) ≤ GraphCostPerEf·ef·N, the
// graph otherwise, stopping after 2·GraphCostPerEf·ef/p visits (a sample
// that was wrong) or when it finds fewer than k, and then the scan
// answers. GraphCostPerEf is what one unit of ef costs the graph search
// in node readings of the scan, measured by BenchmarkNearestFiltered
// (internal/search/embedded) at 100,000 nodes: a filter taking 4.7% cost
// top-10 from the graph about 1.5 times its scan. Every search of a graph
// of at most ScanBelow nodes is a scan. At 100,000 nodes the scan answers
// top-10 (ef = EfSearch, 200) for filters under about 11% of the nodes,
// top-1000 (semantic search's candidates) under about 42%.
const (
	SampleNodes    = 512
	GraphCostPerEf = 60
	ScanBelow      = 2048
)

// SearchFiltered is Search among the live vectors accept takes: the k most
// similar to q with a similarity of at least minScore, best first, ties by
// id; k are returned whenever k taken vectors pass minScore. exact reports
// whether the exact scan answered.
func (g *Graph) SearchFiltered(q []float32, k, ef int, minScore float32, accept Accept) (hits []search.Near, exact bool) {
	if len(q) != g.dims || k <= 0 {
		return nil, false
	}
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.entry < 0 {
		return nil, false
	}
	take := func(n int32) bool { return !g.dead[n] && accept(g.ids[n], g.meta(n)) }
	ef = max(ef, k, EfSearch)
	n := float64(len(g.ids))
	p := g.sampleShare(take)
	if m := p * n; len(g.ids) <= ScanBelow || m*(n+m) <= GraphCostPerEf*float64(ef)*n {
		return g.scan(q, k, minScore, take), true
	}
	ep := g.entry
	for l := g.top; l > 0; l-- {
		ep = g.greedy(q, ep, l)
	}
	// a linked node is a candidate when it or one of its satellites is
	// taken
	budget := int(2 * GraphCostPerEf * float64(ef) / p)
	checks := 0
	takeNode := func(n int32) bool {
		if take(n) {
			return true
		}
		for _, s := range g.sats[n] {
			if checks++; checks > budget {
				return false
			}
			if take(s) {
				return true
			}
		}
		return false
	}
	vis := g.visited()
	cands, ok := g.searchLayer(q, ep, ef, 0, vis, takeNode, budget)
	g.visits.Put(vis)
	if !ok || checks > budget {
		return g.scan(q, k, minScore, take), true
	}
	out := g.expand(cands, k, float32(math.Inf(-1)), take)
	if len(out) < k {
		return g.scan(q, k, minScore, take), true
	}
	for i, h := range out {
		if h.Score < minScore {
			return out[:i], false
		}
	}
	return out, false
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
func (g *Graph) scan(q []float32, k int, minScore float32, take func(int32) bool) []search.Near {
	best := make([]search.Near, 0, 2*k+1)
	worst := minScore
	for n := range g.ids {
		if !take(int32(n)) {
			continue
		}
		s := g.simQ(q, int32(n))
		if s < worst {
			continue
		}
		best = append(best, search.Near{ID: g.ids[n], Score: s})
		if len(best) > 2*k {
			search.SortNear(best)
			best = best[:k]
			worst = max(minScore, best[k-1].Score)
		}
	}
	search.SortNear(best)
	return best[:min(k, len(best))]
}
