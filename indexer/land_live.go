package indexer

import (
	"context"

	"github.com/recordwatch/recordwatch/indexer/source/zap"
)

// RunLandLive fetches the land tables live (zap.LandFetcher: Open Data
// projects and project BBLs, portal answers of the ids asked for) and
// loads what it read through the land source, like the bundled files:
// merged by project id, linked with the notices held, written; rows read,
// records written and rejected are reported.
func (ix *Indexer) RunLandLive(ctx context.Context, f *zap.LandFetcher) (Report, error) {
	got, skipped, err := f.Fetch(ctx)
	for _, e := range skipped {
		ix.log().Warn("land live fetch: skipped", "err", e)
	}
	if err != nil {
		return Report{Errors: skipped}, err
	}
	rep, err := ix.Load(ctx, landSource{}, got.FS, got.Dir)
	rep.Errors = append(rep.Errors, skipped...)
	return rep, err
}
