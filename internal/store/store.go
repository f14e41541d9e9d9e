// Package store keeps the state users create and the service's own
// counters: per-day event counts and daily per-client ceilings (later also
// watches and shared investigations). The embedded implementation is a bbolt
// file under the data directory, owned by one process; package osstore
// keeps the same state in OpenSearch, shared by the processes of a split
// deployment. Package storetest is the contract suite both pass.
package store

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Store is the state seam: counters and ceilings (this file), shared
// investigations (shares.go) and watches (watches.go).
type Store interface {
	Shares
	Watches
	Calendars

	// Incr adds delta to the named event counter for a day (YYYY-MM-DD) and
	// returns the new total. Counters count events, never people.
	Incr(ctx context.Context, name, day string, delta int) (int, error)
	// Counts returns a counter's per-day totals between two days, inclusive.
	Counts(ctx context.Context, name, fromDay, toDay string) (map[string]int, error)
	// Take consumes one unit of a daily ceiling for a client. It reports
	// whether the request is allowed and how many remain today.
	Take(ctx context.Context, ceiling, client string, limit int, now time.Time) (watch.Allowance, error)
	// Probe writes a small key and deletes it again: whether the store
	// takes a write now (/readyz). It leaves nothing behind; its error is
	// a write's (record.WriteFailure: ENOSPACE for a full disk,
	// EUNAVAILABLE otherwise).
	Probe(ctx context.Context) error
	Close() error
}

// Sweeper is a store with an hourly clean-up: ceiling entries of past days
// and expired shared investigations (see Bolt.Sweep).
type Sweeper interface {
	Sweep(now time.Time) (int, error)
}

var _ Sweeper = (*Bolt)(nil)

// Bolt is the embedded store.
type Bolt struct {
	db  *bolt.DB
	key []byte // HMAC key that turns client addresses into opaque ids
	counterBuffer
}

var (
	bucketCounters = []byte("counters")
	bucketCeilings = []byte("ceilings")
	bucketMeta     = []byte("meta")
)

// OpenBolt opens (or creates) the state file at path. A file that fails
// its checks (integrity.go: header checksums, its size, bbolt's page
// check) is not opened: the error says it is damaged and points to the
// restore. Every failure names its cause (record.OpenFault): the lock
// held by another process, permissions, a file in place of the
// directory, damage.
func OpenBolt(path string) (*Bolt, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, openFault(path, err)
	}
	// a damaged file is never mapped (integrity.go): the process would
	// serve from it, or die of SIGBUS on its first read past the end
	if err := checkBoltFile(path); err != nil {
		return nil, openFault(path, err)
	}
	db, err := openBoltFile(path)
	if err != nil {
		return nil, openFault(path, err)
	}
	if err := checkBoltPages(db); err != nil {
		db.Close()
		return nil, openFault(path, &record.OpenFaultError{What: "the state store", Path: path, Kind: record.OpenCorrupt, Err: err})
	}
	s := &Bolt{db: db}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketCounters, bucketCeilings, bucketMeta} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		m := tx.Bucket(bucketMeta)
		k := m.Get([]byte("client-key"))
		if k == nil {
			k = make([]byte, 32)
			if _, err := rand.Read(k); err != nil {
				return err
			}
			if err := m.Put([]byte("client-key"), k); err != nil {
				return err
			}
		}
		s.key = append([]byte(nil), k...)
		return nil
	})
	if err != nil {
		db.Close()
		return nil, err
	}
	s.startFlusher(counterFlushEvery)
	return s, nil
}

// Close writes the buffered counts and closes the file.
func (s *Bolt) Close() error {
	return errors.Join(s.stopFlusher(), s.db.Close())
}

// update runs fn in a write transaction. fn's own errors are returned as
// they are; a failure of bbolt itself — beginning the write (a read-only
// or closed file) or committing it (a full disk, an I/O error) — is
// classified (record.WriteFailure): ENOSPACE when the disk is full or a
// quota spent, EUNAVAILABLE otherwise, never an internal error.
func (s *Bolt) update(fn func(tx *bolt.Tx) error) error {
	var fnErr error
	err := s.db.Update(func(tx *bolt.Tx) error {
		fnErr = fn(tx)
		return fnErr
	})
	if err != nil && fnErr == nil {
		return record.WriteFailure("the state store", err)
	}
	return err
}

// probeKey is the key Probe writes and deletes (in the meta bucket).
var probeKey = []byte("readiness-probe")

// Probe writes a small key and deletes it again, each in its own
// transaction (a commit writes and syncs the file).
func (s *Bolt) Probe(ctx context.Context) error {
	v := make([]byte, 8)
	binary.BigEndian.PutUint64(v, uint64(time.Now().UnixNano()))
	if err := s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Put(probeKey, v) }); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(probeKey) })
}

func counterKey(name, day string) []byte { return []byte(name + "\x00" + day) }

func getInt(b *bolt.Bucket, k []byte) int {
	v := b.Get(k)
	if len(v) != 8 {
		return 0
	}
	return int(binary.BigEndian.Uint64(v))
}

func putInt(b *bolt.Bucket, k []byte, n int) error {
	v := make([]byte, 8)
	binary.BigEndian.PutUint64(v, uint64(n))
	return b.Put(k, v)
}

// ClientID turns a client address into an opaque id: ceilings need to tell
// clients apart, but the store never holds an address.
func (s *Bolt) ClientID(client string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(client))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// Take consumes one unit of a daily ceiling.
func (s *Bolt) Take(ctx context.Context, ceiling, client string, limit int, now time.Time) (watch.Allowance, error) {
	day := record.NewYorkDay(now)
	y, m, d := now.In(record.NewYork).Date()
	reset := time.Date(y, m, d+1, 0, 0, 0, 0, record.NewYork)
	k := []byte(day + "\x00" + ceiling + "\x00" + s.ClientID(client))
	var a watch.Allowance
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketCeilings)
		n := getInt(b, k)
		a = watch.Allowance{ResetAt: reset}
		if n >= limit {
			// write the same count back: a refusal costs the same
			// write as a grant, so timing does not tell them apart
			a.Remaining = 0
			return putInt(b, k, n)
		}
		a.Allowed = true
		a.Remaining = limit - n - 1
		return putInt(b, k, n+1)
	})
	return a, err
}

// Sweep removes ceiling entries of days before now's day and the content
// of shared investigations expired at now (SweepShares); counters are kept
// (they are the service's history).
func (s *Bolt) Sweep(now time.Time) (int, error) {
	n, err := s.sweepCeilings(now)
	if err != nil {
		return n, err
	}
	m, err := s.SweepShares(context.Background(), now)
	return n + m, err
}

func (s *Bolt) sweepCeilings(now time.Time) (int, error) {
	today := record.NewYorkDay(now)
	removed := 0
	err := s.update(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketCeilings).Cursor()
		for k, _ := c.First(); k != nil; k, _ = c.Next() {
			day, _, _ := strings.Cut(string(k), "\x00")
			if day >= today {
				continue
			}
			if err := c.Delete(); err != nil {
				return err
			}
			removed++
		}
		return nil
	})
	return removed, err
}
