package watch

import (
	"errors"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Parse never panics; it refuses with a coded record.Error, and what it
// understands is a valid filter that reads the same when its own plain
// keywords and scope are described again.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"Parks awards over $1 million mentioning construction",
		"email me about Parks construction contracts over $1M, not snow removal",
		"hearings in Brooklyn about zoning",
		"rules from the Department of Health",
		"vendor Denville Line Painting Inc awards between $50k and $2m",
		"property auctions in Staten Island",
		"people appointed at HRA",
		`"child care" -"snow removal" DOT`,
		"", "$", "over $", "between $5 and", "-", `"`, "not not not",
	} {
		f.Add(s)
	}
	cw := entity.DefaultCrosswalk()
	f.Fuzz(func(t *testing.T, text string) {
		for form := 1; form <= 2; form++ {
			u, err := Parse(text, ParseOptions{Crosswalk: cw, Form: form})
			if err != nil {
				var re *record.Error
				if !errors.As(err, &re) || re.Code == "" || re.Message == "" {
					t.Fatalf("form %d %q: error %v (%T) is not a coded record.Error", form, text, err, err)
				}
				continue
			}
			if err := u.Filter.Validate(); err != nil {
				t.Fatalf("form %d %q: understood %+v, which is not valid: %v", form, text, u.Filter, err)
			}
			if u.Scope == "" {
				t.Fatalf("form %d %q: no scope sentence", form, text)
			}
			if d := Describe(u.Filter, u.Agencies); d != u.Scope {
				t.Fatalf("form %d %q: scope %q, described again %q", form, text, u.Scope, d)
			}
		}
	})
}
