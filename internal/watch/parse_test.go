package watch

import (
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// want describes what a parsed request must hold. Agencies are spellings
// as printed in the City Record: the filter must carry their crosswalk ids
// (whatever the crosswalk maps them to).
type want struct {
	lens     string
	awards   bool
	agencies []string
	vendors  []string
	min, max float64
	any      []string // each must be in AnyOf
	notAny   []string // none may be in AnyOf
	phrases  []string
	exclude  []string
	boroughs []string
	note     string // a note must contain this
	err      string // the request is refused with a message containing this
}

func TestParseRealWorldPhrasings(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	cases := []struct {
		in string
		want
	}{
		// the examples
		// "construction" is a category (a filter), not a keyword
		{"email me about Parks construction awards over $1 million", want{lens: "money", awards: true,
			agencies: []string{"Parks and Recreation"}, min: 1e6, notAny: []string{"email", "awards", "parks", "construction"}, note: "category construction"}},
		{"construction contract awards over $500k from Parks, not Queens", want{lens: "money", awards: true,
			agencies: []string{"Parks and Recreation"}, min: 5e5, exclude: []string{"queens"}, note: "category construction"}},
		// amounts
		{"DOT contracts worth at least 1.5 million", want{lens: "money", awards: true, agencies: []string{"Transportation"}, min: 1.5e6, notAny: []string{"worth"}}},
		{"awards above $2,500,000 for DDC", want{lens: "money", awards: true, agencies: []string{"Design and Construction"}, min: 2.5e6}},
		{"Sanitation awards under $100k", want{lens: "money", awards: true, agencies: []string{"Sanitation"}, max: 1e5}},
		{"HPD awards between $1m and $5m", want{lens: "money", awards: true, agencies: []string{"Housing Preservation and Development"}, min: 1e6, max: 5e6}},
		{"$250k+ awards for school construction", want{lens: "money", awards: true, min: 2.5e5, any: []string{"school"}, note: "category construction"}},
		{"contracts of 3 million dollars or more from the Department of Environmental Protection", want{lens: "money", awards: true,
			agencies: []string{"Environmental Protection"}, min: 3e6}},
		{"million-dollar contracts with NYCHA", want{lens: "money", awards: true, agencies: []string{"Housing Authority"}, min: 1e6}},
		{"awards more than 750000 for security guard services", want{lens: "money", awards: true, min: 75e4, any: []string{"security", "guard", "services"}}},
		{"$2m contracts", want{lens: "money", awards: true, min: 2e6, note: "read as a minimum"}},
		{"awards from $500k to $2m for paving", want{lens: "money", awards: true, min: 5e5, max: 2e6, any: []string{"paving"}}},
		// agencies by short form and full name
		{"NYPD bids for vehicles", want{lens: "money", agencies: []string{"Police Department"}, any: []string{"vehicles"}}},
		{"FDNY solicitations", want{lens: "money", agencies: []string{"Fire Department"}}},
		{"anything from DCAS about fuel", want{lens: "money", agencies: []string{"Citywide Administrative Services"}, any: []string{"fuel"}}},
		{"new RFPs from the Department of Homeless Services", want{lens: "money", agencies: []string{"Homeless Services"}}},
		{"ACS contracts for foster care", want{lens: "money", agencies: []string{"Administration for Children's Services"}, any: []string{"foster", "care"}}},
		{"DOHMH procurement on mental health", want{lens: "money", agencies: []string{"Health and Mental Hygiene"}, any: []string{"mental", "health"}}},
		{"Dept. of Transportation bids on bike lanes", want{lens: "money", agencies: []string{"Transportation"}, any: []string{"bike", "lanes"}}},
		{"doe contracts", want{lens: "money", agencies: nil, any: []string{"doe"}}}, // a lower-case "doe" is a word, not the agency
		{"DOE contracts for school buses", want{lens: "money", agencies: []string{"Education"}, any: []string{"school", "buses"}}},
		{"parks department concessions", want{lens: "money", agencies: []string{"Parks and Recreation"}}},
		// lenses and the fixed precedence
		{"rezonings in the Bronx", want{lens: "land", boroughs: []string{"Bronx"}}},
		{"ULURP applications in Brooklyn or Queens", want{lens: "land", boroughs: []string{"Brooklyn", "Queens"}, any: []string{"applications"}}},
		{"public hearings about rezoning in Manhattan", want{lens: "land", boroughs: []string{"Manhattan"}, note: "fixed order"}},
		{"Landmarks Preservation Commission hearings", want{lens: "meetings", agencies: []string{"Landmarks Preservation Commission"}}},
		{"community board meetings in Staten Island", want{lens: "meetings", agencies: []string{"Community Boards"}, boroughs: []string{"Staten Island"}}},
		{"proposed rules from the TLC", want{lens: "rules", agencies: []string{"Taxi and Limousine Commission"}}},
		{"new regulations on sidewalk cafes", want{lens: "rules", any: []string{"sidewalk", "cafes"}}},
		{"rules and hearings about street vendors", want{lens: "meetings", note: "fixed order"}},
		{"property auctions in Queens", want{lens: "property", boroughs: []string{"Queens"}}},
		{"property disposition and contract awards", want{lens: "property", note: "fixed order"}},
		{"personnel changes at the Police Department", want{lens: "people", agencies: []string{"Police Department"}}},
		{"anything about asbestos", want{lens: "money", any: []string{"asbestos"}, note: "No kind of record was named"}},
		{"tree planting in Brooklyn", want{lens: "money", any: []string{"tree", "planting"}, boroughs: []string{"Brooklyn"}, note: "default"}},
		// quoted phrases and exclusions
		{`awards for "snow removal" from Sanitation`, want{lens: "money", awards: true, phrases: []string{"snow removal"}, agencies: []string{"Sanitation"}}},
		{`“pest management” contracts except Staten Island`, want{lens: "money", phrases: []string{"pest management"}, exclude: []string{"staten island"}}},
		{"DOT bids excluding snow removal and resurfacing", want{lens: "money", agencies: []string{"Transportation"}, exclude: []string{"snow removal", "resurfacing"}}},
		{`hearings on "bike lanes" -"Staten Island" -Queens`, want{lens: "meetings", phrases: []string{"bike lanes"}, exclude: []string{"staten island", "queens"}}},
		{"construction awards without demolition", want{lens: "money", awards: true, exclude: []string{"demolition"}, note: "category construction"}},
		{"solicitations, not awards, for janitorial services", want{lens: "money", awards: false, any: []string{"janitorial", "services"}, note: "awards left out"}},
		{"HPD hearings except Brooklyn and the Bronx", want{lens: "meetings", agencies: []string{"Housing Preservation and Development"}, exclude: []string{"brooklyn", "bronx"}}},
		{"contracts other than from DOT", want{lens: "money", exclude: []string{"dot"}}},
		// vendors
		{"awards to Gazebo Contracting Inc. over 1.5 million", want{lens: "money", awards: true, vendors: []string{"GAZEBO CONTRACTING"}, min: 1.5e6}},
		{"contracts won by Securus Technologies", want{lens: "money", awards: true, vendors: []string{"SECURUS TECHNOLOGIES"}}},
		{`vendor "Prospect Park Alliance"`, want{lens: "money", vendors: []string{"PROSPECT PARK ALLIANCE"}}},
		{"anything naming Acme Paving LLC in Queens", want{lens: "money", vendors: []string{"ACME PAVING"}, boroughs: []string{"Queens"}}},
		// odd inputs
		{"EMAIL ME ABOUT PARKS AWARDS!!!", want{lens: "money", awards: true, agencies: []string{"Parks and Recreation"}}},
		{"Local Law 97 hearings", want{lens: "meetings", any: []string{"local", "law", "97"}}},
		{"please", want{err: "nothing to watch"}},
		{"   ", want{err: "plain words"}},
		{strings.Repeat("construction ", 50), want{err: "limited to 600 characters"}},
		{"awards over $99 billion", want{lens: "money", awards: true, note: "not an amount"}},
	}
	if len(cases) < 40 {
		t.Fatalf("only %d phrasings", len(cases))
	}
	for _, c := range cases {
		u, err := Parse(c.in, ParseOptions{Crosswalk: cw, Form: 1})
		name := c.in
		if len(name) > 60 {
			name = name[:60]
		}
		if c.err != "" {
			if err == nil || !strings.Contains(record.ErrorMessage(err), c.err) || record.ErrorCode(err) != record.EINVALID {
				t.Errorf("%q: error %v, want one saying %q", name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		f := u.Filter
		fail := func(format string, args ...any) {
			t.Errorf("%q: "+format+"\nfilter %+v\nnotes %q", append(append([]any{name}, args...), f, u.Notes)...)
		}
		if f.Lens != c.lens {
			fail("lens %q, want %q", f.Lens, c.lens)
		}
		if f.Lens == record.LensMoney && f.Awards != c.awards {
			fail("awards %v, want %v", f.Awards, c.awards)
		}
		for _, a := range c.agencies {
			if id := cw.Resolve(a).ID; !slices.Contains(f.AgencyIDs, id) {
				fail("agency %s (%s) missing", a, id)
			}
		}
		if len(c.agencies) == 0 && len(f.AgencyIDs) > 0 {
			fail("unexpected agencies %v", f.AgencyIDs)
		}
		if !slices.Equal(f.Vendors, c.vendors) && !(len(f.Vendors) == 0 && len(c.vendors) == 0) {
			fail("vendors %v, want %v", f.Vendors, c.vendors)
		}
		checkAmount := func(got *float64, want float64, what string) {
			if want == 0 && got != nil {
				fail("%s %v, want none", what, *got)
			}
			if want != 0 && (got == nil || *got != want) {
				fail("%s %v, want %v", what, got, want)
			}
		}
		checkAmount(f.MinAmount, c.min, "min")
		checkAmount(f.MaxAmount, c.max, "max")
		for _, w := range c.any {
			if !slices.Contains(f.AnyOf, w) {
				fail("keyword %q missing", w)
			}
		}
		for _, w := range c.notAny {
			if slices.Contains(f.AnyOf, w) {
				fail("keyword %q should not be there", w)
			}
		}
		for _, p := range c.phrases {
			if !slices.Contains(f.Phrases, p) {
				fail("phrase %q missing", p)
			}
		}
		for _, e := range c.exclude {
			if !slices.Contains(f.Exclude, e) {
				fail("exclusion %q missing", e)
			}
		}
		if !slices.Equal(f.Boroughs, c.boroughs) && !(len(f.Boroughs) == 0 && len(c.boroughs) == 0) {
			fail("boroughs %v, want %v", f.Boroughs, c.boroughs)
		}
		if c.note != "" && !strings.Contains(strings.Join(u.Notes, "\n"), c.note) {
			fail("no note says %q", c.note)
		}
		if err := f.Validate(); err != nil {
			fail("invalid filter: %v", err)
		}
		if u.Scope == "" || len(u.Notes) == 0 {
			fail("no explanation")
		}
	}
}

func TestParseIsDeterministicAndForm2HasNoPeople(t *testing.T) {
	cw := entity.DefaultCrosswalk()
	in := "construction contract awards over $500k from Parks, not Queens"
	a, _ := Parse(in, ParseOptions{Crosswalk: cw, Form: 2})
	for i := 0; i < 20; i++ {
		b, _ := Parse(in, ParseOptions{Crosswalk: cw, Form: 2})
		if b.Scope != a.Scope || strings.Join(b.Notes, "|") != strings.Join(a.Notes, "|") {
			t.Fatal("parse is not deterministic")
		}
	}
	u, err := Parse("personnel changes at the Police Department", ParseOptions{Crosswalk: cw, Form: 2})
	if err != nil || u.Filter.Lens == record.LensPeople {
		t.Errorf("form 2 followed people: %+v %v", u.Filter, err)
	}
}

func TestParseUsesTheCrosswalkFirst(t *testing.T) {
	// a crosswalk that knows a short form the nickname table does not
	cw := entity.NewCrosswalk([]string{"Department of Parks and Recreation"}, map[string]string{"Parks": "Department of Parks and Recreation"})
	u, err := Parse("Parks awards", ParseOptions{Crosswalk: cw})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(u.Filter.AgencyIDs, []string{"department-of-parks-and-recreation"}) {
		t.Errorf("agency ids %v", u.Filter.AgencyIDs)
	}
}

func TestDescribeAndKeep(t *testing.T) {
	min := 1e6
	f := Filter{Lens: "money", Awards: true, AnyOf: []string{"construction"}, Exclude: []string{"queens"},
		AgencyIDs: []string{"parks-and-recreation"}, MinAmount: &min, Boroughs: []string{"Brooklyn"}}
	got := Describe(f, map[string]string{"parks-and-recreation": "Department of Parks and Recreation"})
	want := "Contract awards and intents to award from Department of Parks and Recreation, of at least $1,000,000, mentioning construction, leaving out any that mention queens, naming Brooklyn."
	if got != want {
		t.Errorf("describe:\n got %s\nwant %s", got, want)
	}
	if !f.Keep(record.Notice{Title: "Hickman Playground Reconstruction, Brooklyn"}) || f.Keep(record.Notice{Title: "Riverside Park, Manhattan"}) {
		t.Error("borough keep")
	}
	if BoroughName("the Bronx") != "Bronx" || BoroughName("staten-island") != "Staten Island" || BoroughName("Jersey") != "" {
		t.Error("borough names")
	}
}
