package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer/sampletest"
)

// TestBrowser runs the browser suite (web-tests/run.mjs: headless Debian
// Chromium with playwright-core) against the running embedded service.
// .ci/run installs Chromium and playwright-core and runs it in a step of
// its own with RECORDWATCH_BROWSER_TESTS=1, which makes missing tools a
// failure instead of a skip (its go test ./... sets 0: the suite takes
// about two minutes of a 2-core machine, beside the other packages).
func TestBrowser(t *testing.T) {
	t.Parallel() // its own data directories and ports
	if os.Getenv("RECORDWATCH_BROWSER_TESTS") == "0" {
		t.Skip("RECORDWATCH_BROWSER_TESTS=0: the browser suite runs in a step of its own (.ci/run)")
	}
	required := os.Getenv("RECORDWATCH_BROWSER_TESTS") == "1"
	missing := func(what string) {
		if required {
			t.Fatalf("browser tests required but %s is missing", what)
		}
		t.Skipf("%s is missing: run .ci/run (or apt-get install chromium; cd web-tests && npm ci) to include the browser suite", what)
	}
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		missing("/usr/bin/chromium")
	}
	for _, mod := range []string{"playwright-core", "axe-core"} {
		if _, err := os.Stat("web-tests/node_modules/" + mod); err != nil {
			missing("web-tests/node_modules/" + mod)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	var logs, logs2 bytes.Buffer
	// MapPLUTO, answered by a local replay of the fixture (testdata/mappluto:
	// rows constructed for tests): Form 1 runs its MapPLUTO job once after
	// the sample loads, as -live -source=mappluto runs it, so lots are on
	// the map (web-tests/map.mjs)
	replay, err := sampletest.NewPLUTOReplay("testdata/mappluto/64uk-42ks_replay_rows.json")
	if err != nil {
		t.Fatal(err)
	}
	pluto := httptest.NewServer(replay)
	defer pluto.Close()
	// forms 1 and 2, loading the sample at once
	ss := startServers(t, serverSpec{t.TempDir(), &logs, []string{"-live", "-source", "mappluto", "-mappluto-endpoint", pluto.URL}},
		serverSpec{t.TempDir(), &logs2, []string{"-form", "2"}})
	base, stop := ss[0].base, ss[0].stop
	defer stop()
	base2, stop2 := ss[1].base, ss[1].stop
	defer stop2()
	if err := waitForLots(base, 2*time.Minute); err != nil {
		t.Fatalf("%v\n%s", err, &logs)
	}
	shots := filepath.Join("web-tests", "screenshots")
	cmd := exec.Command(node, "web-tests/run.mjs")
	cmd.Env = append(os.Environ(), "BASE="+base, "BASE2="+base2, "SHOTS="+shots)
	out, err := cmd.CombinedOutput()
	t.Logf("browser suite:\n%s", out)
	var failed []string
	if err != nil {
		failed = append(failed, fmt.Sprintf("the browser suite (web-tests/run.mjs): %v", err))
	}
	// the journeys, each a script of its own against the Form 1 server:
	// every one runs, then whatever failed fails the test
	for _, j := range []struct{ script, what string }{
		{"web-tests/doors.mjs", "the reporter's path through the money"},
		{"web-tests/watch.mjs", "the contractor's watch on the site"},
		{"web-tests/watch-words.mjs", "the same watch said in plain English"},
		{"web-tests/resident.mjs", "the resident's journey"},
	} {
		cmd := exec.Command(node, j.script)
		cmd.Env = append(os.Environ(), "BASE="+base, "SHOTS="+shots)
		out, err := cmd.CombinedOutput()
		t.Logf("%s:\n%s", j.what, out)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s (%s): %v", j.what, j.script, err))
		}
	}
	if len(failed) > 0 {
		t.Fatalf("failed: %s", strings.Join(failed, "; "))
	}
}

// waitForLots waits until the service places a property notice at its
// lot: its MapPLUTO job, run in the background once the sample is loaded,
// has written what it read.
func waitForLots(base string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		res, err := http.Get(base + "/property-locations?format=json")
		if err == nil {
			var out struct {
				Records []struct {
					Locations []struct {
						Kind string `json:"kind"`
					} `json:"locations"`
				} `json:"records"`
			}
			err = json.NewDecoder(res.Body).Decode(&out)
			res.Body.Close()
			for _, r := range out.Records {
				for _, l := range r.Locations {
					if l.Kind == "lot" {
						return nil
					}
				}
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no notice placed at its lot within %s (the MapPLUTO job did not run?): %v", within, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
