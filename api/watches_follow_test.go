package api

import (
	"context"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// heldSolicitation is a held solicitation with a due date (real row).
func heldSolicitation(t *testing.T, e *watchEnv) record.Notice {
	t.Helper()
	res, err := e.be.Search(context.Background(), search.Query{Lenses: []string{record.LensMoney}, NoticeTypes: []string{"Solicitation"}, Limit: search.MaxLimit})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range res.Hits {
		if !h.Notice.DueDate.IsZero() {
			return h.Notice
		}
	}
	t.Fatal("no solicitation with a due date in the sample")
	return record.Notice{}
}

// TestWatchFollowThroughAPIAndMCP: the API and MCP create_watch follow
// the same notice; preview shows its followed fields; nothing is mailed
// until its due date moves in place, then each watch gets one change
// mail saying old → new; the manage page shows what is followed.
func TestWatchFollowThroughAPIAndMCP(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	n := heldSolicitation(t, e)
	follow := `"follow":{"kind":"notice","id":"` + n.RequestID + `"}`
	res, out := httpDo(t, "POST", e.ts.URL+"/api/watches/preview", "application/json", `{`+follow+`}`)
	if res.StatusCode != 200 || !strings.Contains(out, `"followed_fields"`) || !strings.Contains(out, `"n":"due date"`) {
		t.Fatalf("preview: %d %s", res.StatusCode, out)
	}
	for _, bad := range []struct{ body, param string }{
		{`{"email":"a@example.org","follow":{"kind":"planet","id":"1"}}`, "follow.kind"},
		{`{"email":"a@example.org","follow":{"kind":"notice","id":""}}`, "follow.id"},
		{`{"email":"a@example.org","lens":"money",` + follow + `}`, "follow"},
	} {
		res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", bad.body)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(out, `"param":"`+bad.param+`"`) {
			t.Errorf("%s: %d %s", bad.body, res.StatusCode, out)
		}
	}
	if e.watches(t) != 0 {
		t.Fatal("a refused follow stored a watch")
	}
	res, out = httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email":"a@example.org",`+follow+`}`)
	if res.StatusCode != http.StatusCreated || !strings.Contains(out, `"status":"active"`) || !strings.Contains(out, "Changes to notice "+n.RequestID) {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	req, _ := http.NewRequest("POST", e.ts.URL+"/mcp", strings.NewReader(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_watch","arguments":{"email":"b@example.org",`+follow+`}}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	mres, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	mbody := readAll(t, mres)
	if mres.StatusCode != 200 || !strings.Contains(mbody, `\"status\":\"active\"`) && !strings.Contains(mbody, `"status":"active"`) {
		t.Fatalf("MCP create_watch: %d %s", mres.StatusCode, mbody)
	}
	if e.watches(t) != 2 {
		t.Fatalf("watches %d, want 2", e.watches(t))
	}
	welcomes := e.outboxFiles("welcome.")
	if len(welcomes) != 2 {
		t.Fatalf("welcomes %v", welcomes)
	}
	manage := linkWith(t, readMail(t, welcomes[0]).Text, "/manage/")
	res, js := httpDo(t, "GET", manage, "", "", "Accept", "application/json")
	if res.StatusCode != 200 || !strings.Contains(js, `"follow":{"kind":"notice","id":"`+n.RequestID+`"}`) || !strings.Contains(js, `"followed_fields"`) {
		t.Errorf("manage JSON %d %s", res.StatusCode, js)
	}
	ctx := context.Background()
	e.clock.Set(fixedNow.AddDate(0, 0, 1))
	if _, err := e.m.RunDigests(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.outboxFiles("change."); len(got) != 0 {
		t.Fatalf("change mails with nothing changed: %v", got)
	}
	n2 := n
	n2.DueDate = n.DueDate.AddDate(0, 0, 7)
	e.index(t, n2)
	e.clock.Set(fixedNow.AddDate(0, 0, 2))
	if _, err := e.m.RunDigests(ctx); err != nil {
		t.Fatal(err)
	}
	changes := e.outboxFiles("change.")
	if len(changes) != 2 {
		t.Fatalf("change mails %v, want one per watch", changes)
	}
	line := "due date: " + n.DueDate.In(record.NewYork).Format("2006-01-02") + " → " + n2.DueDate.In(record.NewYork).Format("2006-01-02")
	for _, f := range changes {
		m := readMail(t, f)
		if !strings.Contains(m.Text, line) || m.Header.Get("List-Unsubscribe") == "" {
			t.Errorf("change mail lacks %q or its unsubscribe header:\n%s", line, m.Text)
		}
	}
	e.clock.Set(fixedNow.AddDate(0, 0, 3))
	if _, err := e.m.RunDigests(ctx); err != nil {
		t.Fatal(err)
	}
	if got := e.outboxFiles("change."); len(got) != 2 {
		t.Errorf("change mails after a quiet run: %v", got)
	}
	// the manage page (reached through the emailed link) lists every run:
	// two quiet ones, the change mail written to the outbox with its field
	res, page := httpDo(t, "GET", manage, "", "")
	if res.StatusCode != 200 || !strings.Contains(page, "Delivery ledger") || strings.Count(page, "nothing new") != 2 ||
		!strings.Contains(page, "written to the outbox") || !strings.Contains(page, template.HTMLEscapeString(line)) {
		t.Errorf("manage page ledger: %d\n%s", res.StatusCode, page)
	}
	res, js = httpDo(t, "GET", manage, "", "", "Accept", "application/json")
	if res.StatusCode != 200 || !strings.Contains(js, `"ledger":[{`) || !strings.Contains(js, `"outcome":"written to the outbox"`) {
		t.Errorf("manage JSON ledger %d %s", res.StatusCode, js)
	}
}

func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestFollowControlOnObjectPages: the contract, land project and meeting
// pages carry a Follow form naming their object; its POST (the same
// lifecycle as the API) makes the watch, and a bad kind is refused with
// a page naming the field.
func TestFollowControlOnObjectPages(t *testing.T) {
	ee := newEntityEnv(t, Config{})
	ctx := context.Background()
	cs, err := search.Find(ctx, ee.be, procure.ContractKind, search.RecordQuery{Limit: 1})
	if err != nil || len(cs.Items) == 0 {
		t.Fatal(cs, err)
	}
	ms, err := search.Find(ctx, ee.be, meeting.Kind, search.RecordQuery{Limit: 1})
	if err != nil || len(ms.Items) == 0 {
		t.Fatal(ms, err)
	}
	for _, c := range []struct{ path, kind, id string }{
		{"/land-projects/2024Q0292", "land_project", "2024Q0292"},
		{"/contracts/" + url.PathEscape(cs.Items[0].ID), "contract", cs.Items[0].ID},
		{"/meetings/" + url.PathEscape(ms.Items[0].ID), "meeting", ms.Items[0].ID},
	} {
		res, body := get(t, ee, c.path)
		html := string(body)
		if res.StatusCode != 200 || !strings.Contains(html, `action="/follow"`) || !strings.Contains(html, `name="kind" value="`+c.kind+`"`) ||
			!strings.Contains(html, `name="id" value="`+template.HTMLEscapeString(c.id)+`"`) {
			t.Errorf("%s: %d, no Follow control for %s %s", c.path, res.StatusCode, c.kind, c.id)
		}
	}
	e := newWatchEnv(t, 1, nil)
	n := heldSolicitation(t, e)
	form := url.Values{"email": {"c@example.org"}, "kind": {"notice"}, "id": {n.RequestID}}
	if res, _ := httpDo(t, "POST", e.ts.URL+"/follow", "application/x-www-form-urlencoded", form.Encode()); res.StatusCode != http.StatusForbidden {
		t.Errorf("follow form without this site's Origin: %d", res.StatusCode)
	}
	if res, _ := httpDo(t, "POST", e.ts.URL+"/follow", "application/x-www-form-urlencoded", form.Encode(), "Origin", "https://evil.example"); res.StatusCode != http.StatusForbidden {
		t.Errorf("follow form from a foreign Origin: %d", res.StatusCode)
	}
	res, page := httpDo(t, "POST", e.ts.URL+"/follow", "application/x-www-form-urlencoded", form.Encode(), "Origin", e.ts.URL)
	if res.StatusCode != 200 || !strings.Contains(page, "You follow notice "+n.RequestID) || e.watches(t) != 1 {
		t.Fatalf("follow form: %d %d watches\n%s", res.StatusCode, e.watches(t), page)
	}
	form.Set("kind", "planet")
	res, page = httpDo(t, "POST", e.ts.URL+"/follow", "application/x-www-form-urlencoded", form.Encode(), "Origin", e.ts.URL)
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(page, "follow.kind must be one of") || e.watches(t) != 1 {
		t.Errorf("bad kind: %d\n%s", res.StatusCode, page)
	}
}
