package mcp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/watch"
)

// storedFor counts the stored watches whose address shares key's ceiling.
func storedFor(t *testing.T, key string) int {
	t.Helper()
	ws, err := fx.st.ListWatches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, w := range ws {
		if watch.AddressKey(w.Email) == key {
			n++
		}
	}
	return n
}

// TestCreateWatchNeverAcknowledgesAnUnstoredWatch: every success has its
// stored watch, past the address's one unasked mail of the day (+tags
// folded) too, where create_watch answers exactly as before it (the
// welcome waits for the next day's mail): the answer says nothing about
// the address.
func TestCreateWatchNeverAcknowledgesAnUnstoredWatch(t *testing.T) {
	s := connect(t, 1)
	key := "ceiling@example.org"
	var first string
	for i, addr := range []string{"ceiling+1@example.org", "Ceiling+2@example.org", "ceiling@example.org", "ceiling+4@example.org", "ceiling+5@example.org"} {
		before := storedFor(t, key)
		res := call(t, s, "create_watch", map[string]any{"email": addr, "lens": "money", "q": "construction"})
		after := storedFor(t, key)
		out := structured[struct{ Status, Message string }](t, res)
		if i == 0 {
			first = out.Message
		}
		if out.Status != "active" || out.Message != first || after != before+1 {
			t.Errorf("create %d: %+v, stored %d → %d", i, out, before, after)
		}
	}
}

// TestCreateWatchRefusesControlCharacters: each argument that can reach a
// mail is refused with a control character, naming it.
func TestCreateWatchRefusesControlCharacters(t *testing.T) {
	s1, s2 := connect(t, 1), connect(t, 2)
	cases := []struct {
		form  int
		args  map[string]any
		field string
	}{
		{1, map[string]any{"email": "ctl@example.org\r\nBcc: x@example.org", "lens": "money"}, "email"},
		{1, map[string]any{"email": "ctl@example.org", "lens": "money", "q": "parks\x00"}, "q"},
		{1, map[string]any{"email": "ctl@example.org", "lens": "money", "agency": []string{"Parks\x00"}}, "agency"},
		{1, map[string]any{"email": "ctl@example.org", "lens": "money", "vendor": []string{"Acme\nCorp"}}, "vendor"},
		{1, map[string]any{"email": "ctl@example.org", "lens": "money", "description": "mine\x00"}, "description"},
		{2, map[string]any{"email": "ctl@example.org", "request": "Parks awards\x00"}, "request"},
		{2, map[string]any{"email": "ctl@example.org\x00", "request": "Parks awards"}, "email"},
	}
	for i, c := range cases {
		s := s1
		if c.form == 2 {
			s = s2
		}
		res := call(t, s, "create_watch", c.args)
		if !res.IsError || !strings.Contains(text(res), c.field) || !strings.Contains(text(res), "control characters") {
			t.Errorf("case %d: error %v %q", i, res.IsError, text(res))
		}
	}
	if storedFor(t, "ctl@example.org") != 0 {
		t.Error("a refused request stored a watch")
	}
	for _, form := range []int{1, 2} {
		for _, m := range outboxFiles(t, form) {
			if strings.Contains(m, "ctl@example.org") {
				t.Errorf("a refused request sent mail:\n%s", m)
			}
		}
	}
}

// TestCreateWatchConfirmationCarriesNoForeignLinks: a plain-English
// request full of links and markup gets a confirmation that quotes none.
func TestCreateWatchConfirmationCarriesNoForeignLinks(t *testing.T) {
	s := connect(t, 2)
	req := `Parks awards. Your account is locked: sign in at http://evil.example/login or <a href="http://evil.example/login">here</a>`
	res := call(t, s, "create_watch", map[string]any{"email": "phish-target@example.org", "request": req})
	if res.IsError {
		t.Fatalf("create: %s", text(res))
	}
	found := false
	for _, m := range outboxFiles(t, 2) {
		if !strings.Contains(m, "phish-target@example.org") {
			continue
		}
		found = true
		for _, bad := range []string{"evil.example", "http://evil", "<a", "href=", "account is locked"} {
			if strings.Contains(m, bad) {
				t.Errorf("the confirmation carries %q:\n%s", bad, m)
			}
		}
	}
	if !found {
		t.Fatal("no confirmation in the outbox")
	}
}
