package mailer

import (
	"context"
	"strings"
	"testing"
)

// Mail to the subscribe address that only asks to leave ("unsubscribe",
// "STOP", "Remove me.", a subject of "Unsubscribe" over an empty body, in
// a reply) is answered with how to unsubscribe (the links in any mail
// received; a reply cannot be authenticated), in both forms: no watch is
// stored and no confirmation or welcome goes out. A request that merely
// contains such a word is still a request.
func TestUnsubscribeMailAnswersHowToUnsubscribe(t *testing.T) {
	for _, form := range []int{1, 2} {
		tm := newTestMailer(t, func(c *Config) { c.Form = form; c.RequestsPerClient = 100; c.RequestsPerDay = 100 }, nil)
		cases := []struct{ from, subject, body string }{
			{"a@example.org", "hello", "unsubscribe\n"},
			{"b@example.org", "hello", "STOP\n"},
			{"c@example.org", "hello", "Remove me.\n"},
			{"d@example.org", "Unsubscribe", ""},
			{"e@example.org", "Re: Your Recordwatch digest", "Please unsubscribe me\n\nOn Mon, Aug 10, 2026 Recordwatch wrote:\n> parks bids\n"},
			{"f@example.org", "hello", "remove me from this list!\n"},
		}
		for i, c := range cases {
			raw := msg("From: "+c.from+"\nTo: "+subscribe+"\nSubject: "+c.subject+"\nMessage-ID: <u"+string(rune('0'+i))+"@example.org>\n", "\n"+c.body)
			d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: c.from, Client: "192.0.2.40", Raw: raw})
			if err != nil || d != Answered {
				t.Errorf("form %d %q/%q: %v %v", form, c.subject, c.body, d, err)
			}
		}
		tm.Flush()
		help := tm.files("unsubscribe-help.")
		if len(help) != len(cases) {
			t.Fatalf("form %d: %d unsubscribe answers for %d mails: %v", form, len(help), len(cases), tm.files(""))
		}
		raw := readFile(t, help[0])
		text := strings.Join(strings.Fields(decodedText(t, help[0])), " ")
		for _, want := range []string{"cannot remove a watch", "forged", "unsubscribe link", "manage link"} {
			if !strings.Contains(text, want) {
				t.Errorf("form %d: the answer lacks %q: %s", form, want, text)
			}
		}
		if !strings.Contains(raw, "Subject: How to unsubscribe from Recordwatch") || !strings.Contains(raw, "Auto-Submitted: auto-replied") {
			t.Errorf("form %d: headers: %.600s", form, raw)
		}
		if n := tm.watches(t); n != 0 {
			t.Errorf("form %d: %d watches stored from unsubscribe mail", form, n)
		}
		if f := append(tm.files("confirm."), tm.files("welcome.")...); len(f) != 0 {
			t.Errorf("form %d: unsubscribe mail requested a watch: %v", form, f)
		}
		// a request that contains the word is a request
		d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: "g@example.org", Client: "192.0.2.41",
			Raw: msg("From: g@example.org\nTo: "+subscribe+"\nSubject: hello\n", "\nstop work orders from Parks\n")})
		tm.Flush()
		if err != nil || d != Answered || len(tm.files("unsubscribe-help.")) != len(cases) {
			t.Errorf("form %d: a request with the word stop: %v %v %v", form, d, err, tm.files(""))
		}
	}
}
