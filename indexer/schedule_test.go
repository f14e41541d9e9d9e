package indexer

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

// Every source with a live fetch is on the default schedule, with an
// interval and a maximum age no shorter than it; every job's name is its
// own.
func TestEveryLiveSourceIsScheduled(t *testing.T) {
	jobs := DefaultJobs()
	names := map[string]bool{}
	for _, j := range jobs {
		if names[j.Name] {
			t.Errorf("job %q twice", j.Name)
		}
		names[j.Name] = true
		if j.Every <= 0 || j.MaxAge < j.Every || len(j.Feeds) == 0 || j.Window == nil {
			t.Errorf("job %s: every %v max age %v feeds %v window set %v", j.Name, j.Every, j.MaxAge, j.Feeds, j.Window != nil)
		}
	}
	for _, src := range Sources {
		if _, live := src.(LiveSource); !live {
			continue
		}
		found := false
		for _, j := range jobs {
			found = found || j.Source.Name() == src.Name()
		}
		if !found {
			t.Errorf("live source %s has no job in DefaultJobs", src.Name())
		}
	}
	if d := (map[string]time.Duration{"crol": time.Hour, "checkbook-spending": 72 * time.Hour, "leaders": 30 * 24 * time.Hour}); true {
		for _, j := range jobs {
			if want, ok := d[j.Name]; ok && j.MaxAge != want {
				t.Errorf("%s max age %v, want %v (the issue's defaults)", j.Name, j.MaxAge, want)
			}
		}
	}
}

func TestBackoff(t *testing.T) {
	for _, c := range []struct {
		n    int
		want time.Duration
	}{{1, time.Minute}, {2, 2 * time.Minute}, {3, 4 * time.Minute}, {4, 5 * time.Minute}, {9, 5 * time.Minute}} {
		if got := Backoff(0, c.n, 5*time.Minute); got != c.want {
			t.Errorf("Backoff(n=%d) = %v, want %v", c.n, got, c.want)
		}
	}
}

// liveEnv serves replay and opens a state store, both closed when t
// ends.
func liveEnv(t *testing.T, replay http.Handler) (*httptest.Server, *store.Bolt) {
	t.Helper()
	srv := httptest.NewServer(replay)
	t.Cleanup(srv.Close)
	st, err := store.OpenBolt(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return srv, st
}

// crolReplay is a SODA replay of real City Record rows plus one row that
// does not normalize (rejected, with its reason).
func crolReplay(t *testing.T) *sodaReplay {
	t.Helper()
	data, err := os.ReadFile("../testdata/sample/crol/socrata_2026/changes_in_personnel_appointed_2026-05-22.json")
	if err != nil {
		t.Fatal(err)
	}
	var w struct{ Notices []json.RawMessage }
	if err := json.Unmarshal(data, &w); err != nil || len(w.Notices) < 10 {
		t.Fatalf("replay rows: %d %v", len(w.Notices), err)
	}
	replay := &sodaReplay{rows: w.Notices}
	replay.rows = append(replay.rows, json.RawMessage(`{"request_id":"","short_title":"A row with no id","start_date":"not a date"}`))
	return replay
}

// A scheduled run stores its receipt: the window asked, the rows read,
// written and rejected (with the reasons), start, finish and outcome; the
// next run asks from the last good run's checkpoint; a failed run is a
// failed receipt, which SourceRuns reads as failing since its start; the
// loop runs a job again on its interval.
func TestSchedulerReceipts(t *testing.T) {
	ctx := context.Background()
	replay := crolReplay(t)
	srv, st := liveEnv(t, replay)
	b := drillEngine(t, "embedded")
	now := time.Date(2026, 8, 14, 6, 0, 0, 0, time.UTC)
	ix := sampleIndexer(b)
	clock := func() time.Time { return now }
	ix.Now = clock
	job := DefaultJobs()[0]
	s := &Scheduler{Indexer: ix, Jobs: []Job{job}, Receipts: st, Now: clock,
		Config: LiveConfig{Client: replayClient(srv), PageSize: 5}}

	first := s.RunJob(ctx, job)
	good := len(replay.rows) - 1
	if first.Outcome != record.ReceiptOK || first.RowsRead != len(replay.rows) || first.Written != good || first.Rejected != 1 ||
		len(first.Reasons) != 1 || first.Job != "crol" || first.Source != "crol" || !first.Started.Equal(now) || first.Window != "every row (no checkpoint yet)" {
		t.Fatalf("first receipt: %+v", first)
	}
	now = now.Add(5 * time.Minute)
	second := s.RunJob(ctx, job)
	if second.Outcome != record.ReceiptOK || !second.WindowFrom.Equal(first.Started.Add(-LiveOverlap)) || !strings.Contains(second.Window, "updated since") {
		t.Fatalf("second receipt: %+v", second)
	}
	now = now.Add(5 * time.Minute)
	replay.set(true, false)
	third := s.RunJob(ctx, job)
	if third.Outcome != record.ReceiptFailed || third.Error == "" || !third.WindowFrom.Equal(second.WindowFrom.Add(5*time.Minute)) {
		t.Fatalf("failed run's receipt: %+v", third)
	}
	got, err := st.Receipts(ctx, "crol", 10)
	if err != nil || len(got) != 3 || got[0].Outcome != record.ReceiptFailed || got[2].Window != first.Window {
		t.Fatalf("stored receipts: %+v %v", got, err)
	}
	runs, err := SourceRuns(ctx, []Job{job}, st)
	if err != nil {
		t.Fatal(err)
	}
	run := runs(record.SourceCROL)
	if run.Job != "crol" || !run.FailingSince.Equal(third.Started) || !run.LastOK.Equal(second.Finished) || run.LastError != third.Error || run.MaxAge != time.Hour {
		t.Errorf("crol run: %+v", run)
	}
	if r := runs("civillist"); r.Job != "" || r.MaxAge != FileMaxAge["civillist"] {
		t.Errorf("a file-loaded source's run: %+v", r)
	}

	// the loop: a short interval runs the job again; a failing one backs off
	replay.set(false, false)
	job.Every = 20 * time.Millisecond
	s.Jobs = []Job{job}
	s.Now = time.Now
	ix.Now = time.Now
	// the loop runs until it has run the job twice more (on a busy
	// machine that can take a while: the bound is generous, the check is
	// on the runs, not on the time)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- s.Run(rctx) }()
	goodRuns := func() int {
		after, _ := st.Receipts(ctx, "crol", 100)
		n := 0
		for _, r := range after {
			if r.Started.After(start) && r.Outcome == record.ReceiptOK {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(60 * time.Second); goodRuns() < 2 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := goodRuns(); n < 2 {
		t.Errorf("%d good runs of a 20 ms job in a minute, want at least 2", n)
	}
}

// The README's schedule table states every job's interval and maximum
// age as DefaultJobs has them.
func TestReadmeStatesTheSchedule(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	human := func(d time.Duration) string {
		switch {
		case d >= 72*time.Hour:
			return fmt.Sprintf("%d days", int(d/(24*time.Hour)))
		case d%time.Hour == 0:
			return fmt.Sprintf("%d h", int(d/time.Hour))
		}
		return fmt.Sprintf("%d min", int(d/time.Minute))
	}
	for _, j := range DefaultJobs() {
		found := false
		for _, line := range strings.Split(string(data), "\n") {
			cells := strings.Split(line, "|")
			if len(cells) != 5 || !slices.Contains(strings.Split(strings.TrimSpace(cells[1]), ", "), j.Name) {
				continue
			}
			found = true
			if every := strings.TrimSpace(cells[2]); !strings.HasPrefix(every, human(j.Every)) {
				t.Errorf("README: %s every %q, want %s", j.Name, every, human(j.Every))
			}
			if age := strings.TrimSpace(cells[3]); age != human(j.MaxAge) {
				t.Errorf("README: %s maximum age %q, want %s", j.Name, age, human(j.MaxAge))
			}
		}
		if !found {
			t.Errorf("README's schedule table lacks %s", j.Name)
		}
	}
}
