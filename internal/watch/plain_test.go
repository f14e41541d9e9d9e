package watch

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/view"
)

// parseNow is the day the plain-English tests read requests on.
var parseNow = time.Date(2026, 8, 3, 10, 0, 0, 0, record.NewYork)

func parseAt(t *testing.T, in string) Understanding {
	t.Helper()
	u, err := Parse(in, ParseOptions{Crosswalk: entity.DefaultCrosswalk(), Form: 2, Now: parseNow})
	if err != nil {
		t.Fatalf("%q: %v", in, err)
	}
	return u
}

// Time windows are date filters, never keywords.
func TestParseTimeWindows(t *testing.T) {
	for _, tc := range []struct {
		in          string
		lens        string
		awards      bool
		within      string
		from, until string
		any         []string
		note        string
	}{
		{"construction bids due in the next 3 months", "money", false, "3 months", "", "", nil, "due within 3 months"},
		{"Parks solicitations closing within 30 days", "money", false, "30 days", "", "", nil, "30 days"},
		{"RFPs due in the next two weeks for security guard services", "money", false, "2 weeks", "", "", []string{"security", "guard", "services"}, ""},
		{"DOT bids due this year", "money", false, "", "", "2026-12-31", nil, "December 31, 2026"},
		{"janitorial bids due this month", "money", false, "", "", "2026-08-31", []string{"janitorial"}, ""},
		{"snow removal solicitations due next month", "money", false, "", "2026-09-01", "2026-09-30", []string{"snow", "removal"}, ""},
		{"bids in the next month", "money", false, "1 month", "", "", nil, ""},
		{"hearings within the coming week", "meetings", false, "1 week", "", "", nil, ""},
		{"bids due by the end of the year", "money", false, "", "", "2026-12-31", nil, ""},
		{"Parks awards this year", "money", true, "", "2026-01-01", "2026-12-31", nil, "published"},
		{"awards this fiscal year from DDC", "money", true, "", "2026-07-01", "2027-06-30", nil, "fiscal year"}, // August 2026 is in FY2027
		{"awards in FY2026", "money", true, "", "2025-07-01", "2026-06-30", nil, "fiscal year"},
		{"contract awards in 2026 for paving", "money", true, "", "2026-01-01", "2026-12-31", []string{"paving"}, ""},
		{"hearings in the next 2 months about bike lanes", "meetings", false, "2 months", "", "", []string{"bike", "lanes"}, ""},
		{"rezonings this year in Brooklyn", "land", false, "", "2026-01-01", "2026-12-31", nil, ""},
		{"awards in the last 6 months", "money", true, "", "", "", nil, "new notices as they are published"},
	} {
		u := parseAt(t, tc.in)
		f := u.Filter
		if f.Lens != tc.lens || f.Awards != tc.awards {
			t.Errorf("%q: lens %s awards %v, want %s %v", tc.in, f.Lens, f.Awards, tc.lens, tc.awards)
		}
		if f.Within != tc.within || f.From != tc.from || f.Until != tc.until {
			t.Errorf("%q: within %q from %q until %q, want %q %q %q\nnotes %q", tc.in, f.Within, f.From, f.Until, tc.within, tc.from, tc.until, u.Notes)
		}
		for _, w := range []string{"due", "next", "3", "months", "month", "days", "30", "weeks", "two", "this", "year", "fiscal", "2026", "last", "6", "closing", "end"} {
			if slices.Contains(f.AnyOf, w) {
				t.Errorf("%q: time word %q became a keyword: %q", tc.in, w, f.AnyOf)
			}
		}
		for _, w := range tc.any {
			if !slices.Contains(f.AnyOf, w) {
				t.Errorf("%q: keyword %q missing: %q", tc.in, w, f.AnyOf)
			}
		}
		if tc.note != "" && !strings.Contains(strings.Join(u.Notes, "\n")+"\n"+u.Scope, tc.note) {
			t.Errorf("%q: nothing says %q\nscope %s\nnotes %q", tc.in, tc.note, u.Scope, u.Notes)
		}
		if err := f.Validate(); err != nil {
			t.Errorf("%q: %v", tc.in, err)
		}
	}
}

// The compiled query carries the window on the right date.
func TestCompileTimeWindows(t *testing.T) {
	day := func(s string) time.Time {
		d, _ := time.ParseInLocation("2006-01-02", s, record.NewYork)
		return d
	}
	q := parseAt(t, "construction bids due in the next 3 months").Filter.Compile(parseNow)
	if !q.DueFrom.Equal(day("2026-08-03")) || !q.DueTo.Equal(day("2026-11-03")) || q.NoticeTypes[0] != view.OpenNoticeType {
		t.Errorf("bids window: due %v – %v types %v", q.DueFrom, q.DueTo, q.NoticeTypes)
	}
	q = parseAt(t, "snow removal solicitations due next month").Filter.Compile(parseNow)
	if !q.DueFrom.Equal(day("2026-09-01")) || !q.DueTo.Equal(day("2026-09-30")) {
		t.Errorf("next month: due %v – %v", q.DueFrom, q.DueTo)
	}
	q = parseAt(t, "Parks awards this year").Filter.Compile(parseNow)
	if !q.From.Equal(day("2026-01-01")) || !q.To.Equal(day("2026-12-31")) || !q.DueTo.IsZero() {
		t.Errorf("awards this year: published %v – %v", q.From, q.To)
	}
	q = parseAt(t, "hearings in the next 2 months about bike lanes").Filter.Compile(parseNow)
	if !q.EventFrom.Equal(day("2026-08-03")) || !q.EventTo.Equal(day("2026-10-03")) {
		t.Errorf("hearings window: %v – %v", q.EventFrom, q.EventTo)
	}
	// a relative window moves with the day the watch runs
	later := parseNow.AddDate(0, 1, 0)
	q = parseAt(t, "construction bids due in the next 3 months").Filter.Compile(later)
	if !q.DueTo.Equal(day("2026-12-03")) {
		t.Errorf("window a month later ends %v", q.DueTo)
	}
}

// An amount in a request for bids keeps a bid watch with an amount filter;
// only words of awarding make an awards watch.
func TestParseAmountInBidRequest(t *testing.T) {
	for _, tc := range []struct {
		in       string
		awards   bool
		min, max float64
	}{
		{"bids over $1 million from DDC", false, 1e6, 0},
		{"RFPs under $500k for consulting", false, 0, 5e5},
		{"construction solicitations between $1m and $5m", false, 1e6, 5e6},
		{"open bids of at least $250,000 in Queens", false, 2.5e5, 0},
		{"opportunities over $2m", false, 2e6, 0},
		{"contracts awarded over $1 million from DDC", true, 1e6, 0},
		{"bids won by Acme Paving over $1m", true, 1e6, 0},
		{"awards over $5 million", true, 5e6, 0},
	} {
		u := parseAt(t, tc.in)
		f := u.Filter
		if f.Lens != record.LensMoney || f.Awards != tc.awards {
			t.Errorf("%q: lens %s awards %v, want awards %v\nnotes %q", tc.in, f.Lens, f.Awards, tc.awards, u.Notes)
		}
		if (tc.min == 0) != (f.MinAmount == nil) || f.MinAmount != nil && *f.MinAmount != tc.min ||
			(tc.max == 0) != (f.MaxAmount == nil) || f.MaxAmount != nil && *f.MaxAmount != tc.max {
			t.Errorf("%q: amounts %v %v", tc.in, f.MinAmount, f.MaxAmount)
		}
		q := f.Compile(parseNow)
		isBids := len(q.NoticeTypes) == 1 && q.NoticeTypes[0] == view.OpenNoticeType && !q.DueFrom.IsZero()
		if isBids == tc.awards {
			t.Errorf("%q: compiled types %v due from %v", tc.in, q.NoticeTypes, q.DueFrom)
		}
		if q.MinAmount == nil && q.MaxAmount == nil {
			t.Errorf("%q: the amount is not in the query", tc.in)
		}
		if !tc.awards && !strings.HasPrefix(u.Scope, "Open procurement solicitations") {
			t.Errorf("%q: scope %s", tc.in, u.Scope)
		}
	}
}

// Categories and special requirements are filters, never keywords.
func TestParseCategoriesAndRequirements(t *testing.T) {
	for _, tc := range []struct {
		in           string
		categories   []string
		requirements []string
		any          []string
		notAny       []string
	}{
		{"construction bids from Parks", []string{CategoryConstruction}, nil, nil, []string{"construction"}},
		{"goods solicitations from DCAS", []string{CategoryGoods}, nil, nil, []string{"goods"}},
		{"professional services RFPs for engineering", []string{CategoryProfessional}, nil, []string{"engineering"}, []string{"professional", "services"}},
		{"human services contracts from ACS", []string{CategoryHuman}, nil, nil, []string{"human", "services"}},
		{"services bids", []string{CategoryServices}, nil, nil, []string{"services"}},
		{"M/WBE construction opportunities", []string{CategoryConstruction}, []string{RequirementMWBE}, nil, []string{"m/wbe", "mwbe"}},
		{"MWBE bids for goods", []string{CategoryGoods}, []string{RequirementMWBE}, nil, []string{"mwbe"}},
		{"minority and women-owned business solicitations", nil, []string{RequirementMWBE}, nil, []string{"minority", "women-owned", "business"}},
		{"small business bids for janitorial services", nil, []string{RequirementSmallBusiness}, []string{"janitorial", "services"}, []string{"small", "business"}},
		{"bids for small businesses and M/WBEs in construction", []string{CategoryConstruction}, []string{RequirementSmallBusiness, RequirementMWBE}, nil, []string{"businesses"}},
	} {
		u := parseAt(t, tc.in)
		f := u.Filter
		if !slices.Equal(f.Categories, tc.categories) || !slices.Equal(f.Requirements, tc.requirements) {
			t.Errorf("%q: categories %q requirements %q, want %q %q\nnotes %q", tc.in, f.Categories, f.Requirements, tc.categories, tc.requirements, u.Notes)
		}
		for _, w := range tc.any {
			if !slices.Contains(f.AnyOf, w) {
				t.Errorf("%q: keyword %q missing: %q", tc.in, w, f.AnyOf)
			}
		}
		for _, w := range tc.notAny {
			if slices.Contains(f.AnyOf, w) {
				t.Errorf("%q: %q became a keyword: %q", tc.in, w, f.AnyOf)
			}
		}
		if err := f.Validate(); err != nil {
			t.Errorf("%q: %v", tc.in, err)
		}
	}
}

// Keep applies a category by the notice's category (its words when the
// notice has none) and a requirement by the notice's text. Categories are
// the City Record's (CategoryDescription of the 2014 and 2026 rows).
func TestKeepCategoriesAndRequirements(t *testing.T) {
	cons := Filter{Lens: "money", Categories: []string{CategoryConstruction}}
	prof := Filter{Lens: "money", Categories: []string{CategoryProfessional}}
	mwbe := Filter{Lens: "money", Requirements: []string{RequirementMWBE}}
	small := Filter{Lens: "money", Requirements: []string{RequirementSmallBusiness}}
	for _, tc := range []struct {
		f    Filter
		n    record.Notice
		keep bool
	}{
		{cons, record.Notice{Category: "Construction/Construction Services"}, true},
		{cons, record.Notice{Category: "Construction / Construction Services"}, true},
		{cons, record.Notice{Category: "Construction Related Services"}, true},
		{cons, record.Notice{Category: "Goods"}, false},
		{cons, record.Notice{Title: "RECONSTRUCTION OF HICKMAN PLAYGROUND"}, true}, // no category: its words
		{cons, record.Notice{Title: "FUEL OIL"}, false},
		{prof, record.Notice{Category: "Services (other than human services)"}, true},
		{prof, record.Notice{Category: "Human Services/Client Services"}, false},
		{mwbe, record.Notice{Text: "Minority and Women Owned Business Enterprises (M/WBE) are strongly encouraged to apply."}, true},
		{mwbe, record.Notice{Text: "submit NYS Procurement Lobbying Act disclosure form, MWBE Utilization Plan"}, true},
		{mwbe, record.Notice{Text: "Bid security in the amount of 5%."}, false},
		{small, record.Notice{Text: "This contract is set aside for small businesses."}, true},
		{small, record.Notice{Text: "Bid security in the amount of 5%."}, false},
	} {
		if got := tc.f.Keep(tc.n); got != tc.keep {
			t.Errorf("%v %v on %+v: keep %v", tc.f.Categories, tc.f.Requirements, tc.n, got)
		}
	}
}

// The understanding says, filter by filter, how the request was read.
func TestFilterLines(t *testing.T) {
	u := parseAt(t, "M/WBE construction bids from Parks over $1 million due in the next 3 months in Brooklyn, not demolition")
	lines := strings.Join(FilterLines(u.Filter, u.Agencies), "\n")
	for _, want := range []string{"Kind of record: open procurement solicitations", "Agency: Parks and Recreation",
		"Amount: at least $1,000,000", "Category: construction", "Special requirement: M/WBE", "Due: within 3 months",
		"Borough: Brooklyn", "Left out: demolition"} {
		if !strings.Contains(lines, want) {
			t.Errorf("filter lines lack %q:\n%s", want, lines)
		}
	}
}
