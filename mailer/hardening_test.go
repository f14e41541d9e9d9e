package mailer

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// TestAddressKeyFoldsTags: +tags and case share one allowance; the mail
// still goes to the address as given.
func TestAddressKeyFoldsTags(t *testing.T) {
	for in, want := range map[string]string{
		"pat@example.org":          "pat@example.org",
		"Pat+News@Example.ORG":     "pat@example.org",
		"pat+a+b@example.org":      "pat@example.org",
		"+only@example.org":        "+only@example.org",
		"first.last@example.org":   "first.last@example.org",
		"  PAT+x@example.org  ":    "pat@example.org",
		"not-an-address":           "not-an-address",
		"pat+tag@sub.example.org":  "pat@sub.example.org",
		"pat-tag+x@example.org":    "pat-tag@example.org",
		"pat+@example.org":         "pat@example.org",
		"p+q@example.org+x@a.test": "p@example.org+x@a.test",
	} {
		if got := watch.AddressKey(in); got != want {
			t.Errorf("AddressKey(%q) = %q, want %q", in, got, want)
		}
	}
	tm := newTestMailer(t, nil, nil)
	ctx := context.Background()
	for i, addr := range []string{"pat+1@example.org", "pat+2@example.org", "PAT+3@example.org", "pat@example.org", "Pat+spam@example.org"} {
		if _, err := tm.Watches().Subscribe(ctx, watch.Request{Email: addr, Text: "Parks awards", Client: "client" + addr}); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	files := tm.files("confirm.")
	if len(files) != 1 {
		t.Fatalf("%d confirmations to one mailbox under +tags, want 1 listing all five", len(files))
	}
	// the one mail goes to one of the addresses as given (+tag and case
	// kept) and lists the five requests, each with its own link
	raw := readFile(t, files[0])
	to := 0
	for _, a := range []string{"pat+1@example.org", "pat+2@example.org", "PAT+3@example.org", "pat@example.org", "Pat+spam@example.org"} {
		if strings.Contains(raw, "\nTo: <"+a+">") {
			to++
		}
	}
	if to != 1 || strings.Count(decodedText(t, files[0]), "/confirm/") != 5 {
		t.Errorf("the confirmation does not go to one address as given or does not list five links:\n%s", raw)
	}
	// a day later the budget is back
	tm.clock.Set(tm.clock.Now().Add(watch.UnaskedEvery))
	if _, err := tm.Watches().Subscribe(ctx, watch.Request{Email: "PAT+3@example.org", Text: "Parks awards"}); err != nil {
		t.Fatal(err)
	}
	if files := tm.files("confirm."); len(files) != 2 {
		t.Errorf("a day later: %d confirmations, want 2", len(files))
	}
	// Form 1: three watches under +tags, one welcome listing them
	f1 := newTestMailer(t, func(c *Config) { c.Form = 1 }, nil)
	f := watch.Filter{Lens: record.LensMoney, AnyOf: []string{"construction"}}
	for i, addr := range []string{"kim+a@example.org", "KIM+b@example.org", "kim+c@example.org"} {
		if _, err := f1.Watches().Subscribe(ctx, watch.Request{Email: addr, Filter: &f}); err != nil {
			t.Errorf("form 1 request %d (%s): %v", i, addr, err)
		}
	}
	if files := f1.files("welcome."); len(files) != 1 || strings.Count(decodedText(t, files[0]), "/manage/") != 3 {
		t.Errorf("form 1: %d welcome mails to one address, want 1 listing three watches", len(files))
	}
}

// TestFairShareKeepsRoomForNewClients: 50 clients that each spend their
// whole daily allowance (50 × 20 = the whole default pool) leave room
// for other clients' first requests.
func TestFairShareKeepsRoomForNewClients(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	ctx := context.Background()
	cfg := tm.Config()
	if cfg.RequestsPerDay != DefaultRequestsPerDay || cfg.RequestsPerClient != DefaultRequestsPerClient ||
		cfg.FairShareAfter != DefaultFairShareAfter || cfg.FairShareRequests != DefaultFairShareRequests {
		t.Fatalf("defaults %+v", cfg)
	}
	hammered := 0
	for c := 0; c < 50; c++ {
		client := fmt.Sprintf("198.51.100.%d", c)
		for i := 0; i < cfg.RequestsPerClient+5; i++ {
			if err := tm.Watches().Allow(ctx, client); err == nil {
				hammered++
			} else if record.ErrorCode(err) != record.ELIMIT {
				t.Fatal(err)
			}
		}
	}
	shared := int(cfg.FairShareAfter * float64(cfg.RequestsPerDay))
	if hammered > shared+50*cfg.FairShareRequests {
		t.Errorf("50 clients took %d of %d requests", hammered, cfg.RequestsPerDay)
	}
	// new clients still get their first requests
	newcomers := 0
	for c := 0; c < 100; c++ {
		client := fmt.Sprintf("2001:db8:%x::/64", c)
		for i := 0; i < cfg.FairShareRequests; i++ {
			if err := tm.Watches().Allow(ctx, client); err != nil {
				t.Fatalf("new client %d, request %d refused: %v", c, i+1, err)
			}
		}
		// and no more than those while the pool is past its shared part
		err := tm.Watches().Allow(ctx, client)
		if err == nil || record.ErrorCode(err) != record.ELIMIT || !strings.Contains(record.ErrorMessage(err), "first 2 requests") {
			t.Fatalf("new client %d's third request: %v", c, err)
		}
		if _, ok := watch.ResetAt(err); !ok {
			t.Error("a limit refusal without its reset time")
		}
		newcomers++
	}
	// the pool as a whole still holds
	total := hammered + newcomers*cfg.FairShareRequests
	for c := 0; total < cfg.RequestsPerDay+10; c++ {
		if tm.Watches().Allow(ctx, fmt.Sprintf("203.0.113.%d", c)) == nil {
			total++
		} else {
			break
		}
	}
	if total != cfg.RequestsPerDay {
		t.Errorf("%d requests allowed in a day, want the ceiling %d", total, cfg.RequestsPerDay)
	}
}

// TestEncodeRefusesControlCharactersInHeaders: the composer never writes a
// header value with CR, LF or NUL, whatever reaches it.
func TestEncodeRefusesControlCharactersInHeaders(t *testing.T) {
	good := Message{Kind: "welcome", From: subscribe, To: "pat@example.org", Subject: "Hello", Text: "body\nline two\n", MessageID: "a.b@recordwatch.test"}
	if _, err := good.Encode(start); err != nil {
		t.Fatal(err)
	}
	bad := map[string]func(*Message){
		"to CRLF":          func(m *Message) { m.To = "pat@example.org\r\nBcc: victim@example.org" },
		"subject LF":       func(m *Message) { m.Subject = "Hello\nBcc: victim@example.org" },
		"subject NUL":      func(m *Message) { m.Subject = "Hello\x00" },
		"message-id CR":    func(m *Message) { m.MessageID = "a\r@b" },
		"in-reply-to LF":   func(m *Message) { m.InReplyTo = "x@y\nBcc: v@example.org" },
		"unsubscribe NUL":  func(m *Message) { m.Unsubscribe = "http://rw.test/u/x\x00" },
		"from CRLF":        func(m *Message) { m.From = "a@b.c\r\nX: y" },
		"auto-submitted":   func(m *Message) { m.AutoSubmitted = "auto-replied\r\nX: y" },
		"body NUL":         func(m *Message) { m.Text = "hello\x00world" },
		"body escape char": func(m *Message) { m.Text = "hello\x1b[31mworld" },
	}
	for name, mod := range bad {
		m := good
		mod(&m)
		if raw, err := m.Encode(start); err == nil {
			t.Errorf("%s: written:\n%s", name, raw)
		}
	}
}

// TestSubscribeRefusesControlCharacters: every value of a request that
// can reach a mail is checked, naming the field.
func TestSubscribeRefusesControlCharacters(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	f1 := newTestMailer(t, func(c *Config) { c.Form = 1 }, nil)
	f := watch.Filter{Lens: record.LensMoney, AnyOf: []string{"construction"}}
	cases := []struct {
		m     *testMailer
		req   watch.Request
		field string
	}{
		{tm, watch.Request{Email: "pat@example.org\x00", Text: "Parks awards"}, "email"},
		{tm, watch.Request{Email: "pat@example.org", Text: "Parks\x00 awards"}, "text"},
		{tm, watch.Request{Email: "pat@example.org", Text: "Parks awards", InReplyTo: "x@y\r\nBcc: v@example.org"}, "in_reply_to"},
		{f1, watch.Request{Email: "pat@example.org", Filter: &f, Description: "mine\x00"}, "description"},
		{f1, watch.Request{Email: "pat@example.org\r\n", Filter: &f}, "email"},
	}
	for i, c := range cases {
		_, err := c.m.Watches().Subscribe(context.Background(), c.req)
		var re *record.Error
		if e, ok := err.(*record.Error); ok {
			re = e
		}
		if re == nil || re.Code != record.EINVALID || re.Param != c.field {
			t.Errorf("case %d: %v, want EINVALID on %s", i, err, c.field)
		}
	}
	tm.Flush()
	f1.Flush()
	if len(tm.files("")) != 0 || len(f1.files("")) != 0 || f1.watches(t) != 0 {
		t.Error("a refused request sent or stored something")
	}
	// a request with line breaks in its text is fine
	if _, err := tm.Watches().Subscribe(context.Background(), watch.Request{Email: "pat@example.org", Text: "Parks awards\r\nover $1m\n"}); err != nil {
		t.Error(err)
	}
}

// gate is a transport that holds every send until it is opened.
type gate struct {
	open chan struct{}
	mu   sync.Mutex
	sent int
}

func (g *gate) Send(ctx context.Context, from string, to []string, msg []byte, id string) error {
	select {
	case <-g.open:
	case <-ctx.Done():
		return ctx.Err()
	}
	g.mu.Lock()
	g.sent++
	g.mu.Unlock()
	return nil
}
func (g *gate) Idempotent() bool { return false }

// TestMailIsSentOffTheRequestPath: a create answers while the relay is
// still busy (its mail is stored, and the outbox worker sends it); two
// requests for one address make one mail that lists both.
func TestMailIsSentOffTheRequestPath(t *testing.T) {
	for _, form := range []int{1, 2} {
		g := &gate{open: make(chan struct{})}
		tm := newTestMailer(t, func(c *Config) { c.Form = form }, g)
		req := watch.Request{Email: "pat@example.org", Text: "Parks awards"}
		if form == 1 {
			req = watch.Request{Email: "pat@example.org", Filter: &watch.Filter{Lens: record.LensMoney, AnyOf: []string{"construction"}}}
		}
		// the worker is busy at the closed relay with an earlier mail
		if _, err := tm.Watches().Subscribe(context.Background(), watch.Request{Email: "lee@example.org", Text: "Parks awards",
			Filter: req.Filter}); err != nil {
			t.Fatal(err)
		}
		busy := make(chan struct{})
		go func() { tm.Flush(); close(busy) }()
		done := make(chan error, 2)
		go func() {
			for i := 0; i < 2; i++ {
				_, err := tm.Watches().Subscribe(context.Background(), req)
				done <- err
			}
		}()
		for i := 0; i < 2; i++ {
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("form %d: %v", form, err)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("form %d: the request waited for the relay", form)
			}
		}
		close(g.open)
		<-busy
		tm.Flush()
		g.mu.Lock()
		if g.sent != 2 { // lee's mail, then pat's one mail listing both requests
			t.Errorf("form %d: %d mails sent, want 2", form, g.sent)
		}
		g.mu.Unlock()
	}
}
