package notices

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Params are a notice search as asked, on any surface: the one options
// type that /api/search's parser and MCP's search_notices fill (each
// from its own syntax: query parameters, typed arguments) and that Query
// compiles to the engine's query by one rule, so the same question is
// read, and refused, alike everywhere.
type Params struct {
	Text     string
	Lenses   []string
	Sections []string
	// NoticeTypes and PINs are exact values.
	NoticeTypes []string
	PINs        []string
	// Agencies are names, short forms or crosswalk ids (the one agency
	// rule: entity.Crosswalk.ResolveNames); Vendors are names, matched by
	// their stem.
	Agencies []string
	Vendors  []string
	// Amount bounds in dollars; any bound keeps only valid amounts.
	MinAmount, MaxAmount *float64
	ValidAmountOnly      bool
	// Day bounds (New York days, inclusive): publication, due, event.
	From, To           time.Time
	DueFrom, DueTo     time.Time
	EventFrom, EventTo time.Time
	IncludeRolling     bool
	// Open keeps solicitations still open (watch.Open: the one rule).
	Open       bool
	Sort       string
	Limit      int
	Cursor     string
	Facets     bool
	ExactCount bool
	// Mode is keyword (default), semantic or hybrid (semantic.Modes).
	Mode string
}

// Query compiles the parameters to the engine's query and its mode. An
// unknown mode or lens, an agency the crosswalk does not know, a vendor
// name too short to match by stem and a window that ends before it
// starts are EINVALID naming the parameter.
func (p Params) Query(cw *entity.Crosswalk, now time.Time) (search.Query, string, error) {
	mode, err := semantic.CheckMode(p.Mode)
	if err != nil {
		return search.Query{}, "", err
	}
	q := search.Query{Text: p.Text, Lenses: p.Lenses, Sections: p.Sections, NoticeTypes: p.NoticeTypes, PINs: p.PINs,
		MinAmount: p.MinAmount, MaxAmount: p.MaxAmount, ValidAmountOnly: p.ValidAmountOnly, From: p.From, To: p.To,
		DueFrom: p.DueFrom, DueTo: p.DueTo, EventFrom: p.EventFrom, EventTo: p.EventTo, IncludeRolling: p.IncludeRolling,
		Sort: p.Sort, Limit: p.Limit, Cursor: p.Cursor, Facets: p.Facets, ExactCount: p.ExactCount}
	if q.Limit == 0 {
		q.Limit = search.DefaultLimit
	}
	if len(p.Agencies) > 0 {
		if q.AgencyIDs, _, err = cw.ResolveNames("agency", p.Agencies); err != nil {
			return search.Query{}, "", err
		}
	}
	// a window whose end is before its start is a contradiction, refused
	// like from/to (search.Query.Normalize) and the meetings routes' window
	for _, w := range []struct {
		from, to string
		a, b     time.Time
	}{{"due_from", "due_to", q.DueFrom, q.DueTo}, {"event_from", "event_to", q.EventFrom, q.EventTo}} {
		if !w.a.IsZero() && !w.b.IsZero() && w.b.Before(w.a) {
			return search.Query{}, "", record.InvalidNote(w.to, "param.before", w.to, w.from)
		}
	}
	for _, name := range p.Vendors {
		stem := entity.VendorStem(name)
		if !entity.StemLongEnough(stem) {
			return search.Query{}, "", record.InvalidNote("vendor", "param.vendor.short", strconv.Quote(name), entity.MinStemChars)
		}
		q.VendorStems = append(q.VendorStems, stem)
	}
	for _, l := range q.Lenses {
		if !slices.Contains(record.KnownLenses, l) && record.Slug(l) != l {
			return search.Query{}, "", record.InvalidNote("lens", "param.unknown.lens", strconv.Quote(l), strings.Join(record.KnownLenses, ", "))
		}
	}
	if p.Open {
		if err := watch.Open("open", &q, now); err != nil { // the one "open" rule
			return search.Query{}, "", err
		}
	}
	if _, err := q.Normalize(); err != nil {
		return search.Query{}, "", err
	}
	return q, mode, nil
}
