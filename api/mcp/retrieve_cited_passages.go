package mcp

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/view"
)

type passagesIn struct {
	Q      string   `json:"q"`
	Lens   []string `json:"lens,omitempty"`
	Agency string   `json:"agency,omitempty"`
	From   string   `json:"from,omitempty"`
	To     string   `json:"to,omitempty"`
	Limit  int      `json:"limit,omitempty"`
	Cursor string   `json:"cursor,omitempty"`
	// ExactCount counts every passage (exactCountProp).
	ExactCount bool `json:"exact_count,omitempty"`
}

func retrieveCitedPassages(d *Deps) Tool {
	t := newTool(d, "retrieve_cited_passages", "Retrieve cited source passages", ClassRead,
		"Return passages quoted from City Record notices that match the keywords, each with a stable citation "+
			"(<request_id>#p<n>), character offsets into the source text and the exact source link, plus the search scope "+
			"(corpus date, source types, record and passage counts, first and last source dates) even when nothing matches. "+
			"It writes no answer and infers no links between records: compose your answer from the quoted text and cite it.",
		[]int{1},
		func(s *jsonschema.Schema) {
			bounded(s, "q", search.MaxTextLen, `Keywords, OR-matched. "quoted phrase" for exact phrases, -word to exclude.`)
			prop(s, "q").MinLength = ptr(1)
			lensProp(s, "lens", "Only passages from notices in these lenses.")
			bounded(s, "agency", record.MaxNameLen, "Agency as printed in the record, or a canonical agency id.")
			dateProp(s, "from", "Published on or after (YYYY-MM-DD).")
			dateProp(s, "to", "Published on or before (YYYY-MM-DD).")
			limitProp(s, 20)
			cursorProp(s)
			exactCountProp(s)
		},
		func(ctx context.Context, d *Deps, in passagesIn) (view.PassagePage, error) {
			from, err := record.ParseDay("from", in.From)
			if err != nil {
				return view.PassagePage{}, err
			}
			to, err := record.ParseDay("to", in.To)
			if err != nil {
				return view.PassagePage{}, err
			}
			agencies, err := d.agencyID(in.Agency)
			if err != nil {
				return view.PassagePage{}, err
			}
			res, err := d.Search.Passages(ctx, search.PassageQuery{Text: in.Q, Lenses: in.Lens, AgencyIDs: agencies,
				From: from, To: to, Limit: limitOr(in.Limit, 10), Cursor: in.Cursor, ExactCount: in.ExactCount})
			if err != nil {
				return view.PassagePage{}, err
			}
			return view.Links{Base: d.BaseURL}.Passages(res), nil
		})
	t.Limits = []string{"limit: 1–20 passages", "passages are about 500–1,000 characters"}
	t.Examples = []Example{{"What the Property Clerk says about unclaimed property", map[string]any{"q": `"property clerk" unclaimed`}}}
	return t
}
