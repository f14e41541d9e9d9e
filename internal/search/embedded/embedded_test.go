package embedded_test

import (
	"testing"

	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
	"github.com/recordwatch/recordwatch/internal/search/searchtest"
)

func TestContract(t *testing.T) {
	searchtest.Run(t, func(t *testing.T) search.Backend {
		b, err := embedded.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return b
	})
}
