package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/osclient"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// chunk bounds the ids sent in one mget, terms query or bulk by Delete.
const chunk = 1000

// noticeDoc is what a notice is indexed as: the notice's own JSON plus the
// fields the engine adds (mappings.EngineFields).
type noticeDoc struct {
	record.Notice
	// Content is what keywords search: title, agency name, vendor name, PIN
	// and text, one per line (as the embedded engine joins them).
	Content string `json:"content,omitempty"`
	// Year is the publication year, for the year facet.
	Year string `json:"year,omitempty"`
	// PassageIDs lists the notice's passages, so a later upsert or delete
	// can remove them by id (mget reads them back in real time).
	PassageIDs []string `json:"passage_ids"`
}

// engineSourceFields are left out of _source when reading notices back.
var engineSourceFields = []string{"content", "year", "passage_ids"}

// hitExcludes are left out of search hits: the engine's fields and the
// notice's raw source fields (search.Hit; Get returns them).
var hitExcludes = append(append([]string(nil), engineSourceFields...), "raw")

func newNoticeDoc(n record.Notice, passages []record.Passage) noticeDoc {
	var parts []string
	for _, s := range []string{n.Title, n.AgencyName, n.VendorName, n.PIN, n.Text} {
		if strings.TrimSpace(s) != "" {
			parts = append(parts, s)
		}
	}
	ids := make([]string, 0, len(passages))
	for _, p := range passages {
		ids = append(ids, p.ID)
	}
	return noticeDoc{Notice: n, Content: strings.Join(parts, "\n"), Year: n.Year(), PassageIDs: ids}
}

// observationDoc is a source observation in the meta index (id = source).
type observationDoc struct {
	Source     string    `json:"source"`
	Label      string    `json:"label"`
	RecordType string    `json:"record_type"`
	ObservedAt time.Time `json:"observed_at,omitzero"`
}

// bulkWriter builds one NDJSON _bulk body.
type bulkWriter struct {
	buf    bytes.Buffer
	enc    *json.Encoder
	n      int
	starts []int // where each action's lines begin in buf
}

func newBulkWriter() *bulkWriter {
	w := &bulkWriter{}
	w.enc = json.NewEncoder(&w.buf)
	w.enc.SetEscapeHTML(false)
	return w
}

type bulkMeta struct {
	Index string `json:"_index"`
	ID    string `json:"_id"`
}

func (w *bulkWriter) index(index, id string, doc any) error {
	w.n++
	w.starts = append(w.starts, w.buf.Len())
	if err := w.enc.Encode(map[string]bulkMeta{"index": {Index: index, ID: id}}); err != nil {
		return err
	}
	if err := w.enc.Encode(doc); err != nil {
		return fmt.Errorf("opensearch: encode document %s: %w", id, err)
	}
	return nil
}

func (w *bulkWriter) delete(index, id string) error {
	w.n++
	w.starts = append(w.starts, w.buf.Len())
	return w.enc.Encode(map[string]bulkMeta{"delete": {Index: index, ID: id}})
}

// subset is the body of the actions numbered in which (ascending), in
// their order.
func (w *bulkWriter) subset(which []int) []byte {
	all := w.buf.Bytes()
	var out []byte
	for _, i := range which {
		end := len(all)
		if i+1 < len(w.starts) {
			end = w.starts[i+1]
		}
		out = append(out, all[w.starts[i]:end]...)
	}
	return out
}

// Upsert writes notices and their passages in one _bulk request (refresh
// off; call Refresh to make them visible). A notice's passages from an
// earlier version that the new version no longer has are deleted by id in
// the same request; their ids come from one real-time _mget of the notices.
func (b *Backend) Upsert(ctx context.Context, docs []search.Doc) error {
	if len(docs) == 0 {
		return nil
	}
	ids := make([]string, 0, len(docs))
	for _, d := range docs {
		if d.Notice.RequestID == "" {
			return record.Invalid("request_id", "a notice without a request id cannot be indexed")
		}
		for _, p := range d.Passages {
			if p.ID == "" {
				return record.Invalid("passage_id", "passage of notice %q has no id", d.Notice.RequestID)
			}
		}
		ids = append(ids, d.Notice.RequestID)
	}
	defer b.stale()
	held, err := b.passageIDs(ctx, ids)
	if err != nil {
		return err
	}
	w := newBulkWriter()
	for _, d := range docs {
		id := d.Notice.RequestID
		keep := make(map[string]bool, len(d.Passages))
		for _, p := range d.Passages {
			keep[p.ID] = true
		}
		// passages first: a reader never sees a notice whose passages are missing
		for _, old := range held[id] {
			if !keep[old] {
				if err := w.delete(b.passages(), old); err != nil {
					return err
				}
			}
		}
		for _, p := range d.Passages {
			if err := w.index(b.passages(), p.ID, p); err != nil {
				return err
			}
		}
		doc := newNoticeDoc(d.Notice, d.Passages)
		if err := w.index(b.notices(), id, doc); err != nil {
			return err
		}
		held[id] = doc.PassageIDs // the same notice twice in one batch
	}
	return b.bulk(ctx, w)
}

// passageIDs reads, in real time, the passage ids stored on the notices.
func (b *Backend) passageIDs(ctx context.Context, requestIDs []string) (map[string][]string, error) {
	out := make(map[string][]string, len(requestIDs))
	seen := make(map[string]bool, len(requestIDs))
	uniq := make([]string, 0, len(requestIDs))
	for _, id := range requestIDs {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	for start := 0; start < len(uniq); start += chunk {
		part := uniq[start:min(start+chunk, len(uniq))]
		body, err := jsonBody(map[string]any{"ids": part})
		if err != nil {
			return nil, err
		}
		var res struct {
			Docs []struct {
				ID     string `json:"_id"`
				Found  bool   `json:"found"`
				Source struct {
					PassageIDs []string `json:"passage_ids"`
				} `json:"_source"`
				Error json.RawMessage `json:"error"`
			} `json:"docs"`
		}
		if _, err := b.client.Do(ctx, "read passage ids", http.MethodPost, opensearchapi.MGetReq{
			Index:  b.notices(),
			Body:   body,
			Params: opensearchapi.MGetParams{SourceIncludes: []string{"passage_ids"}},
		}, &res); err != nil {
			return nil, err
		}
		for _, d := range res.Docs {
			if len(d.Error) > 0 && string(d.Error) != "null" {
				return nil, &record.Error{Code: record.EUNAVAILABLE,
					Message: "the search index could not read notice " + d.ID + ": " + osclient.Truncate(string(d.Error), 300)}
			}
			if d.Found {
				out[d.ID] = d.Source.PassageIDs
			}
		}
	}
	return out, nil
}

// bulk sends the body (refresh off) and reports failed items (see
// sendBulk).
func (b *Backend) bulk(ctx context.Context, w *bulkWriter) error {
	return b.sendBulk(ctx, "bulk", w, "false")
}

// retryItemStatus lists the statuses of a bulk item that are sent again: a
// node or shard that is busy (429: a full write queue) or briefly
// unreachable (a node leaving, a primary being moved).
var retryItemStatus = []int{http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout}

// sendBulk sends a _bulk body and reports failed items. A request that
// fails as a whole is retried by the client; a request that succeeds with
// some items refused as retryable (retryItemStatus) is sent again with
// those items only, up to MaxRetries times after the client's backoff
// waits (unless Config.DisableRetry). Every action is an index or delete by id, so sending one again is
// safe. Deleting a document that is not there is not a failure.
func (b *Backend) sendBulk(ctx context.Context, op string, w *bulkWriter, refresh string) error {
	if w.n == 0 {
		return nil
	}
	pending := make([]int, w.n) // the actions the body holds, by number
	for i := range pending {
		pending[i] = i
	}
	body := w.buf.Bytes()
	var failed []string // failures that are not retried
	serverSide := false // one of them is the cluster's (5xx), not the request's
	for attempt := 0; ; attempt++ {
		var res opensearchapi.BulkResp
		if _, err := b.client.Do(ctx, op, http.MethodPost, opensearchapi.BulkReq{
			Body:   bytes.NewReader(body),
			Header: http.Header{"Content-Type": {"application/x-ndjson"}},
			Params: opensearchapi.BulkParams{Refresh: refresh, RequireAlias: new(true)},
		}, &res); err != nil {
			return err
		}
		if len(res.Items) != len(pending) {
			return fmt.Errorf("opensearch: %s: %d items answered for %d actions", op, len(res.Items), len(pending))
		}
		var again []int
		var againMsgs []string
		for k, item := range res.Items {
			for action, it := range item {
				msg, ok := bulkItemFailure(action, it)
				switch {
				case ok:
				case slices.Contains(retryItemStatus, it.Status):
					again = append(again, pending[k])
					againMsgs = append(againMsgs, msg)
				default:
					failed = append(failed, msg)
					serverSide = serverSide || it.Status >= 500
				}
			}
		}
		if len(again) == 0 || attempt == MaxRetries || !b.retry {
			return bulkFailure(op, w.n, failed, againMsgs, serverSide)
		}
		b.log.Warn("opensearch: bulk items refused as busy: sending them again", "op", op,
			"items", len(again), "of", w.n, "attempt", attempt+1, "first", againMsgs[0])
		select {
		case <-ctx.Done():
			return fmt.Errorf("opensearch: %s: %d of %d actions refused as busy, not sent again: %w", op, len(again), w.n, ctx.Err())
		case <-time.After(osclient.Backoff(attempt + 1)):
		}
		pending, body = again, w.subset(again)
	}
}

// bulkItemFailure describes a failed bulk item; ok is true when the item
// succeeded (a delete of a missing document counts as done).
func bulkItemFailure(action string, it opensearchapi.BulkRespItem) (msg string, ok bool) {
	if action == "delete" && it.Status == http.StatusNotFound {
		return "", true
	}
	if it.Error == nil && it.Status < 300 {
		return "", true
	}
	msg = fmt.Sprintf("%s %s/%s: status %d", action, it.Index, it.ID, it.Status)
	if it.Error != nil {
		msg += ": " + it.Error.Type + ": " + it.Error.Reason
		if it.Error.Cause.Reason != "" {
			msg += " (" + it.Error.Cause.Type + ": " + it.Error.Cause.Reason + ")"
		}
	}
	return msg, false
}

// bulkFailure is the error of a bulk whose items failed, or nil: busy lists
// the items still refused as busy after the retries, failed the others. It
// is EUNAVAILABLE when some are busy or serverSide (a 5xx item), else a
// plain error (a rejected document is a bug).
func bulkFailure(op string, total int, failed, busy []string, serverSide bool) error {
	all := append(append([]string(nil), failed...), busy...)
	if len(all) == 0 {
		return nil
	}
	msg := fmt.Sprintf("opensearch: %s: %d of %d actions failed; first: %s", op, len(all), total, strings.Join(all[:min(3, len(all))], "; "))
	if len(busy) > 0 || serverSide {
		return &record.Error{Code: record.EUNAVAILABLE, Message: msg}
	}
	return fmt.Errorf("%s", msg)
}

// Delete removes notices and their passages: the passages the notices list
// (by id, in real time) and any other passage of theirs the index can see
// (one _delete_by_query per thousand notices).
func (b *Backend) Delete(ctx context.Context, requestIDs []string) error {
	if len(requestIDs) == 0 {
		return nil
	}
	defer b.stale()
	for start := 0; start < len(requestIDs); start += chunk {
		part := requestIDs[start:min(start+chunk, len(requestIDs))]
		held, err := b.passageIDs(ctx, part)
		if err != nil {
			return err
		}
		body, err := jsonBody(map[string]any{"query": map[string]any{"terms": map[string]any{"request_id": part}}})
		if err != nil {
			return err
		}
		var res struct {
			Deleted  int               `json:"deleted"`
			Failures []json.RawMessage `json:"failures"`
		}
		if _, err := b.client.Do(ctx, "delete passages", http.MethodPost, opensearchapi.DocumentDeleteByQueryReq{
			Indices: []string{b.passages()},
			Body:    body,
			Params:  opensearchapi.DocumentDeleteByQueryParams{Conflicts: "proceed"},
		}, &res); err != nil {
			return err
		}
		if len(res.Failures) > 0 {
			return fmt.Errorf("opensearch: delete passages: %d failures, first: %s", len(res.Failures), osclient.Truncate(string(res.Failures[0]), 300))
		}
		w := newBulkWriter()
		for _, id := range part {
			for _, p := range held[id] {
				if err := w.delete(b.passages(), p); err != nil {
					return err
				}
			}
			if err := w.delete(b.notices(), id); err != nil {
				return err
			}
		}
		if err := b.bulk(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// Observe records when a source was observed (one document per source in
// the meta index, refreshed at once: observations are rare and small).
func (b *Backend) Observe(ctx context.Context, o search.Observation) error {
	if o.Source == "" {
		return record.Invalid("source", "an observation needs a source")
	}
	defer b.stale()
	body, err := jsonBody(observationDoc{Source: o.Source, Label: o.Label, RecordType: o.RecordType, ObservedAt: o.ObservedAt})
	if err != nil {
		return err
	}
	_, err = b.client.Do(ctx, "observe "+o.Source, http.MethodPut, opensearchapi.IndexReq{
		Index:      b.meta(),
		DocumentID: o.Source,
		Body:       body,
		Params:     opensearchapi.IndexParams{Refresh: "true", RequireAlias: new(true)},
	}, nil)
	return err
}

// Refresh makes earlier writes visible to searches.
func (b *Backend) Refresh(ctx context.Context) error {
	defer b.stale()
	_, err := b.client.Do(ctx, "refresh", http.MethodPost, opensearchapi.IndicesRefreshReq{
		Index: []string{b.notices(), b.passages(), b.meta()},
	}, nil)
	return err
}
