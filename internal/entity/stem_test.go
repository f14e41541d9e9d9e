package entity

import (
	"strings"
	"testing"
)

func TestStemLongEnoughCountsCharacters(t *testing.T) {
	for _, tc := range []struct {
		name  string
		chars int
		ok    bool
	}{
		{"AB", 2, false},
		{"ABC", 3, true},
		{"ÉA", 2, false},       // 3 bytes, 2 characters
		{"ÉAB", 3, true},       // 4 bytes
		{"E\u0301A", 2, false}, // E + combining acute + A: 2 characters
		{"日本", 2, false},       // 6 bytes
		{"日本語", 3, true},
		{"A B", 3, true},
		{"", 0, false},
	} {
		if got := StemChars(tc.name); got != tc.chars {
			t.Errorf("StemChars(%q) = %d, want %d", tc.name, got, tc.chars)
		}
		if got := StemLongEnough(tc.name); got != tc.ok {
			t.Errorf("StemLongEnough(%q) = %v", tc.name, got)
		}
	}
}

// Stripping a legal suffix never leaves MinStemChars characters or fewer,
// counted as characters: "ÉÉ INC" keeps its suffix as "AB INC" does.
func TestVendorStemSuffixCountsCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"AB Inc.":      "AB INC",
		"ÉÉ Inc.":      "ÉÉ INC",
		"ÉÉÉ Inc.":     "ÉÉÉ", // 3 characters stand alone
		"ÉÉÉÉ Inc.":    "ÉÉÉÉ",
		"Acme Inc.":    "ACME",
		"Société LLC":  "SOCIÉTÉ",
		"Café Co":      "CAFÉ",
		"Acme, L.L.C.": "ACME",
		"Élan Corp":    "ÉLAN",
	} {
		if got := VendorStem(in); got != want {
			t.Errorf("VendorStem(%q) = %q, want %q", in, got, want)
		}
		if !StemLongEnough(VendorStem(in)) {
			t.Errorf("%q: stem too short", in)
		}
	}
}

// StemKeys' variants grow linearly with a name and stop at a fixed count:
// a name of 2,000 words gets no more keys than one of 14.
func TestStemKeysBounded(t *testing.T) {
	short := StemKeys(strings.TrimSpace(strings.Repeat("ACME ", 14)))
	long := StemKeys(strings.TrimSpace(strings.Repeat("ACME ", 2000)))
	if len(long) > len(short) || len(long) > 4*maxVariantGaps {
		t.Errorf("%d keys for 2,000 words, %d for 14", len(long), len(short))
	}
}

// Invisible characters never count toward a stem: three zero-width spaces
// are no 3-character stem, and a soft hyphen or a zero-width joiner inside
// a name leaves the stem of the name without it.
func TestStemIgnoresInvisibleCharacters(t *testing.T) {
	if s := VendorStem("\u200b\u200b\u200b"); StemLongEnough(s) {
		t.Errorf("three zero-width spaces stem to %q, long enough", s)
	}
	if a, b := VendorStem("Ac\u00adme\u200d Construction\ufeff Inc"), VendorStem("Acme Construction Inc"); a != b {
		t.Errorf("%q != %q", a, b)
	}
}
