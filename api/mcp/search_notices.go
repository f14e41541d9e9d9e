package mcp

import (
	"context"
	"github.com/recordwatch/recordwatch/internal/meeting"
	"github.com/recordwatch/recordwatch/internal/notices"
	"github.com/recordwatch/recordwatch/internal/people"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/semantic"
	"github.com/recordwatch/recordwatch/internal/view"
)

type searchNoticesIn struct {
	Q          string   `json:"q,omitempty"`
	Lens       []string `json:"lens,omitempty"`
	Agency     string   `json:"agency,omitempty"`
	Vendor     string   `json:"vendor,omitempty"`
	NoticeType string   `json:"notice_type,omitempty"`
	PIN        string   `json:"pin,omitempty"`
	MinAmount  *float64 `json:"min_amount,omitempty"`
	MaxAmount  *float64 `json:"max_amount,omitempty"`
	From       string   `json:"from,omitempty"`
	To         string   `json:"to,omitempty"`
	Open       bool     `json:"open,omitempty"`
	Sort       string   `json:"sort,omitempty"`
	Limit      int      `json:"limit,omitempty"`
	Cursor     string   `json:"cursor,omitempty"`
	ExactCount bool     `json:"exact_count,omitempty"`
	Mode       string   `json:"mode,omitempty"`
}

// SearchOut is a page of notices with its scope: the page as every
// surface shows it, its hits as references.
type SearchOut struct {
	view.NoticePage
	Results []NoticeRef `json:"results"`
	// Roster is the people lens's roster half (Form 1, lens people with
	// an agency): per agency its roster releases and leader changes, as
	// /api/search answers them.
	Roster []people.RosterAppearance `json:"roster,omitempty"`
	// Meetings is the meetings lens's block (Form 1, lens meetings alone):
	// the meeting records dated in the search's event window, as
	// /api/search answers them.
	Meetings *SearchMeetings `json:"meetings,omitempty"`
	// Widening is, for an empty answer, the same search without one of its
	// constraints when that matches something, as /api/search answers it.
	Widening *notices.Widening `json:"widening,omitempty"`
}

// SearchMeetings is the meetings lens's block of a search: the meeting
// records of its window (notices.Meetings) and what the block holds.
type SearchMeetings struct {
	meeting.Page
	// Error says why no meeting is listed (a window longer than a year).
	Error string `json:"error,omitempty"`
	Note  string `json:"note"`
}

func searchNotices(d *Deps) Tool {
	t := newTool(d, "search_notices", "Search City Record notices", ClassRead,
		"Search New York City's City Record notices (procurement solicitations and awards, hearings and meetings, "+
			"property disposition, agency rules, personnel changes). Keywords in q are OR-matched; \"quoted phrases\" match "+
			"exactly; -word excludes. Structured filters (lens, agency, vendor, notice_type, pin, amounts, dates, open) narrow. "+
			"Any amount bound returns only rows whose amount is valid (placeholders like -1 and entry errors never pass). "+
			"mode semantic finds notices by meaning (\"lift repair\" finds elevator work) and hybrid fuses keyword and semantic rankings; "+
			"both rank by relevance, take the same filters and state their method in scope.searched.semantic. "+
			"Results carry scope (what was searched, sources, corpus date, first/last source dates, counts); "+
			"total is exact up to 10,000, beyond that 10,000 with total_relation \"gte\" (at least) unless exact_count is true; "+
			"zero results do not mean no record exists. Page with next_cursor.",
		[]int{1, 2},
		func(s *jsonschema.Schema) {
			bounded(s, "q", search.MaxTextLen, `Keywords, OR-matched. "quoted phrase" for exact phrases, -word to exclude.`)
			lensProp(s, "lens", "Limit to these lenses: money (procurement), land, property, rules, meetings, people.")
			bounded(s, "agency", record.MaxNameLen, "Agency as printed in the record (e.g. \"Parks and Recreation\") or a canonical agency id.")
			bounded(s, "vendor", record.MaxNameLen, "Vendor name; suffix and case variants match (Acme Inc. = ACME INCORPORATED).")
			bounded(s, "notice_type", 100, "Notice type as printed, e.g. Solicitation, Award, Intent to Award, Public Hearing.")
			bounded(s, "pin", 100, "Exact procurement identification number (PIN).")
			prop(s, "min_amount").Minimum = ptr(0.0)
			prop(s, "min_amount").Description = "Minimum valid amount in dollars."
			prop(s, "max_amount").Minimum = ptr(0.0)
			prop(s, "max_amount").Description = "Maximum valid amount in dollars."
			dateProp(s, "from", "Published on or after this date (YYYY-MM-DD).")
			dateProp(s, "to", "Published on or before this date (YYYY-MM-DD).")
			prop(s, "open").Description = "Only solicitations still open: due today or later, rolling deadlines included."
			sortEnum := make([]any, len(search.Sorts))
			for i, v := range search.Sorts {
				sortEnum[i] = v
			}
			prop(s, "sort").Enum = sortEnum
			prop(s, "sort").Description = "relevance (default with keywords), newest, oldest, due, event or amount_desc."
			limitProp(s, maxResults)
			cursorProp(s)
			exactCountProp(s)
			modeEnum := make([]any, len(semantic.Modes))
			for i, v := range semantic.Modes {
				modeEnum[i] = v
			}
			prop(s, "mode").Enum = modeEnum
			prop(s, "mode").Description = "keyword (default: the words as typed), semantic (by meaning: nearest notices to the query's vector) or hybrid (both rankings fused, weighted by how the query is worded: its scope says which reading it made); semantic and hybrid sort by relevance only."
		},
		func(ctx context.Context, d *Deps, in searchNoticesIn) (SearchOut, error) {
			from, err := record.ParseDay("from", in.From)
			if err != nil {
				return SearchOut{}, err
			}
			to, err := record.ParseDay("to", in.To)
			if err != nil {
				return SearchOut{}, err
			}
			// the one options type of a notice search, as /api/search fills it
			np := notices.Params{Text: in.Q, Lenses: in.Lens, Agencies: one(in.Agency), Vendors: one(in.Vendor),
				NoticeTypes: one(in.NoticeType), PINs: one(in.PIN), MinAmount: in.MinAmount, MaxAmount: in.MaxAmount, From: from, To: to,
				Open: in.Open, Sort: in.Sort, Limit: limitOr(in.Limit, search.DefaultLimit), Cursor: in.Cursor, ExactCount: in.ExactCount,
				Mode: in.Mode}
			q, mode, err := np.Query(d.Crosswalk, d.now())
			if err != nil {
				return SearchOut{}, err
			}
			// the search's one answer (internal/notices), as /api/search
			a, err := d.Notices.Search(ctx, q, mode)
			if err != nil {
				return SearchOut{}, err
			}
			var sugg []view.FilterSuggestion
			if in.Agency == "" {
				sugg = view.Links{Base: d.BaseURL}.AgencySuggestions(d.Crosswalk, url.Values{"q": {in.Q}})
			}
			out := SearchOut{NoticePage: view.Page(a.Result, sugg), Results: d.refs(a.Result, a.Query.Sort), Roster: a.Roster, Widening: a.Widening}
			if a.Meetings != nil {
				out.Meetings = &SearchMeetings{Page: a.Meetings.Page, Error: a.Meetings.Error, Note: notices.MeetingsNote}
			}
			return out, nil
		})
	t.Limits = []string{"q: at most 500 characters", "limit: 1–50", "results are paged with next_cursor"}
	t.Examples = []Example{
		{"Open construction solicitations", map[string]any{"q": "construction", "lens": []string{"money"}, "open": true}},
		{"Notices about a need in other words", map[string]any{"q": "lift repair in apartment buildings", "mode": "hybrid"}},
		{"Awards of at least $1 million from Parks", map[string]any{"agency": "Parks and Recreation", "notice_type": "Award", "min_amount": 1000000}},
	}
	return t
}

// one is a single optional value as a list (none when empty).
func one(v string) []string {
	if v == "" {
		return nil
	}
	return []string{v}
}
