package mailer

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-msgauth/dkim"
)

// TestDKIMSignsWithListUnsubscribeCovered: with a key configured (RSA or
// Ed25519, read from the environment's PEM file), every outgoing mail
// carries a DKIM signature that verifies against the published key and
// covers List-Unsubscribe and List-Unsubscribe-Post; without one, mail is
// unsigned.
func TestDKIMSignsWithListUnsubscribeCovered(t *testing.T) {
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	_, edKey, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, record string
		der          []byte
		typ          string
	}{
		{"rsa", "v=DKIM1; k=rsa; p=" + base64.StdEncoding.EncodeToString(x509.MarshalPKCS1PublicKey(&rsaKey.PublicKey)),
			x509.MarshalPKCS1PrivateKey(rsaKey), "RSA PRIVATE KEY"},
		{"ed25519", "v=DKIM1; k=ed25519; p=" + base64.StdEncoding.EncodeToString(edKey.Public().(ed25519.PublicKey)),
			must(x509.MarshalPKCS8PrivateKey(edKey)), "PRIVATE KEY"},
	} {
		t.Run(c.name, func(t *testing.T) {
			keyFile := filepath.Join(t.TempDir(), "dkim.pem")
			if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: c.typ, Bytes: c.der}), 0o600); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"RECORDWATCH_DKIM_KEY_FILE": keyFile, "RECORDWATCH_DKIM_SELECTOR": "rw2026",
				"RECORDWATCH_SUBSCRIBE_ADDRESS": "subscribe@recordwatch.test"}
			cfg, err := ConfigFromEnv(func(k string) string { return env[k] }, t.TempDir(), "http://rw.test", 2)
			if err != nil || cfg.DKIM == nil || cfg.DKIM.Domain != "recordwatch.test" {
				t.Fatalf("config %+v %v", cfg.DKIM, err)
			}
			tr := &flaky{}
			tm := newTestMailer(t, func(x *Config) { x.DKIM = cfg.DKIM }, tr)
			activeWatch(t, tm, "Parks construction awards")
			forget(t, tm)
			tm.clock.Set(start.Add(20 * time.Hour))
			if rep, _ := tm.RunDigests(context.Background()); rep.Sent != 1 {
				t.Fatalf("digest %+v", rep)
			}
			if len(tr.sent) != 2 {
				t.Fatalf("%d mails sent, want the welcome and the digest", len(tr.sent))
			}
			for _, raw := range tr.sent {
				vs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), &dkim.VerifyOptions{LookupTXT: func(domain string) ([]string, error) {
					if domain != "rw2026._domainkey.recordwatch.test" {
						t.Errorf("key looked up at %q", domain)
					}
					return []string{c.record}, nil
				}})
				if err != nil || len(vs) != 1 || vs[0].Err != nil || vs[0].Domain != "recordwatch.test" {
					t.Fatalf("verification %+v %v\n%s", vs, err, raw)
				}
				if !bytes.Contains(raw, []byte("List-Unsubscribe-Post: List-Unsubscribe=One-Click")) {
					continue // the welcome mail is not bulk: nothing to cover
				}
				signed := strings.ToLower(strings.Join(vs[0].HeaderKeys, ":"))
				if !strings.Contains(signed, "list-unsubscribe:") || !strings.Contains(signed, "list-unsubscribe-post") {
					t.Errorf("signature covers %s", signed)
				}
				// a changed unsubscribe link breaks the signature
				bad := bytes.Replace(raw, []byte("List-Unsubscribe: <http://rw.test/u/"), []byte("List-Unsubscribe: <http://evil.test/u/"), 1)
				if vs, _ := dkim.VerifyWithOptions(bytes.NewReader(bad), &dkim.VerifyOptions{LookupTXT: func(string) ([]string, error) {
					return []string{c.record}, nil
				}}); len(vs) != 1 || vs[0].Err == nil {
					t.Error("a rewritten List-Unsubscribe still verifies")
				}
			}
		})
	}
	// no key: no signature
	tr := &flaky{}
	tm := newTestMailer(t, nil, tr)
	activeWatch(t, tm, "Parks construction awards")
	if len(tr.sent) != 1 || bytes.Contains(tr.sent[0], []byte("DKIM-Signature")) {
		t.Errorf("unsigned deployment: %d mails, signed %v", len(tr.sent), len(tr.sent) > 0 && bytes.Contains(tr.sent[0], []byte("DKIM-Signature")))
	}
	if _, err := ConfigFromEnv(func(k string) string {
		return map[string]string{"RECORDWATCH_DKIM_KEY_FILE": "/nonexistent.pem", "RECORDWATCH_DKIM_SELECTOR": "s"}[k]
	}, t.TempDir(), "http://rw.test", 2); err == nil {
		t.Error("a missing key file was accepted")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
