package watch

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Token kinds. The kind is signed with the token, so a token of one kind is
// never accepted as another.
const (
	TokenConfirm = "confirm" // carries a pending Form 2 request
	TokenManage  = "manage"  // names one watch: manage page and unsubscribe
	// TokenRemoveAll names one address (by AddressKey): "this wasn't me —
	// remove everything", in every unasked mail.
	TokenRemoveAll = "remove"
)

// Token errors. Callers show one message for both: a forged token and an
// expired one are refused the same way, without saying which.
var (
	ErrBadToken     = errors.New("watch: token is not valid")
	ErrExpiredToken = errors.New("watch: token has expired")
)

// Signer makes and checks HMAC-SHA256 signed tokens:
// base64url(JSON envelope) "." base64url(MAC over kind and envelope).
type Signer struct {
	key []byte
}

// NewSigner returns a signer. The key must be at least 32 random bytes,
// generated once per deployment and kept out of the repository.
func NewSigner(key []byte) (*Signer, error) {
	if len(key) < 32 {
		return nil, errors.New("watch: token key must be at least 32 bytes")
	}
	return &Signer{key: append([]byte(nil), key...)}, nil
}

type envelope struct {
	Kind    string          `json:"k"`
	Nonce   string          `json:"n"`
	Expires int64           `json:"e,omitempty"` // unix seconds; 0: no expiry
	Payload json.RawMessage `json:"p"`
}

func (s *Signer) mac(kind, body string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(kind))
	m.Write([]byte{0})
	m.Write([]byte(body))
	return m.Sum(nil)
}

// Sign seals payload into a token of the given kind. ttl 0 means the token
// does not expire (manage links live as long as their watch). It returns
// the token and its nonce (a random id, for replay guards).
func (s *Signer) Sign(kind string, payload any, now time.Time, ttl time.Duration) (token, nonce string, err error) {
	p, err := json.Marshal(payload)
	if err != nil {
		return "", "", err
	}
	nb := make([]byte, 12)
	if _, err := rand.Read(nb); err != nil {
		return "", "", err
	}
	env := envelope{Kind: kind, Nonce: hex.EncodeToString(nb), Payload: p}
	if ttl > 0 {
		env.Expires = now.Add(ttl).Unix()
	}
	b, err := json.Marshal(env)
	if err != nil {
		return "", "", err
	}
	body := base64.RawURLEncoding.EncodeToString(b)
	sig := base64.RawURLEncoding.EncodeToString(s.mac(kind, body))
	return body + "." + sig, env.Nonce, nil
}

// Verify checks a token of the given kind and decodes its payload. It
// returns the nonce, ErrBadToken for anything forged, truncated or of
// another kind, and ErrExpiredToken for a genuine token past its expiry.
func (s *Signer) Verify(kind, token string, now time.Time, payload any) (string, error) {
	if len(token) == 0 || len(token) > record.MaxTokenLen {
		return "", ErrBadToken
	}
	body, sig, ok := strings.Cut(token, ".")
	if !ok || strings.Contains(sig, ".") {
		return "", ErrBadToken
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(kind, body)) {
		return "", ErrBadToken
	}
	raw, err := base64.RawURLEncoding.DecodeString(body)
	if err != nil {
		return "", ErrBadToken
	}
	var env envelope
	if err := json.Unmarshal(raw, &env); err != nil || env.Kind != kind || env.Nonce == "" {
		return "", ErrBadToken
	}
	if env.Expires != 0 && !now.Before(time.Unix(env.Expires, 0)) {
		return env.Nonce, ErrExpiredToken
	}
	if payload != nil {
		if err := json.Unmarshal(env.Payload, payload); err != nil {
			return "", ErrBadToken
		}
	}
	return env.Nonce, nil
}
