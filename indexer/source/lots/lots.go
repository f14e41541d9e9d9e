// Package lots is the former name of package zap, kept for callers not yet
// moved.
//
// Deprecated: use github.com/recordwatch/recordwatch/indexer/source/zap.
package lots

import (
	"io/fs"

	"github.com/recordwatch/recordwatch/indexer/source/zap"
	"github.com/recordwatch/recordwatch/internal/search"
)

// LoadDir is zap.LoadDir.
//
// Deprecated: use zap.LoadDir.
func LoadDir(fsys fs.FS, dir string) ([]search.Entry, []error) { return zap.LoadDir(fsys, dir) }
