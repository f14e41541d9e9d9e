package watch

import (
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// The filters plain English names (windows, bid amounts, categories,
// special requirements) can be set field by field: a request in English
// and its structured equivalent make the same filter, agencies and scope,
// because Build reads the fields through the rules the parser uses.
func TestStructuredEqualsPlainEnglish(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	dollars := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		text string
		in   Structured
	}{
		{"construction bids over $100k due in the next 3 months",
			Structured{Lens: "money", Bids: true, Min: dollars(100000), Categories: []string{"Construction"}, Within: "3 Months"}},
		{"M/WBE professional services solicitations from Parks due this year",
			// the year's start is today or earlier: due dates are read from today on
			Structured{Lens: "money", Agencies: []string{"Parks"}, Categories: []string{"professional_services"}, Requirements: []string{"M/WBE"},
				From: "2026-01-01", Until: "2026-12-31"}},
		{"small business goods and services RFPs due by the end of the year",
			Structured{Lens: "money", Categories: []string{"goods", "services"}, Requirements: []string{"small business"}, Until: "2026-12-31"}},
		{"human services contracts due within 30 days",
			Structured{Lens: "money", Categories: []string{"human services"}, Within: "30 days"}},
		{"hearings in the next 2 weeks in Brooklyn",
			Structured{Lens: "meetings", Boroughs: []string{"brooklyn"}, Within: "2 week"}},
		{"Parks construction awards over $1 million in 2026",
			Structured{Lens: "money", Agencies: []string{"Parks"}, Awards: true, Min: dollars(1e6), Categories: []string{"construction"},
				From: "2026-01-01", Until: "2026-12-31"}},
		{"rezonings this year", Structured{Lens: "land", From: "2026-01-01", Until: "2026-12-31"}},
		{"DDC construction bids between $1m and $5m due next month, minority-owned businesses",
			Structured{Lens: "money", Agencies: []string{"DDC"}, Bids: true, Min: dollars(1e6), Max: dollars(5e6), Categories: []string{"construction"},
				Requirements: []string{"mwbe"}, From: "2026-09-01", Until: "2026-09-30"}},
	} {
		p, err := Parse(tc.text, ParseOptions{Crosswalk: cw, Form: 1, Now: now})
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		tc.in.Now = now
		s, err := Build(tc.in, cw, 1)
		if err != nil {
			t.Fatalf("%q structured: %v", tc.text, err)
		}
		if !reflect.DeepEqual(p.Filter, s.Filter) || !reflect.DeepEqual(p.Agencies, s.Agencies) || p.Scope != s.Scope {
			t.Errorf("%q\nparsed     %+v %v %q\nstructured %+v %v %q", tc.text, p.Filter, p.Agencies, p.Scope, s.Filter, s.Agencies, s.Scope)
		}
	}
}

// A structured value the rules do not accept is refused, naming the field
// and, for a closed list, the accepted values.
func TestStructuredRefusesBadValues(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	for _, tc := range []struct {
		in    Structured
		param string
		says  string
	}{
		{Structured{Lens: "money", Categories: []string{"plumbing"}}, "category",
			"construction, goods, services, professional services, human services"},
		{Structured{Lens: "money", Requirements: []string{"veteran-owned"}}, "requirement", "mwbe, small_business"},
		{Structured{Lens: "land", Categories: []string{"construction"}}, "category", "lens money"},
		{Structured{Lens: "rules", Requirements: []string{"mwbe"}}, "requirement", "lens money"},
		{Structured{Lens: "money", Within: "3 fortnights"}, "within", "at most 3 years"},
		{Structured{Lens: "money", Within: "5 years"}, "within", "at most 3 years"},
		{Structured{Lens: "money", Awards: true, Within: "3 months"}, "within", "from and until"},
		{Structured{Lens: "land", Within: "1 month"}, "within", "from and until"},
		{Structured{Lens: "money", Bids: true, Awards: true}, "bids", "exclude each other"},
		{Structured{Lens: "land", Bids: true}, "bids", "money lens"},
		{Structured{Lens: "money", From: "2026-1-1"}, "from", "YYYY-MM-DD"},
		{Structured{Lens: "money", Until: "next year"}, "from", "YYYY-MM-DD"},
		{Structured{Lens: "land", From: "2026-12-31", Until: "2026-01-01"}, "until", "before from"},
		{Structured{Lens: "money", Categories: strings.Fields(strings.Repeat("goods ", MaxValues+1))}, "category", "at most"},
		{Structured{Lens: "money", Requirements: []string{"mwbe\x00"}}, "requirement", "control characters"},
	} {
		_, err := Build(tc.in, cw, 1)
		var re *record.Error
		if !errors.As(err, &re) || re.Code != record.EINVALID || re.Param != tc.param || !strings.Contains(re.Message, tc.says) {
			t.Errorf("%+v: %v, want %s naming %q", tc.in, err, tc.param, tc.says)
		}
	}
}
