package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Receipts keeps the receipts of live runs (record.Receipt), per job: the
// scheduler writes one per run; /api/sources, its page, /stats and the
// freshness of every scope read them.
type Receipts interface {
	// PutReceipt stores a run's receipt (a job and a start time name it:
	// a second put of the same run replaces the first).
	PutReceipt(ctx context.Context, r record.Receipt) error
	// Receipts returns a job's receipts, newest first, at most limit.
	Receipts(ctx context.Context, job string, limit int) ([]record.Receipt, error)
}

// ReceiptsKept bounds the receipts kept per job (the oldest go first): at
// City Record's 5-minute interval, about 3.5 days of runs.
const ReceiptsKept = 1000

var (
	_              Receipts = (*Bolt)(nil)
	bucketReceipts          = []byte("receipts")
)

func receiptKey(job string, r record.Receipt) []byte {
	k := append([]byte(job), 0)
	return binary.BigEndian.AppendUint64(k, uint64(r.Started.UnixNano()))
}

// PutReceipt stores a receipt and drops the job's oldest beyond
// ReceiptsKept.
func (s *Bolt) PutReceipt(_ context.Context, r record.Receipt) error {
	if r.Job == "" || r.Started.IsZero() {
		return fmt.Errorf("store: a receipt needs a job and a start time")
	}
	v, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketReceipts)
		if err != nil {
			return err
		}
		if err := b.Put(receiptKey(r.Job, r), v); err != nil {
			return err
		}
		prefix := append([]byte(r.Job), 0)
		n := 0
		c := b.Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			n++
		}
		for k, _ := c.Seek(prefix); n > ReceiptsKept && k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Seek(prefix) {
			if err := b.Delete(k); err != nil {
				return err
			}
			n--
		}
		return nil
	})
}

// Receipts returns a job's receipts, newest first.
func (s *Bolt) Receipts(_ context.Context, job string, limit int) ([]record.Receipt, error) {
	var out []record.Receipt
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketReceipts)
		if b == nil {
			return nil
		}
		prefix := append([]byte(job), 0)
		end := append([]byte(job), 1)
		c := b.Cursor()
		k, v := c.Seek(end)
		if k == nil {
			k, v = c.Last()
		} else {
			k, v = c.Prev()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && (limit <= 0 || len(out) < limit); k, v = c.Prev() {
			var r record.Receipt
			if err := json.Unmarshal(v, &r); err != nil {
				return fmt.Errorf("store: receipt %q is unreadable: %w", k, err)
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}
