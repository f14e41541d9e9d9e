package store

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/watch"
)

// filledStateFile is a closed state file holding 300 watches: many pages.
func filledStateFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Date(2026, 8, 14, 12, 0, 0, 0, record.NewYork)
	for i := range 300 {
		w := watch.Watch{ID: watch.NewID(), Email: fmt.Sprintf("a%d@example.org", i), Filter: watch.Filter{Lens: "money", Phrases: []string{strings.Repeat("parks ", 40)}},
			Scope: "x", Form: 1, Status: watch.StatusActive, CreatedAt: now, ActivatedAt: now}
		if err := s.CreateWatch(ctx, w, "", time.Time{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// openRefused opens path, which must be refused as damaged, with a message
// naming the damage (want) and the way back (the restore target) — and
// never as "another process".
func openRefused(t *testing.T, path, want string) {
	t.Helper()
	s, err := OpenBolt(path)
	if err == nil {
		// what a damaged file opened anyway serves: reading it may crash
		_, lerr := s.ListWatches(context.Background())
		s.Close()
		t.Fatalf("a damaged state file was opened (listing its watches: %v)", lerr)
	}
	msg := err.Error()
	t.Log(msg)
	for _, w := range []string{want, "damaged", "-target=restore"} {
		if !strings.Contains(msg, w) {
			t.Errorf("error %q does not say %q", msg, w)
		}
	}
	if strings.Contains(msg, "another process") {
		t.Errorf("a damaged file is blamed on another process: %q", msg)
	}
}

// A state file cut short (a full disk during a copy) is refused before
// bbolt maps it — mapped, its first read past the end is a SIGBUS that
// kills the process — with a message that names the truncation and the
// restore; the file is left as it was.
func TestTruncatedStateFileIsRefused(t *testing.T) {
	path := filledStateFile(t)
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
	openRefused(t, path, "truncated")
	if st2, _ := os.Stat(path); st2.Size() != st.Size()/2 {
		t.Errorf("the refused file was changed: %d bytes, was %d", st2.Size(), st.Size()/2)
	}
}

// A state file whose two header pages fail their checksums (bytes flipped
// in both) is refused as damaged, not blamed on another process.
func TestCorruptStateHeaderIsRefused(t *testing.T) {
	path := filledStateFile(t)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, off := range []int64{boltPageHeader + 20, int64(os.Getpagesize()) + boltPageHeader + 20} {
		if _, err := f.WriteAt([]byte{0xde, 0xad, 0xbe, 0xef}, off); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	openRefused(t, path, "header")
}

// A page inside the file overwritten with garbage (the headers intact) is
// found by bbolt's consistency check at open and refused as damaged.
func TestCorruptStatePageIsRefused(t *testing.T) {
	path := filledStateFile(t)
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	ps := int64(os.Getpagesize())
	junk := make([]byte, ps)
	for i := range junk {
		junk[i] = byte(i*7 + 3)
	}
	// every page after the two headers, the freelist and the root: the
	// watches' branch and leaf pages
	st, _ := f.Stat()
	for off := 4 * ps; off+ps <= st.Size(); off += 3 * ps {
		if _, err := f.WriteAt(junk, off); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	openRefused(t, path, "")
}

// The causes are told apart: a held lock says "another process"; a file
// where the data directory should be says so; permission denied names the
// user and chown — never "another process".
func TestStateOpenFaultsNameTheirCause(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	s, err := OpenBolt(path)
	if err != nil {
		t.Fatal(err)
	}
	_, err = OpenBolt(path)
	s.Close()
	if err == nil || !strings.Contains(err.Error(), "locked by another process") {
		t.Errorf("a held lock: %v", err)
	}

	file := filepath.Join(dir, "data")
	if err := os.WriteFile(file, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = OpenBolt(filepath.Join(file, "state.db"))
	if err == nil || !strings.Contains(err.Error(), "a file stands where a directory belongs") || strings.Contains(err.Error(), "another process") {
		t.Errorf("a file in place of the data directory: %v", err)
	}

	// permission denied: for real when this user is not root (root reads
	// and writes any file), else by a refusal injected into the open
	own := filepath.Join(dir, "owned", "state.db")
	if os.Geteuid() != 0 {
		if err := os.MkdirAll(filepath.Dir(own), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(own, nil, 0o400); err != nil {
			t.Fatal(err)
		}
	} else {
		t.Log("running as root: permission denied is injected into the state file's open")
		openFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
			return nil, &fs.PathError{Op: "open", Path: name, Err: syscall.EACCES}
		}
		defer func() { openFile = os.OpenFile }()
	}
	_, err = OpenBolt(own)
	if err == nil || !strings.Contains(err.Error(), "permission denied") || !strings.Contains(err.Error(), "chown") ||
		strings.Contains(err.Error(), "another process") {
		t.Errorf("a state file this user may not write: %v", err)
	}
}
