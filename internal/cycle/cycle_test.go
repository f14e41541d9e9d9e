package cycle

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

var backend *embedded.Backend

// TestMain loads the bundled sample corpus (real rows) once.
func TestMain(m *testing.M) {
	// the sample's notices, loaded once per test binary
	var err error
	backend, err = sampletest.SharedIndex(sampletest.Notices, time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork))
	if err != nil {
		panic(err)
	}
	os.Exit(sampletest.Main(m)) // closes backend
}

// evaluate is Evaluate over the judged set and the bundled sample.
func evaluate(t testing.TB, tiers ...string) Eval {
	t.Helper()
	pairs, err := LoadJudged(filepath.Join("..", "..", JudgedFile))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Evaluate(context.Background(), backend, pairs, tiers...)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestJudgedPrecision: on the judged pairs of the bundled notices, the
// published matches (strict, and strict with corroborated) are right at
// least 90% of the time; recall is reported.
func TestJudgedPrecision(t *testing.T) {
	for _, tiers := range [][]string{{TierStrict}, {TierStrict, TierCorroborated}} {
		e := evaluate(t, tiers...)
		t.Logf("tiers %v: %d judged pairs (%d same work): %d matched, %d right: precision %.2f, recall %.2f",
			tiers, e.Pairs, e.Positives, e.Predicted, e.TruePos, e.Precision, e.Recall)
		for _, w := range e.Wrong {
			t.Logf("  %s", w)
		}
		if e.Pairs < 40 {
			t.Errorf("only %d judged pairs", e.Pairs)
		}
		if e.Precision < 0.9 {
			t.Errorf("precision %.2f < 0.9 for tiers %v", e.Precision, tiers)
		}
	}
}

// BenchmarkPriorCycle reports the judged set's precision and recall (go
// test -bench PriorCycle ./internal/cycle/) with the time to score it.
func BenchmarkPriorCycle(b *testing.B) {
	var e Eval
	for i := 0; i < b.N; i++ {
		e = evaluate(b, TierStrict, TierCorroborated)
	}
	b.ReportMetric(e.Precision, "precision")
	b.ReportMetric(e.Recall, "recall")
	b.ReportMetric(float64(e.Pairs), "pairs")
	strict := evaluate(b, TierStrict)
	b.ReportMetric(strict.Precision, "strict_precision")
	b.ReportMetric(strict.Recall, "strict_recall")
}

// TestFind: a solicitation with an earlier cycle held names it (method,
// tier, confidence, evidence) and the next likely date; one without says
// so in the words every surface shows.
func TestFind(t *testing.T) {
	ctx := context.Background()
	n, err := backend.Get(ctx, "20260603042") // NYCHA V/C floor tile, 2026
	if err != nil {
		t.Fatal(err)
	}
	res, err := Find(ctx, backend, n)
	if err != nil || !res.Applies || len(res.Matches) == 0 {
		t.Fatalf("%+v %v", res, err)
	}
	for _, m := range res.Matches {
		if m.Method == "" || m.Tier == "" || m.Confidence <= 0 || len(m.Evidence) < 2 || !m.Published.Before(n.StartDate.Add(-MinGap)) {
			t.Errorf("match %+v", m)
		}
		if m.RequestID == "20260529026" {
			t.Error("a notice of the same cycle (days apart) matched")
		}
	}
	if res.NextDue == nil || !res.NextDue.After(n.StartDate) || res.NextDueBasis == "" || res.Summary == NoneFound {
		t.Errorf("result %+v", res)
	}
	// one with none held
	lone, err := backend.Get(ctx, "20260616061") // EDC affordable housing insurance RFEI
	if err != nil {
		t.Fatal(err)
	}
	res, err = Find(ctx, backend, lone)
	if err != nil || !res.Applies || len(res.Matches) != 0 || res.Summary != NoneFound || res.Searched == "" {
		t.Errorf("lone %+v %v", res, err)
	}
	// an award is not a query
	aw, _ := backend.Get(ctx, "20141008006")
	if res, _ := Find(ctx, backend, aw); res.Applies {
		t.Errorf("award %+v", res)
	}
	// an intent whose earlier cycle is weeks older (an earlier fiscal
	// year's PIN): the corroborated tier, stating its corroboration, names
	// the vendor that won last time
	intent, _ := backend.Get(ctx, "20141119005") // OCME Ventana support, FY16
	res, err = Find(ctx, backend, intent)
	if err != nil || res.LastAward == nil || res.LastAward.Tier != TierCorroborated ||
		!strings.Contains(res.LastAward.VendorName, "Roche") || !strings.Contains(res.Summary, "last awarded to Roche") {
		t.Fatalf("intent %+v %v", res, err)
	}
	// (the intent's vendor is read from its text and counted, so the
	// corroboration is the same vendor)
	if ev := strings.Join(res.LastAward.Evidence, "; "); !strings.Contains(ev, "same vendor (Roche") || !strings.Contains(ev, "earlier fiscal year") {
		t.Errorf("corroborated evidence %q", ev)
	}
}
