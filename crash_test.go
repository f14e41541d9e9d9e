package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMain lets a test start this test binary as the service itself
// (RECORDWATCH_TEST_MAIN=1), so that it can be killed like a real process.
func TestMain(m *testing.M) {
	if os.Getenv("RECORDWATCH_TEST_MAIN") == "1" {
		os.Args = append([]string{os.Args[0]}, strings.Fields(os.Getenv("RECORDWATCH_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// The first start is killed (SIGKILL) in the middle of loading the bundled
// sample; the next start loads it again, and serves what a clean first
// start serves, with its observation date.
func TestFirstLoadKilledIsRepairedAtTheNextStart(t *testing.T) {
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
	// kill once the entries are in and the notices are being written
	sc := bufio.NewScanner(stderr)
	var seen strings.Builder
	killed := false
	for sc.Scan() {
		seen.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "lots loaded") {
			time.Sleep(100 * time.Millisecond) // into the notice batches
			_ = cmd.Process.Signal(syscall.SIGKILL)
			killed = true
			break
		}
	}
	_ = cmd.Wait()
	if !killed {
		t.Fatalf("the first start never reached its notices:\n%s", seen.String())
	}
	if strings.Contains(seen.String(), "crol loaded") {
		t.Fatalf("the load finished before the kill; nothing was tested:\n%s", seen.String())
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
	if health.Records != 1158 || health.CorpusObservedAt == "" {
		t.Errorf("after the restart: %+v, want the 1,158 notices of a clean load, observed", health)
	}
	var contracts struct {
		Total int `json:"total"`
	}
	getJSON(t, base+"/api/search?q=construction&lens=money", &contracts)
	if contracts.Total == 0 {
		t.Error("no money notices after the restart")
	}
}
