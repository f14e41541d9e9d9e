package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/followtest"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
	"github.com/recordwatch/recordwatch/mailer"
)

// followSurface makes a follow of f for address through one surface of
// the running service, ending with the watch stored and active.
type followSurface struct {
	name string
	make func(t *testing.T, e *watchEnv, f watch.Follow, address string)
}

// followText is how a person asks in plain English to follow f.
func followText(f watch.Follow) string {
	switch f.Kind {
	case watch.FollowMatter:
		return "follow PIN " + f.ID
	case watch.FollowLandProject:
		return "tell me when project " + f.ID + " changes"
	}
	return "follow " + f.Kind + " " + f.ID
}

var followSurfaces = []followSurface{
	{"site", func(t *testing.T, e *watchEnv, f watch.Follow, address string) {
		// the Follow control on the object's page posts this form
		form := url.Values{"email": {address}, "kind": {f.Kind}, "id": {f.ID}}
		res, page := httpDo(t, "POST", e.ts.URL+"/follow", "application/x-www-form-urlencoded", form.Encode(), "Origin", e.ts.URL)
		if res.StatusCode != 200 || !strings.Contains(page, "You follow "+f.Noun()) {
			t.Fatalf("site follow of %s: %d\n%s", f.Noun(), res.StatusCode, page)
		}
	}},
	{"api", func(t *testing.T, e *watchEnv, f watch.Follow, address string) {
		body := fmt.Sprintf(`{"email":%q,"follow":{"kind":%q,"id":%q}}`, address, f.Kind, f.ID)
		res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body)
		if res.StatusCode != http.StatusCreated || !strings.Contains(out, `"status":"active"`) || !strings.Contains(out, "Changes to "+f.Noun()) {
			t.Fatalf("API follow of %s: %d %s", f.Noun(), res.StatusCode, out)
		}
	}},
	{"mcp", func(t *testing.T, e *watchEnv, f watch.Follow, address string) {
		call := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_watch","arguments":{"email":%q,"follow":{"kind":%q,"id":%q}}}}`,
			address, f.Kind, f.ID)
		res, out := httpDo(t, "POST", e.ts.URL+"/mcp", "application/json", call, "Accept", "application/json, text/event-stream")
		if res.StatusCode != 200 || strings.Contains(out, `"isError":true`) ||
			!strings.Contains(out, `\"status\":\"active\"`) && !strings.Contains(out, `"status":"active"`) {
			t.Fatalf("MCP create_watch follow of %s: %d %s", f.Noun(), res.StatusCode, out)
		}
	}},
	{"mail", func(t *testing.T, e *watchEnv, f watch.Follow, address string) {
		// plain English to the subscribe address; the confirmation's link
		// opens a page whose POST confirms (opening it confirms nothing)
		before := len(e.outboxFiles("confirm."))
		raw := "From: <" + address + ">\r\nTo: " + watchSubscribe + "\r\nSubject: follow\r\nMessage-ID: <" + strings.ReplaceAll(address, "@", ".") +
			"@example.org>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" + followText(f) + "\r\n"
		d, err := e.m.HandleMail(context.Background(), mailer.Incoming{EnvelopeFrom: address, Client: "192.0.2.44", Raw: []byte(raw)})
		if err != nil || d != mailer.Answered {
			t.Fatalf("mail follow of %s: %v %v", f.Noun(), d, err)
		}
		confirms := e.outboxFiles("confirm.")
		if len(confirms) != before+1 {
			t.Fatalf("mail follow of %s: confirmations %v", f.Noun(), confirms)
		}
		var link string
		for _, c := range confirms {
			if m := readMail(t, c); strings.Contains(m.Header.Get("To"), address) {
				if !strings.Contains(strings.Join(strings.Fields(m.Text), " "), "Changes to "+f.Noun()) {
					t.Errorf("confirmation does not name %s:\n%s", f.Noun(), m.Text)
				}
				link = linkWith(t, m.Text, "/confirm/")
			}
		}
		if link == "" {
			t.Fatalf("no confirmation to %s in %v", address, confirms)
		}
		if res, page := httpDo(t, "GET", link, "", ""); res.StatusCode != 200 {
			t.Fatalf("confirm page: %d\n%s", res.StatusCode, page)
		}
		if res, page := httpDo(t, "POST", link, "application/x-www-form-urlencoded", ""); res.StatusCode != 200 {
			t.Fatalf("confirm POST: %d\n%s", res.StatusCode, page)
		}
	}},
}

// heldFollowables picks one held object of each followable kind from the
// full sample (followtest.Pick).
func heldFollowables(t *testing.T, e *watchEnv) (record.Notice, record.Contract, land.Project, meeting.Meeting) {
	t.Helper()
	h, err := followtest.Pick(context.Background(), e.be)
	if err != nil {
		t.Fatal(err)
	}
	return h.Notice, h.Contract, h.Project, h.Meeting
}

// TestFollowEveryKindThroughEverySurface (issue 34): a followed notice,
// matter, contract, land project and meeting, each made through the
// site's Follow form, the API, MCP create_watch and plain-English mail,
// send nothing at subscribe and nothing while unchanged, then exactly one
// change mail per change per watch saying old → new (the real mailer and
// outbox over the embedded engine and the full bundled sample), and none
// for the same change again.
func TestFollowEveryKindThroughEverySurface(t *testing.T) {
	e := newWatchEnvOver(t, 1, sampletest.Full, nil)
	ctx := context.Background()
	n, k, p, mt := heldFollowables(t, e)
	follows := []watch.Follow{{Kind: watch.FollowNotice, ID: n.RequestID}, {Kind: watch.FollowMatter, ID: n.PIN},
		{Kind: watch.FollowContract, ID: k.ID}, {Kind: watch.FollowLandProject, ID: p.ID}, {Kind: watch.FollowMeeting, ID: mt.ID}}
	address := func(f watch.Follow, s followSurface) string {
		return strings.ReplaceAll(f.Kind, "_", "-") + "." + s.name + "@example.org"
	}
	for _, f := range follows {
		for _, s := range followSurfaces {
			s.make(t, e, f, address(f, s))
		}
	}
	total := len(follows) * len(followSurfaces)
	if got := e.watches(t); got != total {
		t.Fatalf("watches %d, want %d", got, total)
	}
	ws, err := e.st.ListWatches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range ws {
		if w.Status != watch.StatusActive || w.Follow == nil || len(w.Snapshot) == 0 {
			t.Errorf("%s: status %s, follow %+v, %d fields observed", w.Email, w.Status, w.Follow, len(w.Snapshot))
		}
	}
	if got := len(e.outboxFiles("welcome.")); got != total {
		t.Errorf("welcome mails %d, want %d", got, total)
	}
	run := func(day int) {
		t.Helper()
		e.clock.Set(fixedNow.AddDate(0, 0, day))
		if _, err := e.m.RunDigests(ctx); err != nil {
			t.Fatal(err)
		}
	}
	run(1) // unchanged: no back-catalogue
	if got := e.outboxFiles("change."); len(got) != 0 {
		t.Fatalf("change mails before any change: %v", got)
	}

	// one change in place per object: the notice's due date moves; an
	// award joins its matter; the contract's amount is amended; the land
	// project's public status moves; the meeting moves to another room
	want, err := followtest.Change(ctx, e.be, followtest.Held{Notice: n, Contract: k, Project: p, Meeting: mt}, fixedNow.AddDate(0, 0, 1),
		"29990101002", "ACME SURFACES TEST LLC", "Completed (surfaces test)", "Room 12, 2 Surfaces Test Plaza")
	if err != nil {
		t.Fatal(err)
	}
	run(2)
	changes := e.outboxFiles("change.")
	byAddress := map[string][]string{}
	for _, file := range changes {
		m := readMail(t, file)
		to := m.Header.Get("To")
		for _, f := range follows {
			for _, s := range followSurfaces {
				if a := address(f, s); strings.Contains(to, a) {
					byAddress[a] = append(byAddress[a], m.Text)
				}
			}
		}
	}
	for _, f := range follows {
		for _, s := range followSurfaces {
			a := address(f, s)
			texts := byAddress[a]
			if len(texts) != 1 {
				t.Errorf("%s through %s: %d change mails, want 1", f.Noun(), s.name, len(texts))
				continue
			}
			if !strings.Contains(texts[0], f.Noun()) || !strings.Contains(texts[0], want[f.Kind]) {
				t.Errorf("%s through %s: the change mail does not say %q:\n%s", f.Noun(), s.name, want[f.Kind], texts[0])
			}
		}
	}
	if len(changes) != total {
		t.Errorf("change mails %d, want %d (one per watch)", len(changes), total)
	}
	run(3) // each change is mailed once
	if got := e.outboxFiles("change."); len(got) != total {
		t.Errorf("change mails after a quiet run: %d, want %d", len(got), total)
	}
}
