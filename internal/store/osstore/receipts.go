package osstore

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
)

const kindReceipt = "receipt"

var _ store.Receipts = (*Store)(nil)

// receiptID names a run by its job and start (nanoseconds, zero-padded,
// so ids sort as the runs started).
func receiptID(r record.Receipt) string {
	return docID(kindReceipt, r.Job, fmt.Sprintf("%020d", r.Started.UnixNano()))
}

// PutReceipt stores a run's receipt (the same run again replaces it). The
// receipts older than the job's newest store.ReceiptsKept are not read
// back (Receipts asks for the newest only).
func (s *Store) PutReceipt(ctx context.Context, r record.Receipt) error {
	if r.Job == "" || r.Started.IsZero() {
		return fmt.Errorf("store: a receipt needs a job and a start time")
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = s.put(ctx, receiptID(r), doc{Kind: kindReceipt, Name: r.Job, PlannedMS: r.Started.UnixMilli(), Data: data}, overwrite)
	return err
}

// Receipts returns a job's newest receipts, newest first.
func (s *Store) Receipts(ctx context.Context, job string, limit int) ([]record.Receipt, error) {
	if limit <= 0 || limit > store.ReceiptsKept {
		limit = store.ReceiptsKept
	}
	if err := s.refresh(ctx); err != nil {
		return nil, err
	}
	q := map[string]any{"bool": map[string]any{"filter": []any{term("kind", kindReceipt), term("name", job)}}}
	body, err := json.Marshal(map[string]any{"query": q, "size": limit, "sort": []any{map[string]any{"key": "desc"}}, "track_total_hits": false})
	if err != nil {
		return nil, err
	}
	var res struct {
		Hits struct {
			Hits []hit `json:"hits"`
		} `json:"hits"`
	}
	if _, err := s.client.Do(ctx, "search receipts", http.MethodPost, opensearchapi.SearchReq{Indices: []string{s.alias}, Body: bytes.NewReader(body)}, &res); err != nil {
		return nil, err
	}
	out := make([]record.Receipt, 0, len(res.Hits.Hits))
	for _, h := range res.Hits.Hits {
		var r record.Receipt
		if err := json.Unmarshal(h.Source.Data, &r); err != nil {
			return nil, fmt.Errorf("store: receipt %q is unreadable: %w", h.ID, err)
		}
		out = append(out, r)
	}
	return out, nil
}
