package mailer

import (
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ConfigFromEnv reads the mailer's RECORDWATCH_* variables (getenv is
// os.Getenv in main; tests pass a map). dataDir, baseURL and form come
// from main's own configuration.
//
//	RECORDWATCH_SMTP_ADDR             receiver listen address (default :2525; "off" for none)
//	RECORDWATCH_SUBSCRIBE_ADDRESS     the only accepted recipient (default subscribe@<base URL host>, or
//	                                  subscribe@localhost when the base URL names an IP address)
//	RECORDWATCH_MAIL_FROM             sender of outbound mail (default the subscribe address)
//	RECORDWATCH_SMTP_RELAY            host:port of an SMTP relay (default none: the outbox)
//	RECORDWATCH_SMTP_RELAY_USERNAME, RECORDWATCH_SMTP_RELAY_PASSWORD
//	RECORDWATCH_SMTP_RELAY_SECURITY   starttls, tls or none (default starttls with a username, else none)
//	RECORDWATCH_OUTBOX                outbox directory (default <data>/outbox)
//	RECORDWATCH_SMTP_MAX_BYTES        largest accepted message (default 262144)
//	RECORDWATCH_DIGEST_EVERY          digest period (default 24h: daily)
//	RECORDWATCH_DIGEST_HOUR           hour of the daily digest, New York time (default 7)
//	RECORDWATCH_DIGEST_POLL           how often the scheduler looks for digests to plan and send (default 1m)
//	RECORDWATCH_DIGESTS_PER_RUN       digest mails per scheduler run at most (default 500; the rest wait)
//	RECORDWATCH_DIGESTS_PER_DAY       digest mails per New York day at most (default 5000; the rest wait)
//	RECORDWATCH_DKIM_KEY_FILE         PEM private key (RSA or Ed25519): outgoing mail is DKIM-signed, List-Unsubscribe
//	                                  and List-Unsubscribe-Post covered (default none: unsigned)
//	RECORDWATCH_DKIM_SELECTOR         the key's selector (required with a key)
//	RECORDWATCH_DKIM_DOMAIN           the signing domain (default the From address's)
//	RECORDWATCH_WATCH_KEY             token key, hex, 32 bytes or more (default: generated
//	                                  once and kept in the state store)
func ConfigFromEnv(getenv func(string) string, dataDir, baseURL string, form int) (Config, error) {
	get := func(name, def string) string {
		if v := strings.TrimSpace(getenv(name)); v != "" {
			return v
		}
		return def
	}
	c := Config{BaseURL: strings.TrimRight(baseURL, "/"), Form: form}
	c.SMTPAddr = get("RECORDWATCH_SMTP_ADDR", DefaultSMTPAddr)
	if strings.EqualFold(c.SMTPAddr, "off") {
		c.SMTPAddr = ""
	}
	host := "localhost"
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" && net.ParseIP(u.Hostname()) == nil {
		host = u.Hostname()
	}
	c.SubscribeAddress = get("RECORDWATCH_SUBSCRIBE_ADDRESS", "subscribe@"+host)
	c.From = get("RECORDWATCH_MAIL_FROM", "")
	c.Relay = RelayConfig{Addr: get("RECORDWATCH_SMTP_RELAY", ""), Username: getenv("RECORDWATCH_SMTP_RELAY_USERNAME"),
		Password: getenv("RECORDWATCH_SMTP_RELAY_PASSWORD"), Security: get("RECORDWATCH_SMTP_RELAY_SECURITY", "")}
	switch c.Relay.Security {
	case "", "starttls", "tls", "none":
	default:
		return c, fmt.Errorf("RECORDWATCH_SMTP_RELAY_SECURITY must be starttls, tls or none, not %q", c.Relay.Security)
	}
	c.OutboxDir = get("RECORDWATCH_OUTBOX", filepath.Join(dataDir, "outbox"))
	if v := get("RECORDWATCH_SMTP_MAX_BYTES", ""); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 1024 {
			return c, fmt.Errorf("RECORDWATCH_SMTP_MAX_BYTES must be a byte count of 1024 or more, not %q", v)
		}
		c.MaxMessageBytes = n
	}
	every, err := time.ParseDuration(get("RECORDWATCH_DIGEST_EVERY", "24h"))
	if err != nil || every < time.Minute {
		return c, fmt.Errorf("RECORDWATCH_DIGEST_EVERY must be a duration of a minute or more, such as 24h")
	}
	c.DigestEvery = every
	hour, err := strconv.Atoi(get("RECORDWATCH_DIGEST_HOUR", strconv.Itoa(DefaultDigestHour)))
	if err != nil || hour < 0 || hour > 23 {
		return c, fmt.Errorf("RECORDWATCH_DIGEST_HOUR must be 0 to 23")
	}
	c.DigestHour = hour
	if v := get("RECORDWATCH_DIGEST_POLL", ""); v != "" {
		poll, err := time.ParseDuration(v)
		if err != nil || poll < 100*time.Millisecond {
			return c, fmt.Errorf("RECORDWATCH_DIGEST_POLL must be a duration of 100ms or more, such as 1m")
		}
		c.PollEvery = poll
	}
	for _, cap := range []struct {
		name string
		to   *int
	}{{"RECORDWATCH_DIGESTS_PER_RUN", &c.MaxDigestsPerRun}, {"RECORDWATCH_DIGESTS_PER_DAY", &c.MaxDigestsPerDay}} {
		if v := get(cap.name, ""); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return c, fmt.Errorf("%s must be a whole number of 1 or more", cap.name)
			}
			*cap.to = n
		}
	}
	if k := get("RECORDWATCH_WATCH_KEY", ""); k != "" {
		key, err := hex.DecodeString(k)
		if err != nil || len(key) < 32 {
			return c, fmt.Errorf("RECORDWATCH_WATCH_KEY must be at least 32 bytes in hex (64 hex digits)")
		}
		c.Key = key
	}
	from := c.From
	if from == "" {
		from = c.SubscribeAddress
	}
	if c.DKIM, err = dkimFromEnv(get, from); err != nil {
		return c, err
	}
	return c, nil
}
