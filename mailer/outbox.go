package mailer

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Transport hands a finished message to the world.
type Transport interface {
	// Send delivers msg (a complete RFC 5322 message) from the envelope
	// sender to the recipients. messageID names the message (without <>).
	Send(ctx context.Context, from string, to []string, msg []byte, messageID string) error
	// Idempotent reports whether sending the same message id twice
	// delivers it once (then a send cut short by a restart may be retried).
	Idempotent() bool
}

// Outbox writes each message as <message-id>.eml in a directory and logs
// it: the default on an embedded install, so a fresh machine can walk the
// whole flow without a mail server. The same message id writes the same
// file, so sending twice delivers once.
type Outbox struct {
	Dir    string
	Logger *slog.Logger
}

var unsafeFileRE = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// File is the outbox path of a message id.
func (o *Outbox) File(messageID string) string {
	return filepath.Join(o.Dir, unsafeFileRE.ReplaceAllString(messageID, "_")+".eml")
}

// Send writes the message atomically (a temporary file, then rename).
func (o *Outbox) Send(ctx context.Context, from string, to []string, msg []byte, messageID string) error {
	if err := os.MkdirAll(o.Dir, 0o700); err != nil {
		return err
	}
	path := o.File(messageID)
	tmp, err := os.CreateTemp(o.Dir, ".sending-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(msg); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if o.Logger != nil {
		o.Logger.Info("mailer: message written to the outbox", "file", path, "bytes", len(msg))
	}
	return nil
}

// Idempotent: the same message id is the same file.
func (o *Outbox) Idempotent() bool { return true }

// RelayConfig is an SMTP relay for outbound mail.
type RelayConfig struct {
	Addr     string // host:port
	Username string
	Password string
	// Security: "starttls" (default when a username is set), "tls"
	// (implicit TLS, port 465) or "none" (a plaintext local relay).
	Security string
	Timeout  time.Duration
}

// Relay sends through an SMTP relay with the go-smtp client.
type Relay struct {
	Config   RelayConfig
	Hostname string
	Logger   *slog.Logger
	// TLSConfig is used for STARTTLS and implicit TLS (nil: defaults).
	TLSConfig *tls.Config
}

// Idempotent: a relay cannot take a message back, so a send cut short is
// not retried.
func (r *Relay) Idempotent() bool { return false }

// Send delivers the message through the relay.
func (r *Relay) Send(ctx context.Context, from string, to []string, msg []byte, messageID string) error {
	timeout := r.Config.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	security := r.Config.Security
	if security == "" {
		security = "none"
		if r.Config.Username != "" {
			security = "starttls"
		}
	}
	d := net.Dialer{Timeout: timeout}
	conn, err := d.DialContext(ctx, "tcp", r.Config.Addr)
	if err != nil {
		return fmt.Errorf("relay %s: %w", r.Config.Addr, err)
	}
	_ = conn.SetDeadline(time.Now().Add(timeout))
	host, _, _ := net.SplitHostPort(r.Config.Addr)
	tlsConfig := r.TLSConfig
	if tlsConfig == nil {
		tlsConfig = &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12}
	}
	var c *smtp.Client
	switch security {
	case "tls":
		c = smtp.NewClient(tls.Client(conn, tlsConfig))
	case "starttls":
		c, err = smtp.NewClientStartTLS(conn, tlsConfig)
		if err != nil {
			conn.Close()
			return fmt.Errorf("relay %s: STARTTLS: %w", r.Config.Addr, err)
		}
	case "none":
		c = smtp.NewClient(conn)
	default:
		conn.Close()
		return fmt.Errorf("relay security %q: use starttls, tls or none", security)
	}
	defer c.Close()
	c.CommandTimeout, c.SubmissionTimeout = timeout, timeout
	if r.Hostname != "" && security != "starttls" { // STARTTLS already greeted
		if err := c.Hello(r.Hostname); err != nil {
			return fmt.Errorf("relay %s: %w", r.Config.Addr, err)
		}
	}
	if r.Config.Username != "" {
		if err := c.Auth(sasl.NewPlainClient("", r.Config.Username, r.Config.Password)); err != nil {
			return fmt.Errorf("relay %s: auth: %w", r.Config.Addr, err)
		}
	}
	if err := c.SendMail(from, to, bytes.NewReader(msg)); err != nil {
		return fmt.Errorf("relay %s: %w", r.Config.Addr, err)
	}
	if r.Logger != nil {
		r.Logger.Info("mailer: message sent through the relay", "relay", r.Config.Addr, "message_id", messageID)
	}
	return c.Quit()
}
