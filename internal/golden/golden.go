// Package golden is the one golden-file helper of the tests: Assert compares
// output with a file under testdata/, and `go test ./<pkg> -update` rewrites
// the files instead (zoekt's assertGolden). A package that imports it must
// not define its own -update flag: the flag is registered here, once.
package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files (and other recorded expectations) instead of comparing")

// Update reports whether the test run was asked to rewrite golden files.
func Update() bool { return *update }

// Assert compares got with the file at path, or with -update writes got
// there (creating its directory). A difference fails the test with the
// first differing lines and the command that accepts the change.
func Assert(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update to create it)", err)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("%s differs from the golden file (run the test with -update if the change is intended):\n%s", path, Diff(string(want), string(got)))
	}
}

// Diff shows the first differing line of want and got with three lines of
// context on each side.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a == b {
			continue
		}
		var out strings.Builder
		for j := max(0, i-3); j < min(i+4, max(len(w), len(g))); j++ {
			if j < len(w) {
				fmt.Fprintf(&out, "want %4d: %.300s\n", j+1, w[j])
			}
			if j < len(g) {
				fmt.Fprintf(&out, "got  %4d: %.300s\n", j+1, g[j])
			}
		}
		return out.String()
	}
	return "(no line differs)"
}
