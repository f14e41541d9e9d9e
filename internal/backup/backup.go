// Package backup copies the embedded state store (internal/store's bbolt
// file, state.db in the data directory) out of a running service, and
// into a fresh data directory.
//
// The running process holds the state file's lock, so an online copy goes
// through that process: it serves one request, GET /state.db, on a unix
// socket in a private directory of its data directory
// (<data>/admin/backup.sock; the directory is mode 0700, so only the
// service's own user, and root, can connect; nothing listens on the
// network). The copy is one read transaction's view of the file (bbolt
// Tx.WriteTo): consistent while writes go on. Write asks there, and opens
// the file itself when no process answers (the service is stopped).
package backup

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/recordwatch/recordwatch/internal/store"
)

// StateFile is the state store's file name in a data directory.
const StateFile = "state.db"

// SocketPath is where the running service of dataDir serves its state
// snapshot.
func SocketPath(dataDir string) string { return filepath.Join(dataDir, "admin", "backup.sock") }

// Snapshotter writes a consistent copy of the state file (store.Bolt).
type Snapshotter interface {
	Snapshot(w io.Writer) (int64, error)
}

// Serve listens on dataDir's socket and serves snapshots of s until ctx
// ends, then removes the socket. Call it only while holding the state
// file (the store is open): a socket file left by a killed process is
// then stale, and is replaced.
func Serve(ctx context.Context, dataDir string, s Snapshotter, logger *slog.Logger) error {
	path := SocketPath(dataDir)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil { // made by another version, or by hand
		return err
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("backup socket %s: %w", path, err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /state.db", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		n, err := s.Snapshot(w)
		if err != nil {
			logger.Error("backup: state snapshot failed", "err", err, "bytes", n)
			panic(http.ErrAbortHandler) // the client sees a cut copy, never a short one as whole
		}
		logger.Info("backup: state snapshot served", "bytes", n)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
		_ = os.Remove(path)
	}()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error("backup socket stopped", "err", err)
		}
	}()
	return nil
}

// Result is what Write did.
type Result struct {
	// Online: the copy came from the running service; otherwise the file
	// was read directly (no service held it).
	Online  bool
	Summary store.FileSummary
}

// Write writes a consistent copy of dataDir's state store to out (mode
// 0600: it holds addresses and keys): through the running service's
// socket, or from the file itself when no service answers there. The
// copy is checked (every page, and that it is a state file) before it
// replaces out.
func Write(ctx context.Context, dataDir, out string) (Result, error) {
	var res Result
	tmp, err := os.CreateTemp(filepath.Dir(out), "."+filepath.Base(out)+".partial-*")
	if err != nil {
		return res, err
	}
	defer os.Remove(tmp.Name()) // once renamed, nothing is there
	err = online(ctx, SocketPath(dataDir), tmp)
	switch {
	case err == nil:
		res.Online = true
	case errors.Is(err, errNoService):
		if _, err = store.SnapshotFile(filepath.Join(dataDir, StateFile), tmp); errors.Is(err, store.ErrHeld) {
			err = fmt.Errorf("%w, and its backup socket %s does not answer: is that process a Recordwatch without online backup, or another program?", err, SocketPath(dataDir))
		}
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return res, fmt.Errorf("backup of %s: %w", dataDir, err)
	}
	if res.Summary, err = store.CheckFile(tmp.Name()); err != nil {
		return res, fmt.Errorf("backup of %s: the copy does not check: %w", dataDir, err)
	}
	if err := os.Rename(tmp.Name(), out); err != nil {
		return res, err
	}
	return res, syncDir(filepath.Dir(out))
}

// errNoService: nothing listens on the socket (no socket file, or one a
// killed process left).
var errNoService = errors.New("no service answers on the backup socket")

func online(ctx context.Context, socket string, w io.Writer) error {
	client := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, "unix", socket)
	}}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://recordwatch/state.db", nil)
	if err != nil {
		return err
	}
	res, err := client.Do(req)
	if err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ECONNREFUSED) {
			return errNoService
		}
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("the service's backup socket answered %s", res.Status)
	}
	_, err = io.Copy(w, res.Body)
	return err
}

// Restore loads a backup (in) as dataDir's state file. dataDir must be
// absent or empty unless force; with force, a state file already there
// (which no process may hold) is kept beside it as state.db.before-restore.
// The receipts of forgetJobs (the indexer's jobs) are removed from the
// restored copy: the index is rebuilt from the sources at the next start
// (the bundled sample on the first start of the default role), and live
// fetches then start from nothing instead of resuming where the backed-up
// service was.
func Restore(in, dataDir string, force bool, forgetJobs []string) (store.FileSummary, error) {
	sum, err := store.CheckFile(in)
	if err != nil {
		return sum, fmt.Errorf("restore: %w", err)
	}
	entries, err := os.ReadDir(dataDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return sum, err
	}
	if len(entries) > 0 && !force {
		names := []string{}
		for _, e := range entries[:min(len(entries), 5)] {
			names = append(names, e.Name())
		}
		return sum, fmt.Errorf("restore: %s is not empty (it holds %v): restore into a fresh data directory, or pass -force to replace its state file", dataDir, names)
	}
	target := filepath.Join(dataDir, StateFile)
	existing := slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == StateFile })
	if existing {
		if err := store.CheckFree(target); err != nil {
			return sum, fmt.Errorf("restore: %w (stop the service first)", err)
		}
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return sum, err
	}
	tmp, err := os.CreateTemp(dataDir, "."+StateFile+".restore-*")
	if err != nil {
		return sum, err
	}
	defer os.Remove(tmp.Name())
	src, err := os.Open(in)
	if err != nil {
		tmp.Close()
		return sum, err
	}
	_, err = io.Copy(tmp, src)
	src.Close()
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return sum, fmt.Errorf("restore: copying %s: %w", in, err)
	}
	if _, err := store.ForgetReceipts(tmp.Name(), forgetJobs); err != nil {
		return sum, fmt.Errorf("restore: %w", err)
	}
	if existing {
		if err := os.Rename(target, target+".before-restore"); err != nil {
			return sum, err
		}
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return sum, err
	}
	return sum, syncDir(dataDir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
