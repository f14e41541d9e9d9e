package opensearch

import (
	"os"
	"regexp"
	"testing"
)

// TestLocalNodeVersionMatchesCompose keeps the OpenSearch that
// docker/opensearch-local.sh runs (tests, CI) and the one compose.yaml
// deploys on the same version.
func TestLocalNodeVersionMatchesCompose(t *testing.T) {
	find := func(path, pattern string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(pattern).FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s: no match for %s", path, pattern)
		}
		return string(m[1])
	}
	script := find("../../../docker/opensearch-local.sh", `(?m)^OPENSEARCH_VERSION=([0-9][0-9.]*)$`)
	compose := find("../../../compose.yaml", `(?m)^\s*image:\s*opensearchproject/opensearch:([0-9][0-9.]*)\s*$`)
	if script != compose {
		t.Errorf("docker/opensearch-local.sh runs OpenSearch %s, compose.yaml deploys %s: keep them on one version", script, compose)
	}
}
