package mcp

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// absent is why no record with id is held, for a by-id tool's not_found
// answer: the typed absence of one record over the sources of kinds
// (search.RecordAbsence, the rule the API's 404s follow).
func (d *Deps) absent(ctx context.Context, id string, kinds ...string) *record.EmptyAnswer {
	return search.RecordAbsence(ctx, d.Search, d.Search, kinds, id)
}
