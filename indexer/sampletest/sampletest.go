// Package sampletest is the bundled sample (testdata/sample) in a real
// embedded index, loaded once per test binary and handed to tests either
// shared (read only) or as a private copy (writable).
//
// Loading the sample costs seconds of CPU; copying the files of a loaded,
// closed index costs a few milliseconds. So the first caller of a corpus
// loads it into a template directory and closes it; every index a test
// gets afterwards is a copy of that directory, and a copy is the same
// index as a fresh load (same documents, same observations).
//
// A package that uses it ends its test binary with
//
//	func TestMain(m *testing.M) { os.Exit(sampletest.Main(m)) }
//
// which closes the shared indexes and removes the templates.
package sampletest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/recordwatch/recordwatch/indexer"
	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/search"
	"github.com/recordwatch/recordwatch/internal/search/embedded"
)

// Corpus names what part of the bundled sample an index holds.
type Corpus string

const (
	// Notices is the City Record notices (indexer.LoadCROLDir of crol/).
	Notices Corpus = "notices"
	// NoticesAndLand is Notices plus the land source's records.
	NoticesAndLand Corpus = "notices+land"
	// Full is everything `go run .` loads on a fresh data directory
	// (indexer.EnsureSample).
	Full Corpus = "full"
)

type key struct {
	corpus Corpus
	now    int64 // the indexer's clock (observation times), UnixNano
}

type template struct {
	once sync.Once
	dir  string
	err  error

	sharedOnce sync.Once
	shared     *embedded.Backend
	sharedErr  error
}

var (
	mu        sync.Mutex
	templates = map[key]*template{}
	root      string // temporary directory holding templates and shared copies
)

// Dir is the bundled sample's directory (testdata/sample of the module),
// found from the working directory of the test.
func Dir() (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := wd; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "testdata", "sample")
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				return p, nil
			}
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("sampletest: no testdata/sample above %s", wd)
		}
	}
}

func tmpl(c Corpus, now time.Time) (*template, error) {
	switch c {
	case Notices, NoticesAndLand, Full:
	default:
		return nil, fmt.Errorf("sampletest: unknown corpus %q", c)
	}
	mu.Lock()
	if root == "" {
		d, err := os.MkdirTemp("", "rw-sample-*")
		if err != nil {
			mu.Unlock()
			return nil, err
		}
		root = d
	}
	k := key{c, now.UnixNano()}
	t := templates[k]
	if t == nil {
		t = &template{dir: filepath.Join(root, fmt.Sprintf("%s-%d", c, len(templates)))}
		templates[k] = t
	}
	mu.Unlock()
	t.once.Do(func() { t.err = build(t.dir, c, now) })
	return t, t.err
}

// build loads corpus c into a new index at dir and closes it.
func build(dir string, c Corpus, now time.Time) error {
	be, err := embedded.Open(dir)
	if err != nil {
		return err
	}
	if err := Load(context.Background(), be, c, now); err != nil {
		be.Close()
		return err
	}
	return be.Close()
}

// Load loads corpus c into e, with the indexer's clock fixed at now:
// what the indexes of CopyTo hold, for an engine that is not copied (an
// OpenSearch node under a test's own index prefix).
func Load(ctx context.Context, e search.Engine, c Corpus, now time.Time) error {
	switch c {
	case Notices, NoticesAndLand, Full:
	default:
		return fmt.Errorf("sampletest: unknown corpus %q", c)
	}
	sampleDir, err := Dir()
	if err != nil {
		return err
	}
	sample := os.DirFS(sampleDir)
	ix := &indexer.Indexer{Backend: e, Crosswalk: entity.DefaultCrosswalk(), Now: func() time.Time { return now },
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	switch c {
	case Notices, NoticesAndLand:
		if _, err = ix.LoadCROLDir(ctx, sample, "crol"); err != nil {
			break
		}
		if c == NoticesAndLand {
			var src indexer.Source
			if src, err = indexer.LookupSource("land"); err == nil {
				_, err = ix.Load(ctx, src, sample, "land")
			}
		}
	case Full:
		_, err = ix.EnsureSample(ctx, sample)
	}
	if err != nil {
		return fmt.Errorf("sampletest: load %s: %w", c, err)
	}
	return nil
}

// CopyTo copies corpus c (loaded with the clock fixed at now) to a new
// index at dir, which must not exist yet or be empty, and opens it. The
// caller owns and closes it.
func CopyTo(dir string, c Corpus, now time.Time) (*embedded.Backend, error) {
	t, err := tmpl(c, now)
	if err != nil {
		return nil, err
	}
	if err := copyDir(t.dir, dir); err != nil {
		return nil, fmt.Errorf("sampletest: copy the %s index: %w", c, err)
	}
	return embedded.Open(dir)
}

// Copy is a private, writable copy of corpus c for tb, closed when tb ends.
func Copy(tb testing.TB, c Corpus, now time.Time) *embedded.Backend {
	tb.Helper()
	be, err := CopyTo(filepath.Join(tb.TempDir(), "index"), c, now)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { be.Close() })
	return be
}

// Shared is the one index of corpus c in this test binary, shared by every
// test that asks for it: tests must not write to it (use Copy). Main closes
// it.
func Shared(tb testing.TB, c Corpus, now time.Time) *embedded.Backend {
	tb.Helper()
	be, err := SharedIndex(c, now)
	if err != nil {
		tb.Fatal(err)
	}
	return be
}

// SharedIndex is Shared for a caller without a testing.TB (a TestMain).
func SharedIndex(c Corpus, now time.Time) (*embedded.Backend, error) {
	t, err := tmpl(c, now)
	if err != nil {
		return nil, err
	}
	t.sharedOnce.Do(func() {
		t.shared, t.sharedErr = CopyTo(t.dir+"-shared", c, now)
	})
	return t.shared, t.sharedErr
}

// Main runs the tests, then closes the shared indexes and removes every
// template and shared copy.
func Main(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	var errs []error
	for _, t := range templates {
		if t.shared != nil {
			errs = append(errs, t.shared.Close())
		}
	}
	if root != "" {
		errs = append(errs, os.RemoveAll(root))
	}
	if err := errors.Join(errs...); err != nil {
		fmt.Fprintln(os.Stderr, "sampletest:", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

// copyDir copies the regular files and directories under src to dst.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s is not a regular file", p)
		}
		return copyFile(p, to)
	})
}

func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
