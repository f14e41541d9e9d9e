package watch

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/recordwatch/recordwatch/internal/record"
)

// CheckText refuses a request value that carries control characters: NUL
// and the other C0/C1 controls never belong in a watch request, and CR or
// LF in a one-line value (an address, a keyword, a name) could end up in a
// mail header. multiline values (a plain-English request, a description)
// may hold tabs and line breaks. The error names the field.
func CheckText(field, s string, multiline bool) error {
	for _, r := range s {
		if unicode.IsControl(r) && !(multiline && (r == '\n' || r == '\r' || r == '\t')) {
			return record.InvalidNote(field, "watch.error.control", field, fmt.Sprintf("U+%04X", r))
		}
	}
	return nil
}

// maxPlainValue bounds one user-given value as a scope or a note states it.
const maxPlainValue = 100

// PlainValue is a value a requester gave (a keyword, a phrase, a vendor
// name, an agency spelling nothing recognized) as the scope and the notes
// may quote it in an email: letters, digits and spaces, with & ' ’ - + kept
// inside names; anything else (punctuation such as : / . @ < > = that links
// and markup are made of, control characters) becomes a space. So a value
// can never carry a link or markup into a mail sent to an address the
// requester named.
func PlainValue(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r):
			return r
		case r == '&', r == '\'', r == '’', r == '-', r == '+':
			return r
		}
		return ' '
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if rs := []rune(s); len(rs) > maxPlainValue {
		s = strings.TrimSpace(string(rs[:maxPlainValue]))
	}
	return s
}

func plainValues(l []string) []string {
	out := make([]string, 0, len(l))
	for _, v := range l {
		if p := PlainValue(v); p != "" {
			out = append(out, p)
		}
	}
	return out
}
