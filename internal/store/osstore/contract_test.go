package osstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
	"os"
	"testing"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/store/storetest"
)

// TestStoreOpenSearch runs the store contract suite on a live cluster
// (OPENSEARCH_URL), each check under its own index prefix, removed after.
func TestStoreOpenSearch(t *testing.T) {
	url := os.Getenv("OPENSEARCH_URL")
	if url == "" {
		t.Skip("OPENSEARCH_URL is not set: the OpenSearch state store is not checked (start one with docker/opensearch-local.sh start)")
	}
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		b := make([]byte, 6)
		rand.Read(b)
		prefix := "rwstoretest-" + hex.EncodeToString(b)
		cfg := Config{URL: url, IndexPrefix: prefix, Username: os.Getenv("OPENSEARCH_USERNAME"), Password: os.Getenv("OPENSEARCH_PASSWORD")}
		t.Cleanup(func() {
			s, err := Open(context.Background(), cfg)
			if err != nil {
				t.Logf("cleanup: %v", err)
				return
			}
			defer s.client.Close()
			s.stopFlusher()
			if _, err := s.client.Do(context.Background(), "delete index", http.MethodDelete, opensearchapi.IndicesDeleteReq{Indices: []string{s.index}}, nil); err != nil {
				t.Logf("cleanup: %v", err)
			}
		})
		return storetest.Harness{Shared: true, Open: func(t *testing.T) storetest.Store {
			t.Helper()
			s, err := Open(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}}
	})
}
