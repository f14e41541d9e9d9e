package indexer

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// A job that turns late opens one incident: logged as an error and
// alerted once however many checks see it late; it closes when the job
// runs again, and a later lateness is a new incident, alerted again.
func TestWatchdogAlertsOncePerIncident(t *testing.T) {
	late := false
	var logs bytes.Buffer
	var alerts []string
	w := &Watchdog{
		Statuses: func(context.Context) ([]record.JobStatus, error) {
			return []record.JobStatus{{Job: "crol", Every: "5m0s", Late: late, LateNote: "no run since then"}, {Job: "digests", Every: "1m0s"}}, nil
		},
		Alert: func(_ context.Context, subject, text string) error {
			alerts = append(alerts, subject)
			return nil
		},
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	}
	ctx := context.Background()
	check := func(wantOpened string) {
		t.Helper()
		opened, err := w.Check(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(opened, ","); got != wantOpened {
			t.Errorf("opened %q, want %q", got, wantOpened)
		}
	}
	check("")
	late = true
	check("crol")
	check("")
	check("")
	if len(alerts) != 1 || !strings.Contains(alerts[0], "crol is late") {
		t.Fatalf("alerts after one incident: %v", alerts)
	}
	if n := strings.Count(logs.String(), "level=ERROR msg=\"scheduled job is late\""); n != 1 {
		t.Errorf("%d error lines for one incident:\n%s", n, logs.String())
	}
	late = false
	check("")
	if !strings.Contains(logs.String(), "incident closed") {
		t.Error("the recovery was not logged")
	}
	late = true
	check("crol")
	if len(alerts) != 2 {
		t.Errorf("a second incident: %d alerts, want 2", len(alerts))
	}
}

// The lateness rule: late past LateAfter intervals without a run; never
// run is not late and says so.
func TestLateRule(t *testing.T) {
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, time.UTC)
	if late, note := record.Late(now.Add(-11*time.Minute), 5*time.Minute, now); !late || note == "" {
		t.Errorf("11 min without a 5-min run: late %v %q", late, note)
	}
	if late, _ := record.Late(now.Add(-9*time.Minute), 5*time.Minute, now); late {
		t.Error("9 min without a 5-min run is late")
	}
	if late, note := record.Late(time.Time{}, 5*time.Minute, now); late || !strings.Contains(note, "never run") {
		t.Errorf("never run: %v %q", late, note)
	}
}
