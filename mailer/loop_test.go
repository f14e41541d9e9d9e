package mailer

import (
	"context"
	"strings"
	"testing"
)

// TestReceiveMailLoopGuard: mail from the service's own domain, or marked
// as automatic or bulk by any of the usual headers, gets no confirmation
// (RFC 3834 Auto-Submitted, Precedence, list headers, Microsoft's
// X-Auto-Response-Suppress, X-Loop and the auto-reply headers of common
// mail programs). Header values as real autoresponders write them.
func TestReceiveMailLoopGuard(t *testing.T) {
	body := "Parks construction bids over $1m\n"
	person := "From: Pat <pat@example.org>\nTo: " + subscribe + "\nSubject: bids\nMessage-ID: <m2@example.org>\n"
	own := func(addr string) string {
		return "From: " + addr + "\nTo: " + subscribe + "\nSubject: bids\nMessage-ID: <m3@recordwatch.test>\n"
	}
	cases := []struct {
		name, from, headers string
	}{
		{"own domain, other mailbox", "digest@recordwatch.test", own("Recordwatch <digest@recordwatch.test>")},
		{"own domain in From only", "bounce-handler@relay.example.net", own("Recordwatch digests <watch@recordwatch.test>")},
		{"own domain, envelope only", "noise@recordwatch.test", person},
		{"own domain, upper case", "pat@example.org", own("ALERTS@RECORDWATCH.TEST")},
		{"own subdomain", "mail@lists.recordwatch.test", own("mail@lists.recordwatch.test")},
		{"Auto-Submitted: auto-notified", "pat@example.org", person + "Auto-Submitted: auto-notified\n"},
		{"Auto-Submitted with a comment", "pat@example.org", person + "Auto-Submitted: auto-replied (vacation)\n"},
		{"Precedence: Bulk", "pat@example.org", person + "Precedence: Bulk\n"},
		{"Precedence: list", "pat@example.org", person + "Precedence: list\n"},
		{"Precedence: junk", "pat@example.org", person + "Precedence: junk\n"},
		{"List-Id", "pat@example.org", person + "List-Id: Civic news <civic.lists.example.org>\n"},
		{"List-Unsubscribe", "pat@example.org", person + "List-Unsubscribe: <mailto:leave@example.org>\n"},
		{"X-Auto-Response-Suppress", "pat@example.org", person + "X-Auto-Response-Suppress: All\n"},
		{"X-Auto-Response-Suppress OOF", "pat@example.org", person + "X-Auto-Response-Suppress: DR, RN, NRN, OOF, AutoReply\n"},
		{"X-Autoreply", "pat@example.org", person + "X-Autoreply: yes\n"},
		{"X-Autorespond", "pat@example.org", person + "X-Autorespond: vacation\n"},
		{"X-Loop", "pat@example.org", person + "X-Loop: pat@example.org\n"},
		{"X-Precedence: bulk", "pat@example.org", person + "X-Precedence: bulk\n"},
		{"X-Mailer-Autoreply", "pat@example.org", person + "X-Auto-Reply: yes\n"},
		{"Feedback loop report", "pat@example.org", person + "Content-Type: multipart/report; report-type=feedback-report; boundary=b\n"},
		{"X-MS-Exchange auto-reply", "pat@example.org", person + "X-MS-Exchange-Inbox-Rules-Loop: pat@example.org\n"},
	}
	tm := newTestMailer(t, nil, nil)
	for _, c := range cases {
		d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: c.from, Raw: msg(c.headers, "\n"+body)})
		if err != nil || d != Ignored {
			t.Errorf("%s: %v %v", c.name, d, err)
		}
	}
	if f := tm.files(""); len(f) != 0 {
		t.Errorf("automated or own mail was answered: %v", f)
	}
	// a person at another domain that only looks like ours is answered
	for _, from := range []string{"pat@notrecordwatch.test", "pat@recordwatch.test.example.org"} {
		d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: from,
			Raw: msg("From: "+from+"\nTo: "+subscribe+"\nSubject: bids\n", "\n"+body)})
		if err != nil || d != Answered {
			t.Errorf("%s: %v %v", from, d, err)
		}
	}
}

// TestConfirmationStatesEachFilter: the confirmation mail says how the
// request was understood, filter by filter.
func TestConfirmationStatesEachFilter(t *testing.T) {
	tm := newTestMailer(t, nil, nil)
	body := "M/WBE construction bids from Parks over $1 million due in the next 3 months in Brooklyn, not demolition\n"
	d, err := tm.HandleMail(context.Background(), Incoming{EnvelopeFrom: "pat@example.org", Raw: msg(baseHeaders, "\n"+body)})
	if err != nil || d != Answered {
		t.Fatalf("%v %v", d, err)
	}
	files := tm.files("confirm.")
	if len(files) != 1 {
		t.Fatalf("confirmations %v", files)
	}
	text := strings.Join(strings.Fields(decodedText(t, files[0])), " ")
	for _, want := range []string{"Filter by filter:", "Kind of record: open procurement solicitations", "Agency: Parks and Recreation",
		"Amount: at least $1,000,000", "Category: construction", "Special requirement: M/WBE", "Due: within 3 months",
		"Borough: Brooklyn", "Left out: demolition"} {
		if !strings.Contains(text, want) {
			t.Errorf("confirmation does not say %q:\n%s", want, text)
		}
	}
}
