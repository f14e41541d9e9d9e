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
	// standardLikeRE: a PIN that starts as a standard one does (agency,
	// year, method), whose first 10 characters a renewal never cuts into
	standardLikeRE = regexp.MustCompile(`^[0-9]{5}[A-Z0-9]`)
	renewalRE      = regexp.MustCompile(`R0[0-9]+$`)
	junkPINRE      = regexp.MustCompile(`^(N/?A|NONE|TBD|TBA|NULL|PENDING|UNKNOWN|NOT APPLICABLE|NOT AVAILABLE|SEE BELOW|VARIOUS|X+|0+|-+|\.+|\?+)$`)
	// pinSeparators split a PIN field into words for the placeholder test.
	pinSeparators = regexp.MustCompile(`[^A-Z0-9]+`)
)

// placeholderWords are the words a PIN field holds when it holds no PIN:
// "N/A", "T.B.D.", "Various PINs", "see attached list", "PIN# TBD",
// "multiple - see below", "to be determined".
var placeholderWords = map[string]bool{
	"N": true, "A": true, "NA": true, "NONE": true, "NIL": true, "NULL": true, "T": true, "B": true, "D": true,
	"TBD": true, "TBA": true, "TO": true, "BE": true, "DETERMINED": true, "ANNOUNCED": true, "ASSIGNED": true,
	"PENDING": true, "UNKNOWN": true, "NOT": true, "APPLICABLE": true, "AVAILABLE": true, "YET": true,
	"SEE": true, "BELOW": true, "ABOVE": true, "ATTACHED": true, "ATTACHMENT": true, "ATTACHMENTS": true,
	"LIST": true, "ENCLOSED": true, "VARIOUS": true, "MULTIPLE": true, "SEVERAL": true, "MANY": true,
	"PIN": true, "PINS": true, "S": true, "NO": true, "NUMBER": true, "NUMBERS": true, "NOS": true,
	"X": true, "XX": true, "XXX": true,
}

// NormalizePIN is the form PINs are compared in: trimmed, upper-cased, with
// inner whitespace removed ("85715 B0065" → "85715B0065").
func NormalizePIN(pin string) string {
	return strings.ToUpper(strings.Join(strings.Fields(pin), ""))
}

// JunkPIN reports whether a PIN value is a placeholder that must never form
// a procurement matter: blank, a value with fewer than 4 letters and
// digits, a value made only of placeholder words whatever the punctuation
// ("N/A", "T.B.D.", "none", "Various PINs", "see below", "SEE ATTACHED",
// "multiple", "PIN# TBD", "to be determined"), a sentence rather than a
// PIN in any letter case ("Please refer to the attachment", "pin not
// found", "Pending"; sentencePIN), or one digit repeated or counted out
// ("0", "000-00-0000", "9999999999", "1234567890").
func JunkPIN(pin string) bool {
	p := strings.ToUpper(strings.TrimSpace(pin))
	if p == "" || junkPINRE.MatchString(p) || junkPINRE.MatchString(strings.ReplaceAll(p, " ", "")) {
		return true
	}
	alnum := pinSeparators.ReplaceAllString(p, "")
	if len(alnum) < 4 {
		return true
	}
	if strings.Count(alnum, alnum[:1]) == len(alnum) || strings.Contains("01234567890", alnum) {
		return true
	}
	if sentencePIN(p) {
		return true
	}
	for _, w := range strings.Fields(pinSeparators.ReplaceAllString(p, " ")) {
		if !placeholderWords[w] {
			return false
		}
	}
	return true
}

var (
	// sentence markers: a reference elsewhere or a state, not a PIN
	pinMarkerRE = regexp.MustCompile(`\b(ATTACH\w*|ENCLOS\w*|BELOW|ABOVE|REFER\w*|LISTED|SCHEDULE [A-Z]\b|EXHIBIT|APPENDIX|NOT FOUND|NOT ASSIGNED|NOT YET|PENDING|TO FOLLOW|FORTHCOMING|UNAVAILABLE|IN PROCESS|IN PROGRESS)\b`)
	digits3RE   = regexp.MustCompile(`[0-9]{3,}`)
	digits4RE   = regexp.MustCompile(`[0-9]{4,}`)
	letterWord  = regexp.MustCompile(`\b[A-Z]{2,}\b`)
	// words of a sentence, never of an identifier ("TGI-OPS-GutterMainte",
	// "BBP Pier 1 LED Insta" are a park trust's own codes, kept as PINs)
	functionWordRE = regexp.MustCompile(`(?:^|[^A-Z])(TO|THE|OF|IN|FOR|SEE|PLEASE|REFER|NOT|IS|ON|AT|AND|WILL|BE|AS|PER)(?:[^A-Z]|$)`)
)

// sentencePIN reports a PIN field (upper-cased) that holds a sentence
// rather than a PIN: words, one of them a word of a sentence (to, the,
// see, not …), and no run of three digits ("Please refer to attachment",
// "PIN not found", "see line 2 below"), or a reference or a
// state marker with no run of four digits ("PIN pending", "listed in
// Schedule A", "see attached list of 125 PINs").
func sentencePIN(p string) bool {
	if !digits3RE.MatchString(p) && len(letterWord.FindAllString(p, 3)) >= 2 && functionWordRE.MatchString(p) {
		return true
	}
	return pinMarkerRE.MatchString(p) && !digits4RE.MatchString(p)
}

// StripRenewal removes renewal suffixes ("R0" and digits at the end, as
// often as they stack): "07219P0148001R002" → "07219P0148001", and as
// well from a short, non-standard PIN: "2926R001" → "2926". It stops
// before leaving nothing or a placeholder, and never cuts into the first
// 10 characters of a PIN that starts as a standard one does (in
// "85715R0065" the R is the method letter; "82714RR00007" and "100912R099",
// as printed in the City Record, are not renewals).
func StripRenewal(pin string) string {
	p := NormalizePIN(pin)
	std := standardLikeRE.MatchString(p)
	for {
		q := renewalRE.ReplaceAllString(p, "")
		if q == p || q == "" || JunkPIN(q) || std && len(q) < 10 {
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
