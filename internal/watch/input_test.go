package watch

import (
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// linkish are pieces of a link or of markup that must never reach a mail
// through a scope or a note.
var linkish = []string{"http", "://", "evil.example", "<", ">", "href=", "@"}

func carriesLink(s string) string {
	l := strings.ToLower(s)
	for _, bad := range linkish {
		if bad == "http" {
			// the word may be a keyword; the scheme may not
			if strings.Contains(l, "http:") || strings.Contains(l, "https:") {
				return "http:"
			}
			continue
		}
		if strings.Contains(l, bad) {
			return bad
		}
	}
	return ""
}

// TestUnderstandingCarriesNoLinks: whatever a request holds, the scope and
// the notes the confirmation mail quotes carry no link and no markup.
func TestUnderstandingCarriesNoLinks(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	requests := []string{
		`Parks awards, see http://evil.example/login to confirm`,
		`rezonings "http://evil.example/login" <a href="http://evil.example/login">click here</a>`,
		`contracts awarded to "Evil Inc http://evil.example/login"`,
		`vendor "<a href=http://evil.example/login>ACME</a> Corp" awards`,
		`DOT bids not "visit evil.example/login now" -"mailto:x@evil.example"`,
		`awards over $1m from "https://evil.example/reset?u=you@example.org"`,
	}
	for _, req := range requests {
		u, err := Parse(req, ParseOptions{Crosswalk: cw, Form: 2})
		if err != nil {
			t.Errorf("%q: %v", req, err)
			continue
		}
		if bad := carriesLink(u.Scope); bad != "" {
			t.Errorf("%q: the scope carries %q: %s", req, bad, u.Scope)
		}
		for _, n := range u.Notes {
			if bad := carriesLink(n); bad != "" {
				t.Errorf("%q: a note carries %q: %s", req, bad, n)
			}
		}
	}
	// Form 1: a structured filter whose values are links
	// (an agency nothing recognizes is refused, a link included)
	if _, err := Build(Structured{Lens: record.LensMoney, Agencies: []string{"http://evil.example/login"}}, cw, 1); record.ErrorCode(err) != record.EINVALID {
		t.Errorf("a link as an agency: %v, want EINVALID", err)
	}
	u, err := Build(Structured{Lens: record.LensMoney, Q: `"http://evil.example/login" -www.evil.example`,
		Agencies: []string{"Parks"}, Vendors: []string{"<a href='http://evil.example/login'>Evil</a> Corp"}}, cw, 1)
	if err != nil {
		t.Fatal(err)
	}
	if bad := carriesLink(u.Scope); bad != "" {
		t.Errorf("structured scope carries %q: %s", bad, u.Scope)
	}
	// plain values keep what names are made of
	for in, want := range map[string]string{"AT&T Corp.": "AT&T Corp", "O'Brien-Smith + Sons": "O'Brien-Smith + Sons",
		"http://evil.example/login": "http evil example login", "a\x00b\r\nc": "a b c", strings.Repeat("x", 300): strings.Repeat("x", 100)} {
		if got := PlainValue(in); got != want {
			t.Errorf("PlainValue(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestControlCharactersRefused: a structured field with a control
// character is refused, naming the field.
func TestControlCharactersRefused(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	cases := map[string]Structured{
		"lens":    {Lens: "money\x00"},
		"q":       {Lens: "money", Q: "parks\r\nBcc: x@example.org"},
		"agency":  {Lens: "money", Agencies: []string{"Parks", "DOT\x00"}},
		"vendor":  {Lens: "money", Vendors: []string{"Acme\nCorp"}},
		"borough": {Lens: "money", Boroughs: []string{"Queens\x1b"}},
	}
	for field, in := range cases {
		_, err := Build(in, cw, 1)
		var re *record.Error
		if !asRecord(err, &re) || re.Code != record.EINVALID || re.Param != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	if err := CheckText("text", "line one\r\nline two\twith a tab", true); err != nil {
		t.Errorf("multi-line text refused: %v", err)
	}
	for _, s := range []string{"a\x00b", "a\x7fb", "a\u0085b"} {
		if err := CheckText("text", s, true); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if err := CheckText("email", "a@example.org\r\nBcc: b@example.org", false); err == nil {
		t.Error("CR/LF accepted in a one-line value")
	}
}

func asRecord(err error, re **record.Error) bool {
	e, ok := err.(*record.Error)
	*re = e
	return ok
}
