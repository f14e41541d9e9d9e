package watch

import (
	"reflect"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
)

// A watch read from plain English can be made again field by field: the
// structured request of its filter (Filter.Request) builds the same
// filter, for requests naming every kind of part the parser reads
// (agencies, vendors, amounts both ways, boroughs, categories,
// requirements, windows, dates, exclusions, phrases, the land lens).
func TestPlainEnglishHasItsStructuredRequest(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	now := time.Date(2026, 12, 7, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{
		"construction awards over $500k from Parks, not Queens",
		"solicitations from Parks and DOT for landscaping",
		"open bids for professional services due in the next 3 months with M/WBE participation",
		"awards to Denville Line Painting between $50,000 and $2 million in Brooklyn",
		`hearings about "street tree" in Manhattan -sidewalk`,
		"rezonings in Queens community district 6",
		"agency rules from the Department of Buildings since 2026-01-01",
	} {
		u, err := Parse(text, ParseOptions{Crosswalk: cw, Form: 1, Now: now})
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		s, err := u.Filter.Request().Structured()
		if err != nil {
			t.Errorf("%q: %v", text, err)
			continue
		}
		s.Now = now
		again, err := Build(s, cw, 1)
		if err != nil {
			t.Errorf("%q: its request %+v is refused: %v", text, u.Filter.Request(), err)
			continue
		}
		if !reflect.DeepEqual(again.Filter, u.Filter) {
			t.Errorf("%q:\n read  %+v\n again %+v", text, u.Filter, again.Filter)
		}
	}
}
