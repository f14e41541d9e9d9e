package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// weeklyChecks: every watch in the store is weekly; nothing goes out
// before Monday; on Monday each gets exactly one digest mail, dated
// Monday, and the mail that started it stated the Monday schedule.
func weeklyChecks(t *testing.T, e *watchEnv, surfaces map[string]string) {
	t.Helper()
	ctx := context.Background()
	ws, err := e.st.ListWatches(ctx)
	if err != nil || len(ws) != len(surfaces) {
		t.Fatalf("watches %d (want %d) %v", len(ws), len(surfaces), err)
	}
	byEmail := map[string]watch.Watch{}
	for _, w := range ws {
		if w.CadenceOf() != watch.CadenceWeekly {
			t.Errorf("%s: cadence %q", surfaces[w.Email], w.Cadence)
		}
		byEmail[w.Email] = w
	}
	for _, f := range e.outboxFiles("welcome.") {
		m := readMail(t, f)
		if strings.Contains(surfaces[strings.Trim(m.Header.Get("To"), "<>")], "manage link") {
			continue // made daily; the manage page stated the change
		}
		if !strings.Contains(flat(m.Text), weeklySchedule(e)) {
			t.Errorf("welcome to %s does not state the weekday:\n%s", m.Header.Get("To"), m.Text)
		}
	}
	// a new real matching award arrives on Friday; Saturday and Sunday
	// mornings send nothing to weekly watches
	e.index(t, realAward(t))
	for _, day := range []int{1, 2} {
		e.clock.Set(fixedNow.AddDate(0, 0, day).Add(-3 * time.Hour)) // 9:00 New York
		if rep, err := e.m.RunDigests(ctx); err != nil || rep.Sent != 0 || rep.Planned+rep.CheckIns != 0 {
			t.Fatalf("day +%d: %+v %v", day, rep, err)
		}
	}
	if got := e.outboxFiles("digest."); len(got) != 0 {
		t.Fatalf("digests before Monday: %v", got)
	}
	monday := time.Date(2026, 8, 17, 7, 30, 0, 0, record.NewYork)
	if monday.Weekday() != watch.WeeklyDay {
		t.Fatal("fixture date")
	}
	e.clock.Set(monday)
	rep, err := e.m.RunDigests(ctx)
	if err != nil || rep.Sent != len(surfaces) {
		t.Fatalf("Monday: %+v %v", rep, err)
	}
	digests := e.outboxFiles("digest.")
	if len(digests) != len(surfaces) {
		t.Fatalf("Monday digests %v", digests)
	}
	got := map[string]bool{}
	for _, f := range digests {
		m := readMail(t, f)
		to := strings.Trim(m.Header.Get("To"), "<>")
		got[to] = true
		date, _ := m.Header.Date()
		if date.In(record.NewYork).Weekday() != time.Monday {
			t.Errorf("%s: mail dated %v", surfaces[to], date)
		}
		if !strings.Contains(m.Text, "/r/money/20260616012") || !strings.Contains(m.Text, "Matched:") {
			t.Errorf("%s: digest\n%s", surfaces[to], m.Text)
		}
	}
	for email, surface := range surfaces {
		if !got[email] {
			t.Errorf("%s (%s) got no Monday mail", surface, email)
		}
	}
	// the same Monday again (a restart, the next poll): nothing more
	if rep, _ := e.restartMailer(t).RunDigests(ctx); rep.Sent != 0 || len(e.outboxFiles("digest.")) != len(surfaces) {
		t.Errorf("second Monday run %+v", rep)
	}
	// Tuesday: nothing for weekly watches
	e.clock.Set(monday.AddDate(0, 0, 1))
	if rep, _ := e.m.RunDigests(ctx); rep.Sent != 0 {
		t.Errorf("Tuesday %+v", rep)
	}
	// the next Monday, nothing new: a check-in with the scope and the
	// absence rule
	e.clock.Set(monday.AddDate(0, 0, 7))
	if rep, _ := e.m.RunDigests(ctx); rep.CheckIns != len(surfaces) || rep.Sent != len(surfaces) {
		t.Fatalf("second Monday %+v", rep)
	}
	for _, f := range e.outboxFiles("digest.") {
		m := readMail(t, f)
		if !strings.Contains(m.Header.Get("Subject"), "check-in") {
			continue
		}
		for _, want := range []string{"Nothing new matched your watch this week", "Searched:", "No match does not mean no record"} {
			if !strings.Contains(flat(m.Text), want) {
				t.Errorf("check-in lacks %q:\n%s", want, m.Text)
			}
		}
		if m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
			t.Error("check-in without one-click unsubscribe")
		}
	}
}

// TestWeeklyWatchFromEverySurface: a weekly watch made through the API,
// the site's form (its POST to /api/watches, with the body the form
// sends), MCP create_watch, and (Form 2) a plain-English subscribe mail
// gets its first weekly mail on Monday, the weekday its welcome stated.
func TestWeeklyWatchFromEverySurface(t *testing.T) {
	t.Run("form1", func(t *testing.T) {
		e := newWatchEnv(t, 1, nil)
		// API
		res, body := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json",
			`{"email":"api@example.org","lens":"money","agency":["Parks"],"q":"reconstruction","awards":true,"cadence":"weekly"}`)
		if res.StatusCode != http.StatusCreated || !strings.Contains(body, `"schedule":"weekly, on Mondays around`) {
			t.Fatalf("API create: %d %s", res.StatusCode, body)
		}
		// the site form's body (api/web/static/app.js watchForm)
		res, body = httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json",
			`{"email":"form@example.org","cadence":"weekly","lens":"money","q":"reconstruction","agency":["Parks"],"awards":true}`)
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("form create: %d %s", res.StatusCode, body)
		}
		// MCP
		c := sdk.NewClient(&sdk.Implementation{Name: "cadence-test", Version: "1"}, nil)
		s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		out, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "create_watch", Arguments: map[string]any{
			"email": "mcp@example.org", "lens": "money", "q": "reconstruction", "agency": []string{"Parks"}, "awards": true, "cadence": "weekly"}})
		if err != nil || out.IsError {
			t.Fatalf("MCP create_watch: %v %+v", err, out)
		}
		if b, _ := json.Marshal(out.StructuredContent); !strings.Contains(string(b), `"cadence":"weekly"`) {
			t.Errorf("MCP answer %s", b)
		}
		// a bad cadence is refused, naming the field
		res, body = httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json",
			`{"email":"x@example.org","lens":"money","q":"parks","cadence":"hourly"}`)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "cadence") {
			t.Errorf("bad cadence: %d %s", res.StatusCode, body)
		}
		weeklyChecks(t, e, map[string]string{"api@example.org": "API", "form@example.org": "site form", "mcp@example.org": "MCP"})
	})
	t.Run("form2", func(t *testing.T) {
		e := newWatchEnv(t, 2, nil)
		addr := e.serveSMTP(t)
		msg := "From: carol@example.org\r\nTo: " + watchSubscribe + "\r\nSubject: watch\r\nMessage-ID: <req-7@example.org>\r\n" +
			"Date: Fri, 14 Aug 2026 11:00:00 -0400\r\n\r\nParks reconstruction awards, every Monday please\r\n"
		if err := sendSMTP(t, addr, "carol@example.org", watchSubscribe, msg); err != nil {
			t.Fatal(err)
		}
		// API and the site form (Form 2: plain English with a cadence)
		res, body := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json",
			`{"email":"api@example.org","text":"Parks reconstruction awards","cadence":"weekly"}`)
		if res.StatusCode != http.StatusAccepted || !strings.Contains(body, `"cadence":"weekly"`) {
			t.Fatalf("API create: %d %s", res.StatusCode, body)
		}
		res, body = httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json",
			`{"email":"form@example.org","text":"Parks reconstruction awards weekly","cadence":"daily"}`)
		if res.StatusCode != http.StatusAccepted || !strings.Contains(body, `"cadence":"daily"`) {
			t.Fatalf("form create (the form's choice wins over the words): %d %s", res.StatusCode, body)
		}
		c := sdk.NewClient(&sdk.Implementation{Name: "cadence-test", Version: "1"}, nil)
		s, err := c.Connect(context.Background(), &sdk.StreamableClientTransport{Endpoint: e.ts.URL + "/mcp"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if out, err := s.CallTool(context.Background(), &sdk.CallToolParams{Name: "create_watch", Arguments: map[string]any{
			"email": "mcp@example.org", "request": "Parks reconstruction awards weekly"}}); err != nil || out.IsError {
			t.Fatalf("MCP create_watch: %v %+v", err, out)
		}
		confirms := e.outboxFiles("confirm.")
		if len(confirms) != 4 {
			t.Fatalf("confirmations %v", confirms)
		}
		for _, f := range confirms {
			m := readMail(t, f)
			to := strings.Trim(m.Header.Get("To"), "<>")
			want := weeklySchedule(e)
			if to == "form@example.org" {
				want = fmt.Sprintf("Digests: daily, around %d:00 New York time.", e.m.Config().DigestHour)
			}
			if !strings.Contains(flat(m.Text), want) {
				t.Errorf("confirmation to %s lacks %q:\n%s", to, want, m.Text)
			}
			if res, body := httpDo(t, "POST", linkWith(t, m.Text, "/confirm/"), "", ""); res.StatusCode != 200 {
				t.Fatalf("confirm %d %s", res.StatusCode, body)
			}
		}
		// the form's daily watch becomes weekly through its manage link
		var formManage string
		for _, f := range e.outboxFiles("welcome.") {
			if m := readMail(t, f); strings.Contains(m.Header.Get("To"), "form@example.org") {
				formManage = linkWith(t, m.Text, "/manage/")
			}
		}
		res, body = httpDo(t, "POST", formManage, "application/x-www-form-urlencoded", "cadence=weekly")
		if res.StatusCode != 200 || !strings.Contains(body, "weekly, on Mondays") {
			t.Fatalf("manage: %d %s", res.StatusCode, body)
		}
		res, body = httpDo(t, "POST", formManage, "application/json", `{"cadence":"monthly"}`, "Accept", "application/json")
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "cadence") {
			t.Errorf("bad cadence on manage: %d %s", res.StatusCode, body)
		}
		if _, body := httpDo(t, "GET", formManage, "", ""); !strings.Contains(body, "Switch to daily digests") {
			t.Errorf("manage page:\n%s", body)
		}
		weeklyChecks(t, e, map[string]string{"carol@example.org": "subscribe mail", "api@example.org": "API",
			"form@example.org": "site form, then manage link", "mcp@example.org": "MCP"})
	})
}

func weeklySchedule(e *watchEnv) string {
	return fmt.Sprintf("Digests: weekly, on Mondays around %d:00 New York time.", e.m.Config().DigestHour)
}
