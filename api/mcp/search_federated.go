package mcp

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/search"
)

type federatedIn struct {
	Q      string   `json:"q"`
	Scope  []string `json:"scope,omitempty"`
	Limit  int      `json:"limit,omitempty"`
	Cursor string   `json:"cursor,omitempty"`
}

// FederatedOut is one ranked page of typed objects across the registered
// lenses, with per-lens coverage (federated.Page, the JSON of
// GET /api/search/federated).
type FederatedOut = federated.Page

// federatedService is the federated search (Form 1's: the only form
// that lists the tool).
func (d *Deps) federatedService() *federated.Service { return d.Federated }

func searchFederated(d *Deps) Tool {
	t := newTool(d, "search_federated", "Search across every lens", ClassRead,
		"One bounded, ranked result set of typed objects across the registered lenses: "+strings.Join(federated.Lenses, ", ")+". "+
			"Notices are matched by full text; agencies, community boards, vendors, contracts, land projects, meetings, people and "+
			"organizations and payroll rows by their exact ids, keys and name words (lens_coverage[].matched_on says how, per lens). "+
			"Each result has its kind, id, title, why it matched (match.tier exact / name / related, match.rule) and its exact object "+
			"route (route: the JSON twin; permalink: the page). lens_coverage says per lens whether it was searched, not ingested, "+
			"unavailable or not in scope, with its sources, matched and returned counts and browse routes that read every match. "+
			"Optional scope limits the search to an allow-list of lenses. Keywords only: no raw query language is accepted. "+
			"Ranking: "+federated.Ranking,
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "q", search.MaxTextLen, `Keywords: an agency (NYPD, DOT, Parks), a vendor, a name, an id (contract ID, project id, ULURP number, BBL, request id). `+
				`Notices OR-match the words; "quoted phrase" for exact phrases, -word to exclude.`)
			prop(s, "q").MinLength = ptr(1)
			p := prop(s, "scope")
			p.Types = nil
			p.Type = "array"
			p.Items = &jsonschema.Schema{Type: "string"}
			p.MaxItems = ptr(len(federated.Lenses))
			p.Description = "Only these lenses (allow-list), any of: " + strings.Join(federated.Lenses, ", ") + ". Omit to search all of them."
			limitProp(s, federated.MaxLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in federatedIn) (FederatedOut, error) {
			return d.federatedService().Search(ctx, federated.Request{Q: in.Q, Scope: in.Scope, Limit: in.Limit, Cursor: in.Cursor})
		})
	t.Limits = []string{"limit: 1–50 (default 20)", "at most 100 ranked objects per search, paged with next_cursor; each lens's browse routes read the rest",
		"scope: registered lenses only"}
	t.Examples = []Example{
		{"Everything held about the NYPD: the agency, its notices, contracts, payroll rows and roster row", map[string]any{"q": "NYPD"}},
		{"A pier, in notices and land projects only", map[string]any{"q": "pier", "scope": []string{"notices", "land_projects"}}},
	}
	return t
}
