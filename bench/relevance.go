package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
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
	dir, err := os.MkdirTemp(cfg.Work, "relevance-*")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		return fail(err)
	}
	defer be.Close()
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: time.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := ix.LoadCROLDir(ctx, os.DirFS(cfg.Sample), "crol"); err != nil {
		return fail(err)
	}
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
	return b.String()
}
