package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/store"
)

// TestMain lets a test start this test binary as the service itself
// (RECORDWATCH_TEST_MAIN=1), so that it can be killed like a real process.
//
// Every service a test starts, in process or as a child, listens for SMTP
// on a free loopback port instead of the default :2525, so that the
// services of tests running at once (t.Parallel) never take the same port.
func TestMain(m *testing.M) {
	if os.Getenv("RECORDWATCH_TEST_MAIN") == "1" {
		os.Args = append([]string{os.Args[0]}, strings.Fields(os.Getenv("RECORDWATCH_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	if err := os.Setenv("RECORDWATCH_SMTP_ADDR", "127.0.0.1:0"); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}

// The first start is killed (SIGKILL) in the middle of loading the bundled
// sample (its typed records, which load after the notices); the next start
// completes it, and serves what a clean first start serves, with its
// observation date. (A load killed among the notices is
// indexer/resume_test.go's.)
func TestFirstLoadKilledIsRepairedAtTheNextStart(t *testing.T) {
	t.Parallel() // its own data directories and ports
	if testing.Short() {
		t.Skip("starts the service as a process")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "RECORDWATCH_TEST_MAIN=1", "RECORDWATCH_TEST_ARGS=-data "+dir+" -addr 127.0.0.1:0",
		"RECORDWATCH_SMTP_ADDR=127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// kill once the notices are in and the first record source has
	// loaded (the sample loads City Record first, then the record
	// sources one by one); a child that never gets there is killed after
	// two minutes
	guard := time.AfterFunc(2*time.Minute, func() { _ = cmd.Process.Kill() })
	defer guard.Stop()
	sc := bufio.NewScanner(stderr)
	var seen strings.Builder
	killed, finished, notices := false, false, false
	for sc.Scan() {
		line := sc.Text()
		seen.WriteString(line + "\n")
		if strings.Contains(line, "recordwatch serving") {
			finished = true
			break
		}
		if !strings.Contains(line, `msg="source loaded"`) {
			continue
		}
		if strings.Contains(line, "source=crol") {
			notices = true
			continue
		}
		if notices {
			_ = cmd.Process.Signal(syscall.SIGKILL) // among the record sources
			killed = true
			break
		}
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if finished {
		t.Fatalf("the whole sample loaded before the kill; nothing was tested:\n%s", seen.String())
	}
	if !killed {
		t.Fatalf("the first start never reached its notices:\n%s", seen.String())
	}

	var logs bytes.Buffer
	base, stop := startAll(t, dir, &logs)
	defer stop()
	if !strings.Contains(logs.String(), "loading") {
		t.Errorf("the restart did not load the sample again:\n%s", logs.String())
	}
	var health struct {
		Records          int    `json:"records"`
		CorpusObservedAt string `json:"corpus_observed_at"`
	}
	getJSON(t, base+"/healthz", &health)
	if health.Records != 1875 || health.CorpusObservedAt == "" {
		t.Errorf("after the restart: %+v, want the 1,875 notices of a clean load, observed", health)
	}
	// a sample of documents equals a clean load's, read whole
	clean, cleanBase := startChild(t, t.TempDir())
	defer func() { _ = clean.Process.Signal(syscall.SIGTERM); _ = clean.Wait() }()
	var page struct {
		Total int `json:"total"`
		Hits  []struct {
			RequestID string `json:"request_id"`
		} `json:"hits"`
	}
	getJSON(t, base+"/api/search?sort=oldest&limit=100", &page)
	var cleanTotal struct {
		Total int `json:"total"`
	}
	getJSON(t, cleanBase+"/api/search?sort=oldest&limit=100", &cleanTotal)
	if page.Total != cleanTotal.Total || len(page.Hits) == 0 {
		t.Fatalf("after the restart %d notices, a clean load %d", page.Total, cleanTotal.Total)
	}
	for i, h := range page.Hits {
		if i%7 != 0 {
			continue
		}
		var got, want map[string]any
		getJSON(t, base+"/api/notices/"+h.RequestID, &got)
		getJSON(t, cleanBase+"/api/notices/"+h.RequestID, &want)
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != strings.ReplaceAll(string(w), cleanBase, base) {
			t.Errorf("notice %s differs from a clean load:\n got %.400s\nwant %.400s", h.RequestID, g, w)
		}
	}
}

// startChild starts the service (all role) as a process on dir and waits
// until it serves.
func startChild(t *testing.T, dir string, env ...string) (*exec.Cmd, string) {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), "RECORDWATCH_TEST_MAIN=1", "RECORDWATCH_TEST_ARGS=-data "+dir+" -addr "+addr,
		"RECORDWATCH_SMTP_ADDR=127.0.0.1:0"), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	base := "http://" + addr
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if res, err := http.Get(base + "/healthz"); err == nil {
			res.Body.Close()
			if res.StatusCode == 200 {
				return cmd, base
			}
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			t.Fatal("the service did not serve within 2 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The server is killed (SIGKILL) while shares and watches are being
// created by 8 clients at once; after a restart every write it
// acknowledged is there, and every acknowledged watch (Form 1) or request
// (Form 2) got exactly one welcome or confirmation mail: the mail is
// stored with the action, and the outbox worker sends it after the
// restart (a batch cut short is sent again under its message id, so the
// .eml outbox holds it once).
func TestAcknowledgedWritesSurviveAKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the service as a process")
	}
	for _, form := range []int{1, 2} {
		t.Run(fmt.Sprintf("form%d", form), func(t *testing.T) {
			t.Parallel() // its own data directory and port
			acknowledgedWritesSurviveAKill(t, form)
		})
	}
}

func acknowledgedWritesSurviveAKill(t *testing.T, form int) {
	dir := t.TempDir()
	formEnv := fmt.Sprintf("RECORDWATCH_FORM=%d", form)
	cmd, base := startChild(t, dir, "RECORDWATCH_TRUSTED_PROXIES=127.0.0.1", formEnv)
	var (
		mu      sync.Mutex
		shares  []string
		watches []string
		refused int
	)
	load := startWriteLoad(base, 8, form, "crash", func(kind, id string, ok bool, code int) {
		mu.Lock()
		defer mu.Unlock()
		switch {
		case ok && kind == "share":
			shares = append(shares, id)
		case ok:
			watches = append(watches, id)
		case code != 0:
			refused++
		}
	})
	// kill once writes are being acknowledged, with more in flight
	deadline := time.Now().Add(time.Minute)
	for {
		mu.Lock()
		n := len(shares) + len(watches)
		mu.Unlock()
		if n >= 20 || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	load.Stop()
	if len(shares) == 0 && form == 1 || len(watches) == 0 {
		t.Fatalf("nothing acknowledged before the kill (%d shares, %d watches, %d refused)", len(shares), len(watches), refused)
	}
	t.Logf("acknowledged before the kill: %d shares, %d watches (%d refused)", len(shares), len(watches), refused)

	cmd, base = startChild(t, dir, formEnv)
	// every acknowledged request's mail, exactly once (one address each)
	sent := map[string]int{}
	kind := map[int]string{1: "welcome.", 2: "confirm."}[form]
	for wait := time.Now().Add(time.Minute); ; time.Sleep(200 * time.Millisecond) {
		sent = map[string]int{}
		files, _ := filepath.Glob(filepath.Join(dir, "outbox", kind+"*.eml"))
		for _, f := range files {
			raw, _ := os.ReadFile(f)
			for _, line := range strings.Split(string(raw), "\r\n") {
				if to, ok := strings.CutPrefix(line, "To: <"); ok {
					sent[strings.TrimSuffix(to, ">")]++
				}
			}
		}
		missing := 0
		for _, email := range watches {
			if sent[email] == 0 {
				missing++
			}
		}
		if missing == 0 || time.Now().After(wait) {
			break
		}
	}
	for _, email := range watches {
		if sent[email] != 1 {
			t.Errorf("acknowledged request for %s: %d %smails after the restart, want 1", email, sent[email], kind)
		}
	}
	for _, id := range shares {
		res, err := http.Get(base + "/inv/" + id)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("acknowledged share %s: %d after the restart", id, res.StatusCode)
		}
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	st, err := store.OpenBolt(filepath.Join(dir, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	held, err := st.ListWatches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if form == 2 {
		return // a Form 2 request stores no watch before its confirmation
	}
	stored := map[string]bool{}
	for _, w := range held {
		stored[w.Email] = true
	}
	for _, email := range watches {
		if !stored[email] {
			t.Errorf("acknowledged watch for %s is not stored after the restart", email)
		}
	}
}

// writeLoad is clients writing to a running service until Stop: each of
// workers alternates a shared investigation (Form 1 only) and a watch for
// an address of its own (prefix-w-i@example.org; Form 2: in plain
// English), each request from its own client address behind the trusted
// proxy. ack is told each write's kind ("share" or "watch"), its id (the
// share's id, the watch's address), whether it was acknowledged, and the
// status (0: the process died with it in flight).
type writeLoad struct {
	stop chan struct{}
	wg   sync.WaitGroup
}

func startWriteLoad(base string, workers, form int, prefix string, ack func(kind, id string, ok bool, code int)) *writeLoad {
	share := []byte(`{"title":"` + prefix + ` test","items":[{"kind":"notice","id":"20141031001","note":"pinned"},{"kind":"agency","id":"parks-and-recreation"}]}`)
	post := func(path string, body []byte, client string) (int, []byte) {
		req, _ := http.NewRequest("POST", base+path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Forwarded-For", client)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil // in flight when the process died
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	l := &writeLoad{stop: make(chan struct{})}
	for w := 0; w < workers; w++ {
		l.wg.Add(1)
		go func(w int) {
			defer l.wg.Done()
			for i := 0; ; i++ {
				select {
				case <-l.stop:
					return
				default:
				}
				client := fmt.Sprintf("198.51.%d.%d", w, i%250+1)
				if i%2 == 0 && form == 1 {
					code, b := post("/inv", share, client)
					var created struct {
						ID string `json:"id"`
					}
					ok := code == http.StatusCreated && json.Unmarshal(b, &created) == nil && created.ID != ""
					ack("share", created.ID, ok, code)
					continue
				}
				email := fmt.Sprintf("%s-%d-%d@example.org", prefix, w, i)
				body, want := `{"email":"`+email+`","lens":"money","q":"construction"}`, http.StatusCreated
				if form == 2 {
					body, want = `{"email":"`+email+`","text":"Parks construction awards"}`, http.StatusAccepted
				}
				code, _ := post("/api/watches", []byte(body), client)
				ack("watch", email, code == want, code)
			}
		}(w)
	}
	return l
}

// Stop ends the load once every request in flight has come back.
func (l *writeLoad) Stop() {
	close(l.stop)
	l.wg.Wait()
}
