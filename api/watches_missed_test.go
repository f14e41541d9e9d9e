package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/watch"
)

// TestMissedScheduledRunIsFlagged (issue 34): a watch whose scheduled
// digest run did not happen by its due time and grace shows the run as
// missed in its ledger (manage JSON and page) and is counted on /stats
// (JSON and page); once the run happens, neither says missed.
func TestMissedScheduledRunIsFlagged(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	n := heldSolicitation(t, e)
	if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json",
		`{"email":"m@example.org","follow":{"kind":"notice","id":"`+n.RequestID+`"}}`); res.StatusCode != 201 {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	manage := linkWith(t, readMail(t, e.outboxFiles("welcome.")[0]).Text, "/manage/")
	type statsJSON struct {
		DigestRuns *struct {
			MissedNow struct {
				Watches     int       `json:"watches"`
				EarliestDue time.Time `json:"earliest_due"`
			} `json:"missed_now"`
		} `json:"digest_runs"`
	}
	check := func(at time.Time, missed bool) {
		t.Helper()
		e.clock.Set(at)
		res, js := httpDo(t, "GET", manage, "", "", "Accept", "application/json")
		var m watch.Managed
		if err := json.Unmarshal([]byte(js), &m); res.StatusCode != 200 || err != nil {
			t.Fatalf("manage JSON %d %v %s", res.StatusCode, err, js)
		}
		gotMissed := len(m.Ledger) > 0 && m.Ledger[0].Outcome == watch.OutcomeMissed
		if gotMissed != missed {
			t.Errorf("at %s: ledger says missed %v, want %v: %s", at, gotMissed, missed, js)
		}
		if missed && (m.Ledger[0].Due.IsZero() || !strings.Contains(m.Ledger[0].Reason, "operator error")) {
			t.Errorf("missed entry %+v", m.Ledger[0])
		}
		_, page := httpDo(t, "GET", manage, "", "")
		if strings.Contains(page, "<td>missed: ") != missed {
			t.Errorf("at %s: manage page shows missed %v, want %v", at, !missed, missed)
		}
		want := 0
		if missed {
			want = 1
		}
		res, body := httpDo(t, "GET", e.ts.URL+"/stats", "", "")
		var st statsJSON
		if err := json.Unmarshal([]byte(body), &st); res.StatusCode != 200 || err != nil || st.DigestRuns == nil {
			t.Fatalf("/stats %d %v %s", res.StatusCode, err, body)
		}
		if st.DigestRuns.MissedNow.Watches != want || missed && st.DigestRuns.MissedNow.EarliestDue.IsZero() {
			t.Errorf("at %s: /stats digest_runs %+v, want %d missed", at, st.DigestRuns, want)
		}
		_, html := httpDo(t, "GET", e.ts.URL+"/stats", "", "", "Accept", "text/html")
		if !strings.Contains(html, `data-digest-runs-missed="`+string(rune('0'+want))+`"`) {
			t.Errorf("at %s: /stats page does not show %d missed runs", at, want)
		}
	}
	// the next window opens at the digest hour of the next day
	opens := time.Date(fixedNow.Year(), fixedNow.Month(), fixedNow.Day()+1, e.m.Config().DigestHour, 0, 0, 0, fixedNow.Location())
	check(opens.Add(-time.Hour), false)     // the window it was made in is its baseline
	check(opens.Add(30*time.Minute), false) // the next window opened, within its grace
	check(opens.Add(2*time.Hour), true)     // grace passed, no run
	if _, err := e.m.RunDigests(context.Background()); err != nil {
		t.Fatal(err)
	}
	check(opens.Add(3*time.Hour), false) // the run happened (late): nothing new, not missed
}
