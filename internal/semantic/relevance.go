package semantic

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"regexp"
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
	Need     string `json:"need"`
	Q        string `json:"q"`
	Title    string `json:"title"`
	Not      string `json:"not,omitempty"`
}

// LoadJudged reads a judged set and checks its rules compile.
func LoadJudged(path string) (Judged, error) {
	var j Judged
	b, err := os.ReadFile(path)
	if err != nil {
		return j, err
	}
	if err := json.Unmarshal(b, &j); err != nil {
		return j, fmt.Errorf("%s: %w", path, err)
	}
	for _, q := range j.Queries {
		if _, _, err := q.rules(); err != nil {
			return j, fmt.Errorf("%s: %s: %w", path, q.ID, err)
		}
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
	var out []ModeScore
	for _, mode := range Modes {
		ms := ModeScore{Mode: mode, ByPhrasing: map[string][2]float64{}}
		count := map[string]int{}
		type worst struct {
			id   string
			ndcg float64
		}
		var ws []worst
		for _, q := range j.Queries {
			rel := q.Relevant(titles)
			if len(rel) == 0 {
				return nil, fmt.Errorf("judged query %s: no notice held is relevant", q.ID)
			}
			res, err := s.Search(ctx, search.Query{Text: q.Q, Limit: EvalCutoff}, mode)
			if err != nil {
				return nil, fmt.Errorf("judged query %s (%s): %w", q.ID, mode, err)
			}
			ids := make([]string, 0, len(res.Hits))
			for _, h := range res.Hits {
				ids = append(ids, h.Notice.RequestID)
			}
			r, n := scoreRanking(ids, rel)
			ms.Recall += r
			ms.NDCG += n
			p := ms.ByPhrasing[q.Phrasing]
			ms.ByPhrasing[q.Phrasing] = [2]float64{p[0] + r, p[1] + n}
			count[q.Phrasing]++
			ms.Queries++
			ws = append(ws, worst{q.ID, n})
		}
		ms.Recall /= float64(ms.Queries)
		ms.NDCG /= float64(ms.Queries)
		for k, v := range ms.ByPhrasing {
			ms.ByPhrasing[k] = [2]float64{v[0] / float64(count[k]), v[1] / float64(count[k])}
		}
		for i := 0; i < 5 && i < len(ws); i++ {
			lo := i
			for k := i + 1; k < len(ws); k++ {
				if ws[k].ndcg < ws[lo].ndcg {
					lo = k
				}
			}
			ws[i], ws[lo] = ws[lo], ws[i]
			ms.Worst = append(ms.Worst, fmt.Sprintf("%s: %.2f", ws[i].id, ws[i].ndcg))
		}
		out = append(out, ms)
	}
	return out, nil
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
