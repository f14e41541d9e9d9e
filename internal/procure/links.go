package procure

import (
	"context"

	"github.com/recordwatch/recordwatch/internal/joins"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Links reads the links held that have one of refs at either end and, when
// pair is set ("contract-payment"), join that pair of kinds. At most
// joins.MaxRead links are read (joins.Read); complete is false when more are held.
//
// Errors: EUNAVAILABLE when the records cannot be read.
func (s *Service) Links(ctx context.Context, refs []record.Ref, pair string) (links []record.Link, complete bool, err error) {
	rs, err := s.RecordReader()
	if err != nil {
		return nil, false, err
	}
	return joins.Read(ctx, rs, refs, pair)
}
