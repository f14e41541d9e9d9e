package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/people"
	"github.com/recordwatch/recordwatch/internal/record"
)

type browseOrganizationsIn struct {
	RowType string `json:"row_type,omitempty"`
	Token   string `json:"token,omitempty"`
	Agency  string `json:"agency,omitempty"`
	Release string `json:"release,omitempty"`
	Limit   int    `json:"limit,omitempty"`
	Cursor  string `json:"cursor,omitempty"`
}

func browseOrganizations(d *Deps) Tool {
	t := newTool(d, "browse_organizations", "Browse people and organization rows", ClassRead,
		"Bounded, stable pages (row id order) of one roster release: the NYC Agencies and Governance Organizations "+
			"roster's organizations and the persons it prints as principal officers. Filters are exact: row_type (person or "+
			"organization), token (one word of a name, acronym or official name variant; case and punctuation ignored), "+
			"agency (a crosswalk agency the organization is) and release (a release date; the newest release held when "+
			"omitted). freshness names the release read, every release held and when the read model was written; a "+
			"release is dated and never says who holds a role now. Follow next_cursor for the rest; no rows never proves "+
			"no such organization or person exists.",
		[]int{1},
		func(s *jsonschema.Schema) {
			p := prop(s, "row_type")
			p.Enum = []any{people.TypePerson, people.TypeOrganization}
			p.Description = "person or organization (both when omitted)."
			bounded(s, "token", 60, "One word, matched exactly against the words of names, acronyms and name variants (\"parks\", \"acs\").")
			bounded(s, "agency", record.MaxNameLen, "Agency label, name or canonical id (GET /agencies lists them).")
			bounded(s, "release", 10, "Release date YYYY-MM-DD (freshness.releases_held lists them).")
			prop(s, "release").Pattern = datePattern
			limitProp(s, people.MaxLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in browseOrganizationsIn) (people.Page, error) {
			svc, err := d.people()
			if err != nil {
				return people.Page{}, err
			}
			return svc.Browse(ctx, people.Filter{Type: in.RowType, Token: in.Token, Agency: in.Agency, Release: in.Release},
				in.Cursor, limitOr(in.Limit, people.DefaultLimit))
		})
	t.Limits = []string{"limit: at most 100 rows per page (default 20); follow next_cursor for the rest", "one release per page: the newest unless release is given"}
	t.Examples = []Example{{"Persons printed with one name word", map[string]any{"row_type": "person", "token": "matthew"}},
		{"The roster row of an agency", map[string]any{"agency": "ACS"}}}
	return t
}
