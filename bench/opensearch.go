package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// OpenSearch is the peer users would pick instead of the embedded engine,
// so it is served the way Recordwatch serves it in production: Recordwatch's
// own API (the ours-serve child) over the OpenSearch engine
// (internal/search/opensearch), loaded by the same pipeline (the ours-index
// child). The requests are byte-identical and the counts must agree
// exactly. The node is the benchmark's own: docker/opensearch-local.sh run
// with a home, ports and heap of its own, so it never touches a development
// node on the script's default ports.

// osNode is the benchmark's single OpenSearch node.
type osNode struct {
	Script string // docker/opensearch-local.sh
	Home   string // RECORDWATCH_OPENSEARCH_HOME
	Port   int    // HTTP port; the transport port is Port+100
	Heap   string // JVM heap (-Xms = -Xmx)
	URL    string // set by start
}

// defaultOSHome is where the benchmark's node lives unless -opensearch-home
// says otherwise: apart from the script's default home, which a development
// node may be using. As root the node runs as an unprivileged user that
// cannot enter /root, so the home is under /var/cache (as the script's own
// default is).
func defaultOSHome() string {
	if os.Geteuid() == 0 {
		return "/var/cache/rw-bench-opensearch"
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "rw-bench-opensearch")
	}
	return filepath.Join(os.TempDir(), "rw-bench-opensearch")
}

func (n *osNode) env() []string {
	return append(os.Environ(),
		"RECORDWATCH_OPENSEARCH_HOME="+n.Home,
		"RECORDWATCH_OPENSEARCH_HTTP_PORT="+strconv.Itoa(n.Port),
		"RECORDWATCH_OPENSEARCH_TRANSPORT_PORT="+strconv.Itoa(n.Port+100),
		"RECORDWATCH_OPENSEARCH_HEAP="+n.Heap)
}

// script runs the node script with args; its standard error (progress)
// goes to ours, its standard output is returned.
func (n *osNode) script(args ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{n.Script}, args...)...)
	cmd.Env = n.env()
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", n.Script, strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}

// start stops a node an earlier run may have left in the benchmark's home
// (so the node is fresh and has the heap asked for), then starts one and
// waits for it to be healthy.
func (n *osNode) start() error {
	if _, err := os.Stat(n.Script); err != nil {
		return fmt.Errorf("OpenSearch node script %s not found: run from the repository root or set -opensearch-script", n.Script)
	}
	if _, err := n.script("stop"); err != nil {
		return err
	}
	out, err := n.script("start", "1")
	if err != nil {
		return err
	}
	lines := strings.Split(out, "\n")
	n.URL = strings.TrimSpace(lines[len(lines)-1])
	if !strings.HasPrefix(n.URL, "http") {
		return fmt.Errorf("%s start printed %q, not a URL", n.Script, out)
	}
	return nil
}

// stop stops exactly the node the script started in the benchmark's home.
func (n *osNode) stop() error {
	_, err := n.script("stop")
	return err
}

// pids are the node's JVM processes: the pids the script records in its
// run directory (the JVM writes its own pid there, -p), each checked to be
// an OpenSearch JVM still running.
func (n *osNode) pids() []int {
	files, _ := filepath.Glob(filepath.Join(n.Home, "run", "node-*.pid"))
	var out []int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err == nil && bytes.Contains(cmdline, []byte("org.opensearch.bootstrap.OpenSearch")) {
			out = append(out, pid)
		}
	}
	return out
}

// osCall sends one request to the node and decodes a JSON answer into out
// (when not nil); an answer other than 2xx is an error.
func osCall(ctx context.Context, method, u string, out any) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("%s %s: %s: %.300s", method, u, resp.Status, body)
	}
	if out == nil {
		return nil
	}
	return json.Unmarshal(body, out)
}

// osPattern is the index pattern of a prefix's indexes (notices, passages,
// meta and entries, each <prefix>-<kind>.v<n>): the '-' keeps prefix
// rwbench-n3000 from matching rwbench-n30000's indexes.
func osPattern(prefix string) string { return url.PathEscape(prefix + "-*") }

// osVersion describes the node for the report: OpenSearch and Lucene
// versions from GET /, the JVM and its maximum heap from _nodes/jvm.
func osVersion(ctx context.Context, base string) (string, error) {
	var root struct {
		Version struct {
			Number string `json:"number"`
			Lucene string `json:"lucene_version"`
		} `json:"version"`
	}
	if err := osCall(ctx, http.MethodGet, base+"/", &root); err != nil {
		return "", err
	}
	var nodes struct {
		Nodes map[string]struct {
			JVM struct {
				Version string `json:"version"`
				Mem     struct {
					HeapMax int64 `json:"heap_max_in_bytes"`
				} `json:"mem"`
			} `json:"jvm"`
		} `json:"nodes"`
	}
	s := "OpenSearch " + root.Version.Number + " (Lucene " + root.Version.Lucene
	if err := osCall(ctx, http.MethodGet, base+"/_nodes/jvm", &nodes); err == nil {
		for _, nd := range nodes.Nodes {
			s += fmt.Sprintf(", JVM %s, heap %s", nd.JVM.Version, heapSize(nd.JVM.Mem.HeapMax))
		}
		s += fmt.Sprintf(", %d node", len(nodes.Nodes))
	}
	return s + ")", nil
}

func heapSize(b int64) string {
	switch {
	case b >= 1<<30 && b%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", b>>30)
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", b>>20)
}

// osDeleteIndexes deletes the prefix's indexes (their aliases go with
// them), so a load starts from nothing.
func osDeleteIndexes(ctx context.Context, base, prefix string) error {
	var rows []struct {
		Index string `json:"index"`
	}
	if err := osCall(ctx, http.MethodGet, base+"/_cat/indices/"+osPattern(prefix)+"?format=json&h=index&expand_wildcards=all", &rows); err != nil {
		return err
	}
	for _, r := range rows {
		if err := osCall(ctx, http.MethodDelete, base+"/"+url.PathEscape(r.Index), nil); err != nil {
			return err
		}
	}
	return nil
}

// osNotices is how many notices the prefix's notices alias holds (0 when
// it does not exist).
func osNotices(ctx context.Context, base, prefix string) int {
	var c struct {
		Count int `json:"count"`
	}
	if err := osCall(ctx, http.MethodGet, base+"/"+url.PathEscape(prefix+"-notices")+"/_count", &c); err != nil {
		return 0
	}
	return c.Count
}

// osFlush commits the prefix's indexes (a Lucene commit, so the store holds
// every segment and the translog is emptied).
func osFlush(ctx context.Context, base, prefix string) error {
	return osCall(ctx, http.MethodPost, base+"/"+osPattern(prefix)+"/_flush", nil)
}

// osStoreBytes is the size on disk of the prefix's indexes: the primaries'
// store (a single node holds no replicas).
func osStoreBytes(ctx context.Context, base, prefix string) (int64, error) {
	var st struct {
		All struct {
			Primaries struct {
				Store struct {
					Bytes int64 `json:"size_in_bytes"`
				} `json:"store"`
			} `json:"primaries"`
		} `json:"_all"`
	}
	err := osCall(ctx, http.MethodGet, base+"/"+osPattern(prefix)+"/_stats/store", &st)
	return st.All.Primaries.Store.Bytes, err
}
