package sampletest_test

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

func TestMain(m *testing.M) { os.Exit(sampletest.Main(m)) }

var now = time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)

// A copy holds what the shared index holds, and a write to a copy reaches
// neither the shared index nor another copy.
func TestCopiesAreTheSampleAndPrivate(t *testing.T) {
	ctx := context.Background()
	shared := sampletest.Shared(t, sampletest.Notices, now)
	if again := sampletest.Shared(t, sampletest.Notices, now); again != shared {
		t.Error("two shared indexes of one corpus")
	}
	count := func(b search.Backend) int {
		t.Helper()
		cov, err := b.Coverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cov {
			if c.Source == record.SourceCROL {
				if c.ObservedAt.IsZero() {
					t.Errorf("%s never observed", c.Source)
				}
				return c.Records
			}
		}
		t.Fatal("no City Record coverage")
		return 0
	}
	want := count(shared)
	if want < 900 {
		t.Fatalf("the shared sample holds %d notices", want)
	}
	a, b := sampletest.Copy(t, sampletest.Notices, now), sampletest.Copy(t, sampletest.Notices, now)
	if got := count(a); got != want {
		t.Errorf("a copy holds %d notices, the shared index %d", got, want)
	}
	extra := searchtest.Fixtures()[0]
	extra.Notice.RequestID = "29990101001"
	if err := a.Upsert(ctx, []search.Doc{extra}); err != nil {
		t.Fatal(err)
	}
	if err := a.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(ctx, "29990101001"); err != nil {
		t.Errorf("the copy does not hold what was written to it: %v", err)
	}
	for name, o := range map[string]search.Backend{"shared": shared, "other copy": b} {
		if _, err := o.Get(ctx, "29990101001"); err == nil {
			t.Errorf("a write to one copy reached the %s index", name)
		}
	}
}
