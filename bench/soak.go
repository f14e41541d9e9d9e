package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/recordwatch/recordwatch/internal/store"
)

// soakConfig is the soak run: mixed reads and writes at Clients for
// Duration against the real binary on the embedded engine, SIGKILLed and
// restarted every KillEvery.
type soakConfig struct {
	Duration  time.Duration
	Clients   int
	KillEvery time.Duration
	Work      string
}

// soakWords vary the queries: no one query is sent thousands of times.
var soakWords = []string{"parks", "construction", "hearing", "award", "contract", "sanitation", "police", "school", "bridge",
	"water", "sewer", "housing", "lease", "rental", "maintenance", "repair", "services", "equipment", "vehicle", "software",
	"consultant", "design", "engineering", "roof", "boiler", "elevator", "landscape", "tree", "street", "lighting", "transit",
	"library", "museum", "health", "hospital", "shelter", "youth", "senior", "food", "uniform", "printing", "security",
	"cleaning", "asbestos", "paving", "concession", "franchise", "zoning", "budget", "meeting"}

// soakKinds are the request kinds with their weights (out of 100).
var soakKinds = []struct {
	name   string
	weight int
}{{"search", 30}, {"notice", 15}, {"feed", 10}, {"mcp", 15}, {"share", 10}, {"share_read", 5}, {"watch", 10}, {"mail", 5}}

// soakStats collects latencies and outcomes per kind.
type soakStats struct {
	mu       sync.Mutex
	lat      map[string][]time.Duration
	outcomes map[string]map[string]int // kind → outcome (ok, refused_by_ceiling, down, error:<status>)
	shares   []string                  // acknowledged share ids
	watches  []string                  // acknowledged watch addresses
	ids      []string                  // notice ids seen in answers
}

func (s *soakStats) add(kind, outcome string, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.outcomes[kind] == nil {
		s.outcomes[kind] = map[string]int{}
	}
	s.outcomes[kind][outcome]++
	if outcome == "ok" {
		s.lat[kind] = append(s.lat[kind], d)
	}
}

// soakServer is the recordwatch process under test.
type soakServer struct {
	bin, data, addr, smtp string
	log                   *os.File
	cmd                   *exec.Cmd
}

func (s *soakServer) start() error {
	s.cmd = exec.Command(s.bin, "-data", s.data, "-addr", s.addr, "-base-url", "http://"+s.addr)
	s.cmd.Env = append(os.Environ(), "RECORDWATCH_SMTP_ADDR="+s.smtp, "RECORDWATCH_FORM=1", "RECORDWATCH_TRUSTED_PROXIES=127.0.0.1",
		"RECORDWATCH_SUBSCRIBE_ADDRESS=subscribe@localhost")
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		return err
	}
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		res, err := http.Get("http://" + s.addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("soak: the server did not serve within 3 minutes")
}

func (s *soakServer) kill() {
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	_ = s.cmd.Wait()
}

func (s *soakServer) stop() {
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	_ = s.cmd.Wait()
}

func loopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

// newSoakServer builds the binary into a fresh work directory under dir
// and names its loopback address, data directory and log (smtp: the
// receiver's address, a free loopback one, or "off").
func newSoakServer(dir, name string, smtp bool) (*soakServer, error) {
	work := filepath.Join(dir, name)
	_ = os.RemoveAll(work)
	if err := os.MkdirAll(work, 0o755); err != nil {
		return nil, err
	}
	bin := filepath.Join(work, "recordwatch")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("build: %v\n%s", err, out)
	}
	addr, err := loopbackAddr()
	if err != nil {
		return nil, err
	}
	smtpAddr := "off"
	if smtp {
		if smtpAddr, err = loopbackAddr(); err != nil {
			return nil, err
		}
	}
	logf, err := os.Create(filepath.Join(work, "server.log"))
	if err != nil {
		return nil, err
	}
	return &soakServer{bin: bin, data: filepath.Join(work, "data"), addr: addr, smtp: smtpAddr, log: logf}, nil
}

// runSoak builds the binary, runs the soak and prints its report; it fails
// when an acknowledged write did not survive.
func runSoak(cfg soakConfig) error {
	srv, err := newSoakServer(cfg.Work, "soak", true)
	if err != nil {
		return err
	}
	defer srv.log.Close()
	addr, smtpAddr := srv.addr, srv.smtp
	fmt.Fprintf(os.Stderr, "soak: first start (loads the bundled sample)…\n")
	if err := srv.start(); err != nil {
		return err
	}
	st := &soakStats{lat: map[string][]time.Duration{}, outcomes: map[string]map[string]int{}, ids: []string{"20140930007"}}
	base := "http://" + addr
	client := &http.Client{Timeout: 30 * time.Second}
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Duration)
	defer cancel()
	var wg sync.WaitGroup
	for i := range cfg.Clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			for n := 0; ctx.Err() == nil; n++ {
				soakOne(ctx, client, base, smtpAddr, rng, i, n, st)
			}
		}()
	}
	kills := 0
	ticker := time.NewTicker(cfg.KillEvery)
	started := time.Now()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-ticker.C:
			if time.Until(started.Add(cfg.Duration)) < 20*time.Second {
				continue
			}
			srv.kill()
			kills++
			fmt.Fprintf(os.Stderr, "soak: SIGKILL %d at %v; restarting\n", kills, time.Since(started).Round(time.Second))
			if err := srv.start(); err != nil {
				return err
			}
		}
	}
	ticker.Stop()
	wg.Wait()
	// every acknowledged write survives: the shares read back after one
	// more kill and restart, the watches are in the state store
	srv.kill()
	kills++
	if err := srv.start(); err != nil {
		return err
	}
	lostShares := 0
	for k, id := range st.shares {
		for {
			req, _ := http.NewRequest("GET", base+"/inv/"+url.PathEscape(id), nil)
			// spread over client addresses: the per-client rate limit
			// is not what is checked here
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("192.0.2.%d", k%256))
			res, err := client.Do(req)
			if err != nil {
				return err
			}
			res.Body.Close()
			if res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable {
				time.Sleep(time.Second)
				continue
			}
			if res.StatusCode != http.StatusOK {
				lostShares++
				fmt.Fprintf(os.Stderr, "soak: acknowledged share %s answers %d\n", id, res.StatusCode)
			}
			break
		}
	}
	srv.stop()
	bolt, err := store.OpenBolt(filepath.Join(srv.data, "state.db"))
	if err != nil {
		return err
	}
	ws, err := bolt.ListWatches(context.Background())
	bolt.Close()
	if err != nil {
		return err
	}
	held := map[string]bool{}
	for _, w := range ws {
		held[w.Email] = true
	}
	lostWatches := 0
	for _, e := range st.watches {
		if !held[e] {
			lostWatches++
		}
	}
	fmt.Print(renderSoak(cfg, st, kills, lostShares, lostWatches))
	if lostShares+lostWatches > 0 {
		return fmt.Errorf("soak: %d acknowledged shares and %d acknowledged watches lost", lostShares, lostWatches)
	}
	return nil
}

// soakOne sends one request of a kind drawn by weight, as client i.
func soakOne(ctx context.Context, client *http.Client, base, smtpAddr string, rng *rand.Rand, i, n int, st *soakStats) {
	w := rng.IntN(100)
	kind := soakKinds[len(soakKinds)-1].name
	for _, k := range soakKinds {
		if w < k.weight {
			kind = k.name
			break
		}
		w -= k.weight
	}
	word := soakWords[rng.IntN(len(soakWords))]
	// each request names one of 512 documentation-range client addresses
	// (a header only: the server trusts loopback as its proxy), so the
	// per-client limits and ceilings act as for many clients
	xff := fmt.Sprintf("198.51.100.%d", rng.IntN(256))
	if rng.IntN(2) == 0 {
		xff = fmt.Sprintf("203.0.113.%d", rng.IntN(256))
	}
	st.mu.Lock()
	id := st.ids[rng.IntN(len(st.ids))]
	var share string
	if len(st.shares) > 0 {
		share = st.shares[rng.IntN(len(st.shares))]
	}
	st.mu.Unlock()
	var method, target, body string
	switch kind {
	case "search":
		method, target = "GET", "/api/search?q="+word
	case "notice":
		method, target = "GET", "/api/notices/"+id
	case "feed":
		method, target = "GET", "/feed.json?lens=money&q="+word
	case "mcp":
		method, target = "POST", "/mcp"
		body = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"search_notices","arguments":{"q":%q,"limit":5}}}`, n, word)
	case "share":
		method, target = "POST", "/inv"
		body = fmt.Sprintf(`{"title":"soak %d-%d %s","items":[{"kind":"notice","id":%q}]}`, i, n, word, id)
	case "share_read":
		if share == "" {
			return
		}
		method, target = "GET", "/inv/"+url.PathEscape(share)
	case "watch":
		method, target = "POST", "/api/watches"
		body = fmt.Sprintf(`{"email":"soak-%d-%d@example.org","lens":"money","q":%q}`, i, n, word)
	case "mail":
		start := time.Now()
		err := soakMail(smtpAddr, fmt.Sprintf("soak-mail-%d-%d@example.org", i, n), "Parks "+word+" contracts")
		outcome := "ok"
		if err != nil {
			outcome = soakDown(err)
		}
		st.add(kind, outcome, time.Since(start))
		return
	}
	req, _ := http.NewRequestWithContext(ctx, method, base+target, strings.NewReader(body))
	req.Header.Set("X-Forwarded-For", xff)
	if method == "POST" {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	start := time.Now()
	res, err := client.Do(req)
	d := time.Since(start)
	if err != nil {
		if ctx.Err() == nil {
			st.add(kind, soakDown(err), d)
		}
		return
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	switch {
	case res.StatusCode == http.StatusTooManyRequests:
		st.add(kind, "refused_by_ceiling", d)
		return
	case res.StatusCode == http.StatusServiceUnavailable:
		st.add(kind, "busy_or_starting", d)
		return
	case res.StatusCode >= 400:
		st.add(kind, fmt.Sprintf("error_%d", res.StatusCode), d)
		return
	}
	st.add(kind, "ok", d)
	switch kind {
	case "share":
		var out struct{ ID string }
		if json.Unmarshal(b, &out) == nil && out.ID != "" {
			st.mu.Lock()
			st.shares = append(st.shares, out.ID)
			st.mu.Unlock()
		}
	case "watch":
		if res.StatusCode == http.StatusCreated {
			st.mu.Lock()
			st.watches = append(st.watches, fmt.Sprintf("soak-%d-%d@example.org", i, n))
			st.mu.Unlock()
		}
	case "search":
		var out struct {
			Hits []struct {
				RequestID string `json:"request_id"`
			}
		}
		if json.Unmarshal(b, &out) == nil {
			st.mu.Lock()
			for _, h := range out.Hits {
				if len(st.ids) < 2000 && !slices.Contains(st.ids, h.RequestID) {
					st.ids = append(st.ids, h.RequestID)
				}
			}
			st.mu.Unlock()
		}
	}
}

// soakDown names a transport failure: the server was down (killed or
// restarting) or something else.
func soakDown(err error) string {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) ||
		strings.Contains(err.Error(), "connection refused") || strings.Contains(err.Error(), "connection reset") ||
		strings.Contains(err.Error(), "EOF") {
		return "down"
	}
	return "transport_error"
}

// soakMail sends one plain-English subscribe mail over SMTP.
func soakMail(addr, from, text string) error {
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(c)
	expect := func(code string) error {
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return err
			}
			if len(line) < 4 || !strings.HasPrefix(line, code) {
				return fmt.Errorf("smtp: %q", strings.TrimSpace(line))
			}
			if line[3] == ' ' {
				return nil
			}
		}
	}
	send := func(line, code string) error {
		if _, err := c.Write([]byte(line + "\r\n")); err != nil {
			return err
		}
		return expect(code)
	}
	if err := expect("220"); err != nil {
		return err
	}
	var msg bytes.Buffer
	fmt.Fprintf(&msg, "From: %s\r\nTo: subscribe@localhost\r\nSubject: watch\r\nMessage-ID: <%s>\r\n\r\n%s\r\n.", from, from, text)
	for _, step := range [][2]string{{"EHLO soak.example", "250"}, {"MAIL FROM:<" + from + ">", "250"}, {"RCPT TO:<subscribe@localhost>", "250"},
		{"DATA", "354"}, {msg.String(), "250"}, {"QUIT", "221"}} {
		if err := send(step[0], step[1]); err != nil {
			return err
		}
	}
	return nil
}

func renderSoak(cfg soakConfig, st *soakStats, kills, lostShares, lostWatches int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Soak: %v at %d clients, SIGKILL and restart every %v (%d kills, the last before the check)\n\n",
		cfg.Duration, cfg.Clients, cfg.KillEvery, kills)
	fmt.Fprintf(&b, "| kind | ok | p50 | p99 | other outcomes |\n|---|---|---|---|---|\n")
	var kinds []string
	for k := range st.outcomes {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		lat := st.lat[k]
		slices.Sort(lat)
		var other []string
		for o, n := range st.outcomes[k] {
			if o != "ok" {
				other = append(other, fmt.Sprintf("%s %d", o, n))
			}
		}
		sort.Strings(other)
		p50, p99 := "—", "—"
		if len(lat) > 0 {
			p50, p99 = percentile(lat, 50).Round(10*time.Microsecond).String(), percentile(lat, 99).Round(10*time.Microsecond).String()
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", k, st.outcomes[k]["ok"], p50, p99, strings.Join(other, ", "))
	}
	fmt.Fprintf(&b, "\nAcknowledged writes: %d shares (%d lost), %d watches (%d lost).\n", len(st.shares), lostShares, len(st.watches), lostWatches)
	fmt.Fprintf(&b, "\"down\" counts requests sent while the server was killed or restarting; \"refused_by_ceiling\" is a daily ceiling's 429; "+
		"\"busy_or_starting\" a 503 (admission control, or the restart's first moments).\n")
	return b.String()
}
