package embedded

import (
	"os"
	"sync/atomic"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"
	segment "github.com/blevesearch/scorch_segment_api/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// Read-pattern hints on the segment files (issue 50, item 3). Zap maps
// each segment file and reads it through page faults; with no hint, the
// kernel reads ahead around every fault (on Linux up to the device's
// read-ahead window, megabytes), so a query that touches a few postings
// and stored documents of a segment not in the page cache reads far more
// than it uses, and its tail waits on the disk. Here scorch's zap plugin
// is zap itself with hints added:
//
//   - a segment opened to serve is advised random access over its data
//     (stored documents and their index, dictionaries, postings and
//     doc values: everything before the sections index, read a few pages
//     at a time by queries); the sections index and footer, read once at
//     open, keep the default;
//   - a segment read by a merge is advised sequential access for the time
//     of the merge (it is read once, start to end), then random again (it
//     serves until the merged segment replaces it).
//
// The format is zap's, unchanged: the plugin keeps zap's type and version,
// so indexes written before read the same. Elsewhere than Linux the hints
// are not given (advise_other.go).

// hint is a read-pattern hint.
type hint int

const (
	hintRandom hint = iota
	hintSequential
)

// adviseHook, when set (tests), sees every hint given: the segment file,
// the hint and the bytes it covers.
var adviseHook atomic.Pointer[func(path string, h hint, bytes int)]

// advisedZap is zap v17 with read-pattern hints on the files it maps.
type advisedZap struct{ zap.ZapPlugin }

func init() {
	// the same type and version as zap v17: scorch picks it for every
	// index of that format, new or existing
	scorch.RegisterSegmentPlugin(&advisedZap{}, true)
}

func (p *advisedZap) Open(path string) (segment.Segment, error) {
	return p.OpenUsing(path, nil)
}

func (p *advisedZap) OpenUsing(path string, config map[string]interface{}) (segment.Segment, error) {
	s, err := p.ZapPlugin.OpenUsing(path, config)
	if err == nil {
		advise(s, hintRandom)
	}
	return s, err
}

func (p *advisedZap) Merge(segments []segment.Segment, drops []*roaring.Bitmap, path string,
	closeCh chan struct{}, s segment.StatsReporter) ([][]uint64, uint64, error) {
	return p.MergeUsing(segments, drops, path, closeCh, s, nil)
}

func (p *advisedZap) MergeUsing(segments []segment.Segment, drops []*roaring.Bitmap, path string,
	closeCh chan struct{}, s segment.StatsReporter, config map[string]interface{}) ([][]uint64, uint64, error) {
	// scorch holds every input until the merged segment replaces it, so
	// none is unmapped while its hints change
	for _, seg := range segments {
		advise(seg, hintSequential)
	}
	defer func() {
		for _, seg := range segments {
			advise(seg, hintRandom)
		}
	}()
	return p.ZapPlugin.MergeUsing(segments, drops, path, closeCh, s, config)
}

var pageSize = os.Getpagesize()

// advise gives h over a mapped segment's data: from the start of the
// mapping (page aligned) to the last whole page before its sections
// index. Segments in memory (a batch not yet persisted) are not mapped
// and get none; a hint refused is only a lost hint.
func advise(seg segment.Segment, h hint) {
	s, ok := seg.(*zap.Segment)
	if !ok {
		return
	}
	data := s.Data()
	end := min(int(s.SectionsIndexOffset()), len(data))
	end -= end % pageSize
	if end <= 0 {
		return
	}
	if madvise(data[:end], h) == nil {
		if f := adviseHook.Load(); f != nil {
			(*f)(s.Path(), h, end)
		}
	}
}
