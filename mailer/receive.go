package mailer

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"
	"unicode"

	"github.com/emersion/go-message"
	_ "github.com/emersion/go-message/charset" // ISO-8859-x, Windows-125x and other charsets
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Incoming is one message received for the subscribe address.
type Incoming struct {
	EnvelopeFrom string // MAIL FROM ("" for a bounce)
	Client       string // the sending server's IP
	Raw          []byte
}

// Disposition is what became of an incoming message.
type Disposition string

// Dispositions.
const (
	Answered Disposition = "answered" // a confirmation (or a refusal explaining why not) was sent
	Ignored  Disposition = "ignored"  // bounces, auto-replies, list mail, loops: accepted, not answered
	Limited  Disposition = "limited"  // over a daily ceiling: accepted, not answered
)

// Receiver errors, as SMTP replies.
var (
	errNoMailbox = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1},
		Message: "No such mailbox here; this server only takes subscription requests"}
	errUnreadable = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0},
		Message: "The message could not be read as mail"}
	errNoText = &smtp.SMTPError{Code: 554, EnhancedCode: smtp.EnhancedCode{5, 6, 0},
		Message: "The message has no text/plain or text/html body to read"}
	errBusy = &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0},
		Message: "Temporary failure; please try again later"}
)

// SMTPServer returns the go-smtp server for the subscribe address; the
// caller serves it on a listener (Run does).
func (m *Receiver) SMTPServer() *smtp.Server {
	s := smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		ip := ""
		if c != nil && c.Conn() != nil {
			ip, _, _ = net.SplitHostPort(c.Conn().RemoteAddr().String())
		}
		return &session{m: m, client: ip}, nil
	}))
	s.Domain = m.cfg.Hostname
	s.MaxMessageBytes = m.cfg.MaxMessageBytes
	s.MaxRecipients = 10
	s.ReadTimeout = SMTPIdleTimeout // each command or line (connlimit.go); a whole session ends at SMTPSessionTimeout
	s.WriteTimeout = SMTPIdleTimeout
	s.ErrorLog = slogAdapter{m}
	return s
}

type slogAdapter struct{ m *Receiver }

func (a slogAdapter) Printf(format string, v ...interface{}) {
	a.m.log().Warn("mailer: smtp", "msg", fmt.Sprintf(format, v...))
}
func (a slogAdapter) Println(v ...interface{}) {
	a.m.log().Warn("mailer: smtp", "msg", fmt.Sprint(v...))
}

type session struct {
	m      *Receiver
	client string
	from   string
	rcpt   bool
}

func (s *session) Reset()        { s.from, s.rcpt = "", false }
func (s *session) Logout() error { return nil }

func (s *session) Mail(from string, opts *smtp.MailOptions) error {
	s.from = from
	return nil
}

func (s *session) Rcpt(to string, opts *smtp.RcptOptions) error {
	if !strings.EqualFold(strings.TrimSpace(to), s.m.cfg.SubscribeAddress) {
		return errNoMailbox
	}
	s.rcpt = true
	return nil
}

func (s *session) Data(r io.Reader) error {
	raw, err := io.ReadAll(r) // the server caps it at MaxMessageBytes (552)
	if err != nil {
		return err
	}
	_, err = s.m.HandleMail(context.Background(), Incoming{EnvelopeFrom: s.from, Client: s.client, Raw: raw})
	return err
}

// HandleMail reads one message sent to the subscribe address and answers
// it with a confirmation email, unless it is a bounce, an auto-reply,
// list traffic or a loop (ignored), or over a daily ceiling (limited).
// Mail that cannot be read is refused with an SMTP error; nothing is
// stored for any incoming mail. It never panics.
func (m *Receiver) HandleMail(ctx context.Context, in Incoming) (d Disposition, err error) {
	defer func() {
		if v := recover(); v != nil {
			m.log().Error("mailer: malformed mail", "panic", v)
			d, err = "", errUnreadable
		}
	}()
	if int64(len(in.Raw)) > m.cfg.MaxMessageBytes {
		return "", smtp.ErrDataTooLarge
	}
	mr, err := mail.CreateReader(bytes.NewReader(in.Raw))
	if err != nil && !message.IsUnknownCharset(err) {
		return "", errUnreadable
	}
	if mr == nil {
		return "", errUnreadable
	}
	h := mr.Header
	if why := m.ownDomain(in.EnvelopeFrom, h); why != "" {
		m.log().Info("mailer: subscribe mail ignored", "why", why)
		return Ignored, nil
	}
	if why := automated(in.EnvelopeFrom, h); why != "" {
		m.log().Info("mailer: subscribe mail ignored", "why", why)
		return Ignored, nil
	}
	sender := senderAddress(in.EnvelopeFrom, h)
	if sender == "" {
		m.log().Info("mailer: subscribe mail ignored", "why", "no usable sender address")
		return Ignored, nil
	}
	if strings.EqualFold(sender, m.cfg.SubscribeAddress) || strings.EqualFold(sender, m.cfg.From) {
		return Ignored, nil // our own mail coming back
	}
	text, err := bodyText(mr)
	if err != nil {
		return "", errUnreadable
	}
	if text == "" {
		subj, _ := h.Subject()
		text = subjectRequest(subj)
	}
	if text == "" {
		return "", errNoText
	}
	if err := m.svc.Allow(ctx, in.Client); err != nil {
		if record.ErrorCode(err) == record.ELIMIT {
			m.log().Info("mailer: subscribe mail over a daily ceiling", "err", err)
			return Limited, nil
		}
		return "", errBusy
	}
	msgID, _ := h.MessageID()
	if subj, _ := h.Subject(); unsubscribeRequest(text) || unsubscribeRequest(subjectRequest(subj)) {
		// a reply cannot be authenticated (From is forgeable): it is
		// answered with how to unsubscribe, never a new watch
		if !m.svc.MayMail(ctx, sender) {
			return Limited, nil
		}
		if err := m.sendUnsubscribeHelp(ctx, sender, msgID); err != nil {
			m.log().Error("mailer: unsubscribe help not sent", "err", err)
			return "", errBusy
		}
		return Answered, nil
	}
	u, perr := m.svc.Understand(text)
	if perr == nil && u.Follow != nil {
		// a follow starts only on an object held now: the confirmation
		// names it, and a request for one not held is answered so
		f, scope, err := m.svc.PreviewFollow(ctx, *u.Follow)
		if err != nil {
			perr = err
		} else {
			u.Follow, u.Scope = &f, scope
		}
	}
	if perr != nil {
		// a refusal is unasked mail too: it spends the address's budget
		if !m.svc.MayMail(ctx, sender) {
			return Limited, nil
		}
		if err := m.sendRefusal(ctx, sender, record.ErrorMessage(perr), msgID); err != nil {
			m.log().Error("mailer: refusal not sent", "err", err)
			return "", errBusy
		}
		return Answered, nil
	}
	// the confirmation is stored before the 250: the outbox worker sends
	// it within the address's budget, after a crash too
	if err := m.svc.QueueConfirmation(ctx, sender, u, text, msgID, false); err != nil {
		if errors.Is(err, watch.ErrAddressFull) {
			return Limited, nil
		}
		m.log().Error("mailer: confirmation not queued", "err", err)
		return "", errBusy
	}
	return Answered, nil
}

// ownDomain tells why a message comes from the service itself ("" when it
// does not): the envelope sender or a From address is at the domain of the
// subscribe address, of the From address of outbound mail or of the mail
// host name, or under it. Answering it could start a loop between the
// service's own mailboxes, so it is never answered.
func (m *Receiver) ownDomain(envelopeFrom string, h mail.Header) string {
	var own []string
	for _, a := range []string{m.cfg.SubscribeAddress, m.cfg.From} {
		if _, d, ok := strings.Cut(strings.Trim(strings.TrimSpace(a), "<>"), "@"); ok && d != "" {
			own = append(own, strings.ToLower(strings.TrimRight(d, ">")))
		}
	}
	if hn := strings.ToLower(strings.TrimSpace(m.cfg.Hostname)); strings.Contains(hn, ".") {
		own = append(own, hn)
	}
	addrs := []string{strings.Trim(strings.TrimSpace(envelopeFrom), "<>")}
	if l, err := h.AddressList("From"); err == nil {
		for _, a := range l {
			addrs = append(addrs, a.Address)
		}
	}
	for _, a := range addrs {
		_, d, ok := strings.Cut(strings.ToLower(a), "@")
		if !ok {
			continue
		}
		for _, o := range own {
			if d == o || strings.HasSuffix(d, "."+o) {
				return "sent from the service's own domain " + o
			}
		}
	}
	return ""
}

// automated tells why a message must not be answered ("" when it may):
// a bounce, RFC 3834 Auto-Submitted, Precedence (and X-Precedence) bulk,
// list or junk, mailing-list headers, the auto-reply headers of common
// mail programs (X-Autoreply, X-Autorespond, X-Auto-Reply, Microsoft's
// X-Auto-Response-Suppress and inbox-rule loop header), X-Loop, an
// automated sender mailbox, or a delivery or feedback report.
func automated(envelopeFrom string, h mail.Header) string {
	if strings.TrimSpace(envelopeFrom) == "" || envelopeFrom == "<>" {
		return "null sender (a bounce)"
	}
	if v := strings.ToLower(strings.TrimSpace(h.Get("Auto-Submitted"))); v != "" && v != "no" {
		return "Auto-Submitted: " + v
	}
	for _, k := range []string{"Precedence", "X-Precedence"} {
		switch strings.ToLower(strings.TrimSpace(h.Get(k))) {
		case "bulk", "list", "junk", "auto_reply", "auto-reply":
			return k + ": " + h.Get(k)
		}
	}
	for _, k := range []string{"List-Id", "List-Unsubscribe", "List-Post", "X-Autoreply", "X-Autorespond", "X-Auto-Reply",
		"X-Auto-Response-Suppress", "X-Loop", "X-MS-Exchange-Inbox-Rules-Loop"} {
		if h.Has(k) {
			return k + " header"
		}
	}
	if strings.EqualFold(strings.TrimSpace(h.Get("Return-Path")), "<>") {
		return "null Return-Path (a bounce)"
	}
	local, _, _ := strings.Cut(strings.ToLower(strings.Trim(envelopeFrom, "<> ")), "@")
	switch {
	case local == "mailer-daemon", local == "postmaster", strings.HasPrefix(local, "noreply"),
		strings.HasPrefix(local, "no-reply"), strings.HasPrefix(local, "do-not-reply"), strings.HasPrefix(local, "donotreply"),
		strings.HasPrefix(local, "bounce"), strings.HasSuffix(local, "-request"), strings.HasPrefix(local, "owner-"):
		return "automated sender " + local
	}
	if t, _, _ := h.ContentType(); t == "multipart/report" {
		return "delivery report"
	}
	return ""
}

// senderAddress is where the answer goes: the From address, else the
// envelope sender.
func senderAddress(envelopeFrom string, h mail.Header) string {
	if l, err := h.AddressList("From"); err == nil && len(l) == 1 {
		if a, err := watch.NormalizeEmail(l[0].Address); err == nil {
			return a
		}
	}
	if a, err := watch.NormalizeEmail(strings.Trim(envelopeFrom, "<> ")); err == nil {
		return a
	}
	return ""
}

const maxBodyRead = 64 << 10

// bodyText returns the request text: the first text/plain part, else the
// first text/html part as plain text, with quoted replies and signatures
// cut.
func bodyText(mr *mail.Reader) (string, error) {
	var plain, html string
	for parts := 0; parts < 50; parts++ {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
			if plain != "" || html != "" {
				break
			}
			return "", err
		}
		if p == nil {
			break
		}
		ih, ok := p.Header.(*mail.InlineHeader)
		if !ok {
			continue
		}
		t, _, _ := ih.ContentType()
		if t == "" {
			t = "text/plain"
		}
		if t != "text/plain" && t != "text/html" {
			continue
		}
		b, err := io.ReadAll(io.LimitReader(p.Body, maxBodyRead))
		if err != nil && len(b) == 0 {
			continue
		}
		s := strings.ToValidUTF8(string(b), "")
		if t == "text/plain" && plain == "" && strings.TrimSpace(s) != "" {
			plain = s
		}
		if t == "text/html" && html == "" && strings.TrimSpace(s) != "" {
			html = record.PlainText(s)
		}
	}
	text := plain
	if text == "" {
		text = html
	}
	return requestLines(text), nil
}

var wroteRE = regexp.MustCompile(`(?i)^(on .{1,200} wrote:|-{2,} ?original message ?-{2,}|from: .+)$`)

// requestLines keeps what the sender wrote: up to a signature ("-- "), a
// quoted reply or a forwarded header; quoted lines ("> ") are dropped.
func requestLines(s string) string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 0, 4096), maxBodyRead)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), " \t\r")
		if line == "--" || line == "-- " || wroteRE.MatchString(strings.TrimSpace(line)) {
			break
		}
		if strings.HasPrefix(strings.TrimSpace(line), ">") {
			continue
		}
		out = append(out, line)
	}
	return strings.TrimSpace(strings.Join(out, "\n"))
}

var subjectPrefixRE = regexp.MustCompile(`(?i)^\s*((re|fwd?|aw|sv|tr)\s*:\s*)+`)

// subjectRequest reads a request from the subject when the body is empty;
// a bare "subscribe" says nothing to watch.
func subjectRequest(s string) string {
	// an encoded word can decode to bytes that are not UTF-8 (the body's
	// text is cleaned the same way)
	s = strings.ToValidUTF8(s, "")
	s = strings.TrimSpace(subjectPrefixRE.ReplaceAllString(s, ""))
	if strings.EqualFold(s, "subscribe") || strings.EqualFold(s, "watch") {
		return ""
	}
	return s
}

var unsubscribeWords = regexp.MustCompile(`^(please )?(unsubscribe( me)?|stop|remove( me)?|cancel|opt ?out|end)( from (this|the|your|all)( mailing)? (list|mails?|emails?))?( please)?$`)

// unsubscribeRequest tells whether a request is only a word of leaving
// ("unsubscribe", "stop", "remove me", …), whatever its case and
// punctuation.
func unsubscribeRequest(s string) bool {
	s = strings.ToLower(strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r)
	}), " "))
	return s != "" && unsubscribeWords.MatchString(s)
}

// IsSMTPError reports whether err is an SMTP reply with the given code.
func IsSMTPError(err error, code int) bool {
	var se *smtp.SMTPError
	return errors.As(err, &se) && se.Code == code
}
