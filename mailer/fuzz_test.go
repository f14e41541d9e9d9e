package mailer

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
)

// FuzzSubscribeMessage: the pieces HandleMail reads an incoming subscribe
// message with (header, sender, body text, request lines, subject), run
// without HandleMail's recover so a panic is seen. The request text is
// valid UTF-8 and reading it again changes nothing.
func FuzzSubscribeMessage(f *testing.F) {
	f.Add("<pat@example.org>", []byte("From: Pat <pat@example.org>\r\nTo: subscribe@recordwatch.test\r\nSubject: watch\r\nMessage-ID: <req-1@example.org>\r\n\r\nemail me about Parks construction awards over $1M\r\n\r\n-- \r\nPat\r\n"))
	f.Add("<a@example.org>", []byte("From: a@example.org\r\nSubject: Re: Parks awards\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>Parks <b>awards</b></p>\r\n--b--\r\n"))
	f.Add("<>", []byte("From: MAILER-DAEMON@example.org\r\nContent-Type: multipart/report; boundary=x\r\n\r\n--x\r\n\r\nbounce\r\n--x--\r\n"))
	f.Add("<b@example.org>", []byte("From: b@example.org\r\nContent-Transfer-Encoding: quoted-printable\r\nContent-Type: text/plain; charset=iso-8859-1\r\n\r\nParks =E9t=E9\r\n> quoted\r\nOn Mon, Pat wrote:\r\nold\r\n"))
	f.Fuzz(func(t *testing.T, envelopeFrom string, raw []byte) {
		mr, err := mail.CreateReader(bytes.NewReader(raw))
		if err != nil && !message.IsUnknownCharset(err) {
			return
		}
		if mr == nil {
			return
		}
		_ = automated(envelopeFrom, mr.Header)
		if s := senderAddress(envelopeFrom, mr.Header); s != "" && (strings.ContainsAny(s, "\r\n") || !strings.Contains(s, "@")) {
			t.Fatalf("sender %q", s)
		}
		text, err := bodyText(mr)
		if err != nil {
			return
		}
		if text == "" {
			subj, _ := mr.Header.Subject()
			text = subjectRequest(subj)
		}
		if !utf8.ValidString(text) {
			t.Fatalf("request text is not UTF-8: %q", text)
		}
		if again := requestLines(text); again != requestLines(again) {
			t.Fatalf("request lines not stable: %q then %q", again, requestLines(again))
		}
	})
}
