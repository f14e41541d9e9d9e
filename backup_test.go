package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/recordwatch/recordwatch/internal/store"
)

// runTarget runs a one-shot target (backup, restore) as the command line
// would, and returns its error and logs.
func runTarget(t *testing.T, args ...string) (string, error) {
	t.Helper()
	cfg, err := parseConfig(args, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	err = run(context.Background(), cfg, slog.New(slog.NewTextHandler(&logs, nil)), time.Now)
	return logs.String(), err
}

var manageLinkRE = regexp.MustCompile(`https?://[^\s>]+/manage/[^\s>]+`)

// manageLink is the manage link of a welcome mail in the .eml outbox.
func manageLink(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := mail.CreateReader(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := r.NextPart()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(p.Body)
	l := manageLinkRE.FindString(string(b))
	if l == "" {
		t.Fatalf("no manage link in %s:\n%s", path, b)
	}
	u, err := url.Parse(l)
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

// The state store is backed up (-target=backup) while 4 clients create
// watches and shares through the running service, restored
// (-target=restore) into a fresh data directory, and served from there:
// every watch and share acknowledged before the backup began is there, and
// every manage link mailed before it still works (the token key is in the
// state store). A backup with the service stopped reads the file itself;
// restore refuses a data directory that is not empty, and with -force one
// whose state file a running service holds.
func TestBackupUnderWriteLoadRestoresEveryAcknowledgedWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the service as a process, twice")
	}
	t.Parallel() // its own data directories and ports
	dir, fresh, files := t.TempDir(), filepath.Join(t.TempDir(), "restored"), t.TempDir()
	cmd, base := startChild(t, dir, "RECORDWATCH_TRUSTED_PROXIES=127.0.0.1")
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()

	var (
		backupBegun atomic.Bool
		mu          sync.Mutex
		// acknowledged before the backup began (a 201 read before the
		// flag was set: committed before the snapshot's transaction)
		sharesBefore, watchesBefore []string
		acked, failed               int
	)
	load := startWriteLoad(base, 4, 1, "backup", func(kind, id string, ok bool, _ int) {
		before := !backupBegun.Load()
		mu.Lock()
		defer mu.Unlock()
		if !ok {
			failed++
			return
		}
		acked++
		switch {
		case before && kind == "share":
			sharesBefore = append(sharesBefore, id)
		case before:
			watchesBefore = append(watchesBefore, id)
		}
	})
	ackedNow := func() int {
		mu.Lock()
		defer mu.Unlock()
		return acked
	}
	// welcome mails (their manage links) and acknowledged writes before
	// the backup begins
	var minted []string
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		minted, _ = filepath.Glob(filepath.Join(dir, "outbox", "welcome.*.eml"))
		if len(minted) >= 3 && ackedNow() >= 12 {
			break
		}
		if time.Now().After(deadline) {
			load.Stop()
			t.Fatalf("no load within 2 minutes: %d acknowledged, %d refused, %d welcome mails", ackedNow(), failed, len(minted))
		}
	}
	links := make([]string, len(minted))
	for i, m := range minted {
		links[i] = manageLink(t, m)
	}

	out := filepath.Join(files, "state.backup")
	backupBegun.Store(true)
	ackedAtBackup := ackedNow()
	logs, err := runTarget(t, "-target=backup", "-data", dir, "-out", out)
	if err != nil {
		t.Fatalf("online backup: %v\n%s", err, logs)
	}
	if !strings.Contains(logs, "online (from the running service)") {
		t.Errorf("the backup was not taken from the running service:\n%s", logs)
	}
	ackedDuring := ackedNow() - ackedAtBackup
	// the writers go on after the backup, then stop
	for deadline := time.Now().Add(time.Minute); ackedNow() < ackedAtBackup+ackedDuring+4 && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	load.Stop()
	t.Logf("load: %d acknowledged (%d watches and %d shares before the backup, %d while it ran), %d refused; %d manage links mailed before it",
		acked, len(watchesBefore), len(sharesBefore), ackedDuring, failed, len(links))

	// restore checks what it would replace
	if logs, err := runTarget(t, "-target=restore", "-in", out, "-data", dir); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("restore into the running service's data directory: %v, want a refusal (not empty)\n%s", err, logs)
	}
	if logs, err := runTarget(t, "-target=restore", "-in", out, "-data", dir, "-force"); err == nil || !strings.Contains(err.Error(), store.ErrHeld.Error()) {
		t.Errorf("forced restore over a state file a service holds: %v, want %q\n%s", err, store.ErrHeld, logs)
	}

	_ = cmd.Process.Signal(syscall.SIGTERM)
	_ = cmd.Wait()
	// stopped: the file itself, with every write acknowledged
	offline := filepath.Join(files, "state.offline")
	if logs, err := runTarget(t, "-target=backup", "-data", dir, "-out", offline); err != nil || !strings.Contains(logs, "offline") {
		t.Errorf("backup of a stopped service: %v\n%s", err, logs)
	} else if sum, err := store.CheckFile(offline); err != nil || sum.Watches+sum.Shares < acked {
		t.Errorf("offline backup holds %+v (%v), want at least the %d acknowledged writes", sum, err, acked)
	}

	if logs, err := runTarget(t, "-target=restore", "-in", out, "-data", fresh); err != nil {
		t.Fatalf("restore: %v\n%s", err, logs)
	}
	// the restored directory serves: the index rebuilt from the bundled
	// sample, the state as backed up
	cmd2, base2 := startChild(t, fresh)
	defer func() { _ = cmd2.Process.Kill(); _ = cmd2.Wait() }()
	for _, id := range sharesBefore {
		res, err := http.Get(base2 + "/inv/" + id)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("share %s acknowledged before the backup: %d after the restore", id, res.StatusCode)
		}
	}
	for _, l := range links {
		req, _ := http.NewRequest("GET", base2+l, nil)
		req.Header.Set("Accept", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Status string `json:"status"`
		}
		err = json.NewDecoder(res.Body).Decode(&m)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || err != nil || m.Status != "active" {
			t.Errorf("manage link mailed before the backup: %d %q (%v) after the restore, want 200 active", res.StatusCode, m.Status, err)
		}
	}
	_ = cmd2.Process.Signal(syscall.SIGTERM)
	_ = cmd2.Wait()
	st, err := store.OpenBolt(filepath.Join(fresh, "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	held, err := st.ListWatches(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	emails := map[string]bool{}
	for _, w := range held {
		emails[w.Email] = true
	}
	for _, e := range watchesBefore {
		if !emails[e] {
			t.Errorf("watch for %s acknowledged before the backup is not in the restored store", e)
		}
	}
}
