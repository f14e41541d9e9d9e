package embedded

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2"
	zap "github.com/blevesearch/zapx/v17"
)

// IndexDisk is where one index's bytes on disk go (DiskUsage).
type IndexDisk struct {
	Name  string `json:"name"`
	Docs  uint64 `json:"docs"`
	Bytes int64  `json:"bytes"` // every file of the index's directory
	// Stored is the stored-fields part of its segment files (compressed
	// document by document); the rest of the segments is the postings,
	// term dictionaries and doc values
	Stored   int64 `json:"stored"`
	Segments int64 `json:"segments"` // the segment files
	// Fields is each stored field's bytes before compression
	Fields map[string]int64 `json:"fields"`
}

// DiskReport is where the bytes of an engine's data directory go.
type DiskReport struct {
	Indexes []IndexDisk `json:"indexes"`
	Vectors int64       `json:"vectors"` // vectors.ann
	Total   int64       `json:"total"`   // every file under the directory
}

// DiskUsage reads, without changing anything, where the bytes of the
// closed indexes under dir go: per index its segments' stored fields
// (from the segment layout: they come first in a zap file) and the rest,
// and each stored field's size before compression. For the benchmark's
// report (bench); it reads every stored document.
func DiskUsage(dir string) (DiskReport, error) {
	var rep DiskReport
	var err error
	if rep.Total, err = treeSize(dir); err != nil {
		return rep, err
	}
	if fi, err := os.Stat(filepath.Join(dir, vectorsFile)); err == nil {
		rep.Vectors = fi.Size()
	}
	for _, name := range indexNames {
		path := filepath.Join(dir, name)
		d := IndexDisk{Name: name, Fields: map[string]int64{}}
		if d.Bytes, err = treeSize(path); err != nil {
			return rep, err
		}
		idx, err := bleve.OpenUsing(path, map[string]interface{}{"read_only": true})
		if err != nil {
			return rep, err
		}
		err = indexDisk(idx, &d)
		err = errors.Join(err, idx.Close())
		if err != nil {
			return rep, err
		}
		rep.Indexes = append(rep.Indexes, d)
	}
	return rep, nil
}

func indexDisk(idx bleve.Index, d *IndexDisk) error {
	snap, err := indexSnapshot(idx)
	if err != nil {
		return err
	}
	defer snap.Close()
	for _, s := range snap.Segments() {
		seg, ok := s.Segment().(*zap.Segment)
		if !ok {
			return errNotScorch
		}
		d.Docs += s.Count()
		d.Segments += int64(len(seg.Data()))
		d.Stored += int64(seg.StoredIndexOffset() + 8*seg.NumDocs())
		for n := range seg.NumDocs() {
			if err := seg.VisitStoredFields(n, func(field string, _ byte, value []byte, _ []uint64) bool {
				d.Fields[field] += int64(len(value))
				return true
			}); err != nil {
				return err
			}
		}
	}
	return nil
}

func treeSize(dir string) (int64, error) {
	var total int64
	err := filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if info.Mode().IsRegular() {
			total += info.Size()
		}
		return nil
	})
	return total, err
}
