package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/semantic"
)

// relevanceEval is keyword, semantic and hybrid search scored on the
// judged query set (testdata/relevance/judged.json) over the bundled
// sample it was judged on.
type relevanceEval struct {
	Scores []semantic.ModeScore
	Err    string
}

// evalRelevance loads the bundled CROL sample (with its vectors) into a
// scratch embedded index and scores every search mode (semantic.Evaluate).
func evalRelevance(ctx context.Context, cfg config) relevanceEval {
	var out relevanceEval
	fail := func(err error) relevanceEval { out.Err = err.Error(); return out }
	be, done, err := sampleIndex(ctx, cfg, "relevance")
	if err != nil {
		return fail(err)
	}
	defer done()
	j, err := semantic.LoadJudged(semantic.JudgedFile)
	if err != nil {
		return fail(err)
	}
	if out.Scores, err = semantic.Evaluate(ctx, semantic.New(be, time.Now), j); err != nil {
		return fail(err)
	}
	return out
}

func renderRelevance(e relevanceEval) string {
	var b strings.Builder
	b.WriteString("## Search quality (judged set)\n\n")
	if e.Err != "" {
		fmt.Fprintf(&b, "Not measured: %s.\n\n", e.Err)
		return b.String()
	}
	b.WriteString("Keyword, semantic and hybrid notice search (internal/semantic) scored on the judged queries over the bundled notices (`" +
		semantic.JudgedFile + "`): recall@10 over min(relevant, 10), nDCG@10 with binary gains; half the queries use the words of the " +
		"relevant titles, half say the same need in other words.\n\n")
	b.WriteString(semantic.Table(e.Scores))
	b.WriteString("\n")
	first := semantic.Where(e.Scores, semantic.InFirstSet)
	added := semantic.Where(e.Scores, func(q semantic.JudgedQuery) bool { return !semantic.InFirstSet(q) })
	if len(first) > 0 && len(added) > 0 {
		fmt.Fprintf(&b, "The first %d queries (q01-q%02d), on which the ranking's first constants were chosen:\n\n", semantic.FirstSet, semantic.FirstSet)
		b.WriteString(semantic.Table(first))
		b.WriteString("\nThe queries added later (held out from those choices; the hybrid fusion's weighting was chosen on all the queries):\n\n")
		b.WriteString(semantic.Table(added))
		b.WriteString("\n")
	}
	b.WriteString("By who asks (all queries):\n\n")
	b.WriteString(semantic.TableByAsker(e.Scores))
	b.WriteString("\n")
	return b.String()
}
