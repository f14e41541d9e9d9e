package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// startAll runs the default role on dataDir until the returned stop is called.
func startAll(t *testing.T, dataDir string, logs *bytes.Buffer, args ...string) (string, func()) {
	t.Helper()
	s := startServers(t, serverSpec{dataDir, logs, args})[0]
	return s.base, s.stop
}

// serverSpec is one in-process start of the default role: its data
// directory, where its logs go and its extra arguments.
type serverSpec struct {
	dataDir string
	logs    *bytes.Buffer
	args    []string
}

type server struct {
	base string
	stop func()
}

// running is a server started by startServers, not yet known to serve.
type running struct {
	base   string
	cancel context.CancelFunc
	done   chan error
}

// cancelAll stops the starts of a failed startServers without waiting.
func cancelAll(rs []running) {
	for _, r := range rs {
		r.cancel()
	}
}

// startServers runs the default role once per spec, all started at once
// (their first loads overlap), and returns when every one serves; each runs
// until its stop is called.
func startServers(t *testing.T, specs ...serverSpec) []server {
	t.Helper()
	// RECORDWATCH_SMTP_ADDR is a free loopback port (TestMain)
	rs := make([]running, len(specs))
	for i, sp := range specs {
		cfg, err := parseConfig(append([]string{"-data", sp.dataDir, "-addr", freeAddr(t)}, sp.args...), io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		logger := slog.New(slog.NewTextHandler(sp.logs, nil))
		go func() { done <- run(ctx, cfg, logger, time.Now) }()
		rs[i] = running{"http://" + cfg.Addr, cancel, done}
	}
	out := make([]server, len(specs))
	for i, r := range rs {
		out[i] = server{r.base, func() {
			r.cancel()
			if err := <-r.done; err != nil {
				t.Errorf("shutdown: %v", err)
			}
		}}
	}
	// the first start loads the whole bundled sample (nine sources) before
	// it serves: about 15 s on the embedded engine, up to a minute on a
	// busy OpenSearch node
	deadline := time.Now().Add(3 * time.Minute)
	for i, r := range rs {
		for {
			res, err := http.Get(r.base + "/healthz")
			if err == nil {
				res.Body.Close()
				if res.StatusCode == 200 {
					break
				}
			}
			select {
			case err := <-r.done:
				cancelAll(rs)
				t.Fatalf("server stopped: %v\n%s", err, specs[i].logs)
			default:
			}
			if time.Now().After(deadline) {
				cancelAll(rs)
				t.Fatalf("not serving within 3 minutes\n%s", specs[i].logs)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return out
}

// TestDefaultRoleServesSampleAndReusesIndex is `go run .` on a fresh data
// directory, then a second start on the same directory.
func TestDefaultRoleServesSampleAndReusesIndex(t *testing.T) {
	t.Parallel() // its own data directory and ports
	dir := t.TempDir()
	var logs bytes.Buffer
	base, stop := startAll(t, dir, &logs)
	var out struct {
		Total int `json:"total"`
		Hits  []struct {
			RequestID string `json:"request_id"`
			Lens      string `json:"lens"`
		} `json:"hits"`
		Scope struct {
			RecordsInCorpus int `json:"records_in_corpus"`
			Sources         []struct {
				Source string `json:"source"`
			} `json:"sources"`
		} `json:"scope"`
	}
	getJSON(t, base+"/api/search?q=construction&lens=money", &out)
	if out.Total == 0 || out.Hits[0].Lens != "money" || out.Scope.RecordsInCorpus < 1000 || out.Scope.Sources[0].Source != "crol" {
		t.Fatalf("search: %+v", out)
	}
	var none struct {
		Total int            `json:"total"`
		Scope map[string]any `json:"scope"`
	}
	getJSON(t, base+"/api/search?q=zzzqqq", &none)
	if none.Total != 0 || none.Scope["records_in_corpus"].(float64) != float64(out.Scope.RecordsInCorpus) {
		t.Fatalf("zzzqqq: %+v", none)
	}
	stop()
	if !strings.Contains(logs.String(), "loading the bundled sample corpus") {
		t.Errorf("first start did not load the sample:\n%s", logs.String())
	}
	if !strings.Contains(logs.String(), "bulk load path") {
		t.Errorf("first start did not load the notices through the bulk path:\n%s", logs.String())
	}
	logs.Reset()
	base, stop = startAll(t, dir, &logs)
	defer stop()
	if strings.Contains(logs.String(), "loading the bundled sample corpus") {
		t.Errorf("second start reloaded the sample:\n%s", logs.String())
	}
	var again struct {
		Total int `json:"total"`
	}
	getJSON(t, base+"/api/search?q=construction&lens=money", &again)
	if again.Total != out.Total {
		t.Errorf("second start: %d hits, first %d", again.Total, out.Total)
	}
}

func getJSON(t *testing.T, url string, v any) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d", url, res.StatusCode)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func TestConfig(t *testing.T) {
	// unconfigured: loopback only, links to localhost
	t.Setenv("RECORDWATCH_ADDR", "")
	if c, err := parseConfig(nil, io.Discard); err != nil || c.Addr != "127.0.0.1:8080" || c.BaseURL != "http://localhost:8080" {
		t.Fatalf("default listen address %q base %q %v, want 127.0.0.1:8080 and http://localhost:8080", c.Addr, c.BaseURL, err)
	}
	// every interface only when configured (the container image does)
	t.Setenv("RECORDWATCH_ADDR", "0.0.0.0:8080")
	if c, err := parseConfig(nil, io.Discard); err != nil || c.Addr != "0.0.0.0:8080" || c.BaseURL != "http://localhost:8080" {
		t.Fatalf("RECORDWATCH_ADDR=0.0.0.0:8080: %q base %q %v", c.Addr, c.BaseURL, err)
	}
	t.Setenv("RECORDWATCH_FORM", "2")
	t.Setenv("RECORDWATCH_ADDR", ":9999")
	c, err := parseConfig(nil, io.Discard)
	if err != nil || c.Form != 2 || c.Addr != ":9999" || c.BaseURL != "http://localhost:9999" || c.Engine != "embedded" || c.Target != "all" {
		t.Fatalf("env config %+v %v", c, err)
	}
	if c.RatePerSecond != 20 || c.Burst != 60 {
		t.Errorf("default rate %v burst %d, want 20 and 60", c.RatePerSecond, c.Burst)
	}
	if _, err := parseConfig([]string{"-rate", "0"}, io.Discard); err == nil {
		t.Error("a rate of 0 is accepted")
	}
	c, err = parseConfig([]string{"-form", "1", "-base-url", "https://recordwatch.example/"}, io.Discard)
	if err != nil || c.Form != 1 || c.BaseURL != "https://recordwatch.example" {
		t.Fatalf("flags win: %+v %v", c, err)
	}
	for _, bad := range [][]string{{"-form", "3"}, {"-target", "everything"}, {"-engine", "solr"}, {"-engine", "opensearch"}} {
		t.Setenv("OPENSEARCH_URL", "")
		if _, err := parseConfig(bad, io.Discard); err == nil {
			t.Errorf("%v accepted", bad)
		}
	}
}

// A failing part never fails silently: with the subscribe-mail port taken
// the all role still serves and runs its digests, and /readyz (not
// /healthz) reports the receiver down; with the HTTP port taken the
// process stops with the reason before it logs that it serves.
func TestTakenPortsAreSaidNotHidden(t *testing.T) {
	dir := t.TempDir()
	smtpTaken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer smtpTaken.Close()
	t.Setenv("RECORDWATCH_SMTP_ADDR", smtpTaken.Addr().String())
	cfg, err := parseConfig([]string{"-data", dir, "-addr", freeAddr(t)}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var logs syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)), time.Now) }()
	base := "http://" + cfg.Addr
	deadline := time.Now().Add(3 * time.Minute)
	for {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("not serving within 3 minutes\n%s", logs.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	var ready struct {
		Status string            `json:"status"`
		Parts  map[string]string `json:"parts"`
	}
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	_ = json.NewDecoder(res.Body).Decode(&ready)
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || ready.Parts["mail_receiver"] != "down" || ready.Parts["search_index"] != "up" {
		t.Errorf("readyz with the mail port taken: %d %+v", res.StatusCode, ready)
	}
	if !strings.Contains(logs.String(), "digests still run") {
		t.Errorf("the receiver's failure is not logged:\n%s", logs.String())
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("shutdown: %v", err)
	}

	// the HTTP port taken: an error naming it, and no "serving"
	httpTaken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer httpTaken.Close()
	t.Setenv("RECORDWATCH_SMTP_ADDR", "off")
	cfg.Addr = httpTaken.Addr().String()
	var logs2 syncBuffer
	err = run(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs2, nil)), time.Now)
	if err == nil || !strings.Contains(err.Error(), cfg.Addr) || strings.Contains(logs2.String(), "recordwatch serving") {
		t.Errorf("HTTP port taken: err %v\n%s", err, logs2.String())
	}
}
