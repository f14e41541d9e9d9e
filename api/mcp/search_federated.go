package mcp

import (
	"context"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// federatedLenses are the lenses registered for federated search, in order.
var federatedLenses = []string{record.LensMoney, record.LensLand, record.LensProperty, record.LensRules, record.LensMeetings, record.LensPeople}

type federatedIn struct {
	Q      string   `json:"q"`
	Scope  []string `json:"scope,omitempty"`
	Limit  int      `json:"limit,omitempty"`
	Cursor string   `json:"cursor,omitempty"`
}

// LensCoverage is how one lens took part in a federated search.
type LensCoverage struct {
	Lens     string `json:"lens"`
	Searched bool   `json:"searched"`
	Matched  int    `json:"matched"`
	Note     string `json:"note,omitempty"`
}

// FederatedOut is one ranked result set across lenses.
type FederatedOut struct {
	Results    []NoticeRef    `json:"results"`
	Total      int            `json:"total"`
	NextCursor string         `json:"next_cursor,omitempty"`
	Lenses     []LensCoverage `json:"lens_coverage"`
	Ranking    string         `json:"ranking"`
	Scope      record.Scope   `json:"scope"`
}

func searchFederated(d *Deps) Tool {
	t := newTool(d, "search_federated", "Search across every lens", ClassRead,
		"One bounded, ranked result set across the registered lenses (money, land, property, rules, meetings, people). "+
			"Optional scope limits the search to an allow-listed subset of lenses. Returns per-lens coverage (searched or not, "+
			"matches), the exact object route of each result (route, permalink, official_url) and the shared scope. "+
			"Keywords only: no raw query language is accepted.",
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "q", search.MaxTextLen, `Keywords, OR-matched. "quoted phrase" for exact phrases, -word to exclude.`)
			prop(s, "q").MinLength = ptr(1)
			lensProp(s, "scope", "Only these lenses (allow-list). Omit to search all of them.")
			limitProp(s, 30)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in federatedIn) (FederatedOut, error) {
			lenses := federatedLenses
			if len(in.Scope) > 0 {
				lenses = nil
				for _, l := range in.Scope {
					if !slices.Contains(federatedLenses, l) {
						return FederatedOut{}, record.Invalid("scope", "%q is not a registered lens; use %v", l, federatedLenses)
					}
					if !slices.Contains(lenses, l) {
						lenses = append(lenses, l)
					}
				}
			}
			q := search.Query{Text: in.Q, Lenses: lenses, Sort: search.SortRelevance, Limit: limitOr(in.Limit, search.DefaultLimit),
				Cursor: in.Cursor, Facets: true}
			k, err := search.ParseKeywords(in.Q)
			if err != nil {
				return FederatedOut{}, err
			}
			if k.Empty() {
				return FederatedOut{}, record.Invalid("q", "q needs at least one keyword or phrase")
			}
			res, refs, err := d.runCtx(ctx, q)
			if err != nil {
				return FederatedOut{}, err
			}
			counts := map[string]int{}
			for _, f := range res.Facets[search.FacetLens] {
				counts[f.Value] = f.Count
			}
			out := FederatedOut{Results: refs, Total: res.Total, NextCursor: res.NextCursor, Scope: res.Scope,
				Ranking: "One relevance ranking (BM25) over every searched lens; a notice in two lenses appears once."}
			for _, l := range federatedLenses {
				lc := LensCoverage{Lens: l, Searched: slices.Contains(lenses, l), Matched: counts[l]}
				if !lc.Searched {
					lc.Matched = 0
					lc.Note = "not in the requested scope"
				} else if lc.Matched == 0 {
					lc.Note = "no hits in this lens; that does not mean no record exists"
				}
				out.Lenses = append(out.Lenses, lc)
			}
			return out, nil
		})
	t.Limits = []string{"limit: 1–30", "results are paged with next_cursor", "scope: allow-listed lenses only"}
	t.Examples = []Example{{"Anything about a pier, in money and land", map[string]any{"q": "pier", "scope": []string{"money", "land"}}}}
	return t
}
