package osstore

import (
	"context"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// Key parts are escaped, so parts holding the separator cannot make two
// keys share an id.
func TestDocIDsDoNotCollide(t *testing.T) {
	pairs := [][2]string{
		{docID(kindCounter, "a|b", "c"), docID(kindCounter, "a", "b|c")},
		{docID(kindDelivery, "w", "x|y"), docID(kindDelivery, "w|x", "y")},
		{docID(kindCeiling, "2026-11-22", "batch", "id"), docID(kindCeiling, "2026-11-22|batch", "id")},
		{docID(kindShare, "x"), docID(kindWatch, "x")},
	}
	for _, p := range pairs {
		if p[0] == p[1] {
			t.Errorf("two keys give the id %q", p[0])
		}
	}
}

func TestOpenChecksConfigAndReportsAnUnreachableCluster(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []Config{{URL: ""}, {URL: "localhost:9200"}, {URL: "http://127.0.0.1:9200", IndexPrefix: "Bad Prefix"}} {
		if _, err := Open(ctx, cfg); record.ErrorCode(err) != record.EINVALID {
			t.Errorf("Open(%+v): %v, want EINVALID", cfg, err)
		}
	}
	// port 1 on loopback: nothing listens
	if _, err := Open(ctx, Config{URL: "http://127.0.0.1:1", DisableRetry: true}); record.ErrorCode(err) != record.EUNAVAILABLE {
		t.Errorf("unreachable cluster: %v, want EUNAVAILABLE", err)
	}
}
