package api

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// TestMailBombIsOneMailADay is issue 45's repro: ten clients (behind a
// trusted proxy) each ask four times for watches for one victim's
// address. In both forms the victim gets one welcome or confirmation mail
// that day and at most one digest mail per window; past the bound on
// untouched watches every request is refused with the same answer; the
// real owner can still add a watch from a link in the mail received, and
// "this wasn't me" removes everything.
func TestMailBombIsOneMailADay(t *testing.T) {
	for _, form := range []int{1, 2} {
		t.Run("form"+strconv.Itoa(form), func(t *testing.T) {
			e := newWatchEnvWith(t, form, sampletest.Notices, nil, func(c *Config) { c.TrustedProxies = []string{"127.0.0.1", "::1"} })
			victim := func() []sentMail {
				var out []sentMail
				for _, f := range e.outboxFiles("") {
					if m := readMail(t, f); strings.Contains(m.Header.Get("To"), "victim@example.org") {
						out = append(out, m)
					}
				}
				return out
			}
			accepted, refused := 0, map[string]int{}
			for c := 1; c <= 10; c++ {
				for r := 1; r <= 4; r++ {
					body := `{"email":"victim@example.org","lens":"money","q":"parks c` + strconv.Itoa(c) + ` r` + strconv.Itoa(r) + `","cadence":"weekly"}`
					if form == 2 {
						body = `{"email":"victim@example.org","text":"Parks awards weekly, c` + strconv.Itoa(c) + ` r` + strconv.Itoa(r) + `"}`
					}
					req, _ := http.NewRequest("POST", e.ts.URL+"/api/watches", strings.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("X-Forwarded-For", "198.51.100."+strconv.Itoa(c))
					res, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					buf := new(strings.Builder)
					_, _ = io.Copy(buf, res.Body)
					res.Body.Close()
					switch res.StatusCode {
					case http.StatusCreated, http.StatusAccepted:
						accepted++
					case http.StatusTooManyRequests:
						refused[buf.String()]++
					default:
						t.Fatalf("client %d request %d: %d %s", c, r, res.StatusCode, buf)
					}
					e.m.Flush() // the outbox worker runs between requests
				}
			}
			// Form 2 keeps nothing of a request once its confirmation is
			// sent: the bound counts the requests still queued
			if want := watch.DefaultMaxUntouched + form - 1; accepted != want || len(refused) != 1 {
				t.Errorf("%d accepted (want %d), refusals %v (want one answer for all)", accepted, want, refused)
			}
			mails := victim()
			if len(mails) != 1 {
				t.Fatalf("%d unasked mails to the victim in a day, want 1", len(mails))
			}
			first := mails[0]
			if !strings.Contains(first.Text, "This wasn't me") || !strings.Contains(first.Header.Get("List-Unsubscribe"), "/remove/") {
				t.Errorf("the unasked mail has no one-click 'this wasn't me':\n%s", first.Text)
			}
			// a day later the rest come in one mail
			e.clock.Set(fixedNow.Add(watch.UnaskedEvery + time.Minute))
			mails = victim()
			if len(mails) != 2 {
				t.Fatalf("a day later: %d unasked mails, want 2", len(mails))
			}
			links := map[int]string{1: "/manage/", 2: "/confirm/"}[form]
			if n := strings.Count(mails[0].Text+mails[1].Text, links); n != accepted {
				t.Errorf("the two mails carry %d %s links, want one per request accepted (%d)", n, links, accepted)
			}
			// the owner: a link of a mail received (Form 2: confirm one
			// request first, whose welcome carries a manage link)
			owner := first
			if form == 2 {
				link := linkWith(t, mails[1].Text, "/confirm/")
				if res, out := httpDo(t, "POST", link, "application/x-www-form-urlencoded", ""); res.StatusCode != 200 {
					t.Fatalf("confirm: %d %s", res.StatusCode, out)
				}
				welcomes := slices.DeleteFunc(victim(), func(m sentMail) bool { return m.Header.Get("X-Recordwatch-Kind") != "welcome" })
				if len(welcomes) != 1 {
					t.Fatalf("the confirmed watch's welcome: %d mails", len(welcomes))
				}
				owner = welcomes[0]
			}
			manage := linkWith(t, owner.Text, "/manage/")
			before := len(victim())
			body := `{"email":"victim@example.org","lens":"money","q":"playground","manage":"` + manage + `"}`
			if form == 2 {
				body = `{"email":"victim@example.org","text":"Parks playground awards","manage":"` + manage + `"}`
			}
			if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body); res.StatusCode/100 != 2 {
				t.Fatalf("the owner's request from a manage link: %d %s", res.StatusCode, out)
			}
			if n := len(victim()); n != before+1 {
				t.Errorf("the owner's own request: %d mails, want its one at once", n-before)
			}
			// digests: the address's watches go out as one mail per window
			e.clock.Set(fixedNow.AddDate(0, 0, 8)) // past the next Monday's window
			digests := func() int {
				n := 0
				for _, m := range victim() {
					if m.Header.Get("X-Recordwatch-Kind") == "digest" {
						n++
					}
				}
				return n
			}
			for run := 0; run < 2; run++ { // a second run in the window sends nothing more
				rep, err := e.m.RunDigests(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				if n := digests(); n != 1 {
					t.Errorf("run %d: %d digest mails to the victim in a window (report %+v), want 1", run, n, rep)
				}
			}
			// "this wasn't me": every watch and queued mail of the address goes
			remove := linkWith(t, first.Text, "/remove/")
			if res, out := httpDo(t, "GET", remove, "", ""); res.StatusCode != 200 || !strings.Contains(out, "Remove everything") || e.watches(t) == 0 && form == 1 {
				t.Errorf("remove page: %d %s", res.StatusCode, out)
			}
			if res, out := httpDo(t, "POST", remove, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click"); res.StatusCode != 200 {
				t.Errorf("one-click remove: %d %s", res.StatusCode, out)
			}
			if n := e.watches(t); n != 0 {
				t.Errorf("%d watches left after 'remove everything'", n)
			}
			if ps, _ := e.st.PendingMail(context.Background()); len(ps) != 0 {
				t.Errorf("%d mails still queued after 'remove everything'", len(ps))
			}
		})
	}
}
