package osstore

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/opensearch-project/opensearch-go/v4/opensearchapi"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/store"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// The backup of an OpenSearch deployment is a snapshot of its state index,
// as docs/operations.md gives it: an fs repository under the node's
// path.repo, a snapshot of <prefix>-state.v1, and a restore under a fresh
// name behind a fresh alias (as into a fresh cluster). The restored store
// holds the watch, the share and the token key (old manage links verify).
func TestStateSnapshotRestoresIntoAFreshIndex(t *testing.T) {
	base := os.Getenv("OPENSEARCH_URL")
	if base == "" {
		t.Skip("OPENSEARCH_URL is not set: the OpenSearch state snapshot is not checked (start one with docker/opensearch-local.sh start)")
	}
	base = strings.TrimRight(strings.Split(base, ",")[0], "/")
	ctx := context.Background()
	rnd := make([]byte, 6)
	rand.Read(rnd)
	tag := hex.EncodeToString(rnd)
	from, to, repo := "rwsnaptest-"+tag, "rwsnaprestored-"+tag, "rwsnaptest-"+tag
	cfg := func(prefix string) Config {
		return Config{URL: base, IndexPrefix: prefix, Username: os.Getenv("OPENSEARCH_USERNAME"), Password: os.Getenv("OPENSEARCH_PASSWORD")}
	}
	call := func(method, path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, method, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if u := os.Getenv("OPENSEARCH_USERNAME"); u != "" {
			req.SetBasicAuth(u, os.Getenv("OPENSEARCH_PASSWORD"))
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}

	src, err := Open(ctx, cfg(from))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		call("DELETE", "/"+from+"-state.v1,"+to+"-state.v1?ignore_unavailable=true", "")
		call("DELETE", "/_snapshot/"+repo+"/snap", "")
		call("DELETE", "/_snapshot/"+repo, "")
	})
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, record.NewYork)
	w := watch.Watch{ID: watch.NewID(), Email: "reader@example.org", Scope: "notices about parks", Form: 1, Status: watch.StatusActive,
		CreatedAt: now, ActivatedAt: now, Filter: watch.Filter{Lens: "money", AnyOf: []string{"parks"}}}
	if err := src.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
		t.Fatal(err)
	}
	sh := store.Share{ID: "snap" + tag, CreatedAt: now, ExpiresAt: now.AddDate(0, 0, 90), Body: []byte(`{"title":"kept"}`)}
	if err := src.PutShare(ctx, sh); err != nil {
		t.Fatal(err)
	}
	key, err := src.WatchKey(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := src.Close(); err != nil { // counts flushed
		t.Fatal(err)
	}
	// refresh, so the snapshot holds what was acknowledged
	if code, body := call("POST", "/"+from+"-state/_refresh", ""); code != 200 {
		t.Fatalf("refresh: %d %s", code, body)
	}

	// the documented commands: register, snapshot, restore renamed, alias
	code, body := call("PUT", "/_snapshot/"+repo, `{"type":"fs","settings":{"location":"`+repo+`"}}`)
	if code != 200 {
		if strings.Contains(body, "path.repo") {
			t.Skipf("the node at %s has no path.repo, so no fs snapshot repository (restart it with docker/opensearch-local.sh stop; start, which sets one): %s", base, body)
		}
		t.Fatalf("register repository: %d %s", code, body)
	}
	code, body = call("PUT", "/_snapshot/"+repo+"/snap?wait_for_completion=true",
		`{"indices":"`+from+`-state.v1","include_global_state":false}`)
	if code != 200 || !strings.Contains(body, `"state":"SUCCESS"`) {
		t.Fatalf("snapshot: %d %s", code, body)
	}
	code, body = call("POST", "/_snapshot/"+repo+"/snap/_restore?wait_for_completion=true",
		fmt.Sprintf(`{"indices":"%s-state.v1","include_aliases":false,"rename_pattern":"%s-state(.*)","rename_replacement":"%s-state$1"}`, from, from, to))
	if code != 200 {
		t.Fatalf("restore: %d %s", code, body)
	}
	code, body = call("POST", "/_aliases", fmt.Sprintf(`{"actions":[{"add":{"index":"%s-state.v1","alias":"%s-state"}}]}`, to, to))
	if code != 200 {
		t.Fatalf("alias: %d %s", code, body)
	}

	dst, err := Open(ctx, cfg(to))
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	got, err := dst.ListWatches(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].ID != w.ID || got[0].Email != w.Email {
		t.Errorf("restored watches: %+v, want the one watch %s", got, w.ID)
	}
	gs, err := dst.GetShare(ctx, sh.ID)
	if err != nil || !bytes.Equal(gs.Body, sh.Body) {
		t.Errorf("restored share: %+v %v", gs, err)
	}
	if k, err := dst.WatchKey(ctx); err != nil || !bytes.Equal(k, key) {
		t.Errorf("restored token key differs (%v): old manage links would not verify", err)
	}
	// the restored index is the one behind the alias, not a new empty one
	var aliases map[string]json.RawMessage
	if _, err := dst.client.Do(ctx, "get alias", http.MethodGet, opensearchapi.AliasGetReq{Alias: []string{to + "-state"}}, &aliases); err != nil {
		t.Fatal(err)
	}
	if _, ok := aliases[to+"-state.v1"]; !ok || len(aliases) != 1 {
		t.Errorf("alias %s-state points to %v", to, aliases)
	}
}
