package store_test

import (
	"path/filepath"
	"testing"

	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/store/storetest"
)

// TestStoreBolt runs the store contract suite on the embedded bbolt store
// (the OpenSearch store runs it in package osstore).
func TestStoreBolt(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		path := filepath.Join(t.TempDir(), "state.db")
		return storetest.Harness{Open: func(t *testing.T) storetest.Store {
			t.Helper()
			s, err := store.OpenBolt(path)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}}
	})
}
