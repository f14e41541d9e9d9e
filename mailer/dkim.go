package mailer

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/emersion/go-msgauth/dkim"
)

// DKIMConfig signs outgoing mail (RFC 6376) with emersion/go-msgauth when
// a key is configured (RECORDWATCH_DKIM_KEY_FILE). The signature covers
// the headers a receiver shows or acts on, List-Unsubscribe and
// List-Unsubscribe-Post among them (RFC 8058 asks for both to be signed
// so a one-click unsubscribe cannot be pointed elsewhere).
type DKIMConfig struct {
	Domain   string // the signing domain (d=)
	Selector string // the selector (s=): the key is published at <selector>._domainkey.<domain>
	Key      crypto.Signer
}

// DKIMHeaders are the header fields every signature covers.
var DKIMHeaders = []string{"From", "To", "Subject", "Date", "Message-ID", "In-Reply-To", "MIME-Version", "Content-Type",
	"Content-Transfer-Encoding", "List-Unsubscribe", "List-Unsubscribe-Post", "Auto-Submitted", "Precedence"}

// sign returns raw with a DKIM-Signature header prepended.
func (c *DKIMConfig) sign(raw []byte) ([]byte, error) {
	var out bytes.Buffer
	err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{Domain: c.Domain, Selector: c.Selector, Signer: c.Key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		HeaderKeys: DKIMHeaders})
	if err != nil {
		return nil, fmt.Errorf("mailer: DKIM signing: %w", err)
	}
	return out.Bytes(), nil
}

// ParseDKIMKey reads a PEM private key: RSA (PKCS #1 or #8) or Ed25519
// (PKCS #8).
func ParseDKIMKey(pemBytes []byte) (crypto.Signer, error) {
	b, _ := pem.Decode(pemBytes)
	if b == nil {
		return nil, errors.New("no PEM block")
	}
	if k, err := x509.ParsePKCS1PrivateKey(b.Bytes); err == nil {
		return k, nil
	}
	k, err := x509.ParsePKCS8PrivateKey(b.Bytes)
	if err != nil {
		return nil, err
	}
	switch k := k.(type) {
	case *rsa.PrivateKey:
		return k, nil
	case ed25519.PrivateKey:
		return k, nil
	}
	return nil, fmt.Errorf("a %T key cannot sign DKIM (RSA or Ed25519)", k)
}

// dkimFromEnv reads RECORDWATCH_DKIM_KEY_FILE (a PEM private key),
// RECORDWATCH_DKIM_SELECTOR (required with a key) and
// RECORDWATCH_DKIM_DOMAIN (default: the domain of the From address).
func dkimFromEnv(get func(name, def string) string, from string) (*DKIMConfig, error) {
	path := get("RECORDWATCH_DKIM_KEY_FILE", "")
	if path == "" {
		return nil, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("RECORDWATCH_DKIM_KEY_FILE: %w", err)
	}
	key, err := ParseDKIMKey(raw)
	if err != nil {
		return nil, fmt.Errorf("RECORDWATCH_DKIM_KEY_FILE: %w", err)
	}
	sel := get("RECORDWATCH_DKIM_SELECTOR", "")
	if sel == "" {
		return nil, errors.New("RECORDWATCH_DKIM_SELECTOR must name the selector the DKIM key is published under")
	}
	_, domain, _ := strings.Cut(from, "@")
	domain = get("RECORDWATCH_DKIM_DOMAIN", domain)
	if domain == "" || !strings.Contains(domain, ".") {
		return nil, errors.New("RECORDWATCH_DKIM_DOMAIN must name the signing domain")
	}
	return &DKIMConfig{Domain: domain, Selector: sel, Key: key}, nil
}
