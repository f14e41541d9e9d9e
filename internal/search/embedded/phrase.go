package embedded

import (
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search/query"
	segment "github.com/blevesearch/scorch_segment_api/v2"
)

// A phrase on the segment path: the documents holding every word of the
// phrase are found from the words' postings (a bitmap intersection), and
// only those candidates have their word positions read and compared, one
// postings iterator per word advanced to each candidate in turn. Bleve's
// phrase searcher, which this replaces on the ranked path, builds a
// scored match with term locations for every document of its conjunction.
// The phrase means what Bleve's MatchPhraseQuery means: the analyzed
// tokens at their positions relative to the first (a removed stop word
// leaves a gap any word fills; tokens at one position are alternatives).

// phraseSlots are a phrase's analyzed terms by position relative to its
// first token (nil: a gap). None when the phrase analyzes to nothing.
type phraseSlots [][]string

// phraseOf reads a phrase query of the ranked path (phraseQueries); ok is
// false for any other query.
func (t *topIndex) phraseOf(q query.Query) (phraseSlots, string, bool) {
	mp, ok := q.(*query.MatchPhraseQuery)
	if !ok || mp.Analyzer != analyzerName || mp.Fuzziness != 0 || mp.FieldVal == "" {
		return nil, "", false
	}
	a := t.idx.Mapping().AnalyzerNamed(analyzerName)
	if a == nil {
		return nil, "", false
	}
	tokens := a.Analyze([]byte(mp.MatchPhrase))
	if len(tokens) == 0 {
		return phraseSlots{}, mp.FieldVal, true
	}
	first, last := tokens[0].Position, tokens[0].Position
	for _, tok := range tokens {
		first, last = min(first, tok.Position), max(last, tok.Position)
	}
	slots := make(phraseSlots, last-first+1)
	for _, tok := range tokens {
		slots[tok.Position-first] = append(slots[tok.Position-first], string(tok.Term))
	}
	return slots, mp.FieldVal, true
}

// phraseMatches is the documents of seg whose field holds the phrase.
func phraseMatches(seg segment.Segment, field string, slots phraseSlots) (*roaring.Bitmap, error) {
	out := roaring.New()
	if len(slots) == 0 {
		return out, nil
	}
	dict, err := seg.Dictionary(field)
	if err != nil {
		return nil, err
	}
	type slot struct {
		rel int
		its []segment.PostingsIterator
		cur []segment.Posting
	}
	var need []*slot
	var cand *roaring.Bitmap
	for rel, terms := range slots {
		if len(terms) == 0 {
			continue // a gap
		}
		s := &slot{rel: rel}
		docs := roaring.New()
		for _, term := range terms {
			pl, err := dict.PostingsList([]byte(term), nil, nil)
			if err != nil {
				return nil, err
			}
			if pl == nil || pl.Count() == 0 {
				continue
			}
			if err := orInto(pl, docs); err != nil {
				return nil, err
			}
			s.its = append(s.its, pl.Iterator(false, false, true, nil))
			s.cur = append(s.cur, nil)
		}
		if cand == nil {
			cand = docs
		} else {
			cand.And(docs)
		}
		if cand.IsEmpty() {
			return out, nil
		}
		need = append(need, s)
	}
	if len(need) == 1 {
		return cand, nil
	}
	// positions of the slots at the current candidate (reused)
	pos := make([][]uint64, len(need))
	it := cand.Iterator()
	for it.HasNext() {
		d := uint64(it.Next())
		for i, s := range need {
			pos[i] = pos[i][:0]
			for j, pi := range s.its {
				if s.cur[j] == nil || s.cur[j].Number() < d {
					p, err := pi.Advance(d)
					if err != nil {
						return nil, err
					}
					s.cur[j] = p
				}
				if p := s.cur[j]; p != nil && p.Number() == d {
					for _, l := range p.Locations() {
						pos[i] = append(pos[i], l.Pos())
					}
				}
			}
		}
		if phraseAt(pos, func(i int) int { return need[i].rel }) {
			out.Add(uint32(d))
		}
	}
	return out, nil
}

// phraseAt reports whether some position of the first slot starts the
// phrase: every slot holds a word at its offset from it. Positions are
// few per document; a linear look-up beats building sets.
func phraseAt(pos [][]uint64, rel func(int) int) bool {
	for _, p0 := range pos[0] {
		start := int64(p0) - int64(rel(0))
		ok := true
		for i := 1; i < len(pos) && ok; i++ {
			ok = slices.Contains(pos[i], uint64(start+int64(rel(i))))
		}
		if ok {
			return true
		}
	}
	return false
}
