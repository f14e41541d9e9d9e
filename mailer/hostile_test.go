package mailer

import (
	"encoding/base64"
	"github.com/recordwatch/recordwatch/internal/watch"
	"net"
	"strings"
	"testing"

	"github.com/emersion/go-smtp"
)

// hostileServer runs the subscribe receiver on loopback.
func hostileServer(t *testing.T, tweak func(*Config)) (*testMailer, string) {
	t.Helper()
	tm := newTestMailer(t, tweak, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := tm.SMTPServer()
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return tm, l.Addr().String()
}

func b64word(s string) string {
	return "=?utf-8?b?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?="
}

// Hostile subscribe mail gets a clear SMTP reply; header injection through
// encoded words never reaches an outgoing header, a reply goes to one
// address only, and nothing is stored before confirmation.
func TestHostileSubscribeMail(t *testing.T) {
	tm, addr := hostileServer(t, nil)
	injected := []string{
		// an encoded subject that decodes to a header break
		"From: Pat <pat@example.org>\nTo: " + subscribe + "\nSubject: " + b64word("hi\r\nBcc: victim@evil.example") + "\nMessage-ID: <h1@example.org>\n",
		// a display name that decodes to a header break
		"From: " + b64word("Pat\r\nBcc: victim@evil.example") + " <pat@example.org>\nTo: " + subscribe + "\nSubject: hi\nMessage-ID: <h2@example.org>\n",
		// a message id with a header break in an encoded word and a second From
		"From: Pat <pat@example.org>\nFrom: victim@evil.example\nTo: " + subscribe + "\nSubject: hi\nMessage-ID: " + b64word("<x@y>\r\nBcc: victim@evil.example") + "\n",
		// Reply-To elsewhere: the answer still goes to the sender only
		"From: Pat <pat@example.org>\nReply-To: victim@evil.example\nTo: " + subscribe + "\nSubject: hi\nMessage-ID: <h4@example.org>\n",
	}
	for i, h := range injected {
		err := smtpSend(t, addr, "pat@example.org", subscribe, msg(h, "\nParks construction awards over $1 million\n"))
		if err != nil && !IsSMTPError(err, 550) && !IsSMTPError(err, 554) {
			t.Errorf("case %d: unclear reply %v", i, err)
		}
		// a day later each: an address gets one unasked mail a day
		tm.Flush()
		tm.clock.Set(tm.clock.Now().Add(watch.UnaskedEvery))
	}
	tm.Flush()
	if len(tm.files("")) < 2 {
		t.Fatalf("%d answers: the checks below would prove nothing", len(tm.files("")))
	}
	for _, f := range tm.files("") {
		raw := readFile(t, f)
		head, _, _ := strings.Cut(raw, "\r\n\r\n")
		if strings.Contains(strings.ToLower(raw), "victim@evil.example") {
			t.Errorf("%s names the injected address:\n%s", f, head)
		}
		for _, line := range strings.Split(head, "\r\n") {
			if strings.HasPrefix(strings.ToLower(line), "bcc:") || strings.HasPrefix(strings.ToLower(line), "cc:") {
				t.Errorf("%s carries %q", f, line)
			}
			if strings.HasPrefix(line, "To:") && !strings.Contains(line, "pat@example.org") {
				t.Errorf("%s goes to %q", f, line)
			}
		}
	}
	if tm.watches(t) != 0 {
		t.Error("a watch was stored before confirmation")
	}
}

// Many recipients in one transaction: the subscribe address counts once
// (one confirmation), other recipients are refused one by one, and the
// recipient limit answers with an SMTP error, not a dropped connection.
func TestManyRecipients(t *testing.T) {
	tm, addr := hostileServer(t, nil)
	c, err := smtp.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Hello("client.example.org"); err != nil {
		t.Fatal(err)
	}
	if err := c.Mail("pat@example.org", nil); err != nil {
		t.Fatal(err)
	}
	accepted, refused, limited := 0, 0, 0
	for i := 0; i < 40; i++ {
		to := subscribe
		if i%2 == 1 {
			to = "someone" + strings.Repeat("x", i) + "@elsewhere.example"
		}
		switch err := c.Rcpt(to, nil); {
		case err == nil:
			accepted++
		case IsSMTPError(err, 550):
			refused++
		case IsSMTPError(err, 452) || IsSMTPError(err, 552):
			limited++
		default:
			t.Fatalf("rcpt %d: unclear reply %v", i, err)
		}
	}
	if accepted == 0 || refused == 0 || limited == 0 {
		t.Errorf("accepted %d, refused %d, limited %d: want each kind of answer", accepted, refused, limited)
	}
	w, err := c.Data()
	if err != nil {
		t.Fatal(err)
	}
	w.Write(msg(baseHeaders, "\nParks construction awards\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	c.Quit()
	tm.Flush()
	if n := len(tm.files("")); n != 1 {
		t.Errorf("%d answers to one message sent to the subscribe address %d times, want 1", n, accepted)
	}
}

// A 10 MB body at the default size cap is refused with 552 while it is
// read, and nothing is answered or stored.
func TestTenMegabyteBodyIsRefused(t *testing.T) {
	tm, addr := hostileServer(t, nil)
	big := msg(baseHeaders, "\n"+strings.Repeat("Parks construction awards over one million dollars\n", 10<<20/52))
	if err := smtpSend(t, addr, "pat@example.org", subscribe, big); !IsSMTPError(err, 552) {
		t.Errorf("10 MB body: %v, want 552", err)
	}
	tm.Flush()
	if len(tm.files("")) != 0 || tm.watches(t) != 0 {
		t.Error("an oversized message was answered or stored")
	}
}
