package mailer

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/emersion/go-message/mail"

	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/view"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Message is an outbound email before it is encoded.
type Message struct {
	Kind      string // confirmation, welcome, digest, refusal
	From      string
	To        string
	Subject   string
	Text      string
	MessageID string // without <>
	// InReplyTo names the message answered (subscribe mail).
	InReplyTo string
	// Unsubscribe is the one-click unsubscribe URL (RFC 8058 headers).
	Unsubscribe string
	// AutoSubmitted is "auto-replied" for answers to mail, else
	// "auto-generated" (RFC 3834); either way no auto-responder answers.
	AutoSubmitted string
	Bulk          bool // Precedence: bulk (digests)
}

// Encode renders the message: UTF-8 text/plain (8bit), with the
// headers that keep auto-responders quiet and, when there is an
// unsubscribe link, List-Unsubscribe and List-Unsubscribe-Post (RFC 8058).
//
// It refuses to write a header value holding CR, LF, NUL or another control
// character (nothing a request carries may add or split a header), and a
// body holding NUL or another control character but tab and line breaks.
func (msg Message) Encode(date time.Time) ([]byte, error) {
	for _, f := range []struct{ name, value string }{{"From", msg.From}, {"To", msg.To}, {"Subject", msg.Subject},
		{"Message-ID", msg.MessageID}, {"In-Reply-To", msg.InReplyTo}, {"List-Unsubscribe", msg.Unsubscribe},
		{"Auto-Submitted", msg.AutoSubmitted}, {"X-Recordwatch-Kind", msg.Kind}} {
		if i := strings.IndexFunc(f.value, unicode.IsControl); i >= 0 {
			return nil, fmt.Errorf("mailer: the %s header would hold control character %U; not written", f.name, []rune(f.value[i:])[0])
		}
	}
	if i := strings.IndexFunc(msg.Text, func(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\r' && r != '\t' }); i >= 0 {
		return nil, fmt.Errorf("mailer: the body would hold control character %U; not written", []rune(msg.Text[i:])[0])
	}
	var h mail.Header
	h.SetDate(date)
	h.SetAddressList("From", []*mail.Address{{Name: "Recordwatch", Address: msg.From}})
	h.SetAddressList("To", []*mail.Address{{Address: msg.To}})
	h.SetSubject(msg.Subject)
	h.SetMessageID(msg.MessageID)
	if msg.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{msg.InReplyTo})
	}
	auto := msg.AutoSubmitted
	if auto == "" {
		auto = "auto-generated"
	}
	h.Set("Auto-Submitted", auto)
	h.Set("X-Auto-Response-Suppress", "All")
	if msg.Bulk {
		h.Set("Precedence", "bulk")
	}
	if msg.Unsubscribe != "" {
		h.Set("List-Unsubscribe", "<"+msg.Unsubscribe+">")
		h.Set("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")
	}
	h.Set("X-Recordwatch-Kind", msg.Kind)
	h.Set("MIME-Version", "1.0")
	h.SetContentType("text/plain", map[string]string{"charset": "utf-8"})
	// 8bit keeps links whole for people reading the .eml outbox; a line
	// too long for SMTP (998 octets) switches to quoted-printable
	text := strings.ReplaceAll(msg.Text, "\r\n", "\n")
	enc := "8bit"
	for _, l := range strings.Split(text, "\n") {
		if len(l) > 990 {
			enc = "quoted-printable"
		}
	}
	h.Set("Content-Transfer-Encoding", enc)
	var buf bytes.Buffer
	w, err := mail.CreateSingleInlineWriter(&buf, h)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write([]byte(strings.ReplaceAll(text, "\n", "\r\n"))); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

const footer = `Recordwatch republishes New York City's public records; it is not the
official registry. The City Record stays authoritative. A watch covers only
the records this service holds: no match never means that no record exists.`

func bullets(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString("  - " + strings.TrimPrefix(wrap(l, 72, "    "), "    ") + "\n")
	}
	return b.String()
}

// wrap folds s into lines of at most width characters, each indented.
func wrap(s string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, w := range strings.Fields(s) {
		n := len([]rune(w))
		if i > 0 && line+1+n > width {
			b.WriteString("\n")
			line = 0
		} else if i > 0 {
			b.WriteString(" ")
			line++
		}
		if line == 0 {
			b.WriteString(indent)
		}
		b.WriteString(w)
		line += n
	}
	return b.String()
}

// confirmationText asks the sender to confirm a Form 2 request. It goes to
// whatever address the request named, so it states only what was
// understood (the scope and the notes, built from the parsed filter) and
// never quotes the request's own words; its only link is ours.
func confirmationText(u watch.Understanding, link string, ttl time.Duration, schedule, remove string) string {
	var b strings.Builder
	b.WriteString("Someone (we hope you) asked Recordwatch to email this address about new\npublic records.\n\n")
	b.WriteString("How we understood the request:\n\n" + wrap(mailSafe(u.Scope), 72, "  ") + "\n\n")
	lines := watch.FilterLines(u.Filter, u.Agencies)
	for i, l := range lines {
		lines[i] = mailSafe(l)
	}
	b.WriteString("Filter by filter:\n" + bullets(lines) + "\n")
	notes := make([]string, len(u.Notes))
	for i, n := range u.Notes {
		notes[i] = mailSafe(n)
	}
	b.WriteString("In detail:\n" + bullets(notes) + "\n")
	b.WriteString("Digests: " + schedule + ".\n\n")
	fmt.Fprintf(&b, "To start this watch, open the link below and press \"Confirm\" (the link\nworks for %d hours; nothing is stored until you confirm):\n\n  %s\n\n", int(ttl.Hours()), link)
	b.WriteString("If this is not what you meant, ignore this email and write again in other\nwords. If you did not ask for this, ignore it: nothing will be sent.\n\n")
	b.WriteString(removeAllText(remove) + "-- \n" + footer + "\n")
	return b.String()
}

// welcomeText states an active watch's scope with its links. Like the
// confirmation it quotes no free text (a Form 1 description stays on the
// manage page).
func welcomeText(w watch.Watch, manage, unsubscribe, schedule, remove string) string {
	var b strings.Builder
	b.WriteString("Your Recordwatch watch is active.\n\n")
	b.WriteString("It follows:\n\n" + wrap(mailSafe(w.Scope), 72, "  ") + "\n\n")
	b.WriteString(welcomeHead(w, schedule) + "\n\n")
	b.WriteString(wrap(welcomeExplain(w), 72, "") + "\n\n")
	b.WriteString("To change how often (daily or weekly), use the manage link.\n\n")
	b.WriteString("Manage this watch:  " + manage + "\n")
	b.WriteString("Unsubscribe:        " + unsubscribe + "\n\n")
	b.WriteString("Keep this email: these links are the only way to manage the watch.\nKnowing your address gives nobody access to it.\n\n")
	b.WriteString(removeAllText(remove) + "-- \n" + footer + "\n")
	return b.String()
}

// welcomeHead says when a watch's mail goes out.
func welcomeHead(w watch.Watch, schedule string) string {
	if w.Follow != nil {
		return "Changes are checked " + schedule + "."
	}
	return "Digests: " + schedule + "."
}

// welcomeExplain says what mail a watch sends.
func welcomeExplain(w watch.Watch) string {
	switch {
	case w.Follow != nil:
		return "You get one mail each time a followed field changes, saying old → new; nothing for what the record holds now, and no mail while nothing changes."
	case w.CadenceOf() == watch.CadenceWeekly:
		return "Each week you get a digest of the new matching records, or a short check-in saying nothing new matched."
	}
	return "You get a digest on the days new matching records arrive; after two quiet weeks, one short note that the watch is still running."
}

// Scopes and notes are built from parsed values that are plain words
// already (watch.PlainValue); mailSafe is the second fence, for any text
// derived from a request that goes into a mail: it drops control
// characters and angle brackets and replaces anything that reads as a link
// (a scheme, www., a dotted host name) with "[link removed]".
var (
	schemeLinkRE = regexp.MustCompile(`(?i)\b(?:[a-z][a-z0-9+.\-]*:/{1,3}|www\d{0,3}\.|mailto:)\S*`)
	hostLinkRE   = regexp.MustCompile(`(?i)\b[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9\-]*[a-z0-9])?)*\.[a-z]{2,63}\b(?:[/?#]\S*)?`)
)

func mailSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '<' || r == '>' {
			return ' '
		}
		return r
	}, s)
	s = schemeLinkRE.ReplaceAllString(s, "[link removed]")
	return hostLinkRE.ReplaceAllString(s, "[link removed]")
}

// refusalText answers a subscribe mail the parser could not read.
func refusalText(reason string) string {
	return "Recordwatch could not set up a watch from your message:\n\n  " + mailSafe(reason) + "\n\n" +
		"Write again with one request in plain words (at most 600 characters), for\nexample:\n\n" +
		"  construction contract awards over $500k from Parks, not Queens\n" +
		"  rezonings in the Bronx\n  DOT hearings about \"bike lanes\"\n\n" +
		"Nothing was stored.\n\n-- \n" + footer + "\n"
}

// DigestItem is one record in a digest: a notice, or (meetings lens,
// Form 1) a meeting record.
type DigestItem struct {
	Notice record.Notice
	// Meeting, when set, is the item (Notice is then empty): shown with
	// its dated start, its four facts and its permalink (Link).
	Meeting *meeting.Meeting
	Link    string
	// Update: an award delivered before, republished with a fact changed.
	Update  bool
	Matched Match
	// Cycle is a solicitation's earlier cycle in one line (cycle.Result's
	// Summary), "" for other records.
	Cycle string
	// Roster, when set, makes the item a people-lens leader change (a
	// roster release) instead of a notice.
	Roster *people.LeaderChange
	// Land, when set, makes the item a land project's state (a new
	// milestone, stage or decision) instead of a notice.
	Land *watch.LandItem
}

// absenceLine is SPEC §1's first absence rule as the digests state it.
const absenceLine = "No match does not mean no record: a watch covers only the records this\nservice holds, and a record may be published in words the watch does not use."

func digestText(w watch.Watch, d store.Delivery, items []DigestItem, manage, unsubscribe string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Recordwatch digest (%s)\n\nYour watch:\n%s\n\n", d.Window, wrap(mailSafe(w.Scope), 72, "  "))
	if d.CatchUpFrom != "" {
		b.WriteString(wrap(fmt.Sprintf("This is a catch-up digest. The digests due after %s were not delivered at their time "+
			"(the service was not running, the mail relay refused them, or the day's sending limit was reached). "+
			"It covers everything new since %s; nothing was dropped.", d.CatchUpFrom, d.CatchUpFrom), 72, "") + "\n\n")
	}
	news, updates := 0, 0
	for _, it := range items {
		if it.Update {
			updates++
		} else {
			news++
		}
	}
	switch {
	case news == 1 && updates == 0:
		b.WriteString("1 new record since your last digest:\n\n")
	case updates == 0:
		fmt.Fprintf(&b, "%d new records since your last digest:\n\n", news)
	default:
		fmt.Fprintf(&b, "%d new records and %d updated since your last digest:\n\n", news, updates)
	}
	for i, it := range items {
		if c := it.Roster; c != nil {
			fmt.Fprintf(&b, "%d. Roster release %s: %s\n", i+1, c.AsOf, oneLine(mailSafe(c.OrgName), 160))
			fmt.Fprintf(&b, "%s\n", wrap(oneLine(mailSafe(c.Summary), 400), 72, "   "))
			fmt.Fprintf(&b, "%s\n", wrap("Matched: roster record "+mailSafe(c.RecordID)+" of the agency this watch follows (people lens: its leader changed "+
				"between two releases held). A dated roster does not say who holds the role now.", 72, "   "))
			fmt.Fprintf(&b, "   %s\n\n", it.Link)
			continue
		}
		if l := it.Land; l != nil {
			fmt.Fprintf(&b, "%d. Land project %s: %s\n", i+1, l.ProjectID, oneLine(mailSafe(l.Name), 160))
			for _, line := range []string{"Stage: " + l.Stage, "Milestone: " + l.Milestone, "Last milestone: " + l.Date} {
				if !strings.HasSuffix(line, ": ") {
					fmt.Fprintf(&b, "%s\n", wrap(mailSafe(line), 72, "   "))
				}
			}
			for _, dcs := range l.Decisions {
				fmt.Fprintf(&b, "%s\n", wrap(mailSafe("Decision: "+dcs), 72, "   "))
			}
			fmt.Fprintf(&b, "   %s\n\n", it.Link)
			continue
		}
		if mt := it.Meeting; mt != nil {
			fmt.Fprintf(&b, "%d. Meeting: %s\n", i+1, oneLine(mt.Title, 200))
			fmt.Fprintf(&b, "%s\n", wrap(oneLine(mt.Body, 120)+" · "+mt.StartLabel(), 72, "   "))
			for _, l := range mt.FactLines() {
				fmt.Fprintf(&b, "%s\n", wrap(oneLine(l, 400), 72, "   "))
			}
			fmt.Fprintf(&b, "   %s\n\n", it.Link)
			continue
		}
		n := it.Notice
		label := ""
		if it.Update {
			label = "UPDATE (an award sent before, republished with a changed fact): "
		}
		fmt.Fprintf(&b, "%d. %s%s\n", i+1, label, oneLine(n.Title, 200))
		fmt.Fprintf(&b, "   %s\n", itemSummary(n))
		if len(it.Matched.Words) > 0 {
			fmt.Fprintf(&b, "%s\n", wrap("Matched: "+quoteWords(it.Matched.Words), 72, "   "))
		}
		if len(it.Matched.Filters) > 0 {
			fmt.Fprintf(&b, "%s\n", wrap("Filters met: "+oneLine(strings.Join(it.Matched.Filters, "; "), 300), 72, "   "))
		}
		if it.Cycle != "" {
			fmt.Fprintf(&b, "%s\n", wrap("Earlier cycle: "+it.Cycle+".", 72, "   "))
		}
		if it.Matched.Snippet != "" {
			fmt.Fprintf(&b, "%s\n", wrap("\""+oneLine(it.Matched.Snippet, 240)+"\"", 72, "   "))
		}
		fmt.Fprintf(&b, "   %s\n\n", it.Link)
	}
	b.WriteString("Each link opens the record here; the official City Record page is linked\nfrom it. Amounts are shown only when the source gives a valid one.\n\n")
	if d.Covered != "" { // set on a digest when a source is not fresh
		b.WriteString(wrap(d.Covered, 72, "") + "\n\n")
	}
	b.WriteString(absenceLine + "\n\n")
	b.WriteString("Manage this watch (or change daily/weekly):  " + manage + "\n")
	b.WriteString("Unsubscribe (one click):  " + unsubscribe + "\n\n-- \n" + footer + "\n")
	return b.String()
}

func quoteWords(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = fmt.Sprintf("%q", mailSafe(w))
	}
	return strings.Join(q, ", ")
}

// quietText is a weekly check-in or a daily watch's heartbeat: nothing new
// matched; the watch is running; what it searched.
func quietText(w watch.Watch, d store.Delivery, schedule, manage, unsubscribe string) string {
	var b strings.Builder
	if d.Kind == store.KindCheckIn {
		fmt.Fprintf(&b, "Recordwatch weekly check-in (%s)\n\n", d.Window)
		b.WriteString("Nothing new matched your watch this week. It is running.\n\n")
	} else {
		fmt.Fprintf(&b, "Recordwatch: your watch is running (%s)\n\n", d.Window)
		b.WriteString(wrap("Nothing new has matched your watch for two weeks or more. It is still running; you will hear again when something new matches, or after the next quiet stretch.", 72, "") + "\n\n")
	}
	b.WriteString("Your watch:\n" + wrap(mailSafe(w.Scope), 72, "  ") + "\n\n")
	if d.Covered != "" {
		b.WriteString(wrap(d.Covered, 72, "") + "\n\n")
	}
	b.WriteString(absenceLine + "\n\n")
	b.WriteString("Digests: " + schedule + ".\n\n")
	b.WriteString("Manage this watch (or change daily/weekly):  " + manage + "\n")
	b.WriteString("Unsubscribe (one click):  " + unsubscribe + "\n\n-- \n" + footer + "\n")
	return b.String()
}

func itemSummary(n record.Notice) string { return view.Summary(n) }

// oneLine folds whitespace and cuts s to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
