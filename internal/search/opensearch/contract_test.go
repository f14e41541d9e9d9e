package opensearch

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/osclient"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
	"github.com/recordwatch/recordwatch/mappings"
)

// liveCommand is how to run the live tests on a local node the project's
// own script starts (any cluster will do: OPENSEARCH_URL takes one URL or
// several nodes' URLs separated by commas).
const liveCommand = "docker/opensearch-local.sh start && " +
	"OPENSEARCH_URL=$(docker/opensearch-local.sh url) go test ./internal/search/opensearch/ -count=1 -v -run TestContract; " +
	"docker/opensearch-local.sh stop"

// TestContract runs the shared contract suite against a real cluster
// (TestContract/opensearch/...), then the checks only this engine has
// (TestContract/opensearch-only/...: mapping migration through _reindex, a
// node list with a node down). Each backend gets its own index prefix, and
// its indexes are deleted when the test ends.
//
//	docker/opensearch-local.sh start        # or start 3 for a three-node cluster
//	OPENSEARCH_URL=$(docker/opensearch-local.sh url) go test ./internal/search/opensearch/ -count=1 -v -run TestContract
//	docker/opensearch-local.sh stop
//
// OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD (or credentials in the URL) log
// in; OPENSEARCH_INSECURE=1 accepts a self-signed certificate.
func TestContract(t *testing.T) {
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" {
		t.Skip("OPENSEARCH_URL not set: skipped the search contract suite and the OpenSearch-only checks " +
			"against a live OpenSearch (the embedded engine's run of the suite is in internal/search/embedded). Run them with: " +
			liveCommand + " (OPENSEARCH_USERNAME, OPENSEARCH_PASSWORD, OPENSEARCH_INSECURE=1 as a cluster needs)")
	}
	var transport http.RoundTripper
	if os.Getenv("OPENSEARCH_INSECURE") == "1" {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{InsecureSkipVerify: true} // #nosec G402 -- test clusters only
		transport = tr
	}
	cfg := Config{
		URL:       url,
		Username:  os.Getenv("OPENSEARCH_USERNAME"),
		Password:  os.Getenv("OPENSEARCH_PASSWORD"),
		Transport: transport,
	}
	searchtest.Run(t, func(t *testing.T) search.Engine {
		c := cfg
		c.IndexPrefix = "rwtest-" + randomHex(t)
		t.Cleanup(func() { deleteIndexes(t, c) }) // runs after the suite closes the backend
		b, err := Open(context.Background(), c)
		if err != nil {
			t.Fatalf("open %s: %v", cfg.URL, err)
		}
		return b
	})
	t.Run("opensearch-only/MigrationReindexesAndSwapsTheAlias", func(t *testing.T) { liveMigration(t, cfg) })
	t.Run("opensearch-only/NodeDownInTheList", func(t *testing.T) { liveNodeDown(t, cfg) })
}

// liveMigration: the notices are on an older mapping version (v0 stands
// for "the version before", made by hand as an older build made it, with
// the other kinds current); Open creates v1, copies the documents with
// _reindex, moves the alias and keeps v0. Searches and reads run through
// the alias in a loop all along, from a second process's view (another
// Backend on the same cluster): none may fail, and every one sees every
// written notice, before the swap (v0), across it and after it (v1).
func liveMigration(t *testing.T, cfg Config) {
	ctx := context.Background()
	cfg.IndexPrefix = "rwtest-" + randomHex(t)
	client := newClient(t, cfg)
	old := &Backend{client: client, prefix: cfg.IndexPrefix, log: slog.New(slog.DiscardHandler), now: time.Now}
	v0 := old.IndexName(mappings.Notices, 0)
	t.Cleanup(func() { deleteIndexes(t, cfg, v0) })
	if err := old.createIndex(ctx, mappings.Notices, v0); err != nil {
		t.Fatal(err)
	}
	body, err := jsonBody(map[string]any{"actions": []any{map[string]any{"add": map[string]any{"index": v0, "alias": old.notices()}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.client.Do(ctx, "alias v0", http.MethodPost, opensearchapi.AliasesReq{Body: body}, nil); err != nil {
		t.Fatal(err)
	}
	for _, kind := range mappings.Kinds {
		if kind != mappings.Notices {
			if err := old.ensureIndex(ctx, kind); err != nil {
				t.Fatal(err)
			}
		}
	}
	// the fixtures, read back by id below, and enough other notices that
	// the copy takes a while
	docs := searchtest.Fixtures()[:3]
	w := newBulkWriter()
	for _, d := range docs {
		if err := w.index(old.notices(), d.Notice.RequestID, newNoticeDoc(d.Notice, nil)); err != nil {
			t.Fatal(err)
		}
	}
	written := len(docs)
	for i := range migrationFiller {
		n := notice(fmt.Sprintf("M%06d", i), day(2020+i%6, 1+i%12, 1+i%28))
		if err := w.index(old.notices(), n.RequestID, newNoticeDoc(n, nil)); err != nil {
			t.Fatal(err)
		}
		written++
	}
	if err := old.bulk(ctx, w); err != nil {
		t.Fatal(err)
	}
	if _, err := old.client.Do(ctx, "refresh v0", http.MethodPost, opensearchapi.IndicesRefreshReq{Index: []string{v0}}, nil); err != nil {
		t.Fatal(err)
	}

	// reads through the alias during Open
	var (
		mu                            sync.Mutex
		phase                         int // 0 before Open, 1 during, 2 after
		before, during, after, failed int
		errs                          []string
	)
	qctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; qctx.Err() == nil; i++ {
			mu.Lock()
			began := phase
			mu.Unlock()
			var err error
			if i%2 == 0 {
				var res search.Result
				res, err = old.Search(qctx, search.Query{Sort: search.SortNewest, Limit: 10})
				if err == nil && res.Total != written {
					err = fmt.Errorf("search found %d notices, want %d", res.Total, written)
				}
			} else {
				var n record.Notice
				n, err = old.Get(qctx, docs[i%len(docs)].Notice.RequestID)
				if err == nil && n.Title != docs[i%len(docs)].Notice.Title {
					err = fmt.Errorf("get %s = %q", n.RequestID, n.Title)
				}
			}
			if qctx.Err() != nil {
				return
			}
			mu.Lock()
			if err != nil {
				failed++
				if len(errs) < 5 {
					errs = append(errs, err.Error())
				}
			}
			switch began {
			case 0:
				before++
			case 1:
				during++
			default:
				after++
			}
			mu.Unlock()
		}
	}()
	time.Sleep(200 * time.Millisecond) // a few reads before Open begins

	var logs bytes.Buffer
	cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	mu.Lock()
	phase = 1
	mu.Unlock()
	openStart := time.Now()
	b, err := Open(ctx, cfg)
	openTook := time.Since(openStart)
	mu.Lock()
	phase = 2
	mu.Unlock()
	if err != nil {
		stop()
		<-done
		t.Fatalf("Open over an older notices index: %v", err)
	}
	defer b.Close()
	time.Sleep(500 * time.Millisecond) // and a few after the swap
	stop()
	<-done
	t.Logf("migration of %d notices took %s; reads through the alias: %d before, %d during, %d after; %d failed",
		written, openTook.Round(time.Millisecond), before, during, after, failed)
	if failed > 0 {
		t.Errorf("%d reads through the alias failed or missed notices during the migration; first: %s", failed, strings.Join(errs, "; "))
	}
	if before < 1 || during < 2 || after < 1 {
		t.Errorf("reads: %d before Open, %d during, %d after; want some in each", before, during, after)
	}

	targets, err := b.aliasTargets(ctx, b.notices())
	if err != nil {
		t.Fatal(err)
	}
	if v1 := b.IndexName(mappings.Notices, mappings.NoticesVersion); !slices.Equal(targets, []string{v1}) {
		t.Errorf("alias %s → %v, want only %s", b.notices(), targets, v1)
	}
	status, err := b.client.Do(ctx, "v0 exists", http.MethodHead, opensearchapi.IndicesExistsReq{Indices: []string{v0}}, nil, http.StatusNotFound)
	if err != nil || status != http.StatusOK {
		t.Errorf("the old index %s is gone (status %d, %v); it must be kept until removed by hand", v0, status, err)
	}
	if err := b.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	for _, d := range docs {
		got, err := b.Get(ctx, d.Notice.RequestID)
		if err != nil || got.Title != d.Notice.Title {
			t.Errorf("after migration, Get %s = %q, %v; want %q", d.Notice.RequestID, got.Title, err, d.Notice.Title)
		}
	}
	res, err := b.Search(ctx, search.Query{Limit: 10})
	if err != nil || res.Total != written {
		t.Errorf("after migration, search finds %d notices (%v), want %d", res.Total, err, written)
	}
	if !strings.Contains(logs.String(), "removed by hand") {
		t.Errorf("log = %q, want a notice that the old index can be removed by hand", logs.String())
	}
}

// migrationFiller is how many notices besides the fixtures the live
// migration check copies, so that reads overlap the copy.
const migrationFiller = 3000

// liveNodeDown: with a node that refuses connections in the list (first
// and last), every request still reaches a live node.
func liveNodeDown(t *testing.T, cfg Config) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String()
	ln.Close()
	ctx := context.Background()
	docs := searchtest.Fixtures()
	for _, list := range []string{dead + "," + cfg.URL, cfg.URL + "," + dead} {
		c := cfg
		c.URL = list
		c.IndexPrefix = "rwtest-" + randomHex(t)
		t.Cleanup(func() { deleteIndexes(t, c) })
		b, err := Open(ctx, c)
		if err != nil {
			t.Fatalf("Open(%s): %v", list, err)
		}
		for i, d := range docs[:4] {
			if err := b.Upsert(ctx, []search.Doc{d}); err != nil {
				t.Fatalf("Upsert %d via %s: %v", i, list, err)
			}
			if err := b.Refresh(ctx); err != nil {
				t.Fatalf("Refresh %d via %s: %v", i, list, err)
			}
			res, err := b.Search(ctx, search.Query{Limit: 10})
			if err != nil || res.Total != i+1 {
				t.Fatalf("Search %d via %s: %d notices, %v; want %d", i, list, res.Total, err, i+1)
			}
		}
		b.Close()
	}
}

func newClient(t *testing.T, cfg Config) *osclient.Client {
	t.Helper()
	client, err := osclient.New(cfg.client())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

func randomHex(t *testing.T) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// deleteIndexes removes the indexes of one run, the current versions of
// every kind and any others named (by name: wildcard deletes may be refused
// by the cluster).
func deleteIndexes(t *testing.T, cfg Config, more ...string) {
	addrs, err := osclient.Addresses(cfg.URL)
	if err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	client, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{
		Addresses: addrs, Username: cfg.Username, Password: cfg.Password, Transport: cfg.Transport,
	}})
	if err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	defer client.Close()
	names := Backend{prefix: cfg.IndexPrefix}
	indexes := append([]string(nil), more...)
	for _, kind := range mappings.Kinds {
		indexes = append(indexes, names.IndexName(kind, mappings.Version(kind)))
	}
	ignore := true
	if _, err := client.Indices.Delete(context.Background(), opensearchapi.IndicesDeleteReq{
		Indices: indexes,
		Params:  opensearchapi.IndicesDeleteParams{IgnoreUnavailable: &ignore},
	}); err != nil {
		t.Errorf("cleanup: delete %v: %v", indexes, err)
	}
}
