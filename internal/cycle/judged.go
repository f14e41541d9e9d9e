package cycle

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/recordwatch/recordwatch/internal/search"
)

// JudgedFile is the judged set, relative to the repository root.
const JudgedFile = "testdata/cycle/judged_pairs.json"

// JudgedPair is one judgement: is Earlier an earlier cycle of the same
// work as Notice? Both are request ids of the bundled sample.
type JudgedPair struct {
	Notice   string `json:"notice"`
	Earlier  string `json:"earlier"`
	SameWork bool   `json:"same_work"`
	Why      string `json:"why"`
}

// LoadJudged reads a judged set.
func LoadJudged(path string) ([]JudgedPair, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Pairs []JudgedPair `json:"pairs"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return doc.Pairs, nil
}

// Eval is a judged set's outcome for the tiers counted.
type Eval struct {
	Tiers     []string `json:"tiers"`
	Pairs     int      `json:"pairs"`
	Positives int      `json:"same_work"`
	Predicted int      `json:"matched"`
	TruePos   int      `json:"matched_right"`
	Precision float64  `json:"precision"`
	Recall    float64  `json:"recall"`
	// Wrong lists the pairs Score got wrong, with the judgement's reason.
	Wrong []string `json:"wrong,omitempty"`
}

// Evaluate scores every judged pair with Score (both notices read from r)
// and counts the matches of the tiers given. A judged notice r does not
// hold is an error (the set must be of the corpus loaded).
func Evaluate(ctx context.Context, r search.NoticesAndRecords, pairs []JudgedPair, tiers ...string) (Eval, error) {
	e := Eval{Tiers: tiers}
	for _, p := range pairs {
		n, err := r.Get(ctx, p.Notice)
		if err != nil {
			return e, fmt.Errorf("judged notice %s: %w", p.Notice, err)
		}
		o, err := r.Get(ctx, p.Earlier)
		if err != nil {
			return e, fmt.Errorf("judged notice %s: %w", p.Earlier, err)
		}
		e.Pairs++
		if p.SameWork {
			e.Positives++
		}
		m, ok := Score(n, o)
		ok = ok && slices.Contains(tiers, m.Tier)
		if ok {
			e.Predicted++
			if p.SameWork {
				e.TruePos++
			}
		}
		if ok != p.SameWork {
			e.Wrong = append(e.Wrong, fmt.Sprintf("%s ← %s: judged %v, matched %v (%s)", p.Notice, p.Earlier, p.SameWork, ok, p.Why))
		}
	}
	if e.Predicted > 0 {
		e.Precision = float64(e.TruePos) / float64(e.Predicted)
	}
	if e.Positives > 0 {
		e.Recall = float64(e.TruePos) / float64(e.Positives)
	}
	return e, nil
}
