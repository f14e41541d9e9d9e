// Package osstore is the state store (store.Store) on OpenSearch, for
// deployments whose roles run as separate processes: the api, mailer and
// indexer roles open the same index, so a watch created through the api is
// the one the mailer digests, and counters, daily ceilings, shared
// investigations and the token keys are the same for every process.
//
// One index holds every kind of state, versioned behind an alias with the
// search engine's prefix convention: <prefix>-state.v1 behind <prefix>-state
// (one shard, auto_expand_replicas 0-1). Each document has a kind and an id
// made of its kind and key (counter|name|day, ceiling|day|name|client,
// share|id, watch|id, once|nonce, delivery|watch|window, meta|name).
//
// No scripts are used (a cluster may run without the painless module).
// Read-modify-write goes through realtime GET and a conditional write
// (if_seq_no/if_primary_term, or op_type=create for a first write), retried
// on a version conflict: a daily ceiling never grants more than its limit
// however many processes take from it, a confirmation nonce is claimed
// once, and a digest window is planned once per watch. Lists and sweeps
// search the index after a refresh, so they see every acknowledged write.
//
// What differs from the bbolt store, which has transactions:
//   - CreateWatch claims the nonce first, then stores the watch; if storing
//     fails the claim is removed again (best effort: a process that dies in
//     between leaves the nonce used and no watch).
//   - PlanDigest stores the delivery (with the progress it was planned
//     with: seen set, award facts, quiet mark), then advances the watch. A
//     planner that stops in between is completed by the next PlanDigest of
//     that window, which finds the delivery and advances the watch from the
//     stored progress.
//   - Event counts are buffered per process and written once a second
//     (like bbolt's); Incr's total is exact for this process's events and
//     includes other processes' events as of this process's last write of
//     that counter; Counts reads the index and adds this process's buffer.
//
// Errors: a cluster that cannot be reached, answers 5xx or 429, or has lost
// or blocks the index is record.EUNAVAILABLE (package osclient maps them);
// ids not held are record.ENOTFOUND.
package osstore

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/osclient"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// Version is the state index's mapping version (<prefix>-state.v1).
const Version = 1

// DefaultIndexPrefix is used when Config.IndexPrefix is empty (the search
// engine's default too).
const DefaultIndexPrefix = osclient.DefaultIndexPrefix

// MaxRetries is how many times the client sends a request again after a
// retryable failure (429, 502, 503, 504, a lost connection, a timeout).
const MaxRetries = osclient.MaxRetries

// Config says how to reach the cluster.
type Config struct {
	// URL of the cluster, or of several nodes separated by commas.
	URL      string
	Username string
	Password string
	// IndexPrefix names the index and alias (default "recordwatch"):
	// lower-case letters, digits, '-', '_' and '.'.
	IndexPrefix string
	Logger      *slog.Logger
	// Transport replaces the HTTP transport (tests, TLS settings).
	Transport http.RoundTripper
	// DisableRetry turns off the client's retries.
	DisableRetry bool
	// FlushEvery is how often buffered event counts are written (default
	// one second).
	FlushEvery time.Duration
}

// Store is the OpenSearch state store. It is safe for concurrent use, and
// any number of processes may open the same index.
type Store struct {
	client *osclient.Client
	alias  string
	index  string
	log    *slog.Logger
	key    []byte // HMAC key for client ids, shared by every process

	counters
}

var (
	_ store.Store   = (*Store)(nil)
	_ store.Sweeper = (*Store)(nil)
)

// Open connects, makes sure <prefix>-state.v1 exists behind <prefix>-state,
// and reads (or creates) the shared client-id key.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	prefix, err := osclient.IndexPrefix(cfg.IndexPrefix)
	if err != nil {
		return nil, err
	}
	client, err := osclient.New(osclient.Config{
		URL:          cfg.URL,
		Username:     cfg.Username,
		Password:     cfg.Password,
		Transport:    cfg.Transport,
		DisableRetry: cfg.DisableRetry,
		Name:         "osstore",
		What:         "the state store",
	})
	if err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{client: client, alias: prefix + "-state", log: logger}
	s.index = fmt.Sprintf("%s.v%d", s.alias, Version)
	if err := s.ensureIndex(ctx); err != nil {
		_ = client.Close()
		return nil, err
	}
	if s.key, err = s.metaKey(ctx, "client-key"); err != nil {
		_ = client.Close()
		return nil, err
	}
	every := cfg.FlushEvery
	if every <= 0 {
		every = time.Second
	}
	s.startFlusher(s, every)
	return s, nil
}

// Alias is the alias every request goes through ("recordwatch-state").
func (s *Store) Alias() string { return s.alias }

// Index is the versioned index behind the alias ("recordwatch-state.v1").
func (s *Store) Index() string { return s.index }

// Close writes the buffered counts and releases the client.
func (s *Store) Close() error {
	return errors.Join(s.stopFlusher(), s.client.Close())
}

// ---- the index

const stateMapping = `{
  "settings": {"index": {"number_of_shards": 1, "auto_expand_replicas": "0-1"}},
  "mappings": {
    "dynamic": "strict",
    "_meta": {"recordwatch_mapping": "state.v1"},
    "properties": {
      "kind": {"type": "keyword"},
      "key": {"type": "keyword"},
      "name": {"type": "keyword"},
      "day": {"type": "keyword"},
      "n": {"type": "long"},
      "expires_ms": {"type": "long"},
      "planned_ms": {"type": "long"},
      "swept": {"type": "boolean"},
      "open": {"type": "boolean"},
      "watch_id": {"type": "keyword"},
      "seen": {"type": "keyword", "index": false, "doc_values": false},
      "data": {"type": "object", "enabled": false}
    }
  }
}`

func (s *Store) ensureIndex(ctx context.Context) error {
	var got map[string]struct {
		Aliases map[string]json.RawMessage `json:"aliases"`
	}
	status, err := s.client.Do(ctx, "get alias", http.MethodGet, opensearchapi.AliasGetReq{Alias: []string{s.alias}}, &got, http.StatusNotFound)
	if err != nil {
		return err
	}
	if status == http.StatusOK {
		var targets []string
		for idx, v := range got {
			if _, ok := v.Aliases[s.alias]; ok {
				targets = append(targets, idx)
			}
		}
		if len(targets) == 1 && targets[0] == s.index {
			return nil
		}
		if len(targets) > 0 {
			return fmt.Errorf("osstore: alias %s points at %s, not %s; this build knows state mapping v%d only: move the alias by hand",
				s.alias, strings.Join(targets, ","), s.index, Version)
		}
	}
	status, err = s.client.Do(ctx, "create index", http.MethodPut,
		opensearchapi.IndicesCreateReq{Index: s.index, Body: strings.NewReader(stateMapping)}, nil, http.StatusBadRequest)
	if err != nil {
		return err
	}
	if status == http.StatusBadRequest {
		// created by another process meanwhile: fine; anything else is not
		st, err := s.client.Do(ctx, "index exists", http.MethodHead, opensearchapi.IndicesExistsReq{Indices: []string{s.index}}, nil, http.StatusNotFound)
		if err != nil {
			return err
		}
		if st != http.StatusOK {
			return fmt.Errorf("osstore: create index %s was rejected (status 400)", s.index)
		}
	}
	body, _ := json.Marshal(map[string]any{"actions": []any{map[string]any{"add": map[string]any{"index": s.index, "alias": s.alias}}}})
	if _, err := s.client.Do(ctx, "add alias", http.MethodPost, opensearchapi.AliasesReq{Body: bytes.NewReader(body)}, nil); err != nil {
		return err
	}
	s.log.Info("osstore: state index ready", "alias", s.alias, "index", s.index)
	return nil
}

// doc is every state document; kind says which fields are used.
type doc struct {
	Kind      string          `json:"kind"`
	Key       string          `json:"key"` // the document id, for sorting
	Name      string          `json:"name,omitempty"`
	Day       string          `json:"day,omitempty"`
	N         int             `json:"n"`
	ExpiresMS int64           `json:"expires_ms"`
	PlannedMS int64           `json:"planned_ms"`
	Swept     bool            `json:"swept,omitempty"`
	Open      bool            `json:"open,omitempty"`
	WatchID   string          `json:"watch_id,omitempty"`
	Seen      []string        `json:"seen,omitempty"`
	Data      json.RawMessage `json:"data,omitempty"`
}

const (
	kindCounter  = "counter"
	kindCeiling  = "ceiling"
	kindShare    = "share"
	kindWatch    = "watch"
	kindOnce     = "once"
	kindDelivery = "delivery"
	kindMeta     = "meta"
)

// docID joins a kind and its key parts; each part is escaped, so no two
// keys give the same id.
func docID(kind string, parts ...string) string {
	var b strings.Builder
	b.WriteString(kind)
	for _, p := range parts {
		b.WriteByte('|')
		b.WriteString(url.PathEscape(p))
	}
	return b.String()
}

// version is a document's place in its history, for conditional writes.
type version struct {
	SeqNo, PrimaryTerm int
}

// get reads a document in real time (no refresh needed).
func (s *Store) get(ctx context.Context, id string) (doc, *version, error) {
	var res struct {
		Found       bool `json:"found"`
		SeqNo       int  `json:"_seq_no"`
		PrimaryTerm int  `json:"_primary_term"`
		Source      doc  `json:"_source"`
	}
	status, err := s.client.Do(ctx, "get", http.MethodGet, opensearchapi.DocumentGetReq{Index: s.alias, DocumentID: id}, &res, http.StatusNotFound)
	if err != nil {
		return doc{}, nil, err
	}
	if status == http.StatusNotFound || !res.Found {
		return doc{}, nil, nil
	}
	return res.Source, &version{SeqNo: res.SeqNo, PrimaryTerm: res.PrimaryTerm}, nil
}

// writeMode says what a write expects of the document it replaces.
type writeMode struct {
	create bool     // the id must be new
	at     *version // the document must still be at this version
}

var (
	mustCreate = writeMode{create: true}
	overwrite  = writeMode{}
)

func ifAt(v *version) writeMode {
	if v == nil {
		return mustCreate
	}
	return writeMode{at: v}
}

// put writes d under id. conflict reports a version conflict (the id
// existed for mustCreate, or moved on from the expected version).
func (s *Store) put(ctx context.Context, id string, d doc, m writeMode) (conflict bool, err error) {
	d.Key = id
	body, err := json.Marshal(d)
	if err != nil {
		return false, err
	}
	p := opensearchapi.IndexParams{}
	if m.create {
		p.OpType = "create"
	}
	if m.at != nil {
		p.IfSeqNo, p.IfPrimaryTerm = &m.at.SeqNo, &m.at.PrimaryTerm
	}
	status, err := s.client.Do(ctx, "write "+d.Kind, http.MethodPut,
		opensearchapi.IndexReq{Index: s.alias, DocumentID: id, Body: bytes.NewReader(body), Params: p}, nil, http.StatusConflict)
	if err != nil {
		return false, err
	}
	return status == http.StatusConflict, nil
}

// del removes a document (at a version, when at is set). It reports
// whether it removed one.
func (s *Store) del(ctx context.Context, id string, at *version) (bool, error) {
	p := opensearchapi.DocumentDeleteParams{}
	if at != nil {
		p.IfSeqNo, p.IfPrimaryTerm = &at.SeqNo, &at.PrimaryTerm
	}
	status, err := s.client.Do(ctx, "delete", http.MethodDelete,
		opensearchapi.DocumentDeleteReq{Index: s.alias, DocumentID: id, Params: p}, nil, http.StatusNotFound, http.StatusConflict)
	if err != nil {
		return false, err
	}
	return status >= 200 && status < 300, nil
}

// refresh makes every acknowledged write visible to searches.
func (s *Store) refresh(ctx context.Context) error {
	_, err := s.client.Do(ctx, "refresh", http.MethodPost, opensearchapi.IndicesRefreshReq{Index: []string{s.alias}}, nil)
	return err
}

type hit struct {
	ID          string `json:"_id"`
	SeqNo       int    `json:"_seq_no"`
	PrimaryTerm int    `json:"_primary_term"`
	Source      doc    `json:"_source"`
	Sort        []any  `json:"sort"`
}

func (h hit) version() *version { return &version{SeqNo: h.SeqNo, PrimaryTerm: h.PrimaryTerm} }

const scanPage = 500

// scan refreshes, then calls fn for every document matching the filters,
// in id order, a page at a time.
func (s *Store) scan(ctx context.Context, filters []any, mustNot []any, fn func(hit) error) error {
	if err := s.refresh(ctx); err != nil {
		return err
	}
	q := map[string]any{"bool": map[string]any{"filter": filters, "must_not": mustNot}}
	var after []any
	for {
		req := map[string]any{"query": q, "size": scanPage, "sort": []any{map[string]any{"key": "asc"}},
			"seq_no_primary_term": true, "track_total_hits": false}
		if after != nil {
			req["search_after"] = after
		}
		body, err := json.Marshal(req)
		if err != nil {
			return err
		}
		var res struct {
			Hits struct {
				Hits []hit `json:"hits"`
			} `json:"hits"`
		}
		if _, err := s.client.Do(ctx, "search", http.MethodPost, opensearchapi.SearchReq{Indices: []string{s.alias}, Body: bytes.NewReader(body)}, &res); err != nil {
			return err
		}
		for _, h := range res.Hits.Hits {
			if err := fn(h); err != nil {
				return err
			}
		}
		if len(res.Hits.Hits) < scanPage {
			return nil
		}
		after = res.Hits.Hits[len(res.Hits.Hits)-1].Sort
	}
}

func term(field string, v any) any { return map[string]any{"term": map[string]any{field: v}} }

func rangeQ(field string, bounds map[string]any) any {
	return map[string]any{"range": map[string]any{field: bounds}}
}

// conflictWait paces a retry after a version conflict: another writer won
// this round, so each round some writer makes progress.
func conflictWait(ctx context.Context, attempt int) error {
	if attempt >= maxConflicts {
		return &record.Error{Code: record.EUNAVAILABLE, Message: "the state store is too busy (write conflicts); try again"}
	}
	b := make([]byte, 1)
	_, _ = rand.Read(b)
	d := time.Duration(int(b[0])%(1+min(attempt, 20))) * time.Millisecond
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// maxConflicts bounds the retries of one conditional write.
const maxConflicts = 200

// metaKey returns a random 32-byte key stored once under name, creating it
// on first use (the first writer wins; everyone reads the same key).
func (s *Store) metaKey(ctx context.Context, name string) ([]byte, error) {
	id := docID(kindMeta, name)
	for attempt := 0; ; attempt++ {
		d, v, err := s.get(ctx, id)
		if err != nil {
			return nil, err
		}
		if v != nil {
			var k struct {
				Key []byte `json:"key"`
			}
			if err := json.Unmarshal(d.Data, &k); err != nil || len(k.Key) < 32 {
				return nil, fmt.Errorf("osstore: key %s is unreadable", name)
			}
			return k.Key, nil
		}
		key := make([]byte, 32)
		if _, err := rand.Read(key); err != nil {
			return nil, err
		}
		data, _ := json.Marshal(map[string][]byte{"key": key})
		conflict, err := s.put(ctx, id, doc{Kind: kindMeta, Name: name, Data: data}, mustCreate)
		if err != nil {
			return nil, err
		}
		if !conflict {
			return key, nil
		}
		if err := conflictWait(ctx, attempt); err != nil {
			return nil, err
		}
	}
}

// Probe writes a small document and deletes it again: whether the state
// index takes a write now (/readyz). A cluster that blocks writes (its
// flood-stage disk watermark, a read-only index) answers EUNAVAILABLE,
// as every write does (package osclient).
func (s *Store) Probe(ctx context.Context) error {
	id := docID(kindMeta, "readiness-probe")
	if _, err := s.put(ctx, id, doc{Kind: kindMeta, Name: "readiness-probe"}, overwrite); err != nil {
		return err
	}
	_, err := s.del(ctx, id, nil) // another process's probe may have removed it: fine
	return err
}

// ClientID turns a client address into an opaque id (the same in every
// process): ceilings tell clients apart, the store never holds an address.
func (s *Store) ClientID(client string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(client))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

// ---- ceilings

// Take consumes one unit of a daily ceiling: read the day's count, write
// count+1 only if nobody wrote since (if_seq_no), else read again.
func (s *Store) Take(ctx context.Context, ceiling, client string, limit int, now time.Time) (watch.Allowance, error) {
	day := record.NewYorkDay(now)
	y, m, d := now.In(record.NewYork).Date()
	reset := time.Date(y, m, d+1, 0, 0, 0, 0, record.NewYork)
	id := docID(kindCeiling, day, ceiling, s.ClientID(client))
	for attempt := 0; ; attempt++ {
		cur, v, err := s.get(ctx, id)
		if err != nil {
			return watch.Allowance{}, err
		}
		a := watch.Allowance{ResetAt: reset}
		n := cur.N
		next := n
		if n < limit {
			a.Allowed, a.Remaining, next = true, limit-n-1, n+1
		}
		// a refusal writes the same count back: it costs the same as a
		// grant, so timing does not tell them apart
		conflict, err := s.put(ctx, id, doc{Kind: kindCeiling, Name: ceiling, Day: day, N: next}, ifAt(v))
		if err != nil {
			return watch.Allowance{}, err
		}
		if !conflict {
			return a, nil
		}
		if err := conflictWait(ctx, attempt); err != nil {
			return watch.Allowance{}, err
		}
	}
}

// Sweep removes ceiling entries of days before now's day and the content
// of shared investigations expired at now; counters are kept.
func (s *Store) Sweep(now time.Time) (int, error) {
	ctx := context.Background()
	removed := 0
	err := s.scan(ctx, []any{term("kind", kindCeiling), rangeQ("day", map[string]any{"lt": record.NewYorkDay(now)})}, nil, func(h hit) error {
		ok, err := s.del(ctx, h.ID, h.version())
		if ok {
			removed++
		}
		return err
	})
	if err != nil {
		return removed, err
	}
	n, err := s.SweepShares(ctx, now)
	return removed + n, err
}
