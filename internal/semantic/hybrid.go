package semantic

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Hybrid ranking (issue 50, item 6). A query either says what it wants in
// the words the notices' titles use ("traffic signal maintenance"), or in
// other words ("repairing stoplights at intersections"): keyword search is
// the better ranking for the first, the semantic ranking for the second,
// and reciprocal rank fusion with equal weights gave each the other's
// noise. So the titles of keyword search's best LexicalTop hits are read
// first: when at least LexicalShare (all) of the query's words (as the
// engines index them: stop words left out, stemmed) are among their words
// taken together, the query is "in the titles' words", and
//   - the keyword ranking counts fully and the semantic one MinorWeight;
//   - among the first TitleHead of the fused ranking, a notice gains
//     TitleBonus times the share of the query's words its title holds (the
//     title's weight: a title is what a notice is about);
//
// otherwise the query is "in other words", and
//   - the semantic ranking counts fully and the keyword one MinorWeight;
//   - a second keyword ranking counts MinorWeight too: the query's words
//     and those that at least ExpansionShared of the titles of the
//     semantic ranking's best ExpansionTop hold (at most ExpansionWords,
//     the first found first): a paraphrase finds the notices worded as
//     its best semantic matches are (pseudo-relevance feedback).
//
// All of it is done here, in the one service, on the rankings and titles
// either engine returns: both engines go through the same steps. Chosen on
// the judged set (docs/benchmarks.md "Search quality"), every step
// measured apart.
const (
	LexicalTop   = 10
	LexicalShare = 1.0
	MinorWeight  = 0.3
	TitleHead    = 20
	TitleBonus   = 0.005

	ExpansionTop    = 5
	ExpansionShared = 2
	ExpansionWords  = 12
)

// titleAnalyzer cuts text as the engines index it (Bleve's English
// analyzer: stop words out, Porter stems), after search.CleanText.
var titleAnalyzer = sync.OnceValues(func() (analysis.Analyzer, error) {
	return registry.NewCache().AnalyzerNamed(en.AnalyzerName)
})

// stems are text's indexed words, each once, in order.
func stems(text string) []string {
	a, err := titleAnalyzer()
	if err != nil {
		return nil
	}
	var out []string
	for _, tok := range a.Analyze([]byte(search.CleanText(text))) {
		if t := string(tok.Term); !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// titleShare is the share of words found among the indexed words of title
// (0 with no word).
func titleShare(words []string, title string) float64 {
	if len(words) == 0 {
		return 0
	}
	ts := stems(title)
	n := 0
	for _, w := range words {
		if slices.Contains(ts, w) {
			n++
		}
	}
	return float64(n) / float64(len(words))
}

// queryStems are the indexed words of a query's words and phrases.
func queryStems(k search.Keywords) []string {
	return stems(strings.Join(append(slices.Clone(k.Terms), k.Phrases...), " "))
}

// titles are the titles of the notices of hits, by request id (brief
// notices, one read).
func (s *Service) titles(ctx context.Context, hits []search.Hit) (map[string]string, error) {
	out := map[string]string{}
	if len(hits) == 0 {
		return out, nil
	}
	read, err := s.notices(ctx, hits, true)
	if err != nil {
		return nil, err
	}
	for _, h := range read {
		out[h.Notice.RequestID] = h.Notice.Title
	}
	return out, nil
}

// lexical reports whether a query is in its best keyword hits' titles'
// words: the share of its words found in the titles of the first
// LexicalTop of kw, taken together, is at least LexicalShare. Taken
// together, not title by title: the engines order keyword ties apart, and
// a mean over each title's share read one query (park maintenance, Parks)
// one way on one engine and the other way on the other; the words of ten
// titles together are the same on both.
func (s *Service) lexical(ctx context.Context, words []string, kw []search.Hit) (bool, error) {
	top := kw[:min(len(kw), LexicalTop)]
	if len(top) == 0 || len(words) == 0 {
		return false, nil
	}
	titles, err := s.titles(ctx, top)
	if err != nil {
		return false, err
	}
	var all []string
	for _, h := range top {
		all = append(all, titles[h.Notice.RequestID])
	}
	return titleShare(words, strings.Join(all, " ")) >= LexicalShare, nil
}

// hybrid is the fused ranking of the keyword ranking kw and the semantic
// ranking sem of q (its keywords k), as the comment above says, and
// whether the query was read as in the titles' words.
func (s *Service) hybrid(ctx context.Context, q search.Query, k search.Keywords, kw, sem []search.Hit) ([]search.Hit, bool, error) {
	words := queryStems(k)
	lex, err := s.lexical(ctx, words, kw)
	if err != nil {
		return nil, false, err
	}
	if lex {
		ranked := fuse([]ranking{{kw, 1}, {sem, MinorWeight}})
		head := ranked[:min(len(ranked), TitleHead)]
		titles, err := s.titles(ctx, head)
		if err != nil {
			return nil, false, err
		}
		for i := range head {
			head[i].Score += TitleBonus * titleShare(words, titles[head[i].Notice.RequestID])
		}
		slices.SortStableFunc(head, byScore)
		return ranked, true, nil
	}
	expanded, err := s.expanded(ctx, q, k, sem)
	if err != nil {
		return nil, false, err
	}
	return fuse([]ranking{{kw, MinorWeight}, {sem, 1}, {expanded, MinorWeight}}), false, nil
}

// expansion is the words that at least ExpansionShared of titles hold
// (words the engines index: no stop word), the first found first, at
// most n.
func expansion(titles []string, n int) []string {
	if n <= 0 {
		return nil
	}
	count := map[string]int{}
	var order []string
	for _, t := range titles {
		var seen []string
		for _, w := range search.Words(t) {
			if slices.Contains(seen, w) {
				continue
			}
			seen = append(seen, w)
			if count[w] == 0 {
				order = append(order, w)
			}
			count[w]++
		}
	}
	var out []string
	for _, w := range order {
		if len(out) == n {
			break
		}
		if count[w] >= ExpansionShared && len(stems(w)) > 0 {
			out = append(out, w)
		}
	}
	return out
}

// expanded is the keyword ranking (one page, search.MaxLimit) of q's
// words and the expansion of the titles of sem's best ExpansionTop hits;
// none when they give no word.
func (s *Service) expanded(ctx context.Context, q search.Query, k search.Keywords, sem []search.Hit) ([]search.Hit, error) {
	top := sem[:min(len(sem), ExpansionTop)]
	titles, err := s.titles(ctx, top)
	if err != nil {
		return nil, err
	}
	ts := make([]string, 0, len(top))
	for _, h := range top {
		ts = append(ts, titles[h.Notice.RequestID])
	}
	eq := q
	eq.Text = widened(q.Text, expansion(ts, min(ExpansionWords, search.MaxClauses-k.Count())))
	if eq.Text == q.Text {
		return nil, nil
	}
	eq.Cursor, eq.Limit, eq.IDsOnly = "", search.MaxLimit, true
	res, err := s.Reader.Search(ctx, eq)
	if record.ErrorCode(err) == record.EINVALID {
		// the query asked is valid; a widening that is not only loses
		// the widened ranking, never the answer
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return res.Hits, nil
}

// widened is text with the words of more added, each while the text stays
// within search.MaxTextLen characters.
func widened(text string, more []string) string {
	n := utf8.RuneCountInString(text)
	for _, w := range more {
		if l := 1 + utf8.RuneCountInString(w); n+l <= search.MaxTextLen {
			text += " " + w
			n += l
		}
	}
	return text
}

// byScore orders hits by score, best first, ties by request id.
func byScore(a, b search.Hit) int {
	if c := cmp.Compare(b.Score, a.Score); c != 0 {
		return c
	}
	return cmp.Compare(a.Notice.RequestID, b.Notice.RequestID)
}
