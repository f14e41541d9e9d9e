package entity

import (
	"regexp"
	"strings"
)

// PINs (procurement identification numbers) are free text in the City
// Record. The standard form starts with 3 digits of agency, 2 of fiscal
// year, one letter or digit of method and 4 of sequence ("06815N0003",
// "85715B0065", the all-digit DCAS form "8571500182"); awards and
// registrations add suffixes ("06814L0041001N001", "85015B0065001C021"),
// renewals add "R001" (stacking: "01718P0191001R001R001").

// Link methods between records that share a PIN.
const (
	PINExact   = "exact"   // the same PIN
	PINRenewal = "renewal" // the same PIN once renewal suffixes are removed
	PINPrefix  = "prefix"  // the same 10-character base PIN
)

var (
	standardPINRE = regexp.MustCompile(`^[0-9]{5}[A-Z0-9][0-9]{4}`)
	renewalRE     = regexp.MustCompile(`R0[0-9]+$`)
	junkPINRE     = regexp.MustCompile(`^(N/?A|NONE|TBD|TBA|NULL|PENDING|UNKNOWN|NOT APPLICABLE|NOT AVAILABLE|SEE BELOW|VARIOUS|X+|0+|-+|\.+|\?+)$`)
)

// NormalizePIN is the form PINs are compared in: trimmed, upper-cased, with
// inner whitespace removed ("85715 B0065" → "85715B0065").
func NormalizePIN(pin string) string {
	return strings.ToUpper(strings.Join(strings.Fields(pin), ""))
}

// JunkPIN reports whether a PIN value is a placeholder that must never form
// a procurement matter: blank, N/A, NONE, TBD, 0 and the like, or a value
// with fewer than 4 letters and digits.
func JunkPIN(pin string) bool {
	p := strings.ToUpper(strings.TrimSpace(pin))
	if p == "" || junkPINRE.MatchString(p) || junkPINRE.MatchString(strings.ReplaceAll(p, " ", "")) {
		return true
	}
	n := 0
	for _, r := range p {
		if r >= '0' && r <= '9' || r >= 'A' && r <= 'Z' {
			n++
		}
	}
	return n < 4
}

// StripRenewal removes renewal suffixes ("R0" and digits at the end, as
// often as they stack): "07219P0148001R002" → "07219P0148001".
func StripRenewal(pin string) string {
	p := NormalizePIN(pin)
	for {
		q := renewalRE.ReplaceAllString(p, "")
		if q == p || len(q) < 10 {
			return p
		}
		p = q
	}
}

// PINBase is the 10-character base of a standard PIN ("06814L0041001N001"
// → "06814L0041"), or "" when the PIN is not in the standard form.
func PINBase(pin string) string {
	p := NormalizePIN(pin)
	if JunkPIN(p) || !standardPINRE.MatchString(p) {
		return ""
	}
	return p[:10]
}

// PINLink says how two PINs are linked: exact, renewal (equal once renewal
// suffixes are removed) or prefix (the same 10-character base); ok is false
// when they are not linked or either is junk.
func PINLink(a, b string) (method string, ok bool) {
	if JunkPIN(a) || JunkPIN(b) {
		return "", false
	}
	na, nb := NormalizePIN(a), NormalizePIN(b)
	switch {
	case na == nb:
		return PINExact, true
	case StripRenewal(na) == StripRenewal(nb):
		return PINRenewal, true
	case PINBase(na) != "" && PINBase(na) == PINBase(nb):
		return PINPrefix, true
	}
	return "", false
}
