package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
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

}

// imports maps every package of the module (path relative to the module,
// "." for the root) to the module packages it imports outside its tests.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/recordwatch/recordwatch"
	rel := func(p string) (string, bool) {
		switch {
		case p == mod:
			return ".", true
		case strings.HasPrefix(p, mod+"/"):
			return strings.TrimPrefix(p, mod+"/"), true
		}
		return "", false
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		pkg, _ := rel(f[0])
		m[pkg] = []string{}
		for _, imp := range f[1:] {
			if r, ok := rel(imp); ok {
				m[pkg] = append(m[pkg], r)
			}
		}
	}
	return m
}

// under reports whether pkg is dir or a package below it.
func under(pkg, dir string) bool { return pkg == dir || strings.HasPrefix(pkg, dir+"/") }

// The house holds itself: the rules of ../shared/ARCHITECTURE.md ("The house
// after Finish the house"), checked on the import graph (go list) and the
// source. Each rule names what it protects.
func TestHouseRules(t *testing.T) {
	graph := imports(t)
	if len(graph) < 20 {
		t.Fatalf("go list found %d packages", len(graph))
	}
	topics := []string{"internal/procure", "internal/dossier", "internal/watch", "internal/store", "internal/land", "internal/meeting",
		"internal/people", "internal/federated", "internal/semantic", "internal/cycle", "internal/view", "internal/feed"}
	for pkg, deps := range graph {
		for _, dep := range deps {
			switch {
			// data flows one way: source → link → engine → service → surface
			case under(pkg, "internal") && under(dep, "indexer"):
				t.Errorf("%s imports %s: nothing under internal/ imports the indexer", pkg, dep)
			// surfaces never import the mailer or each other's internals
			case under(pkg, "api") && under(dep, "mailer"):
				t.Errorf("%s imports %s: surfaces take *watch.Service, never the mailer", pkg, dep)
			case under(pkg, "api/mcp") && dep == "api", under(pkg, "mailer") && under(dep, "api"):
				t.Errorf("%s imports %s: surfaces never import each other", pkg, dep)
			// the engines know no topic, service or surface
			case under(pkg, "internal/search") && (slices.ContainsFunc(topics, func(tp string) bool { return under(dep, tp) }) ||
				under(dep, "api") || under(dep, "mailer") || under(dep, "indexer")):
				t.Errorf("%s imports %s: internal/search imports no topic package", pkg, dep)
			// the engines apply no identity rule: stems, agency ids and
			// PIN keys are derived once by the link stage (test support
			// too: its fixtures carry the derived values precomputed)
			case under(pkg, "internal/search") && under(dep, "internal/entity"):
				t.Errorf("%s imports %s: internal/search applies no identity rule (the link stage derives stems and ids once)", pkg, dep)
			// the state store holds domain values only
			case under(pkg, "internal/store") && !(under(dep, "internal/store") || dep == "internal/record" || dep == "internal/watch" ||
				dep == "internal/osclient"):
				t.Errorf("%s imports %s: internal/store imports only domain packages", pkg, dep)
			// concrete engines are chosen in main.go only (and in the
			// test-support packages: sampletest, searchtest, storetest);
			// an engine imports its own sub-packages (embedded/ann)
			case pkg != "." && !strings.HasSuffix(pkg, "test") && (under(dep, "internal/search/embedded") ||
				under(dep, "internal/search/opensearch") || under(dep, "internal/store/osstore")) && !under(pkg, dep) &&
				!((pkg == "internal/search/embedded" || pkg == "internal/search/opensearch") && under(dep, pkg)):
				t.Errorf("%s imports %s: engines are named only in main.go", pkg, dep)
			}
		}
	}
	// one engine type: no run-time probe of an engine or store ability
	// outside tests
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules") {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, ".(search.") || strings.Contains(line, ".(store.") {
				t.Errorf("%s:%d probes an engine or store at run time: %s", p, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// jsonShape is the sorted JSON field names of a struct type (embedded
// fields by their type), or "" for a struct of fewer than two fields or
// without JSON tags (not an answer: page data, parsed arguments).
func jsonShape(st *ast.StructType) string {
	var names []string
	tagged := false
	for _, f := range st.Fields.List {
		tag := ""
		if f.Tag != nil {
			tag = reflect.StructTag(strings.Trim(f.Tag.Value, "`")).Get("json")
			tagged = tagged || tag != ""
		}
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case name == "-":
			continue
		case name != "":
			names = append(names, name)
		case len(f.Names) == 0:
			names = append(names, "embedded:"+types.ExprString(f.Type))
		default:
			for _, n := range f.Names {
				names = append(names, n.Name)
			}
		}
	}
	if len(names) < 2 || !tagged {
		return ""
	}
	slices.Sort(names)
	return strings.Join(names, " ")
}

// declarations parses the non-test Go files of dir.
func declarations(t *testing.T, dir string) []*ast.File {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// One answer type per service, rendered by every surface: the surfaces
// (api, api/mcp) add links, never shapes. They declare no alias of a
// service type (type X = pkg.Y), no constant, variable or function that
// only forwards to another package, no struct whose JSON fields are those
// of a struct another surface or an internal package already declares, and
// none of the parallel types the merge removed.
func TestSurfacesRenderServiceAnswers(t *testing.T) {
	internal := map[string]string{} // JSON shape → the type declaring it
	err := filepath.WalkDir("internal", func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if d.Name() == "testdata" || strings.HasSuffix(d.Name(), "test") {
			return fs.SkipDir
		}
		for _, f := range declarations(t, p) {
			ast.Inspect(f, func(n ast.Node) bool {
				if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.IsExported() {
					if st, ok := ts.Type.(*ast.StructType); ok {
						if s := jsonShape(st); s != "" {
							internal[s] = p + "." + ts.Name.Name
						}
					}
				}
				return true
			})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// the parallel types the merge removed: their answers are the services'
	forbidden := map[string]bool{"MoneyView": true, "Money": true, "Amount": true, "Deadline": true, "StepLink": true, "AgencyRow": true,
		"VendorVariant": true, "Links": true, "LeaderState": true, "BrowseLandOut": true, "BrowseOrganizationsOut": true,
		"FederatedOut": true, "Flag": true, "AmountView": true, "DeadlineView": true, "KindTotal": true, "FiscalYearTotal": true,
		"EntryView": true, "EntryRef": true, "PaymentsView": true, "PaymentTotals": true, "PaymentsOut": true, "PaymentOut": true,
		"NoticePayments": true, "NoticePaymentLink": true, "BrowseContractsOut": true, "BrowseMeetingsOut": true,
		"VendorIdentity": true, "AgencyIdentity": true, "AwardSummary": true,
		// part 2: hits, passages, freshness, watch answers, award groups,
		// the agency's notice counts and the search page
		"NoticeHit": true, "PassageView": true, "PassageRef": true, "PassagesOut": true, "Passage": true,
		"PassagePage": true, "Freshness": true, "Understood": true, "Understanding": true, "CreateWatchResponse": true,
		"CreateOut": true, "Created": true, "Preview": true, "VendorTotal": true, "AgencyTotal": true, "AwardGroup": true,
		"NoticePage": true,
		// part 3: the matter answer (procure.MatterView, rendered by both)
		"MatterView": true, "MatterOut": true, "MatterStep": true, "MatterStepOut": true, "MatterTotals": true,
		"ApartTotal": true, "HitView": true, "MatterStepView": true, "MatterTotalsView": true, "ApartView": true}
	surface := map[string]string{} // JSON shape → the surface type declaring it
	for _, dir := range []string{"api", "api/mcp"} {
		files := declarations(t, dir)
		forwarders(t, dir, files)
		for _, f := range files {
			for _, decl := range f.Decls {
				d, ok := decl.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range d.Specs {
					s, ok := spec.(*ast.TypeSpec)
					if !ok {
						continue
					}
					where := dir + "." + s.Name.Name
					if forbidden[s.Name.Name] {
						t.Errorf("%s is a parallel type of a service answer: render the service's type", where)
					}
					st, ok := s.Type.(*ast.StructType)
					if !ok {
						continue
					}
					shape := jsonShape(st)
					if shape == "" {
						continue
					}
					if other, ok := internal[shape]; ok {
						t.Errorf("%s has the JSON fields of %s (%s): render that type", where, other, shape)
					}
					if other, ok := surface[shape]; ok && !strings.HasPrefix(other, dir+".") {
						t.Errorf("%s has the JSON fields of %s (%s): one type, rendered by both surfaces", where, other, shape)
					}
					surface[shape] = where
				}
			}
		}
	}
	// the services' own forwarders the merge removed stay removed, and
	// these packages declare no alias
	removed := map[string][]string{
		"internal/watch":               {"MaxTokenLen", "MaxRequestLen", "OpenNoticeType", "MaxEmailLen", "OpenFrom", "IsOpen"},
		"internal/store":               {"Allowance", "ErrTokenUsed", "Day"},
		"internal/search/embedded/ann": {"Hit"},
		"internal/procure":             {"trim", "records", "ConfidenceHigh", "ConfidenceLow", "MethodContract", "Methods"},
	}
	for dir, names := range removed {
		for _, f := range declarations(t, dir) {
			ast.Inspect(f, func(n ast.Node) bool {
				var name string
				switch d := n.(type) {
				case *ast.FuncDecl:
					name = d.Name.Name
				case *ast.TypeSpec:
					name = d.Name.Name
					if d.Assign.IsValid() {
						t.Errorf("%s.%s is an alias (type %s = %s): use the owner's type itself", dir, name, name, types.ExprString(d.Type))
					}
				case *ast.ValueSpec:
					for _, id := range d.Names {
						if slices.Contains(names, id.Name) {
							t.Errorf("%s.%s is back: it only forwarded to its owner's name; use that", dir, id.Name)
						}
					}
				}
				if name != "" && slices.Contains(names, name) {
					t.Errorf("%s.%s is back: it only forwarded to its owner's name; use that", dir, name)
				}
				return true
			})
		}
	}
}

// forwarders fails for every declaration in dir that only forwards to
// another name: an alias (type X = pkg.Y), a constant or variable that is
// another package's, a function that only calls another package's with
// its own arguments, or a method that only calls one of its receiver's
// with them.
func forwarders(t *testing.T, dir string, files []*ast.File) {
	t.Helper()
	for _, f := range files {
		imported := map[string]bool{}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			imported[name] = true
		}
		forwards := func(e ast.Expr, recv string) bool {
			sel, ok := e.(*ast.SelectorExpr)
			if !ok {
				return false
			}
			x, ok := sel.X.(*ast.Ident)
			if recv != "" { // a method forwards to its receiver's
				return ok && x.Name == recv
			}
			return ok && imported[x.Name]
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Assign.IsValid() {
							t.Errorf("%s.%s is an alias (type %s = %s): use the owner's type itself", dir, s.Name.Name, s.Name.Name, types.ExprString(s.Type))
						}
					case *ast.ValueSpec:
						if len(s.Values) == 1 && len(s.Names) == 1 && forwards(s.Values[0], "") {
							t.Errorf("%s.%s only forwards to %s: use it directly", dir, s.Names[0].Name, types.ExprString(s.Values[0]))
						}
					}
				}
			case *ast.FuncDecl:
				if d.Body == nil || len(d.Body.List) != 1 {
					continue
				}
				recv := ""
				if d.Recv != nil {
					if len(d.Recv.List) != 1 || len(d.Recv.List[0].Names) != 1 {
						continue
					}
					recv = d.Recv.List[0].Names[0].Name
				}
				ret, ok := d.Body.List[0].(*ast.ReturnStmt)
				if !ok || len(ret.Results) != 1 {
					continue
				}
				call, ok := ret.Results[0].(*ast.CallExpr)
				if !ok || !forwards(call.Fun, recv) {
					continue
				}
				var params []string
				for _, p := range d.Type.Params.List {
					for _, n := range p.Names {
						params = append(params, n.Name)
					}
				}
				var args []string
				for _, a := range call.Args {
					args = append(args, types.ExprString(a))
				}
				if slices.Equal(params, args) {
					t.Errorf("%s.%s only forwards to %s: call it directly", dir, d.Name.Name, types.ExprString(call.Fun))
				}
			}
		}
	}
}

// A watch's filter reads nothing itself (issue 46): package watch keeps
// the subscription model, and every answer of a filter (its notices, the
// meetings, land and people lenses' blocks) is composed once, by
// internal/notices. A method of watch.Filter that takes a context reads
// something: it belongs in notices.Service.
func TestWatchFilterReadsNothing(t *testing.T) {
	n := 0
	for _, f := range declarations(t, filepath.Join("internal", "watch")) {
		for _, decl := range f.Decls {
			fd, ok := decl.(*ast.FuncDecl)
			if !ok || fd.Recv == nil || len(fd.Recv.List) == 0 {
				continue
			}
			recv := fd.Recv.List[0].Type
			if st, ok := recv.(*ast.StarExpr); ok {
				recv = st.X
			}
			if id, ok := recv.(*ast.Ident); !ok || id.Name != "Filter" {
				continue
			}
			n++
			for _, p := range fd.Type.Params.List {
				if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Context" {
					t.Errorf("watch.Filter.%s takes a context: a filter's answer is composed by internal/notices", fd.Name.Name)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no method of watch.Filter found: the test reads the wrong package")
	}
}
