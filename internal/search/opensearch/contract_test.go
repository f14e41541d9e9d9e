package opensearch

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/opensearch-project/opensearch-go/v4"
	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
	"github.com/recordwatch/recordwatch/mappings"
)

// TestContract runs the shared contract suite against a real cluster. Each
// backend the suite opens gets its own index prefix, and its indexes are
// deleted when the test ends.
//
//	OPENSEARCH_URL=http://localhost:9200 go test ./internal/search/opensearch/ -run TestContract -v
//
// OPENSEARCH_USERNAME and OPENSEARCH_PASSWORD (or credentials in the URL) log
// in; OPENSEARCH_INSECURE=1 accepts a self-signed certificate.
func TestContract(t *testing.T) {
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" {
		t.Skip("OPENSEARCH_URL not set: the contract suite needs a running OpenSearch cluster; run " +
			"OPENSEARCH_URL=http://localhost:9200 go test ./internal/search/opensearch/ -run TestContract " +
			"(OPENSEARCH_USERNAME, OPENSEARCH_PASSWORD, OPENSEARCH_INSECURE=1 as needed)")
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
	searchtest.Run(t, func(t *testing.T) search.Backend {
		c := cfg
		c.IndexPrefix = "rwtest-" + randomHex(t)
		t.Cleanup(func() { deleteIndexes(t, c) }) // runs after the suite closes the backend
		b, err := Open(context.Background(), c)
		if err != nil {
			t.Fatalf("open %s: %v", cfg.URL, err)
		}
		return b
	})
}

func randomHex(t *testing.T) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// deleteIndexes removes the indexes of one contract run (by name: wildcard
// deletes may be refused by the cluster).
func deleteIndexes(t *testing.T, cfg Config) {
	client, err := opensearchapi.NewClient(opensearchapi.Config{Client: opensearch.Config{
		Addresses: strings.Split(cfg.URL, ","), Username: cfg.Username, Password: cfg.Password, Transport: cfg.Transport,
	}})
	if err != nil {
		t.Errorf("cleanup: %v", err)
		return
	}
	defer client.Close()
	names := Backend{prefix: cfg.IndexPrefix}
	var indexes []string
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
