package semantic

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/search"
)

// JudgedFile is the judged query set over the bundled sample.
const JudgedFile = "testdata/relevance/judged.json"

// Judged is a judged query set: each query's relevant notices are those
// whose title matches its rule (Title, minus Not), written from the
// titles before any system ran the query.
type Judged struct {
	About   string        `json:"about"`
	Queries []JudgedQuery `json:"queries"`
}

// JudgedQuery is one query of the judged set.
type JudgedQuery struct {
	ID       string `json:"id"`
	Phrasing string `json:"phrasing"` // "keyword" or "paraphrase"
	Who      string `json:"who"`      // who would ask it: one of Askers
	Need     string `json:"need"`
	Q        string `json:"q"`
	Title    string `json:"title"`
	Not      string `json:"not,omitempty"`
	// Reason says why the rule is right for the need (every query added
	// after the first set has one).
	Reason string `json:"reason,omitempty"`
}

// Phrasings are the two ways a judged query is phrased: in the words of
// the relevant titles, or the same need in other words.
var Phrasings = []string{"keyword", "paraphrase"}

// Askers are who a judged query is written as.
var Askers = []string{"resident", "reporter", "vendor"}

// FirstSet is how many queries the first judged set held (q01-q60). The
// queries after them were added later (issue 36): a choice tuned on the
// first set is reported on them separately, as held out.
const FirstSet = 60

// LoadJudged reads a judged set and checks each query: its rules compile,
// its id is unique, and its phrasing and asker are known ones.
func LoadJudged(path string) (Judged, error) {
	var j Judged
	b, err := os.ReadFile(path)
	if err != nil {
		return j, err
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return j, fmt.Errorf("%s: %w", path, err)
	}
	seen := map[string]bool{}
	for _, q := range j.Queries {
		if _, _, err := q.rules(); err != nil {
			return j, fmt.Errorf("%s: %s: %w", path, q.ID, err)
		}
		switch {
		case q.ID == "" || seen[q.ID]:
			return j, fmt.Errorf("%s: query id %q is empty or repeated", path, q.ID)
		case !slices.Contains(Phrasings, q.Phrasing):
			return j, fmt.Errorf("%s: %s: phrasing %q is not one of %v", path, q.ID, q.Phrasing, Phrasings)
		case !slices.Contains(Askers, q.Who):
			return j, fmt.Errorf("%s: %s: who %q is not one of %v", path, q.ID, q.Who, Askers)
		}
		seen[q.ID] = true
	}
	return j, nil
}

func (q JudgedQuery) rules() (*regexp.Regexp, *regexp.Regexp, error) {
	in, err := regexp.Compile("(?i)" + q.Title)
	if err != nil {
		return nil, nil, err
	}
	var out *regexp.Regexp
	if q.Not != "" {
		if out, err = regexp.Compile("(?i)" + q.Not); err != nil {
			return nil, nil, err
		}
	}
	return in, out, nil
}

// Relevant is the set of notice ids (of titles) the query's rule judges
// relevant.
func (q JudgedQuery) Relevant(titles map[string]string) map[string]bool {
	in, out, err := q.rules()
	if err != nil {
		return nil
	}
	rel := map[string]bool{}
	for id, t := range titles {
		if in.MatchString(t) && (out == nil || !out.MatchString(t)) {
			rel[id] = true
		}
	}
	return rel
}

// EvalCutoff is the rank the judged set is scored at.
const EvalCutoff = 10

// ModeScore is one mode's mean scores over the judged set, overall and by
// phrasing.
type ModeScore struct {
	Mode       string                `json:"mode"`
	Queries    int                   `json:"queries"`
	Recall     float64               `json:"recall_at_10"`
	NDCG       float64               `json:"ndcg_at_10"`
	ByPhrasing map[string][2]float64 `json:"by_phrasing"` // phrasing → recall, nDCG
	// Worst are the queries with the lowest nDCG (id: nDCG), for review.
	Worst []string `json:"worst,omitempty"`
	// PerQuery are the scores the means are taken over, in set order.
	PerQuery []QueryScore `json:"-"`
}

// QueryScore is one query's scores in one mode.
type QueryScore struct {
	Query        JudgedQuery
	Recall, NDCG float64
	Relevant     int // notices the rule judges relevant
}

// Evaluate scores every mode on the judged set against the notices s
// holds: recall@10 is the relevant notices in the top 10 over
// min(relevant, 10); nDCG@10 uses binary gains. A query with no relevant
// notice held is an error (the set no longer fits the corpus).
func Evaluate(ctx context.Context, s *Service, j Judged) ([]ModeScore, error) {
	titles, err := allTitles(ctx, s.Reader)
	if err != nil {
		return nil, err
	}
	rels := make([]map[string]bool, len(j.Queries))
	for i, q := range j.Queries {
		if rels[i] = q.Relevant(titles); len(rels[i]) == 0 {
			return nil, fmt.Errorf("judged query %s: no notice held is relevant", q.ID)
		}
	}
	var out []ModeScore
	for _, mode := range Modes {
		per := make([]QueryScore, 0, len(j.Queries))
		for i, q := range j.Queries {
			res, err := s.Search(ctx, search.Query{Text: q.Q, Limit: EvalCutoff}, mode)
			if err != nil {
				return nil, fmt.Errorf("judged query %s (%s): %w", q.ID, mode, err)
			}
			ids := make([]string, 0, len(res.Hits))
			for _, h := range res.Hits {
				ids = append(ids, h.Notice.RequestID)
			}
			r, n := scoreRanking(ids, rels[i])
			per = append(per, QueryScore{Query: q, Recall: r, NDCG: n, Relevant: len(rels[i])})
		}
		out = append(out, summarize(mode, per))
	}
	return out, nil
}

// Where is the scores over the queries keep accepts, means taken again;
// a mode with no query left is dropped.
func Where(scores []ModeScore, keep func(JudgedQuery) bool) []ModeScore {
	var out []ModeScore
	for _, ms := range scores {
		var per []QueryScore
		for _, qs := range ms.PerQuery {
			if keep(qs.Query) {
				per = append(per, qs)
			}
		}
		if len(per) > 0 {
			out = append(out, summarize(ms.Mode, per))
		}
	}
	return out
}

// InFirstSet reports whether q is one of the first FirstSet queries
// (q01-q60).
func InFirstSet(q JudgedQuery) bool {
	var n int
	_, err := fmt.Sscanf(q.ID, "q%d", &n)
	return err == nil && n >= 1 && n <= FirstSet
}

// summarize is a mode's means over per-query scores.
func summarize(mode string, per []QueryScore) ModeScore {
	ms := ModeScore{Mode: mode, ByPhrasing: map[string][2]float64{}, PerQuery: per}
	count := map[string]int{}
	for _, qs := range per {
		ms.Recall += qs.Recall
		ms.NDCG += qs.NDCG
		p := ms.ByPhrasing[qs.Query.Phrasing]
		ms.ByPhrasing[qs.Query.Phrasing] = [2]float64{p[0] + qs.Recall, p[1] + qs.NDCG}
		count[qs.Query.Phrasing]++
	}
	ms.Queries = len(per)
	ms.Recall /= float64(ms.Queries)
	ms.NDCG /= float64(ms.Queries)
	for k, v := range ms.ByPhrasing {
		ms.ByPhrasing[k] = [2]float64{v[0] / float64(count[k]), v[1] / float64(count[k])}
	}
	worst := slices.Clone(per)
	slices.SortStableFunc(worst, func(a, b QueryScore) int {
		switch {
		case a.NDCG < b.NDCG:
			return -1
		case a.NDCG > b.NDCG:
			return 1
		}
		return 0
	})
	for _, w := range worst[:min(5, len(worst))] {
		ms.Worst = append(ms.Worst, fmt.Sprintf("%s: %.2f", w.Query.ID, w.NDCG))
	}
	return ms
}

// scoreRanking is recall@10 (over min(relevant, 10)) and binary nDCG@10 of
// a ranking.
func scoreRanking(ids []string, rel map[string]bool) (recall, ndcg float64) {
	if len(ids) > EvalCutoff {
		ids = ids[:EvalCutoff]
	}
	var dcg, ideal float64
	found := 0
	for i, id := range ids {
		if rel[id] {
			found++
			dcg += 1 / math.Log2(float64(i+2))
		}
	}
	best := min(len(rel), EvalCutoff)
	for i := range best {
		ideal += 1 / math.Log2(float64(i+2))
	}
	return float64(found) / float64(best), dcg / ideal
}

// allTitles reads every notice's title.
func allTitles(ctx context.Context, r search.Reader) (map[string]string, error) {
	out := map[string]string{}
	q := search.Query{Sort: search.SortNewest, Limit: search.MaxLimit}
	for {
		res, err := r.Search(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, h := range res.Hits {
			out[h.Notice.RequestID] = h.Notice.Title
		}
		if res.NextCursor == "" || len(res.Hits) == 0 {
			return out, nil
		}
		q.Cursor = res.NextCursor
	}
}

// Table renders scores as a Markdown table.
func Table(scores []ModeScore) string {
	var b strings.Builder
	b.WriteString("| mode | queries | recall@10 | nDCG@10 | recall@10 keyword-phrased | nDCG@10 keyword-phrased | recall@10 paraphrased | nDCG@10 paraphrased |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, s := range scores {
		k, p := s.ByPhrasing["keyword"], s.ByPhrasing["paraphrase"]
		fmt.Fprintf(&b, "| %s | %d | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f |\n", s.Mode, s.Queries, s.Recall, s.NDCG, k[0], k[1], p[0], p[1])
	}
	return b.String()
}

// TableByAsker renders each mode's recall@10 and nDCG@10 by who asks the
// queries (Askers), as a Markdown table.
func TableByAsker(scores []ModeScore) string {
	var b strings.Builder
	b.WriteString("| mode |")
	for _, a := range Askers {
		fmt.Fprintf(&b, " %s queries | %s recall@10 | %s nDCG@10 |", a, a, a)
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---:|---:|---:|", len(Askers)))
	b.WriteString("\n")
	for _, s := range scores {
		fmt.Fprintf(&b, "| %s |", s.Mode)
		for _, a := range Askers {
			sub := Where([]ModeScore{s}, func(q JudgedQuery) bool { return q.Who == a })
			if len(sub) == 0 {
				b.WriteString(" 0 | — | — |")
				continue
			}
			fmt.Fprintf(&b, " %d | %.3f | %.3f |", sub[0].Queries, sub[0].Recall, sub[0].NDCG)
		}
		b.WriteString("\n")
	}
	return b.String()
}
