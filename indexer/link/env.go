package link

import "github.com/recordwatch/recordwatch/internal/search"

// Env is what the link stage of a record kind works with: the identity
// rules (Linker) and the City Record notices already held, to find the
// notices a record is linked to (a land project's ULURP numbers, a
// meeting's hearing notice). Notices may be nil (nothing held yet): links
// to notices are then left undecided, never "not linked".
//
// Records are the typed records held (registrations and payments a new
// record is joined to); Links keeps the link records the stage finds, for
// the pipeline to write. Either may be nil: no joins are then kept.
type Env struct {
	Linker  Linker
	Notices search.Reader
	Records search.RecordReader
	Links   *Links
}
