package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
)

// The state file is checked before bbolt maps it into memory: bbolt trusts
// its header, so a file cut short (a full disk during a copy, a truncated
// backup) is mapped past its end and the first read of a missing page
// kills the process with SIGBUS. checkBoltFile reads the two header (meta)
// pages as bbolt lays them out, verifies their checksums and compares the
// size the newest valid one states with the file's; after the open, the
// whole file is walked by bbolt's own consistency check (Tx.Check).

// The meta page as bbolt v1 writes it (go.etcd.io/bbolt/internal/common:
// a 16-byte page header, then magic, version, page size, flags, root
// bucket (16), freelist, high-water page id, txid and an FNV-64a checksum
// of everything before it), in the machine's byte order.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	boltPageHeader = 16
	boltMetaSize   = 64
	boltSumOffset  = 56
)

type boltMeta struct {
	pageSize uint32
	pgid     uint64 // pages in use: the file holds at least pgid × pageSize bytes
	txid     uint64
}

// readBoltMeta reads the meta page at off; an error says why it is not valid.
func readBoltMeta(f *os.File, off int64) (boltMeta, error) {
	buf := make([]byte, boltPageHeader+boltMetaSize)
	if _, err := f.ReadAt(buf, off); err != nil {
		if errors.Is(err, io.EOF) {
			return boltMeta{}, errors.New("missing")
		}
		return boltMeta{}, err
	}
	m := buf[boltPageHeader:]
	e := binary.NativeEndian
	if e.Uint32(m[0:]) != boltMagic {
		return boltMeta{}, errors.New("not a bbolt header")
	}
	if v := e.Uint32(m[4:]); v != boltVersion {
		return boltMeta{}, fmt.Errorf("format version %d, not %d", v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:boltSumOffset])
	if h.Sum64() != e.Uint64(m[boltSumOffset:]) {
		return boltMeta{}, errors.New("checksum mismatch")
	}
	meta := boltMeta{pageSize: e.Uint32(m[8:]), pgid: e.Uint64(m[40:]), txid: e.Uint64(m[48:])}
	if meta.pageSize < 512 || meta.pageSize > 1<<20 || meta.pageSize&(meta.pageSize-1) != 0 {
		return boltMeta{}, fmt.Errorf("page size %d", meta.pageSize)
	}
	return meta, nil
}

// checkBoltFile reports, as a corruption, a state file whose header pages
// both fail their checksums or that is shorter than its newest valid
// header says. A missing or empty file is fine (bbolt creates one).
func checkBoltFile(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err // classified by the caller
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	if size == 0 {
		return nil
	}
	corrupt := func(format string, args ...any) error {
		return &record.OpenFaultError{What: "the state store", Path: path, Kind: record.OpenCorrupt, Err: fmt.Errorf(format, args...)}
	}
	m0, err0 := readBoltMeta(f, 0)
	ps := int64(os.Getpagesize())
	if err0 == nil {
		ps = int64(m0.pageSize)
	}
	m1, err1 := readBoltMeta(f, ps)
	var m boltMeta
	switch {
	case err0 != nil && err1 != nil:
		return corrupt("%d bytes, neither header page is valid (first: %v; second: %v)", size, err0, err1)
	case err0 != nil:
		m = m1
	case err1 != nil || m0.txid >= m1.txid:
		m = m0
	default:
		m = m1
	}
	if want := int64(m.pgid) * int64(m.pageSize); size < want {
		return corrupt("truncated: %d bytes, its header says %d", size, want)
	}
	return nil
}

// checkBoltPages runs bbolt's consistency check over every page of db (a
// few milliseconds for a state file of a few megabytes).
func checkBoltPages(db *bolt.DB) error {
	return db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			if len(errs) < 5 {
				errs = append(errs, err)
			}
		}
		return errors.Join(errs...)
	})
}

// restoreHint is what the operator is told to do with a damaged state file.
const restoreHint = "it was not opened, so nothing in it was changed. Restore the last backup into this data directory " +
	"with `go run . -target=restore` (docs/operations.md, \"Backup and restore\" and \"Integrity\"); " +
	"or move the file aside to start with an empty state store (every watch, share and queued mail in it is then lost)"

// openFault names why bbolt could not open path: its lock held by another
// process (bbolt's timeout), permissions, a file in place of a directory,
// a damaged file, or the cause as it is.
func openFault(path string, err error) error {
	var fault *record.OpenFaultError
	if !errors.As(err, &fault) {
		fault = record.OpenFault("the state store", path, err, errors.Is(err, bolt.ErrTimeout))
		if errors.Is(err, bolt.ErrInvalid) || errors.Is(err, bolt.ErrChecksum) || errors.Is(err, bolt.ErrVersionMismatch) {
			fault.Kind = record.OpenCorrupt
		}
	}
	if fault.Kind == record.OpenCorrupt {
		return fmt.Errorf("store: %w; %s", fault, restoreHint)
	}
	return fmt.Errorf("store: %w", fault)
}

// openFile opens the state file (bolt.Options.OpenFile); tests replace it
// to inject a refusal a root user would not meet.
var openFile = os.OpenFile

// openBoltFile is bolt.Open, with a panic of bbolt's on a damaged page (a
// freelist it cannot read) or a fault reading the mapped file returned as
// a corruption instead of ending the process.
func openBoltFile(path string) (db *bolt.DB, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &record.OpenFaultError{What: "the state store", Path: path, Kind: record.OpenCorrupt, Err: fmt.Errorf("bbolt: %v", r)}
		}
	}()
	return bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, OpenFile: openFile})
}
