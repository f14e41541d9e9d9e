package search

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/recordwatch/recordwatch/internal/record"
)

// formatKeywords writes parsed keywords back as a keyword string.
func formatKeywords(k Keywords) string {
	var parts []string
	parts = append(parts, k.Terms...)
	for _, p := range k.Phrases {
		parts = append(parts, `"`+p+`"`)
	}
	for _, e := range k.Excluded {
		if strings.Contains(e, " ") {
			parts = append(parts, `-"`+e+`"`)
		} else {
			parts = append(parts, "-"+e)
		}
	}
	return strings.Join(parts, " ")
}

func coded(t *testing.T, err error, code string) {
	t.Helper()
	var re *record.Error
	if !errors.As(err, &re) || re.Code != code || re.Message == "" {
		t.Fatalf("error %v (%T) is not a record.Error with code %s", err, err, code)
	}
}

// ParseKeywords never panics, refuses with a coded EINVALID, and what it
// reads, written back, reads the same.
func FuzzParseKeywords(f *testing.F) {
	for _, s := range []string{"parks", `"child care" -snow`, `construction -"snow removal" “bridge”`, `-"`, `"`, "a-b c/d", "İstanbul ǅ", "PIn", `rfp -"invitation for bids"`, strings.Repeat("x ", 300)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, err := ParseKeywords(s)
		if err != nil {
			coded(t, err, record.EINVALID)
			return
		}
		for _, l := range [][]string{k.Terms, k.Phrases, k.Excluded} {
			for _, w := range l {
				if w == "" || strings.TrimSpace(w) != w {
					t.Fatalf("clause %q from %q", w, s)
				}
			}
		}
		again := formatKeywords(k)
		if utf8.RuneCountInString(again) > MaxTextLen {
			return
		}
		k2, err := ParseKeywords(again)
		if err != nil {
			t.Fatalf("%q read as %+v, written back as %q, is refused: %v", s, k, again, err)
		}
		// the clauses read back the same; Synonyms says which clause added
		// which alternative, and written back every alternative is a
		// clause of its own (which adds the others: the same clauses)
		k.Synonyms, k2.Synonyms = nil, nil
		if !reflect.DeepEqual(k, k2) {
			t.Fatalf("%q: %+v, written back as %q, reads %+v", s, k, again, k2)
		}
	})
}

// DecodeCursor never panics, refuses with a coded EINVALID, and what it
// accepts encodes and decodes to the same values.
func FuzzDecodeCursor(f *testing.F) {
	f.Add(EncodeCursor("newest", []string{"2026-08-14", "20260814001"}))
	f.Add(EncodeCursor("relevance", []string{"1.25", "20140930007"}))
	f.Add(EncodeCursor("newest", []string{"a", "b", "c", "d", "e"}))
	f.Add("")
	f.Add("not-base64!")
	f.Add("e30") // {}
	f.Fuzz(func(t *testing.T, s string) {
		for _, sortName := range []string{"newest", "relevance"} {
			vals, err := DecodeCursor(sortName, s)
			if err != nil {
				coded(t, err, record.EINVALID)
				continue
			}
			if s == "" {
				continue
			}
			vals2, err := DecodeCursor(sortName, EncodeCursor(sortName, vals))
			if err != nil || !reflect.DeepEqual(vals, vals2) {
				t.Fatalf("%q: %q re-encoded decodes to %q, %v", s, vals, vals2, err)
			}
		}
	})
}
