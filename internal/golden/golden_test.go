package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failed bool
	msg    string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.failed = true; r.msg = f }
func (r *recorder) Fatalf(f string, a ...any) { r.failed = true; r.msg = f }

func TestAssert(t *testing.T) {
	path := filepath.Join(t.TempDir(), "g.txt")
	r := &recorder{TB: t}
	Assert(r, path, []byte("a\n"))
	if !r.failed {
		t.Error("a missing golden file passed")
	}
	if err := os.WriteFile(path, []byte("a\nb\nc\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = &recorder{TB: t}
	Assert(r, path, []byte("a\nb\nc\n"))
	if r.failed {
		t.Error("equal output failed")
	}
	r = &recorder{TB: t}
	Assert(r, path, []byte("a\nB\nc\n"))
	if !r.failed {
		t.Error("different output passed")
	}
	if d := Diff("a\nb\nc", "a\nB\nc"); !strings.Contains(d, "want    2: b") || !strings.Contains(d, "got     2: B") {
		t.Errorf("diff:\n%s", d)
	}
}
