package watch

import (
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// MaxValues bounds each list in a structured request.
const MaxValues = 10

// Structured is a watch described field by field (Form 1): the HTTP API and
// the MCP tools both build filters through Build.
type Structured struct {
	Lens     string
	Q        string // keywords: words, "phrases", -exclusions
	Agencies []string
	Vendors  []string
	Boroughs []string
	Min, Max *float64
	Awards   bool

	// The filters plain English can name, set directly (money lens but
	// Within and From/Until): the same Filter fields the parser fills,
	// read by the same rules, so a request in English and its structured
	// equivalent make the same watch.

	// Bids keeps a money watch with an amount on open solicitations.
	Bids bool
	// Categories (CategoryNames) and Requirements (RequirementNames), as
	// named or case and punctuation aside (CategoryName, RequirementName).
	Categories   []string
	Requirements []string
	// Within is a moving window ahead ("3 months"): due dates of open
	// solicitations, dates of hearings.
	Within string
	// From and Until are days (YYYY-MM-DD) bounding the due date, the
	// hearing date or the publication date (Filter.From, Filter.Until).
	From, Until string
	// Land lens: the land projects' community district (M11), review
	// procedure (ulurp, non_ulurp …), stage and action code (ZM …).
	CommunityDistrict, Procedure, Stage, Action string
	// Now is when the request is read (zero: the clock): a due or hearing
	// window's start on or before today is dropped, as the parser does.
	Now time.Time
}

// Build turns a structured request into a validated filter and its plain
// description. Errors name the field at fault.
func Build(in Structured, cw *entity.Crosswalk, form int) (Understanding, error) {
	if err := in.check(); err != nil {
		return Understanding{}, err
	}
	if in.Lens == "" {
		return Understanding{}, record.InvalidNote("lens", "watch.error.needs_lens", strings.Join(Lenses, ", "))
	}
	for name, l := range map[string][]string{"agency": in.Agencies, "vendor": in.Vendors, "borough": in.Boroughs,
		"category": in.Categories, "requirement": in.Requirements} {
		if len(l) > MaxValues {
			return Understanding{}, record.InvalidNote(name, "watch.error.max_values", MaxValues)
		}
	}
	k, err := search.ParseKeywords(in.Q)
	if err != nil {
		return Understanding{}, err
	}
	f := Filter{Lens: in.Lens, AnyOf: k.Terms, Phrases: k.Phrases, Exclude: k.Excluded, Awards: in.Awards, Bids: in.Bids,
		MinAmount: in.Min, MaxAmount: in.Max, Within: in.Within, From: in.From, Until: in.Until,
		CommunityDistrict: in.CommunityDistrict, Procedure: in.Procedure, Stage: in.Stage, Action: in.Action}
	if f.Within != "" {
		f.Within = WithinValue(f.Within)
	}
	// an unknown value is kept as given: Validate refuses it, naming the
	// accepted values
	for _, c := range in.Categories {
		if n := CategoryName(c); n != "" {
			c = n
		}
		f.Categories = appendNew(f.Categories, c)
	}
	for _, r := range in.Requirements {
		if n := RequirementName(r); n != "" {
			r = n
		}
		f.Requirements = appendNew(f.Requirements, r)
	}
	now := in.Now
	if now.IsZero() {
		now = time.Now()
	}
	f.From = forwardFrom(f.dateField(), f.From, search.DayStart(now))
	var names map[string]string
	f.AgencyIDs, names, err = AgencyNames(cw, in.Agencies)
	if err != nil {
		return Understanding{}, err
	}
	for _, v := range in.Vendors {
		stem := entity.VendorStem(v)
		if !entity.StemLongEnough(stem) {
			return Understanding{}, record.InvalidNote("vendor", "watch.error.vendor_short", strconv.Quote(v), entity.MinStemChars)
		}
		f.Vendors = append(f.Vendors, stem)
	}
	for _, b := range in.Boroughs {
		name := BoroughName(b)
		if name == "" {
			return Understanding{}, record.InvalidNote("borough", "watch.error.borough", strconv.Quote(b))
		}
		f.Boroughs = append(f.Boroughs, name)
	}
	if f.Lens == record.LensLand && f.checkLand() == nil {
		// the land service's own spelling (K03, ulurp, ZM)
		if _, n, err := f.LandFilter().Query(); err == nil {
			f.CommunityDistrict, f.Procedure, f.Stage, f.Action = n.CommunityDistrict, n.Procedure, n.Stage, n.Action
		}
	}
	if f.Lens == record.LensPeople && form == 2 {
		return Understanding{}, record.InvalidNote("lens", "watch.error.no_people")
	}
	if err := f.Validate(); err != nil {
		return Understanding{}, err
	}
	if len(names) == 0 {
		names = nil
	}
	scope := DescribeNote(f, names)
	return Understanding{Filter: f, Agencies: names, Scope: scope.String(), ScopeKey: scope}, nil
}

// check refuses control characters in any field (CheckText): each is one
// line, and each can reach an email through the scope.
func (in Structured) check() error {
	for _, f := range []struct {
		name   string
		values []string
	}{{"lens", []string{in.Lens}}, {"q", []string{in.Q}}, {"agency", in.Agencies}, {"vendor", in.Vendors}, {"borough", in.Boroughs},
		{"category", in.Categories}, {"requirement", in.Requirements}, {"within", []string{in.Within}}, {"from", []string{in.From}},
		{"until", []string{in.Until}}, {"community_district", []string{in.CommunityDistrict}}, {"procedure", []string{in.Procedure}},
		{"stage", []string{in.Stage}}, {"action", []string{in.Action}}} {
		if err := record.CheckInput(f.name, f.values...); err != nil {
			return err // bounded before any rule reads it
		}
		for _, v := range f.values {
			if err := CheckText(f.name, v, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// FieldRequest is a watch's structured request as the HTTP API and the MCP
// tools take it (the fields of POST /api/watches): the request that
// builds a filter (Filter.Request), so that a watch read from plain
// English can be made again field by field (the site's Form 1 form fills
// its fields from it).
type FieldRequest struct {
	Lens              string   `json:"lens"`
	Q                 string   `json:"q,omitempty"`
	Agency            []string `json:"agency,omitempty"`
	Vendor            []string `json:"vendor,omitempty"`
	Min               *Amount  `json:"min,omitempty"`
	Max               *Amount  `json:"max,omitempty"`
	Borough           []string `json:"borough,omitempty"`
	Awards            bool     `json:"awards,omitempty"`
	Bids              bool     `json:"bids,omitempty"`
	Category          []string `json:"category,omitempty"`
	Requirement       []string `json:"requirement,omitempty"`
	Within            string   `json:"within,omitempty"`
	From              string   `json:"from,omitempty"`
	Until             string   `json:"until,omitempty"`
	CommunityDistrict string   `json:"community_district,omitempty"`
	Procedure         string   `json:"procedure,omitempty"`
	Stage             string   `json:"stage,omitempty"`
	Action            string   `json:"action,omitempty"`
}

// Request is the structured request that builds f again (Build of its
// Structured is f): the keywords as a search string, agencies by id,
// vendors by their name stems.
func (f Filter) Request() FieldRequest {
	return FieldRequest{Lens: f.Lens, Q: f.Text(), Agency: f.AgencyIDs, Vendor: f.Vendors, Min: AmountOf(f.MinAmount), Max: AmountOf(f.MaxAmount),
		Borough: f.Boroughs, Awards: f.Awards, Bids: f.Bids, Category: f.Categories, Requirement: f.Requirements,
		Within: f.Within, From: f.From, Until: f.Until, CommunityDistrict: f.CommunityDistrict, Procedure: f.Procedure,
		Stage: f.Stage, Action: f.Action}
}

// Structured is r as Build reads it; EINVALID naming min or max when one
// is not an amount.
func (r FieldRequest) Structured() (Structured, error) {
	min, err := r.Min.Dollars("min")
	if err != nil {
		return Structured{}, err
	}
	max, err := r.Max.Dollars("max")
	if err != nil {
		return Structured{}, err
	}
	return Structured{Lens: r.Lens, Q: r.Q, Agencies: r.Agency, Vendors: r.Vendor, Boroughs: r.Borough, Min: min, Max: max,
		Awards: r.Awards, Bids: r.Bids, Categories: r.Category, Requirements: r.Requirement, Within: r.Within, From: r.From,
		Until: r.Until, CommunityDistrict: r.CommunityDistrict, Procedure: r.Procedure, Stage: r.Stage, Action: r.Action}, nil
}
