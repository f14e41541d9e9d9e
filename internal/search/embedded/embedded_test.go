package embedded_test

import (
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

func TestContract(t *testing.T) {
	searchtest.Run(t, func(t *testing.T) search.Engine {
		b, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}

// TestContractCached runs the contract suite through the response cache
// main.go puts in front of the engine (search.Cached): every read after a
// write through it sees the write, and answers are the engine's.
func TestContractCached(t *testing.T) {
	searchtest.Run(t, func(t *testing.T) search.Engine {
		b, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		c := search.Cached(b, false)
		if _, ok := c.(*search.Cache); !ok {
			t.Fatal("the embedded engine is not cached")
		}
		return c
	})
}
