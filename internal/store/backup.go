package store

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrHeld is the error of opening a state file a running process holds
// (bbolt's lock): its online copy goes through that process.
var ErrHeld = errors.New("the state file is held by a running process")

// Snapshot writes a consistent copy of the whole state file to w while
// the service runs: the buffered event counts are written first, then one
// read transaction's view of the file (bbolt Tx.WriteTo). Writers go on
// meanwhile; what they commit after the transaction began is not in the
// copy, and everything committed before is (watches, deliveries, shares,
// counters, ceilings, keys, the mail outbox, receipts: every bucket).
func (s *Bolt) Snapshot(w io.Writer) (int64, error) {
	// counts that cannot be written now stay buffered (a full disk): the
	// copy is still consistent, without the last second of counts
	_ = s.FlushCounters()
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// openUnheld opens a state file no process holds, read-only or not; a held
// one is ErrHeld after a second.
func openUnheld(path string, readOnly bool) (*bolt.DB, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, err // never created by a read
	}
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: readOnly, Timeout: time.Second})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%s: %w", path, ErrHeld)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return db, nil
}

// SnapshotFile writes a consistent copy of the state file at path, which
// no process may hold (ErrHeld), to w.
func SnapshotFile(path string, w io.Writer) (int64, error) {
	db, err := openUnheld(path, true)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var n int64
	err = db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// FileSummary is what a state file holds (CheckFile).
type FileSummary struct {
	Bytes   int64 `json:"bytes"`
	Watches int   `json:"watches"`
	Shares  int   `json:"shares"`
	// Mail is the promised mail not yet delivered (the outbox).
	Mail int `json:"mail_outbox"`
}

// CheckFile checks a state file no process holds: every page is sound
// (bbolt Tx.Check) and it is a Recordwatch state file (its meta bucket
// holds the client key). It says what the file holds.
func CheckFile(path string) (FileSummary, error) {
	var sum FileSummary
	db, err := openUnheld(path, true)
	if err != nil {
		return sum, err
	}
	defer db.Close()
	err = db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			return fmt.Errorf("%s is damaged: %w", path, err)
		}
		m := tx.Bucket(bucketMeta)
		if m == nil || m.Get([]byte("client-key")) == nil {
			return fmt.Errorf("%s is not a Recordwatch state file (no meta bucket with its client key)", path)
		}
		sum.Bytes = tx.Size()
		count := func(name []byte) int {
			if b := tx.Bucket(name); b != nil {
				return b.Stats().KeyN
			}
			return 0
		}
		sum.Watches, sum.Shares, sum.Mail = count(bucketWatches), count(bucketShares), count(bucketMail)
		return nil
	})
	return sum, err
}

// CheckFree says whether a state file is free: ErrHeld when a running
// process holds it.
func CheckFree(path string) error {
	db, err := openUnheld(path, true)
	if err != nil {
		return err
	}
	return db.Close()
}

// ForgetReceipts removes the receipts of the named jobs from a state file
// no process holds. A restore does so for the indexer's jobs: their
// receipts are where live fetches resume, and a restored data directory
// has an index to rebuild from the start.
func ForgetReceipts(path string, jobs []string) (int, error) {
	db, err := openUnheld(path, false)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	n := 0
	err = db.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketReceipts)
		if b == nil {
			return nil
		}
		for _, job := range jobs {
			prefix := append([]byte(job), 0)
			var keys [][]byte // deleting while a cursor walks may skip keys
			c := b.Cursor()
			for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
				keys = append(keys, append([]byte(nil), k...))
			}
			for _, k := range keys {
				if err := b.Delete(k); err != nil {
					return err
				}
				n++
			}
		}
		return nil
	})
	return n, err
}
