// Package opensearch is the search.Backend for deployments on OpenSearch,
// built on opensearch-go/v4 (the opensearchapi typed requests).
//
// Three indexes hold the corpus, each versioned behind an alias (gitea's
// VersionedIndexName style): <prefix>-notices.v1 behind <prefix>-notices,
// <prefix>-passages.v1 behind <prefix>-passages and <prefix>-meta.v1 (source
// observations) behind <prefix>-meta. The settings and mappings are the JSON
// files of package mappings. Open creates what is missing; when an alias
// points at an older version it creates the new index, copies the documents
// with _reindex, swaps the alias in one atomic _aliases call and keeps the old
// index, logging that it can be removed by hand. Stop the indexer while a
// migration runs: writes that land in the old index during the copy are not
// carried over (re-running the indexer puts them back, as it is idempotent).
// _reindex copies documents as stored, engine fields included, so a change
// to how the engine fills content or year also needs the indexer re-run.
//
// Queries mean the same as in the embedded engine (see query.go): keywords
// OR-matched on the content field, exclusions removed, every filter narrows,
// exact totals, search_after cursors, facets as terms aggregations. Every
// read result carries its Scope, built from Coverage (cached for 30 seconds
// and dropped on this process's writes).
//
// Failures a cluster has while it loses or regains a node are ridden out
// (TestClusterSurvivesANodeLoss kills one under load): a request that fails
// as a whole (429, 502-504, a lost connection) is retried by the client on
// the next node; the items of a bulk write refused as busy are sent again,
// only those; a search answered in part (a shard failed) is sent again.
// Each gives up after MaxRetries, with backoff (see Config.DisableRetry).
//
// Errors: a notice that is not held is record.ENOTFOUND; a cluster that
// cannot be reached, answers 5xx or 429, or has lost its indexes is
// record.EUNAVAILABLE; anything else (a rejected request is a bug here) is a
// plain error, which callers report as internal.
package opensearch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/osclient"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/mappings"
)

// DefaultIndexPrefix names the indexes when Config.IndexPrefix is empty.
const DefaultIndexPrefix = osclient.DefaultIndexPrefix

// CoverageTTL is how long Coverage answers from memory.
const CoverageTTL = 30 * time.Second

// Config says how to reach the cluster.
type Config struct {
	// URL of the cluster, e.g. http://localhost:9200, or of several of its
	// nodes separated by commas (http://a:9200,http://b:9200): requests go
	// round the nodes, and one that fails is retried on the next.
	URL      string
	Username string
	Password string
	// IndexPrefix names the indexes and aliases (default "recordwatch").
	// Lower-case letters, digits, '-', '_' and '.', starting with a letter
	// or digit.
	IndexPrefix string
	// Logger receives migration notices; nil discards them.
	Logger *slog.Logger
	// Transport replaces the HTTP transport (tests, TLS settings).
	Transport http.RoundTripper
	// DisableRetry turns off the client's retries: on 429, 502, 503 and
	// 504 answers, a lost or refused connection and a network timeout, a
	// request is sent up to MaxRetries more times (on the next node when
	// there are several), after waits of 100 ms, 200 ms, 400 ms …; and the
	// items of a bulk write that the cluster refuses with one of those
	// statuses (a full write queue), and a search some shards failed to
	// answer, are sent again the same way.
	DisableRetry bool
	// Now is the clock for the coverage cache; nil means time.Now.
	Now func() time.Time
	// Shards, when above 0, is the number of primary shards of the
	// indexes Open creates, in place of the mapping files' setting (1).
	// Indexes that exist already keep theirs.
	Shards int
	// Replicas, when set, is the number of replicas of each shard of the
	// indexes Open creates; nil leaves the cluster's default (1, which a
	// one-node cluster cannot place: its indexes stay yellow). Indexes that
	// exist already keep theirs.
	Replicas *int
}

// MaxRetries is how many times a request is sent again after a retryable
// failure (see Config.DisableRetry): the waits add up to 3.1 s, enough to
// ride out a cluster-manager election or a node leaving a cluster.
const MaxRetries = osclient.MaxRetries

// Backend is the OpenSearch engine. It is safe for concurrent use.
type Backend struct {
	client *osclient.Client
	log    *slog.Logger
	now    func() time.Time
	prefix string

	retry    bool // !Config.DisableRetry: bulk items refused as busy are sent again
	shards   int  // Config.Shards
	replicas *int // Config.Replicas

	cmu      sync.Mutex
	gen      uint64 // bumped by every write
	coverage []record.SourceCoverage
	covAt    time.Time
}

var _ search.Engine = (*Backend)(nil)

// Open connects to the cluster and makes sure the current versions of the
// indexes exist behind their aliases, migrating older versions (see the
// package comment). It fails when the cluster cannot be reached.
func Open(ctx context.Context, cfg Config) (*Backend, error) {
	prefix, err := osclient.IndexPrefix(cfg.IndexPrefix)
	if err != nil {
		return nil, err
	}
	client, err := osclient.New(cfg.client())
	if err != nil {
		return nil, err
	}
	logger := cfg.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	if cfg.Shards < 0 || cfg.Shards > 1024 {
		_ = client.Close()
		return nil, record.Invalid("shards", "the number of shards must be between 1 and 1024, not %d", cfg.Shards)
	}
	if cfg.Replicas != nil && (*cfg.Replicas < 0 || *cfg.Replicas > 16) {
		_ = client.Close()
		return nil, record.Invalid("replicas", "the number of replicas must be between 0 and 16, not %d", *cfg.Replicas)
	}
	b := &Backend{client: client, log: logger, now: now, prefix: prefix, retry: !cfg.DisableRetry, shards: cfg.Shards, replicas: cfg.Replicas}
	for _, kind := range mappings.Kinds {
		if err := b.ensureIndex(ctx, kind); err != nil {
			_ = client.Close()
			return nil, err
		}
	}
	return b, nil
}

// client is the connection part of cfg, with this engine's error texts.
func (cfg Config) client() osclient.Config {
	return osclient.Config{
		URL:          cfg.URL,
		Username:     cfg.Username,
		Password:     cfg.Password,
		Transport:    cfg.Transport,
		DisableRetry: cfg.DisableRetry,
		Name:         "opensearch",
		What:         "the search index",
	}
}

// Name identifies the engine.
func (b *Backend) Name() string { return "opensearch" }

// BeginBulk starts no bulk load (search.BulkLoader): a first load goes
// through the same _bulk writes as every other.
func (b *Backend) BeginBulk(context.Context) (bool, error) { return false, nil }

// EndBulk has no bulk load to end.
func (b *Backend) EndBulk(context.Context) error { return nil }

// Close releases the client.
func (b *Backend) Close() error { return b.client.Close() }

// Alias is the alias of an index kind ("recordwatch-notices").
func (b *Backend) Alias(kind string) string { return b.prefix + "-" + kind }

// IndexName is the versioned index of a kind ("recordwatch-notices.v1").
func (b *Backend) IndexName(kind string, version int) string {
	return fmt.Sprintf("%s.v%d", b.Alias(kind), version)
}

func (b *Backend) notices() string  { return b.Alias(mappings.Notices) }
func (b *Backend) passages() string { return b.Alias(mappings.Passages) }
func (b *Backend) meta() string     { return b.Alias(mappings.Meta) }

// stale drops the cached coverage after a write.
// Generation counts the writes through this value (search.Engine).
func (b *Backend) Generation() uint64 {
	b.cmu.Lock()
	defer b.cmu.Unlock()
	return b.gen
}

func (b *Backend) stale() {
	b.cmu.Lock()
	b.gen++
	b.coverage = nil
	b.cmu.Unlock()
}

// ---- requests

func jsonBody(v any) (*bytes.Reader, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return bytes.NewReader(b), nil
}

// ---- indexes and aliases

var versionRE = regexp.MustCompile(`\.v(\d+)$`)

// ensureIndex makes the alias of kind point at the current version of its
// index, creating or migrating as needed.
func (b *Backend) ensureIndex(ctx context.Context, kind string) error {
	alias := b.Alias(kind)
	want := mappings.Version(kind)
	target := b.IndexName(kind, want)

	current, err := b.aliasTargets(ctx, alias)
	if err != nil {
		return err
	}
	if len(current) == 1 && current[0] == target {
		return nil
	}
	var older []string
	for _, idx := range current {
		if idx == target {
			continue
		}
		m := versionRE.FindStringSubmatch(idx)
		if m == nil || !strings.HasPrefix(idx, alias+".v") {
			return fmt.Errorf("opensearch: alias %s points at %s, which is not one of this service's versioned indexes; remove the alias by hand", alias, idx)
		}
		var v int
		_, _ = fmt.Sscanf(m[1], "%d", &v)
		if v > want {
			return fmt.Errorf("opensearch: alias %s points at %s, a newer mapping than this build knows (v%d); upgrade this service", alias, idx, want)
		}
		older = append(older, idx)
	}
	if err := b.createIndex(ctx, kind, target); err != nil {
		return err
	}
	if len(older) > 0 && !slices.Contains(current, target) {
		if err := b.reindex(ctx, older, target); err != nil {
			return err
		}
	}
	actions := []any{}
	for _, idx := range older {
		actions = append(actions, map[string]any{"remove": map[string]any{"index": idx, "alias": alias}})
	}
	actions = append(actions, map[string]any{"add": map[string]any{"index": target, "alias": alias}})
	body, err := jsonBody(map[string]any{"actions": actions})
	if err != nil {
		return err
	}
	var ack struct {
		Acknowledged bool `json:"acknowledged"`
	}
	if _, err := b.client.Do(ctx, "update aliases", http.MethodPost, opensearchapi.AliasesReq{Body: body}, &ack); err != nil {
		return err
	}
	if len(older) > 0 {
		b.log.Info("opensearch: alias moved to the new index version; the old index is kept and can be removed by hand",
			"alias", alias, "index", target, "old", strings.Join(older, ","))
	} else {
		b.log.Info("opensearch: created index", "alias", alias, "index", target)
	}
	return nil
}

// aliasTargets lists the indexes an alias points at (none when it does not
// exist).
func (b *Backend) aliasTargets(ctx context.Context, alias string) ([]string, error) {
	var got map[string]struct {
		Aliases map[string]json.RawMessage `json:"aliases"`
	}
	status, err := b.client.Do(ctx, "get alias "+alias, http.MethodGet,
		opensearchapi.AliasGetReq{Alias: []string{alias}}, &got, http.StatusNotFound)
	if err != nil {
		return nil, err
	}
	if status == http.StatusNotFound {
		return nil, nil
	}
	var out []string
	for idx, v := range got {
		if _, ok := v.Aliases[alias]; ok {
			out = append(out, idx)
		}
	}
	slices.Sort(out)
	return out, nil
}

// createIndex creates index with the current mapping of kind unless it
// exists already.
func (b *Backend) createIndex(ctx context.Context, kind, index string) error {
	status, err := b.client.Do(ctx, "index exists "+index, http.MethodHead,
		opensearchapi.IndicesExistsReq{Indices: []string{index}}, nil, http.StatusNotFound)
	if err != nil {
		return err
	}
	if status == http.StatusOK {
		return nil
	}
	def, err := mappings.Get(kind)
	if err != nil {
		return err
	}
	if def, err = b.withLayout(def); err != nil {
		return fmt.Errorf("opensearch: mapping %s: %w", kind, err)
	}
	status, err = b.client.Do(ctx, "create index "+index, http.MethodPut,
		opensearchapi.IndicesCreateReq{Index: index, Body: bytes.NewReader(def)}, nil, http.StatusBadRequest)
	if err != nil {
		return err
	}
	if status == http.StatusBadRequest {
		// another process created it first: fine; anything else is not
		status, err = b.client.Do(ctx, "index exists "+index, http.MethodHead,
			opensearchapi.IndicesExistsReq{Indices: []string{index}}, nil, http.StatusNotFound)
		if err != nil {
			return err
		}
		if status != http.StatusOK {
			return fmt.Errorf("opensearch: create index %s was rejected (status 400)", index)
		}
	}
	return nil
}

// withLayout sets Config.Shards and Config.Replicas in an index definition's
// settings.index; without them the definition is returned as it is.
func (b *Backend) withLayout(def []byte) ([]byte, error) {
	if b.shards <= 0 && b.replicas == nil {
		return def, nil
	}
	var d map[string]json.RawMessage
	if err := json.Unmarshal(def, &d); err != nil {
		return nil, err
	}
	var settings map[string]json.RawMessage
	if raw, ok := d["settings"]; ok {
		if err := json.Unmarshal(raw, &settings); err != nil {
			return nil, err
		}
	}
	if settings == nil {
		settings = map[string]json.RawMessage{}
	}
	index := map[string]any{}
	if raw, ok := settings["index"]; ok {
		if err := json.Unmarshal(raw, &index); err != nil {
			return nil, err
		}
	}
	if b.shards > 0 {
		index["number_of_shards"] = b.shards
	}
	if b.replicas != nil {
		index["number_of_replicas"] = *b.replicas
	}
	var err error
	if settings["index"], err = json.Marshal(index); err != nil {
		return nil, err
	}
	if d["settings"], err = json.Marshal(settings); err != nil {
		return nil, err
	}
	return json.Marshal(d)
}

// reindex copies every document of the old indexes into target and waits.
// It refreshes the old indexes first: _reindex reads them through a search,
// which sees only refreshed documents, so without it the writes of the
// last refresh interval before the migration would be left behind.
func (b *Backend) reindex(ctx context.Context, from []string, target string) error {
	if _, err := b.client.Do(ctx, "refresh "+strings.Join(from, ","), http.MethodPost,
		opensearchapi.IndicesRefreshReq{Index: from}, nil); err != nil {
		return err
	}
	body, err := jsonBody(map[string]any{
		"source":    map[string]any{"index": from},
		"dest":      map[string]any{"index": target},
		"conflicts": "proceed",
	})
	if err != nil {
		return err
	}
	wait, refresh := true, true
	var res struct {
		Total    int               `json:"total"`
		Created  int               `json:"created"`
		Updated  int               `json:"updated"`
		Failures []json.RawMessage `json:"failures"`
	}
	b.log.Info("opensearch: reindexing into a new mapping version", "from", strings.Join(from, ","), "to", target)
	if _, err := b.client.Do(ctx, "reindex into "+target, http.MethodPost, opensearchapi.ReindexReq{
		Body:   body,
		Params: opensearchapi.ReindexParams{WaitForCompletion: &wait, Refresh: &refresh},
	}, &res); err != nil {
		return err
	}
	if len(res.Failures) > 0 {
		return fmt.Errorf("opensearch: reindex into %s: %d failures, first: %s", target, len(res.Failures), osclient.Truncate(string(res.Failures[0]), 300))
	}
	b.log.Info("opensearch: reindexed", "to", target, "total", res.Total, "created", res.Created, "updated", res.Updated)
	return nil
}
