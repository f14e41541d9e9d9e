package embedded

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	zap "github.com/blevesearch/zapx/v17"
	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// Integrity of the index files. Bleve's segments (zap files) end with a
// CRC-32 of everything before it, which Bleve writes but never verifies:
// a segment with flipped bytes is served as it reads (garbled text, or a
// decoding error), and a truncated one fails the whole open. So Open
// verifies, before Bleve sees them, every segment that a snapshot in each
// index's root.bolt names: its size (at least a footer) and its checksum.
// A segment that fails is refused: its entry is deleted from the
// snapshots, the file is moved to quarantine/ (kept for a post-mortem,
// removed by hand), and the damage is written to damage.json, which
// outlives restarts until the indexer has loaded the records again from
// their sources and says so (Repaired). Until then Damaged reports it
// (/readyz, /api/sources) and a read of a record it held answers
// "unavailable", never "not found" and never its garbled text.
//
// Verifying reads every segment once per open (CRC-32 runs at several
// GB/s; the bundled sample's index is a few tens of megabytes). What is
// not covered: bytes that change under a running process (the check runs
// at open), and a damaged root.bolt (Bleve's own bbolt file), which fails
// the open with its cause named.

const (
	damageFile    = "damage.json"
	quarantineDir = "quarantine"
	// zapFooterMin is the shortest zap footer (v11–v17 all end with at
	// least a CRC, a version, a chunk mode and three offsets).
	zapFooterMin = 4 + 4 + 4 + 8 + 8 + 8
)

var (
	boltSnapshots = []byte{'s'} // bleve/v2/util: BoltSnapshotsBucket
	boltPath      = []byte{'p'} // a segment's file name
	boltInternal  = byte('i')
	boltMeta      = byte('m')
)

// verifySegment reports why the segment file at path may not be served:
// missing, shorter than a footer, or failing its checksum.
func verifySegment(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	if size < zapFooterMin {
		return fmt.Errorf("truncated: %d bytes, shorter than a segment footer", size)
	}
	h := crc32.NewIEEE()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, size-4)); err != nil {
		return err
	}
	var stored [4]byte
	if _, err := f.ReadAt(stored[:], size-4); err != nil {
		return err
	}
	if got, want := h.Sum32(), binary.BigEndian.Uint32(stored[:]); got != want {
		return fmt.Errorf("checksum mismatch (CRC-32 %08x, footer says %08x): damaged or truncated", got, want)
	}
	return nil
}

// segmentIDs reads the document ids a refused segment held from its id
// term dictionary, when that part of it can still be read; ok is false
// otherwise (a truncated file, a damaged dictionary, another zap version).
// A fault or panic reading the damaged file is caught.
func segmentIDs(path string) (ids []string, ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			ids, ok = nil, false
		}
	}()
	seg, err := (&zap.ZapPlugin{}).Open(path)
	if err != nil {
		return nil, false
	}
	defer seg.Close()
	d, err := seg.Dictionary("_id")
	if err != nil {
		return nil, false
	}
	it := d.AutomatonIterator(nil, nil, nil)
	for {
		e, err := it.Next()
		if err != nil {
			return nil, false
		}
		if e == nil {
			return ids, true
		}
		ids = append(ids, e.Term)
	}
}

// checkSegments verifies the segments of every index under dir and refuses
// those that fail (see above), returning the damage found now.
func checkSegments(dir string, now time.Time) ([]search.Damage, error) {
	var found []search.Damage
	for _, name := range indexNames {
		store := filepath.Join(dir, name, "store")
		root := filepath.Join(store, "root.bolt")
		if _, err := os.Stat(root); errors.Is(err, os.ErrNotExist) {
			continue
		}
		d, err := checkIndex(dir, strings.TrimSuffix(name, ".bleve"), store, root, now)
		if err != nil {
			return nil, err
		}
		found = append(found, d...)
	}
	return found, nil
}

func checkIndex(dir, index, store, root string, now time.Time) ([]search.Damage, error) {
	db, err := bolt.Open(root, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, openFault(root, err)
	}
	defer db.Close()
	bad := map[string]error{} // file name → why, for every file checked
	var damage []search.Damage
	err = db.Update(func(tx *bolt.Tx) error {
		snaps := tx.Bucket(boltSnapshots)
		if snaps == nil {
			return nil
		}
		return snaps.ForEachBucket(func(epoch []byte) error {
			snap := snaps.Bucket(epoch)
			var refuse [][]byte
			err := snap.ForEachBucket(func(k []byte) error {
				if len(k) == 0 || k[0] == boltInternal || k[0] == boltMeta {
					return nil
				}
				p := snap.Bucket(k).Get(boltPath)
				if p == nil {
					return nil
				}
				file := string(p)
				why, seen := bad[file]
				if !seen {
					why = verifySegment(filepath.Join(store, file))
					bad[file] = why
					if why != nil {
						damage = append(damage, search.Damage{Index: index, Segment: file, Reason: why.Error(), FoundAt: now, Records: -1})
					}
				}
				if why != nil {
					refuse = append(refuse, append([]byte(nil), k...))
				}
				return nil
			})
			if err != nil {
				return err
			}
			for _, k := range refuse {
				if err := snap.DeleteBucket(k); err != nil {
					return err
				}
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("embedded: refuse the damaged segments of %s: %w", root, err)
	}
	for i, d := range damage {
		from := filepath.Join(store, d.Segment)
		if ids, ok := segmentIDs(from); ok {
			damage[i].IDs, damage[i].Records = ids, len(ids)
		}
		to := filepath.Join(dir, quarantineDir, index+"-"+d.Segment)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return nil, err
		}
		if err := os.Rename(from, to); err == nil {
			damage[i].Quarantine = to
		} else if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		slog.Error("embedded: a damaged index segment was refused; its records are unavailable until they are loaded again from their source",
			"index", index, "segment", d.Segment, "reason", d.Reason, "records", damage[i].Records, "quarantine", damage[i].Quarantine)
	}
	return damage, nil
}

// readDamage reads damage.json (none when it is missing).
func readDamage(dir string) ([]search.Damage, error) {
	b, err := os.ReadFile(filepath.Join(dir, damageFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var d []search.Damage
	if err := json.Unmarshal(b, &d); err != nil {
		// the record of damage is itself unreadable: say the worst, that
		// some records of every index are unavailable until reloaded
		return []search.Damage{{Index: "all", Segment: damageFile, Reason: "the record of earlier damage is unreadable", Records: -1}}, nil
	}
	return d, nil
}

// writeDamage writes damage.json (removes it when d is empty), synced
// before it is renamed into place.
func writeDamage(dir string, d []search.Damage) error {
	path := filepath.Join(dir, damageFile)
	if len(d) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".new"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(tmp, path)
	}
	return err
}

// Damaged lists the segments refused as damaged whose records were not yet
// loaded again (search.Integrity).
func (b *Backend) Damaged() []search.Damage {
	b.dmu.Lock()
	defer b.dmu.Unlock()
	return slices.Clone(b.damage)
}

// Repaired is the indexer's word that the records of the damaged segments
// were loaded again from their sources: the damage is forgotten (the
// quarantined files stay until removed by hand).
func (b *Backend) Repaired(ctx context.Context) error {
	b.dmu.Lock()
	defer b.dmu.Unlock()
	if len(b.damage) == 0 {
		return nil
	}
	if err := writeDamage(b.dir, nil); err != nil {
		return fmt.Errorf("embedded: forget the repaired damage: %w", err)
	}
	slog.Info("embedded: the records of the refused segments were loaded again", "segments", len(b.damage))
	b.damage = nil
	return nil
}

// lost reports whether id, not found in index, may have been in a segment
// refused as damaged: its answer is then "unavailable", not "not found".
func (b *Backend) lost(index, id string) bool {
	b.dmu.Lock()
	defer b.dmu.Unlock()
	for _, d := range b.damage {
		if d.Index != index && d.Index != "all" {
			continue
		}
		if d.Records < 0 || slices.Contains(d.IDs, id) {
			return true
		}
	}
	return false
}

// lostError is the answer for a record of a refused segment.
func lostError(what, id string) error {
	return record.Errorf(record.EUNAVAILABLE, "the %s %q may be in a part of the search index that was found damaged and set aside; "+
		"it is being loaded again from its source: try again later", what, id)
}

// openFault names why a file of the index could not be opened (bbolt's
// timeout is another process's lock).
func openFault(path string, err error) error {
	return fmt.Errorf("embedded: %w", record.OpenFault("the search index", path, err, errors.Is(err, bolt.ErrTimeout)))
}
