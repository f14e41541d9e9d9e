package indexer

import (
	"context"
	"io/fs"
	"os"
	"slices"
	"testing"
	"testing/fstest"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/view"
)

// One City Record row dated 2099-01-01 (in a file of its own, with no
// observation time) is loaded with the bundled sample: City Record's
// last_source_date, observed_at and state are those of the sample alone,
// and the row is held, by its id, flagged as future-dated.
func TestFutureDatedRowMovesNoFreshness(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, record.NewYork)
	clock := func() time.Time { return now }
	sample := os.DirFS("../testdata/sample")
	withFuture := fstest.MapFS{}
	if err := fs.WalkDir(sample, "crol", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(sample, p)
		withFuture[p] = &fstest.MapFile{Data: b}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	withFuture["crol/future/rows.json"] = &fstest.MapFile{Data: []byte(`[{"request_id":"20990101001","start_date":"2099-01-01T00:00:00.000",` +
		`"agency_name":"Parks and Recreation","section_name":"Procurement","type_of_notice_description":"Award","short_title":"A row dated 2099"}]`)}

	load := func(fsys fs.FS) (*embedded.Backend, record.SourceCoverage) {
		t.Helper()
		b, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { b.Close() })
		b.Now = clock
		ix := &Indexer{Backend: b, Crosswalk: entity.DefaultCrosswalk(), Now: clock}
		if _, err := ix.Load(ctx, crolSource{}, fsys, "crol"); err != nil {
			t.Fatal(err)
		}
		// City Record's job, never run live: stale past its maximum age
		runs := func(context.Context) (func(string) record.SourceRun, error) {
			return func(string) record.SourceRun {
				return record.SourceRun{Job: "crol", Every: 5 * time.Minute, MaxAge: time.Hour}
			}, nil
		}
		cov, err := search.WithFreshness(b, runs, clock).Coverage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(cov, func(c record.SourceCoverage) bool { return c.Source == record.SourceCROL })
		if i < 0 {
			t.Fatalf("no City Record coverage: %+v", cov)
		}
		return b, cov[i]
	}
	_, want := load(sample)
	b, got := load(withFuture)
	if got.Records != want.Records+1 {
		t.Errorf("records: %d, want the sample's %d and the future row", got.Records, want.Records)
	}
	if got.LastSourceDate != want.LastSourceDate || got.NewestSourceDate != want.NewestSourceDate || !got.ObservedAt.Equal(want.ObservedAt) ||
		got.State != want.State || got.SourceAgeDays != want.SourceAgeDays {
		t.Errorf("with a row dated 2099: last %s newest %s observed %s state %s age %d days; the sample alone: last %s newest %s observed %s state %s age %d days",
			got.LastSourceDate, got.NewestSourceDate, got.ObservedAt, got.State, got.SourceAgeDays,
			want.LastSourceDate, want.NewestSourceDate, want.ObservedAt, want.State, want.SourceAgeDays)
	}
	if want.State != record.Stale {
		t.Errorf("the sample alone, months after its observation: %s, want stale (the test's premise)", want.State)
	}
	n, err := b.Get(ctx, "20990101001")
	if err != nil {
		t.Fatalf("the future-dated row is not held: %v", err)
	}
	if !slices.ContainsFunc(view.Flags(n, now), func(f view.Flag) bool { return f.Code == "future_dated" }) {
		t.Errorf("the row dated %s is not flagged future_dated: %+v", n.StartDate, view.Flags(n, now))
	}
}
