package api

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/watch"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"github.com/recordwatch/recordwatch/api/mcp"
	"github.com/recordwatch/recordwatch/api/web"
	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/procure"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/mailer"
)

// watchClock is a settable clock shared by the API and the mailer.
type watchClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *watchClock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *watchClock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// watchEnv is a running API with the mailer over a fresh embedded index
// seeded with the bundled sample (real rows), and an .eml outbox.
type watchEnv struct {
	ts     *httptest.Server
	be     *embedded.Backend
	st     *store.Bolt
	m      *mailer.Mailer
	clock  *watchClock
	outbox string
	cfg    mailer.Config
	dir    string
}

const watchSubscribe = "subscribe@recordwatch.test"

var quietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

func newWatchEnv(t *testing.T, form int, tweak func(*mailer.Config)) *watchEnv {
	t.Helper()
	// the notices as LoadCROLDir writes them with the clock at fixedNow
	return newWatchEnvOver(t, form, sampletest.Notices, tweak)
}

// newWatchEnvOver is newWatchEnv over a private copy of corpus c of the
// bundled sample (sampletest.Full for contracts, land projects and
// meetings too).
func newWatchEnvOver(t *testing.T, form int, c sampletest.Corpus, tweak func(*mailer.Config)) *watchEnv {
	t.Helper()
	return newWatchEnvWith(t, form, c, tweak, nil)
}

// newWatchEnvWith is newWatchEnvOver with the API's configuration tweaked
// too (apiTweak nil: none).
func newWatchEnvWith(t *testing.T, form int, c sampletest.Corpus, tweak func(*mailer.Config), apiTweak func(*Config)) *watchEnv {
	t.Helper()
	dir := t.TempDir()
	be, err := sampletest.CopyTo(filepath.Join(dir, "index"), c, fixedNow)
	if err != nil {
		t.Fatal(err)
	}
	cw := entity.DefaultCrosswalk()
	clock := &watchClock{t: fixedNow}
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	var handler http.Handler
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { handler.ServeHTTP(w, r) }))
	e := &watchEnv{ts: ts, be: be, st: st, clock: clock, outbox: filepath.Join(dir, "outbox"), dir: dir}
	e.cfg = mailer.Config{BaseURL: ts.URL, Form: form, SubscribeAddress: watchSubscribe, OutboxDir: e.outbox,
		RequestsPerClient: 1000}
	if tweak != nil {
		tweak(&e.cfg)
	}
	e.m, err = newMailer(context.Background(), e.cfg, mailer.Deps{Store: st, Search: be, Crosswalk: cw, Now: clock.Now, Logger: quietLog,
		Procure: procure.New(be, cw, clock.Now), Land: land.New(be)}) // follows read matters, contracts and land projects
	if err != nil {
		t.Fatal(err)
	}
	// /mcp too, as main wires it, so the same-rule tests can call the tools
	cfg := Config{Form: form, BaseURL: ts.URL, RatePerSecond: 1e6, Burst: 1e6}
	if apiTweak != nil {
		apiTweak(&cfg)
	}
	d := withServices(cfg, Deps{Search: be, Store: st, Crosswalk: cw, Now: clock.Now, Watches: e.m.Watches(), Logger: quietLog})
	d.MCP = mcp.Handler(mcpDepsOf(d, ts.URL), form)
	handler = New(cfg, d)
	t.Cleanup(func() {
		ts.Close()
		e.m.Flush() // queued mail is written before the store and directory go
		be.Close()
		st.Close()
	})
	return e
}

// restartMailer builds a second mailer over the same store, as after a
// restart.
func (e *watchEnv) restartMailer(t *testing.T) *mailer.Mailer {
	t.Helper()
	m, err := newMailer(context.Background(), e.cfg, mailer.Deps{Store: e.st, Search: e.be, Crosswalk: entity.DefaultCrosswalk(), Now: e.clock.Now, Logger: quietLog,
		Procure: procure.New(e.be, entity.DefaultCrosswalk(), e.clock.Now), Land: land.New(e.be)})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func (e *watchEnv) watches(t *testing.T) int {
	t.Helper()
	n, err := e.st.CountWatches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// outboxFiles lists .eml files whose name starts with prefix, once the
// mail queued so far is sent.
func (e *watchEnv) outboxFiles(prefix string) []string {
	e.m.Flush()
	m, _ := filepath.Glob(filepath.Join(e.outbox, prefix+"*.eml"))
	sort.Strings(m)
	return m
}

// sentMail is an outbox message, parsed back with go-message.
type sentMail struct {
	Header mail.Header
	Text   string
}

func readMail(t *testing.T, path string) sentMail {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := mail.CreateReader(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(p.Body)
	return sentMail{Header: r.Header, Text: strings.ReplaceAll(string(b), "\r\n", "\n")}
}

// flat folds whitespace, so wrapped lines compare as one.
func flat(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

var linkRE = regexp.MustCompile(`https?://[^\s>]+`)

func linkWith(t *testing.T, text, part string) string {
	t.Helper()
	for _, l := range linkRE.FindAllString(text, -1) {
		if strings.Contains(l, part) {
			return l
		}
	}
	t.Fatalf("no %s link in:\n%s", part, text)
	return ""
}

func httpDo(t *testing.T, method, url, contentType, body string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

// realAward is the real Parks and Recreation construction award of the
// fixture (see testdata/watches/README.md), as a City Record notice.
func realAward(t *testing.T) record.Notice {
	t.Helper()
	raw, err := os.ReadFile("testdata/watches/award_20260616012.json")
	if err != nil {
		t.Fatal(err)
	}
	var row struct {
		RequestID       string  `json:"request_id"`
		StartDate       string  `json:"start_date"`
		AgencyName      string  `json:"agency_name"`
		ShortTitle      string  `json:"short_title"`
		PIN             string  `json:"pin"`
		ContractAmount  float64 `json:"contract_amount"`
		VendorName      string  `json:"vendor_name"`
		SelectionMethod string  `json:"selection_method_description"`
		Evidence        []struct {
			Type string `json:"type_of_notice_description"`
		} `json:"notice_evidence"`
	}
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatal(err)
	}
	n, err := crol.Normalize(crol.Row{Fields: map[string]string{
		"requestid": row.RequestID, "startdate": row.StartDate, "agencyname": row.AgencyName,
		"shorttitle": row.ShortTitle, "pin": row.PIN, "contractamount": fmt.Sprintf("%.0f", row.ContractAmount),
		"vendorname": row.VendorName, "selectionmethoddescription": row.SelectionMethod,
		"typeofnoticedescription": row.Evidence[0].Type,
	}, File: "award_20260616012.json", Format: crol.FormatJSON}, entity.DefaultCrosswalk())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *watchEnv) index(t *testing.T, n record.Notice) {
	t.Helper()
	ctx := context.Background()
	if err := e.be.Upsert(ctx, []search.Doc{{Notice: n, Passages: crol.Passages(n)}}); err != nil {
		t.Fatal(err)
	}
	if err := e.be.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
}

func sendSMTP(t *testing.T, addr, from, to, msg string) error {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example.org"); err != nil {
		t.Fatal(err)
	}
	err = c.SendMail(from, []string{to}, strings.NewReader(msg))
	c.Quit()
	return err
}

func (e *watchEnv) serveSMTP(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := e.m.SMTPServer()
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return l.Addr().String()
}

// TestWatchEndToEnd: a subscribe mail over SMTP → a confirmation in the
// outbox stating the understood filter → its link makes the watch active
// → a new real matching notice is indexed → the next digest holds it with
// a /r/ link → one-click unsubscribe stops further digests.
func TestWatchEndToEnd(t *testing.T) {
	e := newWatchEnv(t, 2, nil)
	addr := e.serveSMTP(t)

	msg := "From: Alice Example <alice@example.org>\r\nTo: " + watchSubscribe + "\r\nSubject: watch\r\n" +
		"Message-ID: <req-1@example.org>\r\nDate: Fri, 14 Aug 2026 11:00:00 -0400\r\n\r\n" +
		"email me about Parks construction awards over $1 million\r\n\r\nThanks,\r\n-- \r\nAlice\r\n"
	if err := sendSMTP(t, addr, "alice@example.org", watchSubscribe, msg); err != nil {
		t.Fatalf("send: %v", err)
	}
	confirms := e.outboxFiles("confirm.")
	if len(confirms) != 1 {
		t.Fatalf("confirmation emails in the outbox: %v", confirms)
	}
	conf := readMail(t, confirms[0])
	if to := conf.Header.Get("To"); !strings.Contains(to, "alice@example.org") {
		t.Errorf("confirmation to %q", to)
	}
	if conf.Header.Get("Auto-Submitted") != "auto-replied" || conf.Header.Get("In-Reply-To") != "<req-1@example.org>" {
		t.Errorf("reply headers %v", conf.Header.Map())
	}
	parks := entity.DefaultCrosswalk().Resolve("Parks and Recreation").Name
	// "construction" is a category (a filter), stated filter by filter
	understood := "Contract awards and intents to award from " + parks + ", of at least $1,000,000, in category construction."
	for _, want := range []string{understood, `"Parks" → agency`, "at least $1,000,000", "Filter by filter:", "Category: construction"} {
		if !strings.Contains(flat(conf.Text), want) {
			t.Errorf("confirmation does not state %q:\n%s", want, conf.Text)
		}
	}
	// it states what was understood, never the request's own words
	if strings.Contains(flat(conf.Text), "email me about Parks") {
		t.Errorf("confirmation quotes the request:\n%s", conf.Text)
	}
	if e.watches(t) != 0 {
		t.Fatal("a watch was stored before confirmation")
	}

	link := linkWith(t, conf.Text, "/confirm/")
	res, body := httpDo(t, "GET", link, "", "")
	if res.StatusCode != 200 || !strings.Contains(body, "<form method=\"post\"") || e.watches(t) != 0 {
		t.Fatalf("GET confirm: %d, %d watches\n%s", res.StatusCode, e.watches(t), body)
	}
	res, body = httpDo(t, "POST", link, "", "")
	if res.StatusCode != 200 || !strings.Contains(body, "active") || e.watches(t) != 1 {
		t.Fatalf("POST confirm: %d, %d watches\n%s", res.StatusCode, e.watches(t), body)
	}
	if len(e.outboxFiles("welcome.")) != 1 {
		t.Error("no welcome mail after confirmation")
	}
	// replaying the link stores nothing more
	res, body = httpDo(t, "POST", link, "", "", "Accept", "application/json")
	if res.StatusCode != 400 || !strings.Contains(body, "already used") || e.watches(t) != 1 {
		t.Errorf("replayed confirmation: %d %s", res.StatusCode, body)
	}

	// today's window: nothing new yet
	rep, err := e.m.RunDigests(context.Background())
	if err != nil || rep.Sent != 0 {
		t.Fatalf("first run %+v %v", rep, err)
	}
	// a new real matching notice arrives
	award := realAward(t)
	if award.AgencyID != entity.DefaultCrosswalk().Resolve("Parks and Recreation").ID || !award.AmountValid || award.Amount != 2982000 {
		t.Fatalf("fixture notice %+v", award)
	}
	e.index(t, award)
	e.clock.Set(fixedNow.Add(20 * time.Hour)) // next morning, after the digest hour
	rep, err = e.m.RunDigests(context.Background())
	if err != nil || rep.Sent != 1 {
		t.Fatalf("digest run %+v %v", rep, err)
	}
	digests := e.outboxFiles("digest.")
	if len(digests) != 1 {
		t.Fatalf("digests %v", digests)
	}
	dg := readMail(t, digests[0])
	rlink := e.ts.URL + "/r/money/20260616012"
	if !strings.Contains(dg.Text, "Hickman Playground Reconstruction") || !strings.Contains(dg.Text, rlink) ||
		!strings.Contains(dg.Text, "$2,982,000.00 to Gazebo Contracting Inc.") {
		t.Errorf("digest:\n%s", dg.Text)
	}
	if strings.Count(dg.Text, "/r/") != 1 {
		t.Errorf("the digest holds records that are not new:\n%s", dg.Text)
	}
	unsub := strings.Trim(dg.Header.Get("List-Unsubscribe"), "<>")
	if !strings.HasPrefix(unsub, e.ts.URL+"/u/") || dg.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("unsubscribe headers %q %q", unsub, dg.Header.Get("List-Unsubscribe-Post"))
	}
	// the digest link goes through the redirect
	if res, _ := httpDo(t, "GET", rlink, "", ""); res.StatusCode != http.StatusFound {
		t.Errorf("digest link: %d", res.StatusCode)
	}

	// a restart in the same window sends nothing twice
	again, err := e.restartMailer(t).RunDigests(context.Background())
	if err != nil || again.Sent != 0 || len(e.outboxFiles("digest.")) != 1 {
		t.Errorf("after restart %+v %v", again, err)
	}
	if n, _ := e.st.Counts(context.Background(), store.CounterDigestSent, "2026-08-01", "2026-08-31"); n["2026-08-15"] != 1 {
		t.Errorf("digest_sent counts %v", n)
	}

	// one-click unsubscribe (RFC 8058)
	res, _ = httpDo(t, "POST", unsub, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click")
	if res.StatusCode != 200 || e.watches(t) != 0 {
		t.Fatalf("unsubscribe: %d, %d watches", res.StatusCode, e.watches(t))
	}
	res, _ = httpDo(t, "POST", unsub, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click")
	if res.StatusCode != 200 {
		t.Errorf("second unsubscribe: %d", res.StatusCode)
	}
	second := award
	second.RequestID, second.StartDate = "20260616099", second.StartDate.AddDate(0, 0, 2)
	e.index(t, second)
	e.clock.Set(fixedNow.Add(44 * time.Hour))
	rep, _ = e.m.RunDigests(context.Background())
	if rep.Sent != 0 || len(e.outboxFiles("digest.")) != 1 {
		t.Errorf("digest after unsubscribe: %+v", rep)
	}
}

// TestWatchForm1CreateIsActiveWithWelcome: a structured create is active at
// once; the welcome mail states the scope and carries manage and
// unsubscribe links; the response is the same for a known address.
func TestWatchForm1CreateIsActiveWithWelcome(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	body := `{"email":"bob@example.org","lens":"money","agency":["Parks"],"q":"construction reconstruction","min":"1m",` +
		`"borough":["brooklyn"],"description":"Parks capital work in Brooklyn"}`
	res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body)
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	v := decode[watch.Created](t, []byte(out))
	if v.Status != "active" || e.watches(t) != 1 || !strings.Contains(v.Understood.Scope, "naming Brooklyn") {
		t.Fatalf("create response %+v", v)
	}
	if strings.Contains(out, "/manage/") || strings.Contains(out, "/u/") {
		t.Error("the response carries management links; only the email may")
	}
	welcomes := e.outboxFiles("welcome.")
	if len(welcomes) != 1 {
		t.Fatalf("welcome mails %v", welcomes)
	}
	w := readMail(t, welcomes[0])
	manage := linkWith(t, w.Text, "/manage/")
	unsub := linkWith(t, w.Text, "/u/")
	// the welcome states the scope; the free-text description is not
	// quoted (it stays on the manage page)
	// an unasked mail: its one-click List-Unsubscribe is "this wasn't me —
	// remove everything", also in its text
	remove := linkWith(t, w.Text, "/remove/")
	if !strings.Contains(flat(w.Text), v.Understood.Scope) || strings.Contains(w.Text, "Parks capital work in Brooklyn") ||
		strings.Trim(w.Header.Get("List-Unsubscribe"), "<>") != remove || !strings.Contains(w.Text, "This wasn't me") || unsub == "" {
		t.Errorf("welcome:\n%s", w.Text)
	}
	res, page := httpDo(t, "GET", manage, "", "")
	if res.StatusCode != 200 || !strings.Contains(page, "Unsubscribe") || !strings.Contains(page, "Parks capital work in Brooklyn") || res.Header.Get("Cache-Control") != "no-store" {
		t.Errorf("manage page %d %s", res.StatusCode, page)
	}
	res, js := httpDo(t, "GET", manage, "", "", "Accept", "application/json")
	if res.StatusCode != 200 || !strings.Contains(js, `"status":"active"`) || strings.Contains(js, "bob@") {
		t.Errorf("manage JSON %d %s", res.StatusCode, js)
	}
	// a GET of the unsubscribe link (a scanner) changes nothing
	if res, _ := httpDo(t, "GET", unsub, "", ""); res.StatusCode != 200 || e.watches(t) != 1 {
		t.Errorf("GET unsubscribe: %d, %d watches", res.StatusCode, e.watches(t))
	}
	// the same request for the same (now known) address answers the same
	res2, out2 := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", strings.Replace(body, "bob@", "carol@", 1))
	res3, out3 := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body)
	if res2.StatusCode != res3.StatusCode || out2 != out3 {
		t.Errorf("known and unknown addresses answered differently:\n%s\n%s", out2, out3)
	}
	res, _ = httpDo(t, "POST", unsub, "application/x-www-form-urlencoded", "List-Unsubscribe=One-Click")
	if res.StatusCode != 200 || e.watches(t) != 2 {
		t.Errorf("unsubscribe: %d, %d watches left", res.StatusCode, e.watches(t))
	}
	res, js = httpDo(t, "GET", manage, "", "", "Accept", "application/json")
	if res.StatusCode != 200 || !strings.Contains(js, `"status":"ended"`) {
		t.Errorf("manage after unsubscribe %d %s", res.StatusCode, js)
	}
}

func TestWatchPreview(t *testing.T) {
	e := newWatchEnv(t, 2, nil)
	res, out := httpDo(t, "GET", e.ts.URL+"/api/watches/preview?text="+
		"Parks+construction+awards%2C+not+Queens", "", "")
	if res.StatusCode != 200 {
		t.Fatalf("preview %d %s", res.StatusCode, out)
	}
	v := decode[PreviewResponse](t, []byte(out))
	if v.Understood.Filter.Lens != "money" || v.Total == 0 || len(v.Hits) == 0 || len(v.Understood.Notes) == 0 {
		t.Fatalf("preview %+v", v)
	}
	checkScope(t, v.Scope)
	for _, h := range v.Hits {
		if h.AgencyID != entity.DefaultCrosswalk().Resolve("Parks and Recreation").ID || (h.NoticeType != "Award" && h.NoticeType != "Intent to Award") {
			t.Errorf("hit %s %s %s", h.RequestID, h.AgencyID, h.NoticeType)
		}
	}
	if e.watches(t) != 0 || len(e.outboxFiles("")) != 0 {
		t.Error("a preview stored or sent something")
	}
	// no hits still carries the scope
	res, out = httpDo(t, "POST", e.ts.URL+"/api/watches/preview", "application/json", `{"text":"\"zzzqqq xyzzy\" rules"}`)
	if res.StatusCode != 200 {
		t.Fatalf("preview POST %d %s", res.StatusCode, out)
	}
	v = decode[PreviewResponse](t, []byte(out))
	if v.Total != 0 || v.Understood.Filter.Lens != "rules" {
		t.Errorf("no-hit preview %+v", v)
	}
	checkScope(t, v.Scope)
	// Form 2 refuses a structured filter; Form 1 takes one
	if res, _ := httpDo(t, "GET", e.ts.URL+"/api/watches/preview?lens=money", "", ""); res.StatusCode != 400 {
		t.Errorf("form 2 structured preview: %d", res.StatusCode)
	}
	f1 := newWatchEnv(t, 1, nil)
	res, out = httpDo(t, "GET", f1.ts.URL+"/api/watches/preview?lens=money&agency=Parks&min=100k&borough=Brooklyn", "", "")
	v = decode[PreviewResponse](t, []byte(out))
	if res.StatusCode != 200 || v.Understood.Filter.MinAmount == nil || len(v.Understood.Filter.Boroughs) != 1 || v.Scope.Searched.Filters["borough"] != "Brooklyn" {
		t.Errorf("form 1 preview %d %s", res.StatusCode, out)
	}
	for _, h := range v.Hits {
		if !strings.Contains(h.Title+h.Summary, "Brooklyn") {
			n, _ := f1.be.Get(context.Background(), h.RequestID)
			if !strings.Contains(n.Text+n.Title, "Brooklyn") && !strings.Contains(n.Text, "BROOKLYN") && !strings.Contains(n.Text, "Kings County") {
				t.Errorf("%s does not name Brooklyn", h.RequestID)
			}
		}
	}
}

// TestWatchBadInputStoresNothing: forged, expired and replayed tokens,
// malformed requests and oversized bodies are refused cleanly; nothing is
// stored.
func TestWatchBadInputStoresNothing(t *testing.T) {
	e := newWatchEnv(t, 2, nil)
	post := func(body string) (*http.Response, string) {
		return httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", body)
	}
	cases := map[string]struct {
		body   string
		status int
		param  string
	}{
		"no email":      {`{"text":"Parks awards"}`, 400, "email"},
		"bad email":     {`{"email":"not an address","text":"Parks awards"}`, 400, "email"},
		"two addresses": {`{"email":"a@example.org, b@example.org","text":"Parks awards"}`, 400, "email"},
		"no text":       {`{"email":"a@example.org"}`, 400, "text"},
		"too long":      {`{"email":"a@example.org","text":"` + strings.Repeat("parks ", 101) + `"}`, 400, "text"},
		"structured":    {`{"email":"a@example.org","lens":"money"}`, 400, "text"},
		"unknown field": {`{"email":"a@example.org","text":"Parks awards","colour":"red"}`, 400, "colour"},
		"not json":      {`email=a@example.org`, 400, "body"},
		"nothing":       {`{"email":"a@example.org","text":"please"}`, 400, "text"},
	}
	for name, c := range cases {
		res, out := post(c.body)
		if res.StatusCode != c.status {
			t.Errorf("%s: %d %s", name, res.StatusCode, out)
			continue
		}
		if p := decode[errorBody](t, []byte(out)).Error.Param; p != c.param {
			t.Errorf("%s: param %q, want %q", name, p, c.param)
		}
	}
	if res, _ := post(`{"email":"a@example.org","text":"` + strings.Repeat("x", 9000) + `"}`); res.StatusCode != 413 {
		t.Errorf("oversized body: %d", res.StatusCode)
	}
	if e.watches(t) != 0 || len(e.outboxFiles("")) != 0 {
		t.Fatal("bad requests stored or sent something")
	}

	// a real confirmation, then forged, expired and replayed uses of it
	res, out := post(`{"email":"dana@example.org","text":"rezonings in the Bronx"}`)
	if res.StatusCode != 202 || !strings.Contains(out, "awaiting_confirmation") {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	if e.watches(t) != 0 {
		t.Fatal("stored before confirmation")
	}
	link := linkWith(t, readMail(t, e.outboxFiles("confirm.")[0]).Text, "/confirm/")
	tok := link[strings.LastIndex(link, "/")+1:]
	body, sig, _ := strings.Cut(tok, ".")
	forgeries := []string{
		body + "." + flip(sig),
		flip(body) + "." + sig,
		body,
		"x.y",
		strings.Repeat("A", 5000),
		"%00",
	}
	for _, f := range forgeries {
		for _, method := range []string{"GET", "POST"} {
			for _, path := range []string{"/confirm/", "/manage/", "/u/"} {
				res, out := httpDo(t, method, e.ts.URL+path+f, "", "")
				if res.StatusCode != 400 && res.StatusCode != 404 && res.StatusCode != 405 {
					t.Errorf("%s %s%.20s: %d %s", method, path, f, res.StatusCode, out)
				}
			}
		}
	}
	// a confirmation token is not a manage token
	if res, _ := httpDo(t, "POST", e.ts.URL+"/u/"+tok, "", ""); res.StatusCode != 400 {
		t.Errorf("confirmation token accepted as an unsubscribe link: %d", res.StatusCode)
	}
	if e.watches(t) != 0 {
		t.Fatal("a forged link stored a watch")
	}
	// expired: three days and a second later
	e.clock.Set(fixedNow.Add(mailer.DefaultConfirmTTL + time.Second))
	res, out = httpDo(t, "POST", link, "", "")
	if res.StatusCode != 400 || !strings.Contains(out, "not valid or has expired") || e.watches(t) != 0 {
		t.Errorf("expired link: %d %s", res.StatusCode, out)
	}
	e.clock.Set(fixedNow)
	if res, _ := httpDo(t, "POST", link, "", ""); res.StatusCode != 200 || e.watches(t) != 1 {
		t.Fatalf("confirm: %d", res.StatusCode)
	}
	for i := 0; i < 3; i++ {
		if res, _ := httpDo(t, "POST", link, "", ""); res.StatusCode != 400 || e.watches(t) != 1 {
			t.Errorf("replay %d: %d, %d watches", i, res.StatusCode, e.watches(t))
		}
	}
}

func flip(s string) string {
	if s == "" {
		return "A"
	}
	b := []byte(s)
	if b[len(b)/2] == 'A' {
		b[len(b)/2] = 'B'
	} else {
		b[len(b)/2] = 'A'
	}
	return string(b)
}

// TestWatchCeilings: per-client and per-address daily ceilings; over the
// address ceiling the answer does not change, only no mail goes out.
func TestWatchCeilings(t *testing.T) {
	e := newWatchEnv(t, 2, func(c *mailer.Config) { c.RequestsPerClient = 5; c.RepliesPerAddress = 2 })
	var bodies []string
	for i := 0; i < 5; i++ {
		res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email":"erin@example.org","text":"Parks awards"}`)
		if res.StatusCode != 202 {
			t.Fatalf("request %d: %d %s", i, res.StatusCode, out)
		}
		bodies = append(bodies, out)
	}
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Errorf("answers differ over the address ceiling:\n%s\n%s", bodies[0], b)
		}
	}
	// one unasked mail a day, listing the five requests together
	if files := e.outboxFiles("confirm."); len(files) != 1 || strings.Count(readMail(t, files[0]).Text, "/confirm/") != 5 {
		t.Errorf("%d confirmations sent to one address in a day, want 1 carrying five links", len(files))
	}
	res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email":"frank@example.org","text":"Parks awards"}`)
	if res.StatusCode != 429 || !strings.Contains(out, "daily limit") {
		t.Errorf("per-client ceiling: %d %s", res.StatusCode, out)
	}
}

func TestWatchRoutesWithoutMail(t *testing.T) {
	res, out := httpDo(t, "POST", shared.ts.URL+"/api/watches", "application/json", `{"email":"a@example.org","text":"Parks awards"}`)
	if res.StatusCode != 503 {
		t.Errorf("create without a mailer: %d %s", res.StatusCode, out)
	}
	res, out = httpDo(t, "GET", shared.ts.URL+"/api/watches/preview?text=Parks+awards", "", "")
	if res.StatusCode != 200 {
		t.Errorf("preview without a mailer: %d %s", res.StatusCode, out)
	}
}

// storedFor counts stored watches whose address shares key's ceiling.
func (e *watchEnv) storedFor(t *testing.T, key string) int {
	t.Helper()
	ws, err := e.st.ListWatches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range ws {
		if watch.AddressKey(w.Email) == key {
			n++
		}
	}
	return n
}

// TestWatchForm1AddressBudget: an address (+tags and case folded) gets at
// most one welcome mail a day whoever asks: every create is answered
// alike (201, the same body) with its watch stored, the first welcome
// goes at once and the watches made later that day are listed together
// in the next one.
func TestWatchForm1AddressBudget(t *testing.T) {
	e := newWatchEnv(t, 1, nil)
	key := "gail@example.org"
	var first string
	for i, addr := range []string{"gail+1@example.org", "GAIL+2@example.org", "gail+3@example.org", "gail@example.org"} {
		before := e.storedFor(t, key)
		res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email":"`+addr+`","lens":"money","q":"construction"}`)
		e.m.Flush()
		after := e.storedFor(t, key)
		if i == 0 {
			first = out
		}
		if res.StatusCode != http.StatusCreated || after != before+1 || out != first || res.Header.Get("Retry-After") != "" {
			t.Errorf("create %d: %d %s (first %s); stored %d → %d", i, res.StatusCode, out, first, before, after)
		}
		if sent := len(e.outboxFiles("welcome.")); sent != 1 {
			t.Errorf("create %d: %d welcome mails sent, want 1", i, sent)
		}
	}
	e.clock.Set(fixedNow.Add(25 * time.Hour))
	e.m.Flush()
	files := e.outboxFiles("welcome.")
	if len(files) != 2 || strings.Count(readMail(t, files[0]).Text+readMail(t, files[1]).Text, "/manage/") != 4 {
		t.Errorf("the next day: %d welcome mails, want 2 carrying the four watches' links", len(files))
	}
	// another address is not affected
	if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email":"hal@example.org","lens":"money"}`); res.StatusCode != 201 {
		t.Errorf("another address: %d %s", res.StatusCode, out)
	}
}

// evilText is a request written to turn the confirmation into a phishing
// mail to whatever address is named.
const evilText = `Parks awards. URGENT your account is locked: sign in at http://evil.example/login ` +
	`or <a href="http://evil.example/login">click here</a> "https://evil.example/reset" www.evil.example`

// TestWatchMailQuotesNoFreeText: the confirmation (Form 2) and welcome
// (Form 1) mails state what was understood, never the requester's text;
// their only links are the service's own.
func TestWatchMailQuotesNoFreeText(t *testing.T) {
	check := func(t *testing.T, e *watchEnv, prefix string) {
		t.Helper()
		files := e.outboxFiles(prefix)
		if len(files) != 1 {
			t.Fatalf("%s mails: %v", prefix, files)
		}
		raw, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		m := readMail(t, files[0])
		for _, s := range []string{string(raw), m.Text, flat(m.Text)} {
			for _, bad := range []string{"evil.example", "http://evil", "https://evil", "<a", "href=", "click here", "URGENT", "account is locked"} {
				if strings.Contains(s, bad) {
					t.Errorf("the %s mail carries %q:\n%s", prefix, bad, s)
				}
			}
		}
		for _, l := range linkRE.FindAllString(string(raw), -1) {
			if !strings.HasPrefix(l, e.ts.URL+"/") {
				t.Errorf("the %s mail links outside the service: %s", prefix, l)
			}
		}
	}
	t.Run("form 2 confirmation", func(t *testing.T) {
		e := newWatchEnv(t, 2, nil)
		body, _ := json.Marshal(map[string]string{"email": "target@example.org", "text": evilText})
		if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", string(body)); res.StatusCode != 202 {
			t.Fatalf("create: %d %s", res.StatusCode, out)
		}
		check(t, e, "confirm.")
	})
	t.Run("form 1 welcome", func(t *testing.T) {
		e := newWatchEnv(t, 1, nil)
		body, _ := json.Marshal(map[string]any{"email": "target@example.org", "lens": "money", "description": evilText,
			"q": `"http://evil.example/login"`, "agency": []string{"Parks"}, "vendor": []string{`<a href="http://evil.example/login">Evil</a> Corp`}})
		if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", string(body)); res.StatusCode != 201 {
			t.Fatalf("create: %d %s", res.StatusCode, out)
		}
		// an agency nothing recognizes (a link included) is refused, not quoted
		bad, _ := json.Marshal(map[string]any{"email": "target@example.org", "lens": "money", "agency": []string{"http://evil.example/login"}})
		if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", string(bad)); res.StatusCode != 400 {
			t.Fatalf("a link as an agency: %d %s, want 400", res.StatusCode, out)
		}
		check(t, e, "welcome.")
	})
}

// TestWatchRefusesControlCharacters: a NUL or another control character
// (CR/LF in one-line values) in any field that can reach a mail is a 400
// naming the field; nothing is stored or sent.
func TestWatchRefusesControlCharacters(t *testing.T) {
	for _, form := range []int{1, 2} {
		e := newWatchEnv(t, form, nil)
		cases := map[string]map[string]any{
			"email": {"email": "pat@example.org\u0000", "text": "Parks awards"},
			"text":  {"email": "pat@example.org", "text": "Parks\u0000 awards"},
		}
		if form == 1 {
			cases = map[string]map[string]any{
				"email":       {"email": "pat@example.org\r\nBcc: x@example.org", "lens": "money"},
				"description": {"email": "pat@example.org", "lens": "money", "description": "mine\u0000"},
				"q":           {"email": "pat@example.org", "lens": "money", "q": "parks\r\nBcc: x@example.org"},
				"lens":        {"email": "pat@example.org", "lens": "money\u0000"},
				"agency":      {"email": "pat@example.org", "lens": "money", "agency": []string{"Parks\u0000"}},
				"vendor":      {"email": "pat@example.org", "lens": "money", "vendor": []string{"Acme\u001bCorp"}},
				"borough":     {"email": "pat@example.org", "lens": "money", "borough": []string{"Queens\n"}},
				"min":         {"email": "pat@example.org", "lens": "money", "min": "1m\u0000"},
			}
		}
		for field, in := range cases {
			body, _ := json.Marshal(in)
			res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", string(body))
			if res.StatusCode != 400 || decode[errorBody](t, []byte(out)).Error.Param != field {
				t.Errorf("form %d %s: %d %s", form, field, res.StatusCode, out)
			}
		}
		// the preview reads the same fields
		q := "?text=Parks%00awards"
		if form == 1 {
			q = "?lens=money&agency=Parks%00"
		}
		res, out := httpDo(t, "GET", e.ts.URL+"/api/watches/preview"+q, "", "")
		if res.StatusCode != 400 {
			t.Errorf("form %d preview: %d %s", form, res.StatusCode, out)
		}
		if e.watches(t) != 0 || len(e.outboxFiles("")) != 0 {
			t.Errorf("form %d: a refused request stored or sent something", form)
		}
		// line breaks in plain-English text are fine
		if form == 2 {
			if res, out := httpDo(t, "POST", e.ts.URL+"/api/watches", "application/json", `{"email":"pat@example.org","text":"Parks awards\r\nover $1m"}`); res.StatusCode != 202 {
				t.Errorf("text with a line break: %d %s", res.StatusCode, out)
			}
		}
	}
}

// TestWatchLinkPagesSecurityHeaders: the confirm, manage and unsubscribe
// pages (and their error pages) send the site's security headers.
func TestWatchLinkPagesSecurityHeaders(t *testing.T) {
	e2 := newWatchEnv(t, 2, nil)
	if res, out := httpDo(t, "POST", e2.ts.URL+"/api/watches", "application/json", `{"email":"ivy@example.org","text":"Parks awards"}`); res.StatusCode != 202 {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	confirm := linkWith(t, readMail(t, e2.outboxFiles("confirm.")[0]).Text, "/confirm/")
	e1 := newWatchEnv(t, 1, nil)
	if res, out := httpDo(t, "POST", e1.ts.URL+"/api/watches", "application/json", `{"email":"ivy@example.org","lens":"money"}`); res.StatusCode != 201 {
		t.Fatalf("create: %d %s", res.StatusCode, out)
	}
	welcome := readMail(t, e1.outboxFiles("welcome.")[0]).Text
	manage, unsub := linkWith(t, welcome, "/manage/"), linkWith(t, welcome, "/u/")
	pages := []struct{ method, url string }{
		{"GET", confirm}, {"GET", manage}, {"GET", unsub},
		{"GET", e1.ts.URL + "/confirm/forged.token"}, {"GET", e1.ts.URL + "/manage/forged.token"}, {"GET", e1.ts.URL + "/u/forged.token"},
		{"POST", confirm}, {"POST", unsub},
	}
	for _, p := range pages {
		res, body := httpDo(t, p.method, p.url, "", "")
		h := res.Header
		if h.Get("Content-Security-Policy") != web.CSP || h.Get("X-Frame-Options") != "DENY" || h.Get("X-Content-Type-Options") != "nosniff" ||
			h.Get("Referrer-Policy") != "no-referrer" || h.Get("Cache-Control") != "no-store" {
			t.Errorf("%s %s: %d, headers %v", p.method, p.url, res.StatusCode, h)
		}
		if strings.Contains(body, "<style") || strings.Contains(body, "style=") {
			t.Errorf("%s %s: inline style the CSP forbids:\n%s", p.method, p.url, body)
		}
	}
}

// Watch bodies take their field names exactly: "Text" is not "text".
func TestWatchBodyFieldNamesAreExact(t *testing.T) {
	for _, body := range []string{`{"Text":"construction awards from Parks"}`, `{"text":"construction awards","LENS":"money"}`} {
		res, b := post(t, shared, "/api/watches/preview", "application/json", []byte(body))
		e := decode[errorBody](t, b)
		if res.StatusCode != 400 || e.Error.Code != record.EINVALID || (e.Error.Param != "Text" && e.Error.Param != "LENS") {
			t.Errorf("%s: %d %s", body, res.StatusCode, b)
		}
	}
	res, b := post(t, shared, "/api/watches/preview", "application/json", []byte(`{"text":"construction awards from Parks"}`))
	if res.StatusCode != 200 {
		t.Errorf("exact names: %d %s", res.StatusCode, b)
	}
}
