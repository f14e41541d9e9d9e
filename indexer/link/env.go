package link

import "github.com/recordwatch/recordwatch/internal/search"

// Env is what the link stage of a record kind works with: the identity
// rules (Linker) and the City Record notices already held, to find the
// notices a record is linked to (a land project's ULURP numbers, a
// meeting's hearing notice). Notices may be nil (nothing held yet): links
// to notices are then left undecided, never "not linked".
type Env struct {
	Linker  Linker
	Notices search.Reader
}
