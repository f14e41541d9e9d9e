package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/mailer"
)

// TestSubscriptionHygiene: the promises the README lists, end to end.
//   - A confirmation link's GET (a link scanner) confirms nothing; its page
//     says the link expires after 48 hours; a POST from it confirms.
//   - Past 48 hours the link is refused, and its page says links expire
//     and offers a new request.
//   - One-click unsubscribe (RFC 8058: a POST of
//     List-Unsubscribe=One-Click, as a mail provider sends it) takes effect
//     at once; a GET of the link never unsubscribes.
//   - After unsubscribe the address and the watch are gone from the store
//     (watches, deliveries; internal/store's TestUnsubscribeLeavesNoAddress
//     reads every byte of every bucket).
func TestSubscriptionHygiene(t *testing.T) {
	if mailer.DefaultConfirmTTL != 48*time.Hour {
		t.Fatalf("confirmation links expire after %v, not 48 hours", mailer.DefaultConfirmTTL)
	}
	e := newWatchEnv(t, 2, nil)
	ctx := context.Background()
	body := `{"email":"dana@example.org","text":"Parks construction awards"}`
	seen := map[string]bool{}
	for i, wait := range []time.Duration{mailer.DefaultConfirmTTL + time.Second, time.Hour} {
		base := fixedNow.Add(time.Duration(i) * 3 * mailer.DefaultConfirmTTL) // past the address's one unasked mail a day
		e.clock.Set(base)
		if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", strings.Replace(body, "dana@", "dana+"+string(rune('a'+i))+"@", 1)); res.StatusCode != http.StatusAccepted {
			t.Fatalf("request: %d %s", res.StatusCode, out)
		}
		confirms := e.outboxFiles("confirm.")
		if len(confirms) != i+1 {
			t.Fatalf("confirmations %v", confirms)
		}
		var latest string // the mail this request got (file names do not sort by time)
		for _, f := range confirms {
			if !seen[f] {
				latest, seen[f] = f, true
			}
		}
		link := linkWith(t, readMail(t, latest).Text, "/confirm/")
		e.clock.Set(base.Add(wait))
		res, page := httpDo(t, "GET", link, "", "")
		if e.watches(t) != 0 {
			t.Fatal("a GET of a confirmation link stored a watch")
		}
		if i == 0 { // expired
			if res.StatusCode != http.StatusBadRequest || !strings.Contains(page, "expire 48 hours after they are sent") ||
				!strings.Contains(page, "Make the request again") {
				t.Errorf("expired link page: %d\n%s", res.StatusCode, page)
			}
			if res, _ := httpDo(t, "POST", link, "application/x-www-form-urlencoded", ""); res.StatusCode != http.StatusBadRequest || e.watches(t) != 0 {
				t.Errorf("POST of an expired link: %d, %d watches", res.StatusCode, e.watches(t))
			}
			continue
		}
		if res.StatusCode != 200 || !strings.Contains(page, "expires 48 hours after it was sent") || !strings.Contains(page, "opening this page confirms nothing") {
			t.Errorf("confirm page: %d\n%s", res.StatusCode, page)
		}
		if res, _ := httpDo(t, "POST", link, "application/x-www-form-urlencoded", ""); res.StatusCode != 200 || e.watches(t) != 1 {
			t.Fatalf("POST confirm: %d, %d watches", res.StatusCode, e.watches(t))
		}
	}
	welcome := readMail(t, e.outboxFiles("welcome.")[0])
	unsub := strings.Trim(welcome.Header.Get("List-Unsubscribe"), "<>")
	if unsub == "" || welcome.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Fatalf("welcome headers %v", welcome.Header.Map())
	}
	for i := 0; i < 3; i++ { // scanners fetch links, sometimes repeatedly
		if res, _ := httpDo(t, "GET", unsub, "", ""); res.StatusCode != 200 || e.watches(t) != 1 {
			t.Fatalf("GET of the unsubscribe link: %d, %d watches", res.StatusCode, e.watches(t))
		}
	}
	ws, _ := e.st.ListWatches(ctx)
	id := ws[0].ID
	if res, _ := httpDo(t, "POST", unsub, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click"); res.StatusCode != 200 {
		t.Fatalf("one-click unsubscribe: %d", res.StatusCode)
	}
	ws, _ = e.st.ListWatches(ctx)
	ds, _ := e.st.Deliveries(ctx, id)
	if len(ws) != 0 || len(ds) != 0 {
		t.Errorf("after unsubscribe: %d watches, %d deliveries", len(ws), len(ds))
	}
	if _, err := e.st.GetWatch(ctx, id); err == nil {
		t.Error("the watch is still readable")
	}
}
