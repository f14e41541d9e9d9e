package land

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// An empty page of land projects offers its nearest widening (issue 49,
// item 4): the same filters without one of them, tried in this order (the
// state of the review first: "no project at this stage" is most often
// answered by the same projects at another), never without an identifier
// asked for (a BBL, an application or CEQR number: a project not found by
// its number is not found).

// drop is a widening step that leaves out one filter field.
func drop(without, words string, field func(*Filter) *string) record.WideningStep[Filter] {
	return record.Drop(without, words, field, record.Set)
}

var widenings = []record.WideningStep[Filter]{
	drop("status", "without the status", func(f *Filter) *string { return &f.Status }),
	drop("stage", "without the stage", func(f *Filter) *string { return &f.Stage }),
	drop("action", "without the action", func(f *Filter) *string { return &f.Action }),
	drop("procedure", "without the review procedure", func(f *Filter) *string { return &f.Procedure }),
	drop("effect", "without the effect", func(f *Filter) *string { return &f.Effect }),
	drop("community_district", "without the community district", func(f *Filter) *string { return &f.CommunityDistrict }),
	drop("borough", "without the borough", func(f *Filter) *string { return &f.Borough }),
	drop("word", "without the words", func(f *Filter) *string { return &f.Word }),
}

// widen is the widening of an empty page for the normalized filter f (nil
// when none of the tries matches anything, or f names an identifier).
func widen(ctx context.Context, rs search.Records, f Filter) (*record.Widening, error) {
	if f.BBL != "" || f.ULURP != "" || f.CEQR != "" {
		return nil, nil
	}
	return record.Widen(ctx, f, widenings, "land project(s)", func(ctx context.Context, f Filter) (record.WideningCount, error) {
		q, _, err := query(ctx, rs, f)
		if err != nil {
			return record.WideningCount{}, err
		}
		q.Sort, q.Limit = search.RecordSortDateDesc, 1
		p, err := search.Find(ctx, rs, ProjectKind, q)
		if err != nil || p.Total == 0 {
			return record.WideningCount{}, err
		}
		out := record.WideningCount{Matched: p.Total}
		if d := p.Items[0].LastDate; !d.IsZero() {
			out.Newest = d.In(record.NewYork).Format("2006-01-02")
		}
		return out, nil
	})
}

// query is the record query of a filter as Browse asks it: its keys, and
// when it names several words, the ids of the projects that hold them all
// (namedIDs; none: an id no project has).
func query(ctx context.Context, rs search.Records, f Filter) (search.RecordQuery, Filter, error) {
	q, norm, err := f.Query()
	if err != nil {
		return q, norm, err
	}
	if words := NameWords(norm.Word); len(words) > 1 {
		ids, err := namedIDs(ctx, rs, words, q.Keys)
		if err != nil {
			return q, norm, err
		}
		if q.IDs = ids; len(ids) == 0 {
			q.IDs = []string{noProject}
		}
	}
	return q, norm, nil
}
