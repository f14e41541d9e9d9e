package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// projectListing reads the paths of the README's "Project structure"
// listing: a path at the start of a line, or indented by two spaces under
// the last one (continuation lines are indented further).
func projectListing(t *testing.T) (paths map[string]bool, text string) {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "## Project structure")
	if i < 0 {
		t.Fatal("README has no Project structure section")
	}
	s = s[i:]
	start := strings.Index(s, "```\n")
	end := strings.Index(s[start+4:], "```")
	if start < 0 || end < 0 {
		t.Fatal("the Project structure section has no listing")
	}
	text = s[start+4 : start+4+end]
	paths = map[string]bool{}
	parent := ""
	for _, line := range strings.Split(text, "\n") {
		if line == "" {
			continue
		}
		switch {
		case line[0] != ' ':
			p := strings.Fields(line)[0]
			paths[strings.TrimSuffix(p, "/")] = true
			parent = strings.TrimSuffix(p, "/")
		case strings.HasPrefix(line, "  ") && len(line) > 2 && line[2] != ' ':
			p := strings.Fields(line)[0]
			paths[filepath.Join(parent, strings.TrimSuffix(p, "/"))] = true
		}
	}
	return paths, text
}

// The README's project structure matches the tree: every path it lists
// exists, and every Go package is listed (or named in the line of the
// folder that holds it); and no package under internal/search imports a
// topic service or a surface (data flows backend → services → surfaces).
func TestProjectStructure(t *testing.T) {
	paths, text := projectListing(t)
	for p := range paths {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("README lists %s, which does not exist", p)
		}
	}
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "web-tests" || name == "data" || name == "__toolsnaps__") {
			return fs.SkipDir
		}
		goFiles, _ := filepath.Glob(filepath.Join(p, "*.go"))
		if p == "." || len(goFiles) == 0 || paths[p] {
			return nil
		}
		if paths[filepath.Dir(p)] && strings.Contains(text, filepath.Base(p)+"/") {
			return nil
		}
		t.Errorf("package %s is not in the README's project structure", p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./internal/search/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/recordwatch/recordwatch/"
	for _, dep := range strings.Fields(string(out)) {
		for _, upper := range []string{"internal/procure", "internal/dossier", "internal/watch", "internal/store", "api", "mailer", "indexer"} {
			if dep == mod+upper || strings.HasPrefix(dep, mod+upper+"/") {
				t.Errorf("internal/search depends on %s: the engines must not know the services or surfaces", dep)
			}
		}
	}
}
