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
	"github.com/recordwatch/recordwatch/internal/cycle"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// sampleIndex loads the bundled City Record sample (notices and their
// vectors) into a scratch embedded index under the work directory; done
// closes and removes it.
func sampleIndex(ctx context.Context, cfg config, name string) (*embedded.Backend, func(), error) {
	dir, err := os.MkdirTemp(cfg.Work, name+"-*")
	if err != nil {
		return nil, nil, err
	}
	be, err := embedded.Open(filepath.Join(dir, "index"))
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	done := func() { be.Close(); os.RemoveAll(dir) }
	ix := &indexer.Indexer{Backend: be, Crosswalk: entity.DefaultCrosswalk(), Now: time.Now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	if _, err := ix.LoadCROLDir(ctx, os.DirFS(cfg.Sample), "crol"); err != nil {
		done()
		return nil, nil, err
	}
	return be, done, nil
}

// cycleEval is the prior-cycle matcher's quality on the judged set
// (testdata/cycle/judged_pairs.json) over the bundled sample it was judged
// on: strict tier alone, and strict with corroborated.
type cycleEval struct {
	Strict, All cycle.Eval
	Err         string
}

// evalPriorCycle loads the bundled CROL sample into a scratch embedded
// index and scores the judged pairs (internal/cycle.Evaluate).
func evalPriorCycle(ctx context.Context, cfg config) cycleEval {
	var out cycleEval
	fail := func(err error) cycleEval { out.Err = err.Error(); return out }
	be, done, err := sampleIndex(ctx, cfg, "cycle")
	if err != nil {
		return fail(err)
	}
	defer done()
	pairs, err := cycle.LoadJudged(cycle.JudgedFile)
	if err != nil {
		return fail(err)
	}
	if out.Strict, err = cycle.Evaluate(ctx, be, pairs, cycle.TierStrict); err != nil {
		return fail(err)
	}
	if out.All, err = cycle.Evaluate(ctx, be, pairs, cycle.TierStrict, cycle.TierCorroborated); err != nil {
		return fail(err)
	}
	return out
}

func renderCycle(e cycleEval) string {
	var b strings.Builder
	b.WriteString("## Prior-cycle matching (judged set)\n\n")
	if e.Err != "" {
		fmt.Fprintf(&b, "Not measured: %s.\n\n", e.Err)
		return b.String()
	}
	b.WriteString("Earlier cycles of a solicitation's work (internal/cycle) scored on the judged pairs of the bundled notices " +
		"(`" + cycle.JudgedFile + "`); also `go test -bench PriorCycle ./internal/cycle/`.\n\n" +
		"| tiers | judged pairs | same work | matched | right | precision | recall |\n|---|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range []cycle.Eval{e.Strict, e.All} {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %.2f | %.2f |\n", strings.Join(r.Tiers, " + "), r.Pairs, r.Positives, r.Predicted, r.TruePos, r.Precision, r.Recall)
	}
	b.WriteString("\n")
	for _, w := range e.All.Wrong {
		fmt.Fprintf(&b, "- missed or wrong: %s\n", w)
	}
	if len(e.All.Wrong) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}
