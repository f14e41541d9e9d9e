package mailer

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"github.com/recordwatch/recordwatch/internal/golden"
	"io"
	"log/slog"
	"math/rand"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

var (
	backend *embedded.Backend
	start   = time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	quiet   = slog.New(slog.NewTextHandler(io.Discard, nil))
)

// TestMain loads the bundled sample corpus (real rows) once.
func TestMain(m *testing.M) {
	flag.Parse()
	// the sample's notices, loaded once per test binary
	var err error
	backend, err = sampletest.SharedIndex(sampletest.Notices, start)
	if err != nil {
		panic(err)
	}
	os.Exit(sampletest.Main(m)) // closes backend
}

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

type testMailer struct {
	*Mailer
	st     *store.Bolt
	clock  *clock
	outbox string
	cfg    Config
}

const subscribe = "subscribe@recordwatch.test"

func newTestMailer(t *testing.T, tweak func(*Config), tr Transport) *testMailer {
	t.Helper()
	return newTestMailerOver(t, tweak, tr, backend, nil)
}

// newTestMailerOver is newTestMailer over an index of its own, with more
// dependencies set by deps (nil: none).
func newTestMailerOver(t *testing.T, tweak func(*Config), tr Transport, be search.NoticesAndRecords, deps func(*Deps)) *testMailer {
	t.Helper()
	dir := t.TempDir()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	c := &clock{t: start}
	cfg := Config{BaseURL: "http://rw.test", Form: 2, SubscribeAddress: subscribe, OutboxDir: filepath.Join(dir, "outbox")}
	if tweak != nil {
		tweak(&cfg)
	}
	d := Deps{Store: st, Search: be, Now: c.Now, Logger: quiet, Transport: tr}
	if deps != nil {
		deps(&d)
	}
	m, err := newMailer(context.Background(), cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Flush) // queued mail is written before the directory goes
	return &testMailer{Mailer: m, st: st, clock: c, outbox: cfg.OutboxDir, cfg: cfg}
}

// files lists the outbox's .eml files after a pass of the outbox worker
// (which runs all the time in a served mailer).
func (tm *testMailer) files(prefix string) []string {
	tm.Flush()
	m, _ := filepath.Glob(filepath.Join(tm.outbox, prefix+"*.eml"))
	sort.Strings(m)
	return m
}

func (tm *testMailer) watches(t *testing.T) int {
	n, err := tm.st.CountWatches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func readFile(t *testing.T, p string) string {
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// decodedText reads an outbox message's body back through go-message.
func decodedText(t *testing.T, p string) string {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	raw, _ := io.ReadAll(f)
	mr, err := mail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	text, err := bodyText(mr)
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func msg(headers, body string) []byte {
	return []byte(strings.ReplaceAll(headers, "\n", "\r\n") + "\r\n" + strings.ReplaceAll(body, "\n", "\r\n"))
}

const baseHeaders = "From: Pat <pat@example.org>\nTo: " + subscribe + "\nSubject: hello\nMessage-ID: <m1@example.org>\n"

// TestReceiveCharsetsAndEncodings: plain text and HTML-only bodies in
// common charsets and transfer encodings are read.
func TestReceiveCharsetsAndEncodings(t *testing.T) {
	cp1252 := "DOT bids excluding \x93snow removal\x94 in Queens" // curly quotes in Windows-1252
	cases := []struct {
		name, raw, want string
	}{
		{"utf-8 plain", baseHeaders + "Content-Type: text/plain; charset=utf-8\n\nParks construction awards over $1 million\n",
			"of at least $1,000,000"},
		{"iso-8859-1 quoted-printable", baseHeaders + "Content-Type: text/plain; charset=ISO-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n" +
			"Caf=E9 concessions from Parks, not Queens =\n(merci)\n", "leaving out any that mention queens"},
		{"windows-1252 base64", baseHeaders + "Content-Type: text/plain; charset=windows-1252\nContent-Transfer-Encoding: base64\n\n" +
			base64.StdEncoding.EncodeToString([]byte(cp1252)) + "\n", `leaving out any that mention snow removal`},
		{"html only", baseHeaders + "Content-Type: text/html; charset=utf-8\n\n<html><body><p>rezonings in <b>the Bronx</b></p><div>-- <br>sig</div></body></html>\n",
			"Land-use notices"},
		{"html only, base64 latin-1", baseHeaders + "Content-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: base64\n\n" +
			base64.StdEncoding.EncodeToString([]byte("<p>HPD hearings except Brooklyn &amp; Queens \xe9t\xe9</p>")) + "\n", "Public hearings and meetings"},
		{"multipart alternative", baseHeaders + "MIME-Version: 1.0\nContent-Type: multipart/alternative; boundary=XX\n\n--XX\n" +
			"Content-Type: text/plain; charset=us-ascii\n\nproperty auctions in Queens\n--XX\nContent-Type: text/html\n\n<p>ignored</p>\n--XX--\n",
			"Property disposition notices"},
		{"quoted reply", baseHeaders + "\nrules from the TLC\n\nOn Fri, Aug 14, 2026 at 9:00 AM Recordwatch wrote:\n> Confirm your watch about awards over $5m\n",
			"Agency rules from"},
		{"subject only", "From: pat@example.org\nTo: " + subscribe + "\nSubject: Re: Sanitation awards over $100k\n", "of at least $100,000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tm := newTestMailer(t, nil, nil)
			d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: "pat@example.org", Client: "192.0.2.9", Raw: msg(c.raw, "")})
			if err != nil || d != Answered {
				t.Fatalf("%s: %v %v", c.name, d, err)
			}
			files := tm.files("confirm.")
			if len(files) != 1 {
				t.Fatalf("confirmations %v", files)
			}
			text := decodedText(t, files[0])
			if !strings.Contains(strings.Join(strings.Fields(text), " "), c.want) {
				t.Errorf("confirmation does not say %q:\n%s", c.want, text)
			}
			if tm.watches(t) != 0 {
				t.Error("a watch was stored before confirmation")
			}
		})
	}
}

// TestReceiveIgnoresAutomatedMail: bounces, auto-replies and list mail are
// accepted and never answered.
func TestReceiveIgnoresAutomatedMail(t *testing.T) {
	body := "Parks awards over $1m\n"
	cases := map[string]struct{ from, headers string }{
		"null sender":             {"", baseHeaders},
		"auto-replied":            {"pat@example.org", baseHeaders + "Auto-Submitted: auto-replied\n"},
		"auto-generated":          {"pat@example.org", baseHeaders + "Auto-Submitted: auto-generated\n"},
		"precedence bulk":         {"pat@example.org", baseHeaders + "Precedence: bulk\n"},
		"precedence list":         {"pat@example.org", baseHeaders + "Precedence: list\n"},
		"precedence junk":         {"pat@example.org", baseHeaders + "Precedence: junk\n"},
		"list-id":                 {"pat@example.org", baseHeaders + "List-Id: <civic.lists.example.org>\n"},
		"mailer-daemon":           {"MAILER-DAEMON@example.org", baseHeaders},
		"delivery report":         {"pat@example.org", baseHeaders + "Content-Type: multipart/report; report-type=delivery-status; boundary=b\n"},
		"x-autoreply":             {"pat@example.org", baseHeaders + "X-Autoreply: yes\n"},
		"our own mail":            {subscribe, "From: " + subscribe + "\nTo: " + subscribe + "\n"},
		"no usable sender":        {"not-an-address", "From: nobody\nTo: " + subscribe + "\n"},
		"null return path":        {"pat@example.org", baseHeaders + "Return-Path: <>\n"},
		"out-of-office (noreply)": {"noreply@example.org", "From: noreply@example.org\nTo: " + subscribe + "\n"},
	}
	tm := newTestMailer(t, nil, nil)
	for name, c := range cases {
		d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: c.from, Raw: msg(c.headers, "\n"+body)})
		if err != nil || d != Ignored {
			t.Errorf("%s: %v %v", name, d, err)
		}
	}
	if f := tm.files(""); len(f) != 0 {
		t.Errorf("automated mail was answered: %v", f)
	}
	// "Auto-Submitted: no" is a person
	d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: "pat@example.org", Raw: msg(baseHeaders+"Auto-Submitted: no\n", "\n"+body)})
	if err != nil || d != Answered {
		t.Errorf("Auto-Submitted: no → %v %v", d, err)
	}
}

// TestReceiveGarbageNeverCrashes: a fuzz-ish table of malformed mail; each
// is refused or ignored cleanly, and nothing is stored.
func TestReceiveGarbageNeverCrashes(t *testing.T) {
	nested := strings.Repeat("Content-Type: multipart/mixed; boundary=n\n\n--n\n", 200)
	garbage := [][]byte{
		nil,
		[]byte("\r\n"),
		[]byte("\x00\x01\x02\xff\xfe"),
		[]byte("no colon header line\r\n\r\nParks awards"),
		[]byte(strings.Repeat("X-Long: "+strings.Repeat("a", 5000)+"\r\n", 3) + "\r\nbody"),
		msg(baseHeaders+"Content-Type: multipart/mixed; boundary=\"\n", "\n--\n--\n"),
		msg(baseHeaders+"Content-Type: multipart/mixed; boundary=b\n", "\n--b\nContent-Type: text/plain\n\n"), // no closing boundary
		msg(baseHeaders+"Content-Type: multipart/mixed\n", "\nno boundary parameter\n"),
		msg(baseHeaders+"Content-Transfer-Encoding: base64\n", "\n!!!! not base64 ????\n"),
		msg(baseHeaders+"Content-Transfer-Encoding: x-unknown\n", "\nParks awards\n"),
		msg(baseHeaders+"Content-Type: text/plain; charset=x-klingon\n", "\nParks awards\n"),
		msg(baseHeaders+"Content-Type: text/plain; charset=utf-8\n", "\n\xff\xfe\xfd invalid utf-8 Parks awards\n"),
		msg(baseHeaders+"Content-Type: application/octet-stream\n", "\n\x00\x00\x00\n"),
		msg(baseHeaders+"Content-Type: image/png\nContent-Disposition: attachment; filename=x.png\n", "\nPNG\n"),
		msg(baseHeaders+nested, "\nParks\n"),
		msg("From: =?utf-8?B?!!!?= <pat@example.org>\nTo: "+subscribe+"\nSubject: =?x-bad?Q?=ZZ?=\n", "\nParks awards\n"),
		msg("From: <>\nTo: "+subscribe+"\n", "\nParks awards\n"),
		msg(baseHeaders+"Content-Type: text/plain\n", "\n"+strings.Repeat("parks ", 200)+"\n"), // over 600 characters: a refusal (longAt)
		msg(baseHeaders+"Content-Type: text/html\n", "\n<<<>>><script>alert(1)</script><p\n"),
		msg(baseHeaders, "\n"+strings.Repeat(">", 10000)+"\n"),
	}
	rng := rand.New(rand.NewSource(1))
	valid := msg(baseHeaders+"Content-Type: multipart/alternative; boundary=XX\n", "\n--XX\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nParks awards =E9\n--XX--\n")
	for i := 0; i < 300; i++ {
		b := append([]byte(nil), valid...)
		for k := 0; k < 1+rng.Intn(8); k++ {
			b[rng.Intn(len(b))] = byte(rng.Intn(256))
		}
		if rng.Intn(3) == 0 {
			b = b[:rng.Intn(len(b))]
		}
		garbage = append(garbage, b)
	}
	tm := newTestMailer(t, func(c *Config) { c.RepliesPerAddress = 1000; c.RequestsPerClient = 1000 }, nil)
	for i, g := range garbage {
		d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: "pat@example.org", Client: "192.0.2.1", Raw: g})
		if err != nil {
			var se *smtp.SMTPError
			if !errors.As(err, &se) || se.Code/100 != 5 {
				t.Errorf("garbage %d: error %v is not a clean SMTP refusal", i, err)
			}
		} else if d != Answered && d != Ignored && d != Limited { // limited: one sender's requests past the address's bound
			t.Errorf("garbage %d: disposition %q", i, d)
		}
	}
	if tm.watches(t) != 0 {
		t.Error("garbage stored a watch")
	}
	// the over-long request, from an address whose one unasked mail of
	// the day the garbage above did not spend, is refused saying why
	tm.clock.Set(tm.clock.Now().Add(24 * time.Hour))
	longAt := slices.IndexFunc(garbage, func(b []byte) bool { return bytes.Contains(b, []byte(strings.Repeat("parks ", 200))) })
	if _, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: "pat@example.org", Client: "192.0.2.1", Raw: garbage[longAt]}); err != nil {
		t.Fatal(err)
	}
	long := false
	for _, f := range tm.files("refusal.") {
		text := decodedText(t, f)
		text = strings.Join(strings.Fields(text), " ")
		long = long || strings.Contains(text, "limited to 600 characters") && strings.Contains(text, "Nothing was stored")
	}
	if !long {
		t.Error("the over-long request got no refusal saying why")
	}
}

func smtpSend(t *testing.T, addr, from, to string, body []byte) error {
	t.Helper()
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example.org"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail(from, nil); err != nil {
		return err
	}
	if err := c.Rcpt(to, nil); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		w.Close()
		return err
	}
	err = w.Close()
	c.Quit()
	return err
}

// TestSMTPReceiver over loopback: unknown recipients get 550, oversized
// mail 552, and one address gets one confirmation mail a day (watch.UnaskedEvery).
func TestSMTPReceiver(t *testing.T) {
	tm := newTestMailer(t, func(c *Config) { c.MaxMessageBytes = 4 << 10 }, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := tm.SMTPServer()
	go srv.Serve(l)
	defer srv.Close()
	addr := l.Addr().String()
	good := msg(baseHeaders, "\nParks construction awards over $1 million\n")

	err = smtpSend(t, addr, "pat@example.org", "someone-else@recordwatch.test", good)
	if !IsSMTPError(err, 550) {
		t.Errorf("unknown recipient: %v", err)
	}
	big := msg(baseHeaders, "\n"+strings.Repeat("Parks awards\n", 1000))
	if err := smtpSend(t, addr, "pat@example.org", subscribe, big); !IsSMTPError(err, 552) {
		t.Errorf("oversized: %v", err)
	}
	if err := smtpSend(t, addr, "pat@example.org", subscribe, []byte("\x00\x01garbage")); !IsSMTPError(err, 554) {
		t.Errorf("garbage: %v", err)
	}
	if len(tm.files("")) != 0 {
		t.Fatal("refused mail was answered")
	}
	for i := 0; i < 5; i++ {
		if err := smtpSend(t, addr, "pat@example.org", strings.ToUpper(subscribe), good); err != nil {
			t.Fatalf("send %d: %v", i, err)
		}
		if i == 0 && len(tm.files("confirm.")) != 1 { // the worker's pass after the first
			t.Fatal("the first request got no confirmation")
		}
	}
	if n := len(tm.files("confirm.")); n != 1 {
		t.Errorf("%d confirmations to one address in a day, want 1 (the rest wait for the next)", n)
	}
	tm.clock.Set(start.Add(24 * time.Hour))
	files := tm.files("confirm.")
	if len(files) != 2 || strings.Count(decodedText(t, files[0])+decodedText(t, files[1]), "/confirm/") != 5 {
		t.Errorf("the next day: %d confirmations, want 2 carrying the five requests", len(files))
	}
	if tm.watches(t) != 0 {
		t.Error("stored before confirmation")
	}
}

// flaky fails its first n sends.
type flaky struct {
	mu         sync.Mutex
	fail       int
	sent       [][]byte
	idempotent bool
}

func (f *flaky) Send(ctx context.Context, from string, to []string, msg []byte, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail > 0 {
		f.fail--
		return errors.New("relay unavailable")
	}
	f.sent = append(f.sent, msg)
	return nil
}
func (f *flaky) Idempotent() bool { return f.idempotent }

func (f *flaky) count(kind string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, m := range f.sent {
		if bytes.Contains(m, []byte("X-Recordwatch-Kind: "+kind)) {
			n++
		}
	}
	return n
}

// activeWatch confirms a Form 2 request the way a link does.
func activeWatch(t *testing.T, tm *testMailer, text string) {
	t.Helper()
	activeWatchFor(t, tm, "pat@example.org", text)
}

// activeWatchFor is activeWatch for another address.
func activeWatchFor(t *testing.T, tm *testMailer, email, text string) {
	t.Helper()
	u, err := tm.Watches().Understand(text)
	if err != nil {
		t.Fatal(err)
	}
	// the claim a confirmation link carries (watch.Service's pending)
	p := struct {
		Email    string            `json:"e"`
		Filter   watch.Filter      `json:"f"`
		Scope    string            `json:"s"`
		Agencies map[string]string `json:"a,omitempty"`
		Form     int               `json:"m"`
	}{email, u.Filter, u.Scope, u.Agencies, 2}
	tok, _, err := tm.signer.Sign(watch.TokenConfirm, p, tm.now(), time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Watches().Confirm(context.Background(), tok); err != nil {
		t.Fatal(err)
	}
	tm.Flush() // the welcome mail is sent off the request path
}

// forget drops a watch's baseline, so its next digest holds what it matches.
func forget(t *testing.T, tm *testMailer) watch.Watch {
	t.Helper()
	ws, err := tm.st.ListWatches(context.Background())
	if err != nil || len(ws) != 1 {
		t.Fatalf("watches %v %v", ws, err)
	}
	w := ws[0]
	if _, err := tm.st.DeleteWatch(context.Background(), w.ID); err != nil {
		t.Fatal(err)
	}
	w.Progress = watch.Progress{}
	if err := tm.st.CreateWatch(context.Background(), w, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	return w
}

// TestDigestRetriedIndependentlyAndNeverTwice: a failing delivery is
// retried with backoff while other windows and watches go on; a restart
// never sends a digest twice.
func TestDigestRetriedIndependentlyAndNeverTwice(t *testing.T) {
	tr := &flaky{fail: 3} // the welcome mail and two digest attempts fail
	tm := newTestMailer(t, nil, tr)
	activeWatch(t, tm, "Parks construction awards")
	w := forget(t, tm)
	ctx := context.Background()
	tm.clock.Set(start.Add(20 * time.Hour))
	rep, _ := tm.RunDigests(ctx)
	if rep.Planned != 1 || rep.Failed != 1 || rep.Sent != 0 {
		t.Fatalf("first run %+v", rep)
	}
	d, ok, _ := tm.st.GetDelivery(ctx, w.ID, rep.Window)
	if !ok || d.State != store.DeliveryFailed || d.NextAttempt.Sub(tm.now()) != 5*time.Minute || len(d.RequestIDs) == 0 {
		t.Fatalf("delivery %+v", d)
	}
	planned := d.RequestIDs
	// before the retry time nothing is sent; a restart re-plans nothing
	rep, _ = tm.RunDigests(ctx)
	if rep.Sent+rep.Failed != 0 {
		t.Errorf("retried early %+v", rep)
	}
	tm.clock.Set(tm.now().Add(5 * time.Minute))
	rep, _ = tm.RunDigests(ctx)
	if rep.Failed != 1 {
		t.Errorf("second attempt %+v", rep)
	}
	d, _, _ = tm.st.GetDelivery(ctx, w.ID, rep.Window)
	if d.NextAttempt.Sub(tm.now()) != 10*time.Minute {
		t.Errorf("backoff %v", d.NextAttempt.Sub(tm.now()))
	}
	tm.clock.Set(tm.now().Add(10 * time.Minute))
	rep, _ = tm.RunDigests(ctx)
	if rep.Sent != 1 || tr.count("digest") != 1 {
		t.Fatalf("third attempt %+v", rep)
	}
	d, _, _ = tm.st.GetDelivery(ctx, w.ID, rep.Window)
	if d.State != store.DeliverySent || strings.Join(d.RequestIDs, ",") != strings.Join(planned, ",") {
		t.Errorf("sent delivery %+v", d)
	}
	// restart: a new mailer over the same store sends nothing more
	m2, err := newMailer(ctx, tm.cfg, Deps{Store: tm.st, Search: backend, Now: tm.clock.Now, Logger: quiet, Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if rep, _ := m2.RunDigests(ctx); rep.Sent != 0 {
			t.Errorf("restart sent again %+v", rep)
		}
	}
	if tr.count("digest") != 1 {
		t.Errorf("%d digests sent", tr.count("digest"))
	}
	// the next day there is nothing new: no mail
	tm.clock.Set(start.Add(44 * time.Hour))
	if rep, _ := m2.RunDigests(ctx); rep.Empty != 1 || rep.Sent != 0 {
		t.Errorf("next day %+v", rep)
	}
}

// TestDigestInterruptedSendIsNotRepeated: a send cut short by a restart is
// not repeated over a relay (its outcome is unknown), and is repeated
// harmlessly into the outbox (same file).
func TestDigestInterruptedSendIsNotRepeated(t *testing.T) {
	for _, idem := range []bool{false, true} {
		tr := &flaky{idempotent: idem}
		tm := newTestMailer(t, nil, tr)
		activeWatch(t, tm, "Parks construction awards")
		w := forget(t, tm)
		ctx := context.Background()
		tm.clock.Set(start.Add(20 * time.Hour))
		key, _ := tm.Window(tm.now())
		// plan, then mark it as being sent, as a process that stopped mid-send leaves it
		if err := func() error {
			res, err := tm.deps.Notices.Filter(ctx, w.Filter, notices.AnswerOptions{Form: w.Form})
			if err != nil {
				return err
			}
			d := store.Delivery{WatchID: w.ID, Window: key, State: store.DeliverySending, RequestIDs: []string{res.Hits[0].Notice.RequestID},
				MessageID: tm.messageID("digest", w.ID+"."+key), PlannedAt: tm.now(), Attempts: 1}
			_, _, err = tm.st.PlanDigest(ctx, d, watch.Progress{})
			return err
		}(); err != nil {
			t.Fatal(err)
		}
		rep, _ := tm.RunDigests(ctx)
		if idem && rep.Sent != 1 {
			t.Errorf("idempotent transport: %+v", rep)
		}
		if !idem && (rep.Dropped != 1 || tr.count("digest") != 0) {
			t.Errorf("relay: %+v, %d sent", rep, tr.count("digest"))
		}
	}
}

var tokenRE = regexp.MustCompile(`/(manage|u)/[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+`)

// TestDigestGolden: the digest email, byte for byte (tokens masked).
func TestDigestGolden(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	activeWatch(t, tm, "Parks construction awards")
	w := forget(t, tm)
	tm.clock.Set(start.Add(20 * time.Hour))
	if rep, err := tm.RunDigests(context.Background()); err != nil || rep.Sent != 1 {
		t.Fatalf("%+v %v", rep, err)
	}
	files := tm.files("digest.")
	if len(files) != 1 {
		t.Fatalf("%v", files)
	}
	got := readFile(t, files[0])
	got = strings.ReplaceAll(got, w.ID, "WATCHID")
	got = tokenRE.ReplaceAllString(got, "/$1/TOKEN")
	if head, body, ok := strings.Cut(got, "\r\n\r\n"); ok { // undo quoted-printable soft breaks around body tokens
		got = head + "\r\n\r\n" + tokenRE.ReplaceAllString(strings.ReplaceAll(body, "=\r\n", ""), "/$1/TOKEN")
	}
	golden.Assert(t, filepath.Join("testdata", "golden", "digest.eml"), []byte(got))
	for _, h := range []string{"List-Unsubscribe: <http://rw.test/u/TOKEN>", "List-Unsubscribe-Post: List-Unsubscribe=One-Click",
		"Precedence: bulk", "Auto-Submitted: auto-generated", "http://rw.test/r/money/"} {
		if !strings.Contains(got, h) {
			t.Errorf("digest lacks %q", h)
		}
	}
}

// TestRelay sends through a real go-smtp server on loopback.
func TestRelay(t *testing.T) {
	var mu sync.Mutex
	var got []string
	be := smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		return &captureSession{add: func(s string) { mu.Lock(); got = append(got, s); mu.Unlock() }}, nil
	})
	srv := smtp.NewServer(be)
	srv.Domain = "relay.test"
	srv.AllowInsecureAuth = true
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(l)
	defer srv.Close()
	tm := newTestMailer(t, func(c *Config) { c.Relay = RelayConfig{Addr: l.Addr().String(), Security: "none"} }, nil)
	if _, ok := tm.transport.(*Relay); !ok {
		t.Fatalf("transport %T", tm.transport)
	}
	if err := tm.sendRefusal(context.Background(), "pat@example.org", "a test", ""); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0], "MAIL FROM:"+subscribe) || !strings.Contains(got[0], "RCPT TO:pat@example.org") ||
		!strings.Contains(got[0], "Subject: Recordwatch could not read your request") {
		t.Errorf("relay got %q", got)
	}
	// a relay that is down fails cleanly
	r := &Relay{Config: RelayConfig{Addr: "127.0.0.1:1", Timeout: time.Second}}
	if err := r.Send(context.Background(), "a@b.c", []string{"d@e.f"}, []byte("x"), "id"); err == nil {
		t.Error("sent through a closed port")
	}
}

type captureSession struct {
	from string
	to   []string
	add  func(string)
}

func (s *captureSession) Reset()        {}
func (s *captureSession) Logout() error { return nil }
func (s *captureSession) Mail(from string, _ *smtp.MailOptions) error {
	s.from = from
	return nil
}
func (s *captureSession) Rcpt(to string, _ *smtp.RcptOptions) error {
	s.to = append(s.to, to)
	return nil
}
func (s *captureSession) Data(r io.Reader) error {
	b, _ := io.ReadAll(r)
	s.add(fmt.Sprintf("MAIL FROM:%s\nRCPT TO:%s\n%s", s.from, strings.Join(s.to, ","), b))
	return nil
}

func TestConfigFromEnv(t *testing.T) {
	env := map[string]string{}
	get := func(k string) string { return env[k] }
	c, err := ConfigFromEnv(get, "/data", "https://recordwatch.example/", 2)
	if err != nil || c.SMTPAddr != DefaultSMTPAddr || c.SubscribeAddress != "subscribe@recordwatch.example" || c.OutboxDir != "/data/outbox" ||
		c.DigestEvery != 24*time.Hour || c.DigestHour != 7 || c.Relay.Addr != "" || c.Key != nil || c.BaseURL != "https://recordwatch.example" {
		t.Fatalf("defaults %+v %v", c, err)
	}
	env = map[string]string{"RECORDWATCH_SMTP_ADDR": "off", "RECORDWATCH_SMTP_RELAY": "smtp.example:587", "RECORDWATCH_SMTP_RELAY_USERNAME": "u",
		"RECORDWATCH_DIGEST_EVERY": "1h", "RECORDWATCH_WATCH_KEY": strings.Repeat("ab", 32)}
	c, err = ConfigFromEnv(get, "/data", "http://localhost:8080", 1)
	if err != nil || c.SMTPAddr != "" || c.Relay.Addr != "smtp.example:587" || c.DigestEvery != time.Hour || len(c.Key) != 32 {
		t.Fatalf("set %+v %v", c, err)
	}
	for _, bad := range []map[string]string{{"RECORDWATCH_WATCH_KEY": "abcd"}, {"RECORDWATCH_DIGEST_HOUR": "25"},
		{"RECORDWATCH_DIGEST_EVERY": "soon"}, {"RECORDWATCH_SMTP_RELAY_SECURITY": "ssl3"}, {"RECORDWATCH_SMTP_MAX_BYTES": "12"}} {
		env = bad
		if _, err := ConfigFromEnv(get, "/data", "http://localhost:8080", 1); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

func TestTokens(t *testing.T) {
	s, err := watch.NewSigner(bytes.Repeat([]byte{7}, 32))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := watch.NewSigner(bytes.Repeat([]byte{8}, 32))
	tok, _, err := s.Sign(watch.TokenManage, map[string]string{"w": "abc"}, start, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]string
	if _, err := s.Verify(watch.TokenManage, tok, start.Add(59*time.Minute), &p); err != nil || p["w"] != "abc" {
		t.Errorf("verify %v %v", p, err)
	}
	if _, err := s.Verify(watch.TokenManage, tok, start.Add(time.Hour), nil); !errors.Is(err, watch.ErrExpiredToken) {
		t.Errorf("expired: %v", err)
	}
	if _, err := s.Verify(watch.TokenConfirm, tok, start, nil); !errors.Is(err, watch.ErrBadToken) {
		t.Errorf("another kind: %v", err)
	}
	if _, err := other.Verify(watch.TokenManage, tok, start, nil); !errors.Is(err, watch.ErrBadToken) {
		t.Errorf("another key: %v", err)
	}
	if _, err := watch.NewSigner([]byte("short")); err == nil {
		t.Error("short key accepted")
	}
}
