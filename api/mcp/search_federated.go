package mcp

import (
	"context"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/federated"
	"github.com/recordwatch/recordwatch/internal/search"
)

type federatedIn struct {
	Q           string   `json:"q"`
	Collections []string `json:"collections,omitempty"`
	// Scope is the former name of Collections, still read as the same list.
	Scope  []string `json:"scope,omitempty"`
	Limit  int      `json:"limit,omitempty"`
	Cursor string   `json:"cursor,omitempty"`
}

// federatedService is the federated search (Form 1's: the only form
// that lists the tool).
func (d *Deps) federatedService() *federated.Service { return d.Federated }

func searchFederated(d *Deps) Tool {
	t := newTool(d, "search_federated", "Search across every collection", ClassRead,
		"One bounded, ranked result set of typed objects across the registered collections: "+strings.Join(federated.Collections, ", ")+". "+
			"Notices are matched by full text; agencies, community boards, vendors, contracts, land projects, meetings, people and "+
			"organizations and payroll rows by their exact ids, keys and name words (collection_coverage[].matched_on says how, per collection). "+
			"Each result has its kind, id, title, why it matched (match.tier exact / name / related, match.rule) and its exact object "+
			"route (route: the JSON twin; permalink: the page). collection_coverage says per collection whether it was searched, not ingested, "+
			"unavailable or not in scope, with its sources, matched and returned counts and browse routes that read every match. "+
			"Optional collections limits the search to an allow-list of collections (groups of object kinds; not the notice lenses "+
			"money, land … of search_notices). Keywords only: no raw query language is accepted. "+
			"Ranking: "+federated.Ranking,
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "q", search.MaxTextLen, `Keywords: an agency (NYPD, DOT, Parks), a vendor, a name, an id (contract ID, project id, ULURP number, BBL, request id). `+
				`Notices OR-match the words; "quoted phrase" for exact phrases, -word to exclude.`)
			prop(s, "q").MinLength = ptr(1)
			collectionsProp(s, "collections", "Only these collections (allow-list). Omit to search all of them.")
			collectionsProp(s, "scope", "Deprecated: the former name of collections, read as the same list.")
			limitProp(s, federated.MaxLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in federatedIn) (federated.Page, error) {
			return d.federatedService().Search(ctx, federated.Request{Q: in.Q, Collections: append(in.Collections, in.Scope...), Limit: in.Limit, Cursor: in.Cursor})
		})
	t.Limits = []string{"limit: 1–50 (default 20)", "at most 100 ranked objects per search, paged with next_cursor; each collection's browse routes read the rest",
		"collections: registered collections only"}
	t.Examples = []Example{
		{"Everything held about the NYPD: the agency, its notices, contracts, payroll rows and roster row", map[string]any{"q": "NYPD"}},
		{"A pier, in notices and land projects only", map[string]any{"q": "pier", "collections": []string{federated.CollectionNotices, federated.CollectionLandProjects}}},
	}
	return t
}

// collectionsProp is an allow-list of federated.Collections, as an enum.
func collectionsProp(s *jsonschema.Schema, name, desc string) {
	p := prop(s, name)
	p.Types = nil
	p.Type = "array"
	p.Items = &jsonschema.Schema{Type: "string", Enum: stringEnum(federated.Collections)}
	p.MaxItems = ptr(len(federated.Collections))
	p.Description = desc
}
